"""'Found Ollama on this computer (3 models) — Add': local servers offered in one click.

Shown on the welcome screen and where a provider is added; it asks for a fresh look each
time it appears, and the window stays usable while the ports are asked.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from desktop.engine.local_servers import FoundServer
from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.local_servers import LocalServersModel
from desktop.ui.views.labels import PlainLabel


class FoundServerRow(QWidget):
    def __init__(self, server: FoundServer, model: LocalServersModel, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("FoundServer")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.server = server
        count = len(server.models)
        detail = self.tr("%n model(s)", "", count) if count else self.tr("no models yet")
        self.label = PlainLabel(
            self.tr("Found %1 on this computer (%2)")
            .replace("%1", server.name)
            .replace("%2", detail),
            self,
        )
        self.label.setToolTip(tooltip(server.base_url))
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.setObjectName("FoundServerAdd")
        self.add_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.add_button.setToolTip(
            self.tr("Add %1 at %2 with its models")
            .replace("%1", server.name)
            .replace("%2", server.base_url)
        )
        self.add_button.clicked.connect(lambda: model.add(server.base_url))
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 6, 6)
        row.addWidget(self.label, 1)
        row.addWidget(self.add_button)


class FoundServers(QWidget):
    """The rows, plus a quiet line while looking; `compact` hides "none found"."""

    def __init__(
        self, model: LocalServersModel, parent: QWidget | None = None, *, compact: bool = False
    ) -> None:
        super().__init__(parent)
        self._model = model
        self._compact = compact
        self.rows: list[FoundServerRow] = []
        self.note = PlainLabel("", self)
        self.note.setObjectName("FoundServersNote")
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(6)
        self._layout.addWidget(self.note)
        model.serversChanged.connect(self._reload)
        model.detectingChanged.connect(self._update_note)
        self._reload()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._model.detecting:
            self._model.detect()

    def _reload(self) -> None:
        for row in self.rows:
            self._layout.removeWidget(row)
            row.deleteLater()
        self.rows = [FoundServerRow(server, self._model, self) for server in self._model.servers]
        for row in self.rows:
            self._layout.addWidget(row)
        self._update_note()

    def _update_note(self, *_: object) -> None:
        if self._model.detecting and not self.rows:
            self.note.setText(self.tr("Looking for model servers on this computer…"))
        elif not self.rows and not self._compact:
            self.note.setText(
                self.tr("No Ollama, LM Studio, llama.cpp or vLLM server is running here.")
            )
        else:
            self.note.setText("")
        self.note.setVisible(bool(self.note.text()))
