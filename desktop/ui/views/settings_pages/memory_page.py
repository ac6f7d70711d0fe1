"""Settings → Memory: the memories, filtered by scope and by their words; Add, Edit,
Delete and Export… under the list; an editor that opens below it; "Memory deleted.
Undo" for a few seconds after a deletion; and the model memories are embedded with,
saved as soon as it is chosen (Undo in the window's bar takes it back).

A memory's text keeps its own Save and Cancel, unlike the rest of Settings: memories
live in the database, not the settings file, so the window's Undo cannot take an edit
back; each save embeds the text (a request to the embedding model), which must not
follow every pause in typing; and a memory half typed would be read by assistants.

A memory's text is the person's or a model's: it is shown only as plain text (list
items and tool tips that never read it as markup)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.memory import MEMORY_MAX_CHARS
from desktop.ui.viewmodels.memory_settings import MemoryRow, MemorySettingsModel, ScopeOption
from desktop.ui.views.labels import PlainLabel, form_hint
from desktop.ui.views.record_list import Record, RecordList
from desktop.ui.views.settings_pages.embedding_picker import EmbeddingPicker
from desktop.ui.views.settings_pages.providers_page import set_tone

EMBEDDING_WIDTH = 600  # px: the provider, the model and Refresh list


def _fill(combo: QComboBox, options: list[ScopeOption], keep: str | None) -> None:
    """The options in `combo`, the one of scope `keep` selected (else the first), with
    no change signalled: the choice shown stays the choice made."""
    combo.blockSignals(True)
    combo.clear()
    for option in options:
        combo.addItem(option.label, option.scope)
    combo.setCurrentIndex(max(0, combo.findData(keep)) if keep is not None else 0)
    combo.blockSignals(False)


class MemoryPage(QWidget):
    def __init__(self, model: MemorySettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._editing = ""  # the memory in the editor ("" while adding one)
        self._select_next = ""  # the memory to select once the list is read again
        self.file_dialog: QFileDialog | None = None  # the open "Export…" dialog

        intro = form_hint(
            self.tr(
                "What assistants were asked to remember. Global memories are for every "
                "assistant that uses memory; the others for one assistant only."
            ),
            self,
        )
        self.scope = QComboBox(self)
        self.scope.currentIndexChanged.connect(lambda _index: self._filter())
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("Search memories"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(lambda _text: self._filter())

        self.list = RecordList(self)  # says "No memories yet" inside when it is empty
        self.list.setObjectName("LibraryList")  # drawn as the Knowledge page's list
        self.list.setWordWrap(True)
        self.list.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.list.itemDoubleClicked.connect(lambda _item: self.start_edit())
        delete_key = QShortcut(QKeySequence.StandardKey.Delete, self.list)
        delete_key.setContext(Qt.ShortcutContext.WidgetShortcut)  # not while typing
        delete_key.activated.connect(self.delete_selected)

        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self.start_add)
        self.edit_button = QPushButton(self.tr("Edit"), self)
        self.edit_button.clicked.connect(self.start_edit)
        self.delete_button = QPushButton(self.tr("Delete"), self)
        self.delete_button.clicked.connect(self.delete_selected)
        self.export_button = QPushButton(self.tr("Export…"), self)
        self.export_button.setToolTip(self.tr("Save the memories listed as a Markdown file"))
        self.export_button.clicked.connect(self.pick_export_file)

        # --- "Memory deleted. Undo" ---------------------------------------------------
        self.undo_bar = QFrame(self)
        self.undo_bar.setObjectName("FoundServer")  # a framed strip, as found servers are
        self.undo_label = PlainLabel(self.tr("Memory deleted."), self.undo_bar)
        self.undo_button = QPushButton(self.tr("Undo"), self.undo_bar)
        self.undo_button.clicked.connect(model.undo)
        undo_row = QHBoxLayout(self.undo_bar)
        undo_row.setContentsMargins(10, 4, 4, 4)
        undo_row.addWidget(self.undo_label, 1)
        undo_row.addWidget(self.undo_button)

        # --- the editor ---------------------------------------------------------------
        self.editor = QFrame(self)
        self.editor_title = PlainLabel("", self.editor)
        self.editor_title.setObjectName("SettingsSection")
        self.editor_scope = QComboBox(self.editor)
        self.editor_scope_label = PlainLabel(self.tr("Keep for"), self.editor)
        self.text = QPlainTextEdit(self.editor)
        self.text.setObjectName("PatternsEdit")  # framed as the other pages' text boxes
        self.text.setPlaceholderText(self.tr("e.g. I prefer metric units."))
        self.text.setTabChangesFocus(True)
        self.text.setFixedHeight(84)
        self.text.textChanged.connect(self._update_editor_buttons)
        self.save_button = QPushButton(self.tr("Save"), self.editor)
        self.save_button.setObjectName("SendButton")
        self.save_button.clicked.connect(self.save)
        self.cancel_button = QPushButton(self.tr("Cancel"), self.editor)
        self.cancel_button.clicked.connect(self.close_editor)
        editor_row = QHBoxLayout()  # where it is kept (when adding), then the buttons
        editor_row.addWidget(self.editor_scope_label)
        editor_row.addWidget(self.editor_scope, 1)
        editor_row.addStretch(1)
        editor_row.addWidget(self.cancel_button)
        editor_row.addWidget(self.save_button)
        editor_column = QVBoxLayout(self.editor)
        editor_column.setContentsMargins(0, 0, 0, 0)
        editor_column.addWidget(self.editor_title)
        editor_column.addWidget(self.text)
        editor_column.addLayout(editor_row)
        self.editor.hide()

        self.status = PlainLabel("", self)
        self.status.setWordWrap(True)

        # --- the embedding model ------------------------------------------------------
        self.embedding = EmbeddingPicker(model.embeddings, self)
        self._hide_libraryform_hint()
        self.embedding.changed.connect(self.save_model)
        self.embedding.setMaximumWidth(EMBEDDING_WIDTH)  # a row of its own, not the page's
        self._shown_model = model.embedding  # the saved model, as the picker last showed it
        self.model_hint = form_hint(
            self.tr(
                "Without a model memories are found by their words. A memory saved while "
                "the model cannot be reached is marked “words only” until it is embedded."
            ),
            self,
        )

        # --- layout -------------------------------------------------------------------
        filters = QHBoxLayout()
        filters.addWidget(self.scope, 2)
        filters.addWidget(self.search, 3)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.edit_button, self.delete_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.export_button)
        model_title = PlainLabel(self.tr("Embedding model"), self)
        model_title.setObjectName("SettingsSection")
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(filters)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.undo_bar)
        layout.addWidget(self.editor)
        layout.addWidget(self.status)
        layout.addWidget(model_title)
        layout.addWidget(self.embedding)
        layout.addWidget(self.model_hint)

        model.changed.connect(self.reload)
        model.optionsChanged.connect(self._show_options)
        model.undoChanged.connect(lambda: self.undo_bar.setVisible(model.can_undo))
        model.saved.connect(self._on_saved)
        model.restored.connect(self._select_when_listed)
        model.notice.connect(lambda text: set_tone(self.status, text, "ok"))
        model.failed.connect(lambda text: set_tone(self.status, text, "error"))
        self._show_options()
        self.embedding.show_choice(model.embedding)
        self.undo_bar.setVisible(model.can_undo)
        self.reload()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._model.refresh()  # the memory tools may have changed memories meanwhile

    def _hide_libraryform_hint(self) -> None:
        """The picker's own hint speaks of libraries; this page has its own below."""
        for label in self.embedding.findChildren(QLabel):
            if label is not self.embedding.note and label.objectName() == "FormHint":
                label.hide()

    # --- list ---------------------------------------------------------------------

    def _filter(self) -> None:
        self._model.set_filter(self.scope.currentData(), self.search.text())

    def reload(self) -> None:
        """Draw the rows again, keeping the selection (or selecting what was saved)."""
        wanted = self._select_next or self.selected_id()
        self.list.set_records(
            [Record(row.memory_id, self._row_text(row), row.text) for row in self._model.rows()],
            wanted,
        )
        if self._select_next and self.selected_id() == self._select_next:
            self._select_next = ""
        filtered = self._model.scope_filter is not None or bool(self._model.query)
        if not self._model.loaded:
            self.list.set_placeholder("")  # not read yet: nothing to say
        elif filtered:
            self.list.set_placeholder(self.tr("No memories match."))
        else:
            self.list.set_placeholder(
                self.tr(
                    "No memories yet.\n\nAdd one here, or ask an assistant that uses "
                    "memory to remember something."
                )
            )
        self._update_buttons()

    def _row_text(self, row: MemoryRow) -> str:
        details = [row.scope_label, row.changed]
        if row.words_only:
            details.append(self.tr("words only"))
        return f"{row.preview}\n{' · '.join(details)}"

    def selected_id(self) -> str:
        return self.list.current_id()

    def _update_buttons(self) -> None:
        for button in (self.edit_button, self.delete_button):
            button.setEnabled(bool(self.selected_id()))

    def _show_options(self) -> None:
        _fill(self.scope, self._model.filter_options(), self._model.scope_filter)
        _fill(self.editor_scope, self._model.scope_options(), self.editor_scope.currentData())
        saved = self._model.embedding
        if saved != self._shown_model:  # put back by Undo, say: shown as it is now
            self._shown_model = saved
            self.embedding.show_choice(saved)
        else:
            self.embedding.refresh()

    # --- editor -------------------------------------------------------------------

    def start_add(self) -> None:
        """The editor, empty, for the scope the list is filtered to (else global)."""
        self._editing = ""
        self.editor_title.setText(self.tr("New memory"))
        _fill(self.editor_scope, self._model.scope_options(), self._model.scope_filter)
        self._open_editor("")

    def start_edit(self) -> None:
        row = self._model.row(self.selected_id())
        if row is None:
            return
        self._editing = row.memory_id
        self.editor_title.setText(self.tr("Edit memory"))
        self._open_editor(row.text)

    def _open_editor(self, text: str) -> None:
        adding = not self._editing
        self.editor_scope.setVisible(adding)
        self.editor_scope_label.setVisible(adding)
        self.text.setPlainText(text)
        self.editor.show()
        set_tone(self.status, "")
        self.text.setFocus()
        self.text.selectAll()
        self._update_editor_buttons()

    def close_editor(self) -> None:
        self._editing = ""
        self.editor.hide()

    def _update_editor_buttons(self) -> None:
        text = self.text.toPlainText().strip()
        self.save_button.setEnabled(bool(text) and len(text) <= MEMORY_MAX_CHARS)

    def save(self) -> None:
        text = self.text.toPlainText()
        if self._editing:
            self._model.edit(self._editing, text)
        else:
            self._model.add(self.editor_scope.currentData(), text)

    def _on_saved(self, memory_id: str) -> None:
        self._select_when_listed(memory_id)
        self.close_editor()

    def _select_when_listed(self, memory_id: str) -> None:
        self._select_next = memory_id

    # --- delete, undo, export -----------------------------------------------------

    def delete_selected(self) -> None:
        if memory_id := self.selected_id():
            if memory_id == self._editing:
                self.close_editor()
            self._model.delete(memory_id)

    def pick_export_file(self) -> None:
        """A non-modal dialog: the settings stay usable while it is open."""
        dialog = QFileDialog(self, self.tr("Export Memories"), str(Path.home() / "memories.md"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilter(self.tr("Markdown (*.md)"))
        dialog.setDefaultSuffix("md")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self._model.export)
        self.file_dialog = dialog  # tests pick through it
        dialog.open()

    # --- embedding model ----------------------------------------------------------

    def save_model(self) -> None:
        """Save the model chosen; with a provider but no model named, say so and keep
        the saved one."""
        if self.embedding.lacks_model():
            self.embedding.error.say(self.tr("Choose or type the embedding model's name."))
            return
        self.embedding.error.clear_error()
        self._shown_model = self.embedding.choice()
        self._model.set_embedding(self._shown_model)
