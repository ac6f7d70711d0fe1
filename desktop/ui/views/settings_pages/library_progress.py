"""A knowledge library's indexing, under its form on Settings → Knowledge: the state, a
bar while a pass runs, the file being read, counts, the files that failed or were
indexed only in part and why, and Re-scan / Cancel. It only reads the engine's reports
(through the view-model) and asks it; indexing never holds the window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.knowledge_settings import KnowledgeSettingsModel
from desktop.ui.views.elided import ElidedLabel
from desktop.ui.views.labels import PlainLabel


class LibraryProgress(QWidget):
    def __init__(self, model: KnowledgeSettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.library_id = ""
        self.state = PlainLabel("", self)
        self.state.setWordWrap(True)
        self.bar = QProgressBar(self)
        self.bar.setTextVisible(False)
        self.bar.setFixedHeight(8)
        self.current_file = ElidedLabel("", self, mode=Qt.TextElideMode.ElideMiddle)
        self.current_file.setObjectName("FormHint")
        self.counts = PlainLabel("", self)
        self.notice = PlainLabel("", self)
        self.notice.setWordWrap(True)
        self.failures_title = PlainLabel(self.tr("Files that could not be read"), self)
        self.failures = QListWidget(self)
        self.failures.setObjectName("LibraryFailures")
        self.failures.setFixedHeight(96)
        self.partial_title = PlainLabel(self.tr("Files indexed only in part"), self)
        self.partial = QListWidget(self)
        self.partial.setObjectName("LibraryFailures")
        self.partial.setFixedHeight(64)
        self.rescan_button = QPushButton(self.tr("Re-scan"), self)
        self.rescan_button.setToolTip(self.tr("Look for new, changed and removed files now"))
        self.rescan_button.clicked.connect(lambda: self._model.rescan(self.library_id))
        self.cancel_button = QPushButton(self.tr("Cancel indexing"), self)
        self.cancel_button.clicked.connect(lambda: self._model.cancel(self.library_id))

        buttons = QHBoxLayout()
        buttons.addWidget(self.rescan_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        parts: tuple[QWidget, ...] = (
            *(self.state, self.bar, self.current_file, self.counts, self.notice),
        )
        for part in parts:
            column.addWidget(part)
        column.addLayout(buttons)
        column.addSpacing(6)
        for part in (self.failures_title, self.failures, self.partial_title, self.partial):
            column.addWidget(part)

    def show_library(self, library_id: str) -> None:
        self.library_id = library_id
        self.refresh()

    def refresh(self) -> None:
        view = self._model.progress_view(self.library_id)
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
