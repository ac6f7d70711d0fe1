"""Settings → Knowledge: the libraries on the left (with how their indexing stands), the
selected one's folders, patterns and embedding model on the right, saved with Save, and
its indexing below them: a bar, the file being read, counts, the files that failed and
why. Everything here only asks the engine and listens: indexing never holds the window."""

from __future__ import annotations

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
    QProgressBar,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.knowledge_settings import KnowledgeSettingsModel, LibraryDraft
from desktop.ui.views.confirm import confirm_delete
from desktop.ui.views.elided import ElidedLabel
from desktop.ui.views.labels import PlainLabel, form_hint, plain_form_labels
from desktop.ui.views.settings_pages.embedding_picker import EmbeddingPicker
from desktop.ui.views.settings_pages.providers_page import set_tone

_ID_ROLE = Qt.ItemDataRole.UserRole


def _section(title: str, parent: QWidget) -> QLabel:
    label = PlainLabel(title, parent)
    label.setObjectName("SettingsSection")
    return label


class KnowledgePage(QWidget):
    def __init__(self, model: KnowledgeSettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._selected = ""  # the library shown in the form ("" while adding one)
        self.file_dialog: QFileDialog | None = None  # the open "Add folder/files" dialog

        # --- the list ---------------------------------------------------------------
        self.list = QListWidget(self)
        self.list.setObjectName("LibraryList")
        self.list.setWordWrap(True)
        self.list.currentItemChanged.connect(self._on_current_changed)
        self.empty = form_hint(
            self.tr(
                "No libraries yet.\n\nAdd one with folders and files, then choose which "
                "assistants may search and cite it in Settings → Assistants."
            ),
            self,
        )
        self.empty.setObjectName("EmptyPageNote")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self.start_new)
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
        self.include = QPlainTextEdit(body)
        self.include.setObjectName("PatternsEdit")
        self.include.setPlaceholderText("*.md\n*.pdf")
        self.include.setFixedHeight(64)
        self.include.setTabChangesFocus(True)
        self.exclude = QPlainTextEdit(body)
        self.exclude.setObjectName("PatternsEdit")
        self.exclude.setPlaceholderText("drafts/**\n*.tmp")
        self.exclude.setFixedHeight(64)
        self.exclude.setTabChangesFocus(True)
        self.embedding = EmbeddingPicker(model, body)
        # (the picker's parts, as tests and the layout reach them)
        self.embedding_provider = self.embedding.provider
        self.embedding_model = self.embedding.model
        self.list_models_button = self.embedding.list_button
        self.models_note = self.embedding.note
        self.dimensions = self.embedding.dimensions

        # --- indexing ---------------------------------------------------------------
        self.state = PlainLabel("", body)
        self.state.setWordWrap(True)
        self.bar = QProgressBar(body)
        self.bar.setTextVisible(False)
        self.bar.setFixedHeight(8)
        self.current_file = ElidedLabel("", body, mode=Qt.TextElideMode.ElideMiddle)
        self.current_file.setObjectName("FormHint")
        self.counts = PlainLabel("", body)
        self.notice = PlainLabel("", body)
        self.notice.setWordWrap(True)
        self.failures_title = PlainLabel(self.tr("Files that could not be read"), body)
        self.failures = QListWidget(body)
        self.failures.setObjectName("LibraryFailures")
        self.failures.setFixedHeight(96)
        self.partial_title = PlainLabel(self.tr("Files indexed only in part"), body)
        self.partial = QListWidget(body)
        self.partial.setObjectName("LibraryFailures")
        self.partial.setFixedHeight(64)
        self.rescan_button = QPushButton(self.tr("Re-scan"), body)
        self.rescan_button.setToolTip(self.tr("Look for new, changed and removed files now"))
        self.rescan_button.clicked.connect(lambda: self._model.rescan(self._selected))
        self.cancel_button = QPushButton(self.tr("Cancel indexing"), body)
        self.cancel_button.clicked.connect(lambda: self._model.cancel(self._selected))

        self.status = PlainLabel("", self)
        self.status.setWordWrap(True)
        self.save_button = QPushButton(self.tr("Save"), self)
        self.save_button.setObjectName("SendButton")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)

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
        index_buttons = QHBoxLayout()
        index_buttons.addWidget(self.rescan_button)
        index_buttons.addWidget(self.cancel_button)
        index_buttons.addStretch(1)
        progress_column = QVBoxLayout()
        progress_column.setSpacing(4)
        for widget in (self.state, self.bar, self.current_file, self.counts, self.notice):
            progress_column.addWidget(widget)
        progress_column.addLayout(index_buttons)

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.addRow(self.tr("Name"), self.name)
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
        form.addRow(progress_column)
        form.addRow(self.failures_title)
        form.addRow(self.failures)
        form.addRow(self.partial_title)
        form.addRow(self.partial)
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
        save_row = QHBoxLayout()
        save_row.addWidget(self.status, 1)
        save_row.addWidget(self.save_button, 0, Qt.AlignmentFlag.AlignBottom)
        right = QVBoxLayout()
        right.addWidget(scroll, 1)
        right.addLayout(save_row)
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
        self.reload()
        if self.list.count():
            self.list.setCurrentRow(0)
        else:
            self._show_draft(model.new_draft())
            self.stack.setCurrentWidget(self.empty)  # nothing to edit until Add

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.list.doItemsLayout()  # rows laid out before the stylesheet's padding applied

    # --- list ---------------------------------------------------------------------

    def reload(self) -> None:
        """Redraw the list (keeping the selection) and the embedding models offered."""
        self.list.blockSignals(True)
        try:
            self.list.clear()
            for library in self._model.libraries():
                item = QListWidgetItem(self.list)
                item.setData(_ID_ROLE, library.id)
                self._fill_row(item)
                if library.id == self._selected:
                    self.list.setCurrentItem(item)
        finally:
            self.list.blockSignals(False)
        has_libraries = self.list.count() > 0
        if self._selected and self._model.library(self._selected) is None:
            self._selected = ""  # deleted
            if has_libraries:
                self.list.setCurrentRow(0)
            else:
                self._show_draft(self._model.new_draft())
                self.stack.setCurrentWidget(self.empty)
        else:
            self.embedding.refresh()
        self.delete_button.setEnabled(bool(self._selected))

    def _fill_row(self, item: QListWidgetItem) -> None:
        library = self._model.library(item.data(_ID_ROLE))
        if library is None:
            return
        line = self._model.state_line(library.id)
        item.setText(f"{library.name}\n{line}")
        item.setToolTip(tooltip("\n".join((library.name, *library.paths))))

    def select(self, library_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(_ID_ROLE) == library_id:
                self.list.setCurrentRow(row)
                if self._selected != library_id:  # already current: no signal came
                    self._show(library_id)
                return

    def _on_current_changed(self, current: QListWidgetItem | None, *_: object) -> None:
        if current is not None:
            self._show(current.data(_ID_ROLE))

    def start_new(self) -> None:
        """An empty form for a new library; it is created by Save."""
        self.list.blockSignals(True)
        self.list.setCurrentRow(-1)
        self.list.blockSignals(False)
        self._selected = ""
        self.stack.setCurrentWidget(self.editor)
        self._show_draft(self._model.new_draft())
        self.delete_button.setEnabled(False)
        self.name.setFocus()
        self.name.selectAll()

    # --- form ---------------------------------------------------------------------

    def _show(self, library_id: str) -> None:
        self._selected = library_id
        self.stack.setCurrentWidget(self.editor)
        self._show_draft(self._model.draft_for(library_id))
        self.delete_button.setEnabled(True)

    def _show_draft(self, draft: LibraryDraft) -> None:
        self.name.setText(draft.name)
        self.enabled.setChecked(draft.enabled)
        self.paths.clear()
        self.add_paths(draft.paths)
        self.include.setPlainText(draft.include)
        self.exclude.setPlainText(draft.exclude)
        self.embedding.show_choice(draft.embedding)
        set_tone(self.status, "")
        self._show_progress()

    def form_draft(self) -> LibraryDraft:
        """The library as the form shows it now."""
        return LibraryDraft(
            library_id=self._selected,
            name=self.name.text().strip(),
            paths=tuple(self.paths.item(row).text() for row in range(self.paths.count())),
            include=self.include.toPlainText(),
            exclude=self.exclude.toPlainText(),
            embedding=self.embedding.choice(),
            enabled=self.enabled.isChecked(),
        )

    def save(self) -> None:
        if self.embedding.lacks_model():
            set_tone(self.status, self.tr("Choose or type the embedding model's name."), "error")
            self.embedding_model.setFocus()
            return
        saved = self._model.save(self.form_draft())
        if saved and saved != self._selected:
            self._selected = saved
            self.reload()
            self.delete_button.setEnabled(True)
            set_tone(self.status, self.tr("Saved."), "ok")  # the reload cleared nothing
        self._show_progress()

    # --- folders and files --------------------------------------------------------

    def add_paths(self, paths: list[str] | tuple[str, ...]) -> None:
        listed = {self.paths.item(row).text() for row in range(self.paths.count())}
        for path in paths:
            if path and path not in listed:
                listed.add(path)
                item = QListWidgetItem(path, self.paths)
                item.setToolTip(tooltip(path))

    def remove_selected_paths(self) -> None:
        for item in self.paths.selectedItems():
            self.paths.takeItem(self.paths.row(item))

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
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(_ID_ROLE) == library_id:
                self._fill_row(item)
        if library_id == self._selected:
            self._show_progress()

    def _show_progress(self) -> None:
        if not self._selected:
            self.state.setText(self.tr("Indexing starts when the library is saved."))
            hidden: tuple[QWidget, ...] = (
                *(self.bar, self.current_file, self.counts, self.notice),
                *(self.failures_title, self.failures, self.partial_title, self.partial),
                *(self.rescan_button, self.cancel_button),
            )
            for widget in hidden:
                widget.hide()
            return
        view = self._model.progress_view(self._selected)
        self.state.setText(view.state)
        self.bar.setVisible(view.active)
        self.bar.setRange(0, view.total)  # 0 to 0: busy, still counting
        self.bar.setValue(view.done)
        self.current_file.setText(view.current_file)
        self.current_file.setVisible(view.active and bool(view.current_file))
        self.counts.setText(view.counts)
        self.counts.setVisible(bool(view.counts))
        self.notice.setText(view.notice)
        self.notice.setVisible(bool(view.notice))
        for title, listing, lines in (
            (self.failures_title, self.failures, view.failures),
            (self.partial_title, self.partial, view.partial),
        ):
            listing.clear()
            for line in lines:
                item = QListWidgetItem(line, listing)
                item.setToolTip(tooltip(line))
            title.setVisible(bool(lines))
            listing.setVisible(bool(lines))
        self.rescan_button.setVisible(self._model.can_index)
        self.rescan_button.setEnabled(not view.active)
        self.cancel_button.setVisible(view.active and self._model.can_index)

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
