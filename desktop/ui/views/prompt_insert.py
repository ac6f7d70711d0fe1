"""Saved prompts into a composer's text: "/" at the start of a line, or a menu.

Typing "/" where a line starts (indentation aside) opens the list of saved prompts;
what follows the slash filters it. Up/Down move, Enter or Tab chooses, Esc closes and
leaves the text as typed, a click chooses. Choosing replaces the "/query" with the
prompt; a prompt with `{{variables}}` asks for them first, and Cancel leaves the
"/query" where it was. While the list is closed the composer's keys are untouched:
Enter sends.

`open_menu` shows the same list with a filter field of its own, for a menu entry or
the composer's Prompts button; the chosen prompt goes where the cursor is.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QMetaMethod, QObject, QRect, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from desktop.core.prompts import SavedPrompt, slash_query
from desktop.ui.viewmodels.prompt_library import PromptLibraryModel
from desktop.ui.views.prompt_popup import VISIBLE_ROWS, PromptPopup
from desktop.ui.views.prompt_variables_dialog import PromptVariablesDialog

_LIST_KEYS = {
    Qt.Key.Key_Up,
    Qt.Key.Key_Down,
    Qt.Key.Key_PageUp,
    Qt.Key.Key_PageDown,
    Qt.Key.Key_Return,
    Qt.Key.Key_Enter,
    Qt.Key.Key_Tab,
    Qt.Key.Key_Escape,
}


@dataclass(frozen=True, slots=True)
class _Target:
    """Where a chosen prompt goes: the range it replaces and what must still be there."""

    start: int
    end: int
    text: str
    slash: bool  # a typed "/query" (left in place when the insertion is cancelled)


class PromptInserter(QObject):
    settingsRequested = Signal()  # "Open Settings" under "No saved prompts"

    def __init__(self, edit: QPlainTextEdit, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._edit = edit
        self._library: PromptLibraryModel | None = None
        self._popup: PromptPopup | None = None
        self._slash: int | None = None  # where the "/" of the open list is
        self._query = ""
        self._grew_by_one = False  # the last edit added one character (typed, mostly)
        self.dialog: PromptVariablesDialog | None = None  # asking for variables now
        edit.document().contentsChange.connect(self._on_contents_change)
        edit.textChanged.connect(self._on_text_changed)
        edit.cursorPositionChanged.connect(self._follow)
        edit.installEventFilter(self)

    def set_library(self, library: PromptLibraryModel | None) -> None:
        if self._library is not None:
            self._library.changed.disconnect(self._refresh)
        self._library = library
        if library is not None:
            library.changed.connect(self._refresh)

    @property
    def library(self) -> PromptLibraryModel | None:
        return self._library

    @property
    def popup(self) -> PromptPopup:
        """The list (made when first needed, in the window the composer is in)."""
        window = self._edit.window()
        if self._popup is None or self._popup.parentWidget() is not window:
            if self._popup is not None:
                self._popup.deleteLater()
            popup = self._popup = PromptPopup(window)
            popup.chosen.connect(self._choose)
            popup.dismissed.connect(self._dismiss)
            popup.filterChanged.connect(lambda _text: self._refresh())
            popup.settingsRequested.connect(self._open_settings)
            window.installEventFilter(self)  # a resized window: the list would be misplaced
        return self._popup

    @property
    def is_open(self) -> bool:
        return self._popup is not None and self._popup.isVisible()

    # --- opening --------------------------------------------------------------------

    def open_menu(self) -> None:
        """The list with a filter field; the prompt goes in at the cursor."""
        self.close()
        popup = self.popup
        popup.menu = True
        self._refresh()
        popup.open_at(self._caret_rect(self._edit.textCursor()))

    def _open_slash(self, slash: int) -> None:
        self._slash = slash
        self._query = ""
        popup = self.popup
        popup.menu = False
        self._refresh()
        cursor = QTextCursor(self._edit.document())
        cursor.setPosition(slash)
        popup.open_at(self._caret_rect(cursor))

    def close(self) -> None:
        self._slash = None
        self._query = ""
        if self._popup is not None and self._popup.isVisible():
            menu = self._popup.menu
            self._popup.close_popup()
            if menu:
                self._edit.setFocus(Qt.FocusReason.PopupFocusReason)

    def _caret_rect(self, cursor: QTextCursor) -> QRect:
        """Where the list must not cover, in the popup's parent's coordinates: from the
        top of the composer (its frame) down to the caret's line for `cursor`, at the
        caret's left."""
        parent = self.popup.parentWidget()
        assert parent is not None
        caret = self._edit.cursorRect(cursor)
        top_left = self._edit.viewport().mapTo(parent, caret.topLeft())
        frame = self._edit.parentWidget() or self._edit
        top = min(top_left.y(), frame.mapTo(parent, frame.rect().topLeft()).y())
        return QRect(top_left.x(), top, caret.width(), top_left.y() + caret.height() - top)

    # --- following the text -----------------------------------------------------------

    def _on_contents_change(self, _position: int, removed: int, added: int) -> None:
        self._grew_by_one = added - removed == 1

    def _on_text_changed(self) -> None:
        grew, self._grew_by_one = self._grew_by_one, False
        if self._slash is None and grew and not self.is_open and self.dialog is None:
            found = self._context()
            if found is not None and found[1] == "" and self._just_typed(found[0]):
                self._open_slash(found[0])
                return
        self._follow()

    def _just_typed(self, slash: int) -> bool:
        return self._edit.textCursor().position() == slash + 1

    def _context(self) -> tuple[int, str] | None:
        """The "/query" the cursor ends, as (where its slash is, the query)."""
        cursor = self._edit.textCursor()
        if cursor.hasSelection():
            return None
        block = cursor.block()
        found = slash_query(block.text()[: cursor.positionInBlock()])
        return None if found is None else (block.position() + found[0], found[1])

    def _follow(self) -> None:
        """Keep the open "/" list on what is typed after the slash; close it once the
        cursor leaves the "/query" (or the slash is gone)."""
        if self._slash is None:
            return
        found = self._context()
        if found is None or found[0] != self._slash:
            self.close()
            return
        if found[1] != self._query:
            self._query = found[1]
            self._refresh()

    def _refresh(self) -> None:
        """List what matches; close a "/" list that has nothing more to offer."""
        if self._popup is None:
            return
        library = self._library
        popup = self._popup
        query = popup.filter.text() if popup.menu else self._query
        prompts = library.prompts() if library is not None else ()
        listed = library.matches(query) if library is not None else []
        # "/etc/hosts…" or "/ maybe" at the start of a sentence: not a prompt.
        nothing_more = (not prompts and query) or (not listed and query != query.rstrip())
        if not popup.menu and self._slash is not None and nothing_more:
            self.close()
            return
        if not prompts:
            note = self.tr("No saved prompts — add them in Settings → Prompts")
        else:
            note = self.tr("No prompt matches “%1”").replace("%1", query.strip())
        popup.show_prompts(listed, note, can_open_settings=self._can_open_settings())
        if popup.isVisible():
            cursor = self._edit.textCursor()
            if self._slash is not None:
                cursor.setPosition(self._slash)
            popup.open_at(self._caret_rect(cursor))  # its height follows the rows

    def _can_open_settings(self) -> bool:
        return self.isSignalConnected(QMetaMethod.fromSignal(self.settingsRequested))

    def _open_settings(self) -> None:
        self.close()
        self.settingsRequested.emit()

    # --- keys -------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.is_open:
            popup = self._popup
            if popup is not None and watched is popup.parentWidget():
                self.close()
        if watched is self._edit and self._slash is not None and self.is_open:
            kind = event.type()
            if kind == QEvent.Type.FocusOut:
                self.close()
            elif isinstance(event, QKeyEvent) and event.key() in _LIST_KEYS:
                if kind == QEvent.Type.ShortcutOverride:
                    if self._uses(event):
                        event.accept()  # the key is the list's, not a window shortcut's
                        return True
                elif kind == QEvent.Type.KeyPress and self._key(event):
                    return True
        return super().eventFilter(watched, event)

    def _uses(self, event: QKeyEvent) -> bool:
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        return event.key() == Qt.Key.Key_Escape or bool(self.popup.current_id())

    def _key(self, event: QKeyEvent) -> bool:
        """A key while the "/" list is open; True when the list used it."""
        if not self._uses(event):
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.close()  # nothing to choose: Enter does what it always does
            return False
        popup = self.popup
        key = event.key()
        if key == Qt.Key.Key_Escape:
            self.close()  # the text stays as typed
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            popup.move_selection(-1 if key == Qt.Key.Key_Up else 1)
        elif key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            popup.move_selection(-VISIBLE_ROWS if key == Qt.Key.Key_PageUp else VISIBLE_ROWS)
        else:
            self._choose(popup.current_id())
        return True

    def _dismiss(self) -> None:
        self.close()

    # --- inserting ----------------------------------------------------------------------

    def _choose(self, prompt_id: str) -> None:
        library = self._library
        prompt = library.prompt(prompt_id) if library is not None else None
        if library is None or prompt is None:
            return
        target = self._target()
        self.close()
        asked = library.asked_variables(prompt.text)
        if not asked:
            self._insert(target, library.filled(prompt, {}))
            return
        self._ask(prompt, asked, target)

    def _target(self) -> _Target:
        if self._slash is not None:
            end = self._slash + 1 + len(self._query)
            return _Target(self._slash, end, "/" + self._query, slash=True)
        cursor = self._edit.textCursor()
        return _Target(cursor.selectionStart(), cursor.selectionEnd(), cursor.selectedText(), False)

    def _ask(self, prompt: SavedPrompt, asked: list[str], target: _Target) -> None:
        library = self._library
        assert library is not None
        dialog = self.dialog = PromptVariablesDialog(prompt.title, asked, self._edit.window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)

        def accepted() -> None:
            self._insert(target, library.filled(prompt, dialog.values()))

        def finished(_result: int) -> None:
            self.dialog = None
            if target.slash and dialog.result() != dialog.DialogCode.Accepted:
                self._put_cursor(target.end)  # the "/query" stays, the cursor after it
            self._edit.setFocus(Qt.FocusReason.OtherFocusReason)

        dialog.accepted.connect(accepted)
        dialog.finished.connect(finished)
        dialog.open()
        dialog.activateWindow()  # typing goes there, also where no window manager says so

    def _insert(self, target: _Target, text: str) -> None:
        """Replace the target with `text`; if it changed meanwhile, insert at the cursor."""
        document = self._edit.document()
        cursor = QTextCursor(document)
        cursor.setPosition(min(target.start, document.characterCount() - 1))
        cursor.setPosition(
            min(target.end, document.characterCount() - 1), QTextCursor.MoveMode.KeepAnchor
        )
        if cursor.selectedText() != target.text:
            cursor = self._edit.textCursor()
        cursor.insertText(text)
        self._edit.setTextCursor(cursor)
        self._edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def _put_cursor(self, position: int) -> None:
        cursor = self._edit.textCursor()
        cursor.setPosition(min(position, self._edit.document().characterCount() - 1))
        self._edit.setTextCursor(cursor)
