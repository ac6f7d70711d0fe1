"""The chat header's "Workspace: …" button: the folder this conversation's workspace
tools may use, picked with a folder dialog that does not block the window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMenu, QToolButton, QWidget

from desktop.ui.viewmodels.workspace import WorkspaceModel


class WorkspaceButton(QToolButton):
    def __init__(self, model: WorkspaceModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("WorkspaceButton")
        self.setAutoRaise(True)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self._model = model
        self._picker: QFileDialog | None = None
        menu = QMenu(self)
        self.choose_action = menu.addAction(self.tr("Choose folder…"), self.choose)
        self.clear_action = menu.addAction(self.tr("No workspace"), lambda: model.set_folder(""))
        self.setMenu(menu)
        self.clicked.connect(self.choose)
        model.folderChanged.connect(self._show)
        self._show(model.folder)

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

    def _show(self, folder: str) -> None:
        name = Path(folder).name or folder
        self.setText(
            self.tr("Workspace: %1").replace("%1", name) if folder else self.tr("Workspace: none")
        )
        self.setToolTip(
            folder
            if folder
            else self.tr("Pick a folder the model's file and command tools may use")
        )
        self.clear_action.setEnabled(bool(folder))
