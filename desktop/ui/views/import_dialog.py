"""The window of an import from another app, in four steps on one page each: reading the
export, what it holds (and what will be left out, images and files among it), importing,
and what happened (with the files that could not be attached, and why).

Non-modal: the person may keep reading their chats while a large export is read or
written. Every text from the export (titles, reasons) is shown as plain text: labels
are `PlainLabel`s and the lists are item views, which never interpret markup.
"""

from __future__ import annotations

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.import_export import ImportExportViewModel, ImportStage, TextTable
from desktop.ui.views.labels import PlainLabel


def _table(model: TextTable, parent: QWidget, *, reasons: bool = False) -> QTableView:
    """A read-only table whose first column takes the room left. With `reasons` (an
    item and why, a long sentence) the reason takes it instead, and the item's column
    starts at a width a person can drag wider, so neither needs a horizontal scroll."""
    view = QTableView(parent)
    view.setModel(model)
    view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setShowGrid(False)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
    header = view.horizontalHeader()
    if reasons:
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, view.fontMetrics().averageCharWidth() * 28)
        header.setStretchLastSection(True)
    else:
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, model.columnCount()):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    header.setHighlightSections(False)
    return view


def _buttons(parent: QWidget, *buttons: QPushButton) -> QHBoxLayout:
    row = QHBoxLayout()
    row.addStretch(1)
    for button in buttons:
        button.setParent(parent)
        row.addWidget(button)
    return row


class ImportDialog(QDialog):
    openRequested = Signal(str)  # a conversation to open (the summary's Open)

    def __init__(self, model: ImportExportViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._open_id = ""
        self.setWindowTitle(self.tr("Import from Another App"))
        self.setModal(False)
        self.resize(640, 560)
        self.pages = QStackedWidget(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        self._build_reading()
        self._build_preview()
        self._build_importing()
        self._build_summary()
        model.stageChanged.connect(self._show_stage)
        model.previewReady.connect(self._show_preview)
        model.progress.connect(self._show_progress)
        model.finished.connect(self._show_summary)
        model.failed.connect(self._show_failure)
        self._show_stage()

    # --- the pages --------------------------------------------------------------------

    def _build_reading(self) -> None:
        page = self.reading_page = QWidget(self.pages)
        self.reading_label = PlainLabel("", page)
        self.reading_label.setWordWrap(True)
        busy = QProgressBar(page)
        busy.setRange(0, 0)  # no way to know how far a parse has got
        busy.setTextVisible(False)
        self.reading_cancel = QPushButton(self.tr("Cancel"))
        self.reading_cancel.clicked.connect(self._cancel_reading)
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        layout.addWidget(self.reading_label)
        layout.addWidget(busy)
        layout.addStretch(1)
        layout.addLayout(_buttons(page, self.reading_cancel))
        self.pages.addWidget(page)

    def _build_preview(self) -> None:
        page = self.preview_page = QWidget(self.pages)
        self.headline = PlainLabel("", page)
        self.headline.setObjectName("SourceTitle")
        self.headline.setWordWrap(True)
        self.files_label = PlainLabel("", page)  # how many images and files come along
        self.files_label.setWordWrap(True)
        self.conversation_list = _table(self._model.conversations, page)
        self.left_out_title = PlainLabel(self.tr("Not imported"), page)
        self.left_out_title.setObjectName("SettingsSection")
        self.left_out_list = _table(self._model.left_out, page, reasons=True)
        self.import_button = QPushButton(self.tr("Import"))
        self.import_button.setDefault(True)
        self.import_button.clicked.connect(self._model.start)
        self.preview_cancel = QPushButton(self.tr("Cancel"))
        self.preview_cancel.clicked.connect(self.close)
        layout = QVBoxLayout(page)
        layout.addWidget(self.headline)
        layout.addWidget(self.files_label)
        layout.addWidget(self.conversation_list, 3)
        layout.addWidget(self.left_out_title)
        layout.addWidget(self.left_out_list, 1)
        layout.addLayout(_buttons(page, self.preview_cancel, self.import_button))
        self.pages.addWidget(page)

    def _build_importing(self) -> None:
        page = self.importing_page = QWidget(self.pages)
        self.importing_label = PlainLabel("", page)
        self.progress_bar = QProgressBar(page)
        self.progress_bar.setTextVisible(False)
        self.importing_cancel = QPushButton(self.tr("Cancel"))
        self.importing_cancel.clicked.connect(self._cancel_import)
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        layout.addWidget(self.importing_label)
        layout.addWidget(self.progress_bar)
        layout.addStretch(1)
        layout.addLayout(_buttons(page, self.importing_cancel))
        self.pages.addWidget(page)

    def _build_summary(self) -> None:
        page = self.summary_page = QWidget(self.pages)
        self.summary_label = PlainLabel("", page)
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.skipped_files_list = _table(self._model.skipped_files, page, reasons=True)
        self.open_button = QPushButton(self.tr("Open"))
        self.open_button.setDefault(True)
        self.open_button.clicked.connect(self._open)
        self.close_button = QPushButton(self.tr("Close"))
        self.close_button.clicked.connect(self.close)
        layout = QVBoxLayout(page)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.skipped_files_list, 1)
        layout.addStretch(1)
        layout.addLayout(_buttons(page, self.close_button, self.open_button))
        self.pages.addWidget(page)

    # --- following the model ----------------------------------------------------------

    def _show_stage(self) -> None:
        stage = self._model.stage
        if stage is ImportStage.READING:
            name = self._model.path.name if self._model.path else ""
            self.reading_label.setText(self.tr("Reading %1…").replace("%1", name))
            self.pages.setCurrentWidget(self.reading_page)
        elif stage is ImportStage.PREVIEW:
            self._show_preview()
        elif stage is ImportStage.IMPORTING:
            self.importing_cancel.setEnabled(True)
            self.pages.setCurrentWidget(self.importing_page)
        elif stage in (ImportStage.DONE, ImportStage.FAILED):
            self.summary_label.setText(self._model.summary)
            self._show_skipped_files()
            self.pages.setCurrentWidget(self.summary_page)

    def _show_preview(self) -> None:
        self.headline.setText(self._model.headline())
        files = self._model.files_line()
        self.files_label.setText(files)
        self.files_label.setVisible(bool(files))
        has_left_out = self._model.left_out.rowCount() > 0
        self.left_out_title.setVisible(has_left_out)
        self.left_out_list.setVisible(has_left_out)
        self.import_button.setEnabled(self._model.conversations.rowCount() > 0)
        self.pages.setCurrentWidget(self.preview_page)
        self.import_button.setFocus()

    def _show_progress(self, done: int, total: int) -> None:
        self.progress_bar.setRange(0, max(total, 1))
        self.progress_bar.setValue(done)
        locale = QLocale()
        self.importing_label.setText(
            self.tr("Importing %1 of %2…")
            .replace("%1", locale.toString(min(done + 1, total)))
            .replace("%2", locale.toString(total))
        )

    def _show_summary(self, summary: str, conversation_id: str) -> None:
        self._open_id = conversation_id
        self.summary_label.setText(summary)
        self._show_skipped_files()
        self.open_button.setVisible(bool(conversation_id))
        self.close_button.setDefault(not conversation_id)
        self.pages.setCurrentWidget(self.summary_page)
        (self.open_button if conversation_id else self.close_button).setFocus()

    def _show_skipped_files(self) -> None:
        """The files that could not be attached, each with its reason; only when there
        are any (the summary counts them)."""
        self.skipped_files_list.setVisible(self._model.skipped_files.rowCount() > 0)

    def _show_failure(self, text: str) -> None:
        self._open_id = ""
        self.summary_label.setText(text)
        self._show_skipped_files()
        self.open_button.hide()
        self.close_button.setDefault(True)
        self.pages.setCurrentWidget(self.summary_page)
        self.close_button.setFocus()

    # --- the person's choices ---------------------------------------------------------

    def _cancel_reading(self) -> None:
        self._model.cancel()
        self.close()

    def _cancel_import(self) -> None:
        """What was imported stays; the summary follows once the current one is in."""
        self._model.cancel()
        self.importing_cancel.setEnabled(False)
        self.importing_label.setText(self.tr("Cancelling…"))

    def _open(self) -> None:
        if self._open_id:
            self.openRequested.emit(self._open_id)
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._model.busy:  # closing the window while it works stops the work
            self._model.cancel()
        super().closeEvent(event)
