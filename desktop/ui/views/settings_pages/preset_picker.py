"""Where adding a provider starts: the known services, each with its monogram (the same
badge the list of providers shows), and the servers found running here."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QGridLayout, QPushButton, QVBoxLayout, QWidget

from desktop.providers.presets import Preset
from desktop.ui.viewmodels.local_servers import LocalServersModel
from desktop.ui.views.found_servers import FoundServers
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.monogram import monogram_icon

COLUMNS = 3
ICON_SIZE = 22  # the monogram on a preset's button


class PresetPicker(QWidget):
    presetChosen = Signal(str)  # preset id

    def __init__(
        self,
        presets: tuple[Preset, ...],
        local_servers: LocalServersModel,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        title = PlainLabel(self.tr("Add a provider"), self)
        title.setObjectName("SettingsSection")
        hint = PlainLabel(
            self.tr("Choose a service to fill in its address; every field can be changed."),
            self,
        )
        hint.setObjectName("FormHint")
        hint.setWordWrap(True)
        grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(8)
        for column in range(COLUMNS):
            grid.setColumnStretch(column, 1)
        self.buttons: dict[str, QPushButton] = {}
        for index, preset in enumerate(presets):
            button = QPushButton(preset.name, self)
            button.setObjectName("PresetButton")
            button.setIcon(monogram_icon(preset.name, preset.id))
            button.setIconSize(QSize(ICON_SIZE, ICON_SIZE))
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.setToolTip(
                preset.base_url
                or self.tr("Any other server that speaks OpenAI's API (vLLM, llama.cpp, …)")
            )
            button.clicked.connect(lambda _=False, pid=preset.id: self.presetChosen.emit(pid))
            grid.addWidget(button, index // COLUMNS, index % COLUMNS)
            self.buttons[preset.id] = button
        local_title = PlainLabel(self.tr("On this computer"), self)
        local_title.setObjectName("SettingsSection")
        self.found = FoundServers(local_servers, self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 12, 0)
        layout.addWidget(title)
        layout.addWidget(hint)
        layout.addSpacing(4)
        layout.addLayout(grid)
        layout.addSpacing(14)
        layout.addWidget(local_title)
        layout.addWidget(self.found)
        layout.addStretch(1)
