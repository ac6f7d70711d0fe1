"""The chat header's "Workspace: …" button: the folder this conversation's workspace
tools may use, and the file sent (read fresh) with each message, picked with dialogs
that do not block the window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMenu, QToolButton, QWidget

from desktop.ui.plain_text import button_text, tooltip
from desktop.ui.viewmodels.workspace import WorkspaceModel
from desktop.ui.views.elided import ElidingToolButton


class WorkspaceButton(ElidingToolButton):
    """A long folder or file name elides in the middle; the tool tip has the paths."""

    def __init__(self, model: WorkspaceModel, parent: QWidget | None = None) -> None:
        shortest = QCoreApplication.translate("WorkspaceButton", "Workspace: %1")
        super().__init__(parent, shortest=shortest.replace("%1", "…"))
        self.setObjectName("WorkspaceButton")
        self.setAutoRaise(True)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self._model = model
        self._picker: QFileDialog | None = None
        self._file_picker: QFileDialog | None = None
        menu = QMenu(self)
        self.choose_action = menu.addAction(self.tr("Choose folder…"), self.choose)
        self.clear_action = menu.addAction(self.tr("No workspace"), lambda: model.set_folder(""))
        menu.addSeparator()
        self.file_action = menu.addAction(
            self.tr("Send a file with each message…"), self.choose_file
        )
        self.clear_file_action = menu.addAction(
            self.tr("Stop sending the file"), lambda: model.set_file("")
        )
        self.setMenu(menu)
        self.clicked.connect(self.choose)
        model.folderChanged.connect(self._refresh)
        model.fileChanged.connect(self._refresh)
        self._refresh()

    @property
    def picker(self) -> QFileDialog | None:
        return self._picker

    def choose(self) -> None:
        if self._picker is None:
            picker = self._picker = QFileDialog(self, self.tr("Workspace folder"))
            picker.setFileMode(QFileDialog.FileMode.Directory)
            picker.setOption(QFileDialog.Option.ShowDirsOnly, True)
            picker.fileSelected.connect(self._model.set_folder)
        if self._model.folder:
            self._picker.setDirectory(self._model.folder)
        self._picker.open()

    @property
    def file_picker(self) -> QFileDialog | None:
        return self._file_picker

    def choose_file(self) -> None:
        if self._file_picker is None:
            picker = self._file_picker = QFileDialog(
                self, self.tr("File to send with each message")
            )
            picker.setFileMode(QFileDialog.FileMode.ExistingFile)
            picker.fileSelected.connect(self._model.set_file)
        start = self._model.file or self._model.folder
        if start:
            self._file_picker.setDirectory(str(Path(start).parent if self._model.file else start))
        self._file_picker.open()

    def _refresh(self, *_: object) -> None:
        folder, file = self._model.folder, self._model.file
        name = Path(folder).name or folder
        text = (
            self.tr("Workspace: %1").replace("%1", name) if folder else self.tr("Workspace: none")
        )
        if file:
            text += f" · {Path(file).name}"
        self.setText(button_text(text))  # a folder may be named "R&D"
        tips = (
            [folder]
            if folder
            else [self.tr("Pick a folder the model's file and command tools may use")]
        )
        if file:
            tips.append(self.tr("%1 is read and sent with each message").replace("%1", file))
        self.setToolTip(tooltip("\n".join(tips)))  # paths: a folder may be named <b>
        self.clear_action.setEnabled(bool(folder))
        self.clear_file_action.setEnabled(bool(file))
