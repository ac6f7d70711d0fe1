"""The Edit menu's Undo, Redo, Cut, Copy, Paste and Select All, for whichever text
field has the keyboard focus (the composer, the search field, a message's text, a
field in a dialog).

Each action is enabled only when the focused field can do it now: Copy with a
selection, Paste where the field is editable, Undo with something to undo. The text
widgets keep handling their own keys (they claim these standard shortcuts before a
window action sees them); the menu shows the keys and works with the mouse.
"""

from __future__ import annotations

from PySide6.QtCore import QMetaObject, QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QApplication, QLineEdit, QMenu, QMenuBar, QPlainTextEdit, QTextEdit

TextWidget = QLineEdit | QTextEdit | QPlainTextEdit


class EditActions(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._target: TextWidget | None = None
        self._connections: list[QMetaObject.Connection] = []
        key = QKeySequence.StandardKey
        self.undo = self._action(self.tr("&Undo"), key.Undo, lambda w: w.undo())
        self.redo = self._action(self.tr("&Redo"), key.Redo, lambda w: w.redo())
        self.cut = self._action(self.tr("Cu&t"), key.Cut, lambda w: w.cut())
        self.copy = self._action(self.tr("&Copy"), key.Copy, lambda w: w.copy())
        self.paste = self._action(self.tr("&Paste"), key.Paste, lambda w: w.paste())
        self.select_all = self._action(
            self.tr("Select &All"), key.SelectAll, lambda w: w.selectAll()
        )
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)
            self._on_focus_changed(None, app.focusWidget())
        else:
            self.update()

    @property
    def actions(self) -> list[QAction]:
        return [self.undo, self.redo, self.cut, self.copy, self.paste, self.select_all]

    @property
    def target(self) -> TextWidget | None:
        """The text field the actions act on (the one focused last)."""
        return self._target

    def add_to(self, menu: QMenu) -> None:
        menu.addActions(self.actions[:2])
        menu.addSeparator()
        menu.addActions(self.actions[2:5])
        menu.addSeparator()
        menu.addAction(self.select_all)
        menu.aboutToShow.connect(self.update)  # the clipboard may have changed

    def _action(self, text: str, key: QKeySequence.StandardKey, run) -> QAction:  # type: ignore[no-untyped-def]
        action = QAction(text, self)
        action.setShortcut(QKeySequence(key))
        # Only where this window has focus; the fields' own handling of the keys wins.
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda: self._run(run))
        return action

    def _run(self, run) -> None:  # type: ignore[no-untyped-def]
        target = self._target
        if target is not None:
            run(target)
            self.update()

    def _on_focus_changed(self, _old: object, new: object) -> None:
        # Opening a menu (the menu bar takes the focus for Alt navigation) keeps the
        # field the person was in.
        if isinstance(new, QMenu | QMenuBar):
            return
        target = new if isinstance(new, QLineEdit | QTextEdit | QPlainTextEdit) else None
        if target is self._target:
            return
        # Connection handles, not `disconnect(slot)`: a field deleted while focused
        # has dropped its connections already, and that must not be an error.
        for connection in self._connections:
            QObject.disconnect(connection)
        self._target = target
        self._connections = (
            [signal.connect(self.update) for signal in _signals(target)]
            if target is not None
            else []
        )
        self.update()

    def update(self) -> None:
        try:
            self._update()
        except RuntimeError:  # the field was deleted while it had the focus
            self._target = None
            self._update()

    def _update(self) -> None:
        target = self._target
        if target is None:
            for action in self.actions:
                action.setEnabled(False)
            return
        if isinstance(target, QLineEdit):
            editable = not target.isReadOnly()
            selected = target.hasSelectedText()
            undo, redo = target.isUndoAvailable(), target.isRedoAvailable()
            has_text = bool(target.text())
            # A password field never gives its text away.
            copyable = selected and target.echoMode() == QLineEdit.EchoMode.Normal
        else:
            editable = not target.isReadOnly()
            selected = target.textCursor().hasSelection()
            document = target.document()
            undo = editable and document.isUndoAvailable()
            redo = editable and document.isRedoAvailable()
            has_text = not document.isEmpty()
            copyable = selected
        clipboard = QGuiApplication.clipboard()
        self.undo.setEnabled(editable and undo)
        self.redo.setEnabled(editable and redo)
        self.cut.setEnabled(editable and copyable)
        self.copy.setEnabled(copyable)
        self.paste.setEnabled(editable and clipboard is not None)
        self.select_all.setEnabled(has_text)


def _signals(widget: TextWidget) -> list:  # type: ignore[type-arg]
    """The signals after which what the actions can do may have changed."""
    if isinstance(widget, QLineEdit):
        return [widget.textChanged, widget.selectionChanged]
    return [
        widget.undoAvailable,
        widget.redoAvailable,
        widget.copyAvailable,
        widget.selectionChanged,
        widget.textChanged,
    ]
