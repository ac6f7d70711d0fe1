"""Settings → Knowledge: the libraries on the left (with how their indexing stands), the
selected one's folders, patterns and embedding model on the right, saved as they are
changed, and its indexing below them (`LibraryProgress`).

Add makes a library at once ("New library", nothing in it yet) and puts the cursor on
its name. A change is saved as soon as it is made (patterns after a pause in typing);
what the settings file would refuse is said beside its field and not saved, and a
provider chosen with no model named keeps the saved model until one is. The form is
redrawn from the settings only where the saved library changed since it was shown (an
Undo in the window), so a save never disturbs what is being typed.
"""

from __future__ import annotations

from dataclasses import fields

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.knowledge_settings import (
    KnowledgeSettingsModel,
    LibraryDraft,
    patterns,
)
from desktop.ui.views.confirm import confirm_delete
from desktop.ui.views.labels import PlainLabel, form_hint, plain_form_labels
from desktop.ui.views.record_list import Record, RecordList
from desktop.ui.views.settings_pages.autosave import FieldError, PauseCommit, save_text_on_pause
from desktop.ui.views.settings_pages.embedding_picker import EmbeddingPicker
from desktop.ui.views.settings_pages.library_progress import LibraryProgress
from desktop.ui.views.settings_pages.providers_page import set_tone


def _section(title: str, parent: QWidget) -> QLabel:
    label = PlainLabel(title, parent)
    label.setObjectName("SettingsSection")
    return label


def _patterns_edit(placeholder: str, parent: QWidget) -> QPlainTextEdit:
    edit = QPlainTextEdit(parent)
    edit.setObjectName("PatternsEdit")
    edit.setPlaceholderText(placeholder)
    edit.setFixedHeight(64)
    edit.setTabChangesFocus(True)
    return edit


class KnowledgePage(QWidget):
    def __init__(self, model: KnowledgeSettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._selected = ""  # the library shown in the form
        self._shown: LibraryDraft | None = None  # ... as the form last showed it
        self._loading = False  # the form is being filled, not changed by the person
        self._flushing = False  # saving the previous library's last edit, while switching
        self.file_dialog: QFileDialog | None = None  # the open "Add folder/files" dialog

        # --- the list ---------------------------------------------------------------
        self.list = RecordList(self)
        self.list.setObjectName("LibraryList")
        self.list.setMaximumWidth(220)  # as wide as the other pages' lists
        self.list.setWordWrap(True)
        self.list.set_placeholder(self.tr("No libraries yet."))
        self.list.currentItemChanged.connect(self._on_current_changed)
        self.empty = form_hint(
            self.tr(
                "A library is folders and files your assistants may search and cite. "
                "Add one, then choose in Settings → Assistants which assistants use it."
            ),
            self,
        )
        self.empty.setObjectName("EmptyPageNote")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self.add)
        self.delete_button = QPushButton(self.tr("Delete"), self)
        self.delete_button.clicked.connect(self._ask_delete)
        self.confirm_box: QWidget | None = None

        # --- the form ---------------------------------------------------------------
        scroll = self.form_area = QScrollArea(self)
        scroll.setObjectName("KnowledgeForm")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget(scroll)
        body.setObjectName("KnowledgeFormBody")
        self.name = QLineEdit(body)
        self.name.setPlaceholderText(self.tr("e.g. Product docs"))
        self.name_error = FieldError(body)
        self.enabled = QCheckBox(self.tr("Assistants may search this library"), body)
        self.paths = QListWidget(body)
        self.paths.setObjectName("LibraryPaths")
        self.paths.setFixedHeight(80)
        self.paths.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        self.add_folder_button = QPushButton(self.tr("Add folder…"), body)
        self.add_folder_button.clicked.connect(self.pick_folder)
        self.add_files_button = QPushButton(self.tr("Add files…"), body)
        self.add_files_button.clicked.connect(self.pick_files)
        self.remove_path_button = QPushButton(self.tr("Remove"), body)
        self.remove_path_button.clicked.connect(self.remove_selected_paths)
        self.include = _patterns_edit("*.md\n*.pdf", body)
        self.exclude = _patterns_edit("drafts/**\n*.tmp", body)
        self.embedding = EmbeddingPicker(model, body)
        # (the picker's parts, as tests and the layout reach them)
        self.embedding_provider = self.embedding.provider
        self.embedding_model = self.embedding.model
        self.list_models_button = self.embedding.list_button
        self.models_note = self.embedding.note
        self.dimensions = self.embedding.dimensions
        self.progress = LibraryProgress(model, body)
        # (its parts, as tests reach them)
        self.state, self.bar, self.counts = (
            self.progress.state,
            self.progress.bar,
            self.progress.counts,
        )
        self.current_file, self.notice = self.progress.current_file, self.progress.notice
        self.failures_title, self.failures = self.progress.failures_title, self.progress.failures
        self.partial_title, self.partial = self.progress.partial_title, self.progress.partial
        self.rescan_button = self.progress.rescan_button
        self.cancel_button = self.progress.cancel_button
        self.status = PlainLabel("", self)
        self.status.setWordWrap(True)

        # --- saving as the person goes ------------------------------------------------
        self.name.editingFinished.connect(self._save_typed)
        self.enabled.toggled.connect(lambda _on: self.save())
        self.embedding.changed.connect(self.save)
        self.pauses: tuple[PauseCommit, ...] = (
            save_text_on_pause(self.include, self._save_typed),
            save_text_on_pause(self.exclude, self._save_typed),
            self.embedding.dimensions_pause,
        )

        # --- layout -------------------------------------------------------------------
        path_buttons = QHBoxLayout()
        path_buttons.addWidget(self.add_folder_button)
        path_buttons.addWidget(self.add_files_button)
        path_buttons.addStretch(1)
        path_buttons.addWidget(self.remove_path_button)
        paths_column = QVBoxLayout()
        paths_column.setSpacing(4)
        paths_column.addWidget(self.paths)
        paths_column.addLayout(path_buttons)
        name_column = QVBoxLayout()
        name_column.setSpacing(2)
        name_column.addWidget(self.name)
        name_column.addWidget(self.name_error)

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.addRow(self.tr("Name"), name_column)
        form.addRow("", self.enabled)
        form.addRow(self.tr("Folders and files"), paths_column)
        patterns_grid = QGridLayout()
        patterns_grid.setHorizontalSpacing(8)
        patterns_grid.setVerticalSpacing(2)
        patterns_grid.addWidget(form_hint(self.tr("Include"), body), 0, 0)
        patterns_grid.addWidget(form_hint(self.tr("Exclude"), body), 0, 1)
        patterns_grid.addWidget(self.include, 1, 0)
        patterns_grid.addWidget(self.exclude, 1, 1)
        patterns_hint = form_hint(
            self.tr(
                "One pattern a line, matched against the path inside the library, "
                "e.g. *.md or docs/**. No include patterns: every file Parley can read."
            ),
            body,
        )
        patterns_grid.addWidget(patterns_hint, 2, 0, 1, 2)
        form.addRow(self.tr("Files to use"), patterns_grid)
        form.addRow(self.tr("Embedding model"), self.embedding)
        form.addRow(_section(self.tr("Indexing"), body))
        form.addRow(self.progress)
        plain_form_labels(form)
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(0, 0, 12, 0)
        body_layout.addLayout(form)
        body_layout.addStretch(1)
        scroll.setWidget(body)

        side_buttons = QHBoxLayout()
        side_buttons.addWidget(self.add_button)
        side_buttons.addWidget(self.delete_button)
        side = QVBoxLayout()
        side.addWidget(self.list, 1)
        side.addLayout(side_buttons)
        right = QVBoxLayout()
        right.addWidget(scroll, 1)
        right.addWidget(self.status)
        self.editor = QWidget(self)
        self.editor.setLayout(right)
        right.setContentsMargins(0, 0, 0, 0)
        layout = QHBoxLayout(self)
        layout.addLayout(side, 2)
        layout.addSpacing(6)
        self.stack = QStackedWidget(self)  # the form, or the placeholder when there is none
        self.stack.addWidget(self.editor)
        self.stack.addWidget(self.empty)
        layout.addWidget(self.stack, 5)

        model.changed.connect(self.reload)
        model.progressChanged.connect(self._on_progress)
        model.saved.connect(lambda _id: set_tone(self.status, self.tr("Saved."), "ok"))
        model.failed.connect(lambda text: set_tone(self.status, text, "error"))
        model.invalid.connect(self._on_invalid)
        self.reload()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.list.doItemsLayout()  # rows laid out before the stylesheet's padding applied

    # --- list ---------------------------------------------------------------------

    def reload(self) -> None:
        """Redraw the list (keeping the selection) and the form where the saved library
        changed (or the first library, or the placeholder, when it is gone)."""
        records = [
            Record(
                lib.id,
                f"{lib.name}\n{self._model.state_line(lib.id)}",
                "\n".join((lib.name, *lib.paths)),
            )
            for lib in self._model.libraries()
        ]
        if self._flushing:  # the list has moved on; the form is about to follow it
            self.list.set_records(records, self.list.current_id())
            return
        if self._selected and self._model.library(self._selected) is None:
            self._selected = ""  # deleted
        self.list.set_records(records, self._selected)
        if self._selected:
            self._refresh()
        elif records:
            self.list.setCurrentRow(0)
        else:
            self._shown = None
            self.stack.setCurrentWidget(self.empty)  # nothing to edit until Add
        self.embedding.refresh()
        self.delete_button.setEnabled(bool(self._selected))

    def select(self, library_id: str) -> None:
        row = self.list.row_of(library_id)
        if row >= 0:
            self.list.setCurrentRow(row)
            self._show(library_id)  # (no signal when it was current already)

    def _on_current_changed(self, current: QListWidgetItem | None, *_: object) -> None:
        if current is not None:
            self._show(self.list.current_id())

    def add(self) -> None:
        """A new library, saved at once, with its name ready to be typed over."""
        library_id = self._model.add()
        if library_id:
            self.select(library_id)
            self.name.setFocus()
            self.name.selectAll()

    # --- form ---------------------------------------------------------------------

    def _show(self, library_id: str) -> None:
        if library_id == self._selected and self._shown is not None:
            return
        self._flushing = True
        try:  # what waited for a pause in typing is the previous library's
            for pause in self.pauses:
                pause.flush()
        finally:
            self._flushing = False
        self._selected = library_id
        self.stack.setCurrentWidget(self.editor)
        draft = self._model.draft_for(library_id)
        self._fill(draft, None)
        for pause in self.pauses:
            pause.cancel()  # the form's own filling is no change of the person's
        self.name_error.clear_error()
        set_tone(self.status, "")
        self.delete_button.setEnabled(True)
        self.progress.show_library(library_id)

    def _refresh(self) -> None:
        """The library shown, saved anew: the fields whose saved value changed."""
        draft = self._model.draft_for(self._selected)
        shown = self._shown
        if shown is None:
            self._fill(draft, None)
        elif draft != shown:
            self._fill(
                draft,
                {f.name for f in fields(draft) if getattr(draft, f.name) != getattr(shown, f.name)},
            )
        self.progress.refresh()

    def _fill(self, draft: LibraryDraft, changed: set[str] | None) -> None:
        """Show `draft` (only the `changed` fields, when given). A text already as
        saved is left alone, so its cursor stays where it is."""

        def wanted(name: str) -> bool:
            return changed is None or name in changed

        self._loading = True
        try:
            if wanted("name") and self.name.text().strip() != draft.name:
                self.name.setText(draft.name)
            if wanted("enabled"):
                self.enabled.setChecked(draft.enabled)
            if wanted("paths") and self.path_list() != draft.paths:
                self.paths.clear()
                self.add_paths(draft.paths)
            for name, edit in (("include", self.include), ("exclude", self.exclude)):
                text = getattr(draft, name)
                if wanted(name) and patterns(edit.toPlainText()) != patterns(text):
                    edit.setPlainText(text)
            if wanted("embedding"):
                self.embedding.show_choice(draft.embedding)
        finally:
            self._loading = False
        self._shown = draft

    def path_list(self) -> tuple[str, ...]:
        return tuple(self.paths.item(row).text() for row in range(self.paths.count()))

    def form_draft(self) -> LibraryDraft:
        """The library as the form shows it now (with the saved model while a provider
        is picked but no model named)."""
        saved = self._model.draft_for(self._selected)
        lacking = self.embedding.lacks_model()
        return LibraryDraft(
            library_id=self._selected,
            name=self.name.text().strip(),
            paths=self.path_list(),
            include=self.include.toPlainText(),
            exclude=self.exclude.toPlainText(),
            embedding=saved.embedding if lacking else self.embedding.choice(),
            enabled=self.enabled.isChecked(),
        )

    def save(self, *, coalesce: bool = False) -> None:
        """Save the form as it shows the library now (nothing when nothing changed).
        `coalesce`: typing, whose quick saves Undo takes back as one."""
        if not self._selected or self._loading:
            return
        self.name_error.clear_error()  # said again if it still holds
        if self.embedding.lacks_model():
            self.embedding.error.say(self.tr("Choose or type the embedding model's name."))
        else:
            self.embedding.error.clear_error()
        self._model.save(self.form_draft(), coalesce=coalesce)

    def _save_typed(self) -> None:
        self.save(coalesce=True)

    def _on_invalid(self, field: str, sentence: str) -> None:
        if field == "name":
            self.name_error.say(sentence)
        else:
            set_tone(self.status, sentence, "error")

    # --- folders and files --------------------------------------------------------

    def add_paths(self, paths: list[str] | tuple[str, ...]) -> None:
        listed = set(self.path_list())
        for path in paths:
            if path and path not in listed:
                listed.add(path)
                item = QListWidgetItem(path, self.paths)
                item.setToolTip(tooltip(path))
        self.save()

    def remove_selected_paths(self) -> None:
        for item in self.paths.selectedItems():
            self.paths.takeItem(self.paths.row(item))
        self.save()

    def pick_folder(self) -> None:
        """A non-modal dialog: the settings stay usable while it is open."""
        dialog = self._dialog(self.tr("Add a folder"))
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.fileSelected.connect(lambda path: self.add_paths([path]))
        dialog.open()

    def pick_files(self) -> None:
        dialog = self._dialog(self.tr("Add files"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.filesSelected.connect(self.add_paths)
        dialog.open()

    def _dialog(self, title: str) -> QFileDialog:
        dialog = QFileDialog(self, title)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.file_dialog = dialog  # tests pick through it
        return dialog

    # --- indexing -----------------------------------------------------------------

    def _on_progress(self, library_id: str) -> None:
        row = self.list.row_of(library_id)
        library = self._model.library(library_id)
        if row >= 0 and library is not None:
            self.list.item(row).setText(f"{library.name}\n{self._model.state_line(library_id)}")
        if library_id == self._selected:
            self.progress.refresh()

    # --- deleting -----------------------------------------------------------------

    def _ask_delete(self) -> None:
        library = self._model.library(self._selected)
        if library is None:
            return
        library_id = library.id
        self.confirm_box = confirm_delete(
            self,
            self.tr("Delete library"),
            self.tr(
                "Delete the library “%1”? Its index is removed; the folders and files "
                "themselves are not touched."
            ).replace("%1", library.name),
            lambda: self._model.delete(library_id),
        )
