"""Settings → Prompts: the saved prompts on the left (add, duplicate, delete), the
selected one's title and text on the right.

There is no Save button: a title is saved when its field is left or Enter is pressed,
the text after a short pause in typing and when its field is left. An empty title is
not saved; the field says why. Every change, a deletion too, is taken back with the
Settings window's Undo (the view-model saves through `SettingsUndo`).
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QHideEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.prompt_library import PromptLibraryModel
from desktop.ui.views.labels import PlainLabel, form_hint
from desktop.ui.views.settings_pages.providers_page import set_tone

PAUSE_MS: Final = 600  # typing stopped this long: the text is saved
_ID_ROLE = Qt.ItemDataRole.UserRole


class PromptsPage(QWidget):
    def __init__(self, model: PromptLibraryModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._selected = ""

        intro = form_hint(
            self.tr(
                "Prompts you use often. Type / at the start of a message to insert one. "
                "Write {{name}} where a prompt should ask for a word when it is inserted."
            ),
            self,
        )

        # --- the list, or a note and examples when there is none ----------------------
        self.list = QListWidget(self)
        self.list.setObjectName("LibraryList")  # drawn as the Knowledge page's list
        self.list.setAccessibleName(self.tr("Saved prompts"))
        self.list.currentItemChanged.connect(self._on_current_changed)
        delete_key = QShortcut(QKeySequence.StandardKey.Delete, self.list)
        delete_key.setContext(Qt.ShortcutContext.WidgetShortcut)  # not while typing
        delete_key.activated.connect(self.delete_selected)
        self.empty = QWidget(self)
        self.empty_note = form_hint(
            self.tr("No saved prompts yet. Add your own, or start from a few examples."),
            self.empty,
        )
        self.empty_note.setObjectName("EmptyPageNote")
        self.empty_note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.examples_button = QPushButton(self.tr("Add examples"), self.empty)
        self.examples_button.setToolTip(self.tr("Summarise, Translate and Explain code"))
        self.examples_button.clicked.connect(self.add_examples)
        empty_column = QVBoxLayout(self.empty)
        empty_column.addStretch(1)
        empty_column.addWidget(self.empty_note)
        empty_column.addWidget(self.examples_button, 0, Qt.AlignmentFlag.AlignHCenter)
        empty_column.addStretch(2)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.list)
        self.stack.addWidget(self.empty)

        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self.add)
        self.duplicate_button = QPushButton(self.tr("Duplicate"), self)
        self.duplicate_button.clicked.connect(self.duplicate_selected)
        self.delete_button = QPushButton(self.tr("Delete"), self)
        self.delete_button.clicked.connect(self.delete_selected)

        # --- the editor -----------------------------------------------------------------
        self.editor = QWidget(self)
        title_label = PlainLabel(self.tr("Title"), self.editor)
        title_label.setObjectName("SettingsSection")
        self.title = QLineEdit(self.editor)
        self.title.setAccessibleName(self.tr("Prompt title"))
        self.title.setPlaceholderText(self.tr("e.g. Summarise"))
        title_label.setBuddy(self.title)
        self.title_error = PlainLabel("", self.editor)
        self.title_error.setWordWrap(True)
        self.title_error.hide()
        text_label = PlainLabel(self.tr("Text"), self.editor)
        text_label.setObjectName("SettingsSection")
        self.text = QPlainTextEdit(self.editor)
        self.text.setObjectName("PatternsEdit")  # framed as the other pages' text boxes
        self.text.setAccessibleName(self.tr("Prompt text"))
        self.text.setTabChangesFocus(True)
        self.text.setPlaceholderText(self.tr("e.g. Translate the following into {{language}}:"))
        self.variables = form_hint("", self.editor)
        editor_column = QVBoxLayout(self.editor)
        editor_column.setContentsMargins(0, 0, 0, 0)
        editor_column.addWidget(title_label)
        editor_column.addWidget(self.title)
        editor_column.addWidget(self.title_error)
        editor_column.addWidget(text_label)
        editor_column.addWidget(self.text, 1)
        editor_column.addWidget(self.variables)
        self.status = PlainLabel("", self)  # a save that failed
        self.status.setWordWrap(True)

        # Saving as the person goes: the title when its field is left (or Enter), the
        # text after a pause in typing and when its field is left.
        self._title_pause = self._pause_timer(self._save_title_quietly)
        self._text_pause = self._pause_timer(self.save_text)
        self.title.textEdited.connect(lambda _text: self._title_pause.start())
        self.title.editingFinished.connect(self.save_title)
        self.text.textChanged.connect(self._on_text_changed)
        self.text.installEventFilter(self)

        # --- layout ---------------------------------------------------------------------
        buttons = QHBoxLayout()
        for button in (self.add_button, self.duplicate_button, self.delete_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        left = QVBoxLayout()
        left.addWidget(self.stack, 1)
        left.addLayout(buttons)
        right = QVBoxLayout()
        right.addWidget(self.editor, 1)
        columns = QHBoxLayout()
        columns.addLayout(left, 2)
        columns.addLayout(right, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(columns, 1)
        layout.addWidget(self.status)

        model.changed.connect(self.reload)
        model.failed.connect(lambda text: set_tone(self.status, text, "error"))
        self.reload()

    def _pause_timer(self, slot: object) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(PAUSE_MS)
        timer.timeout.connect(slot)
        return timer

    # --- list -----------------------------------------------------------------------

    def reload(self) -> None:
        """Redraw the list, keeping the selection; the editor follows saved changes made
        elsewhere, except in a field the person is typing in."""
        prompts = self._model.prompts()
        self.list.blockSignals(True)
        try:
            self.list.clear()
            for prompt in prompts:
                item = QListWidgetItem(prompt.title, self.list)
                item.setData(_ID_ROLE, prompt.id)
                item.setToolTip(tooltip(prompt.text[:300]))
        finally:
            self.list.blockSignals(False)
        self.stack.setCurrentWidget(self.list if prompts else self.empty)
        keep = self._selected if self._model.prompt(self._selected) else ""
        self.select(keep or (prompts[0].id if prompts else ""))

    def select(self, prompt_id: str) -> None:
        row = next(
            (r for r in range(self.list.count()) if self.list.item(r).data(_ID_ROLE) == prompt_id),
            -1,
        )
        self.list.blockSignals(True)
        self.list.setCurrentRow(row)
        self.list.blockSignals(False)
        if row < 0 or prompt_id != self._selected:
            self._show(prompt_id if row >= 0 else "")
        else:
            self._sync_editor()

    def _on_current_changed(self, current: QListWidgetItem | None, *_: object) -> None:
        wanted = str(current.data(_ID_ROLE)) if current is not None else ""
        self.flush()  # what was typed into the prompt being left is saved (the list redrawn)
        self.select(wanted)

    @property
    def selected(self) -> str:
        """The id of the prompt in the editor ("" when none)."""
        return self._selected

    # --- editor ---------------------------------------------------------------------

    def _show(self, prompt_id: str) -> None:
        self._title_pause.stop()
        self._text_pause.stop()
        self._selected = prompt_id
        prompt = self._model.prompt(prompt_id)
        self.editor.setEnabled(prompt is not None)
        self.duplicate_button.setEnabled(prompt is not None)
        self.delete_button.setEnabled(prompt is not None)
        self._set_title_error("")
        self.title.setText(prompt.title if prompt else "")
        self.text.blockSignals(True)
        self.text.setPlainText(prompt.text if prompt else "")
        self.text.blockSignals(False)
        self._text_pause.stop()
        self.variables.setText(self._model.variables_note(prompt.text) if prompt else "")

    def _sync_editor(self) -> None:
        """The saved prompt changed (an Undo, another window): show it, but never over
        what the person is typing."""
        prompt = self._model.prompt(self._selected)
        if prompt is None:
            return
        typing_title = self.title.hasFocus() or self._title_pause.isActive()
        if not typing_title and self.title.text() != prompt.title:
            self.title.setText(prompt.title)
            self._set_title_error("")
        typing_text = self.text.hasFocus() or self._text_pause.isActive()
        if not typing_text and self.text.toPlainText() != prompt.text:
            self.text.blockSignals(True)
            self.text.setPlainText(prompt.text)
            self.text.blockSignals(False)
            self.variables.setText(self._model.variables_note(prompt.text))

    def _on_text_changed(self) -> None:
        self.variables.setText(self._model.variables_note(self.text.toPlainText()))
        self._text_pause.start()

    def save_title(self) -> None:
        """Save the title as typed; an empty one is refused next to the field."""
        self._title_pause.stop()
        if self._selected:
            self._set_title_error(self._model.set_title(self._selected, self.title.text()))

    def _save_title_quietly(self) -> None:
        """After a pause in typing: saved if it can be; an empty title is only
        complained about once the field is left (it may be being retyped)."""
        if self.title.text().strip():
            self.save_title()

    def save_text(self) -> None:
        self._text_pause.stop()
        if self._selected:
            self._model.set_text(self._selected, self.text.toPlainText())

    def flush(self) -> None:
        """Save whatever is waiting for a pause in typing."""
        if self._title_pause.isActive():
            self._save_title_quietly()
        if self._text_pause.isActive():
            self.save_text()

    def _set_title_error(self, text: str) -> None:
        set_tone(self.title_error, text, "error" if text else "")
        self.title_error.setVisible(bool(text))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        left = watched is self.text and event.type() == QEvent.Type.FocusOut
        if left and self._text_pause.isActive():
            self.save_text()
        return super().eventFilter(watched, event)

    def hideEvent(self, event: QHideEvent) -> None:
        self.flush()  # the window closed or another page opened mid-sentence
        super().hideEvent(event)

    # --- actions --------------------------------------------------------------------

    def add(self) -> None:
        self.flush()
        prompt_id = self._model.add()
        if prompt_id:
            self.select(prompt_id)
            self.title.setFocus(Qt.FocusReason.OtherFocusReason)
            self.title.selectAll()

    def add_examples(self) -> None:
        self._model.add_examples()

    def duplicate_selected(self) -> None:
        self.flush()
        if self._selected:
            self.select(self._model.duplicate(self._selected))

    def delete_selected(self) -> None:
        prompt = self._model.prompt(self._selected)
        if prompt is None:
            return
        self._title_pause.stop()
        self._text_pause.stop()
        row = self.list.currentRow()
        self._model.delete(prompt.id)
        remaining = self._model.prompts()
        if remaining:
            self.select(remaining[min(row, len(remaining) - 1)].id)
