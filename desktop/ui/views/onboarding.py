"""The first thing a new person sees: what Parley needs, one button to set it up, and
the model servers already running on this computer, each added in one click."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from desktop.ui.resources import resource_path
from desktop.ui.viewmodels.local_servers import LocalServersModel
from desktop.ui.views.found_servers import FoundServers
from desktop.ui.views.labels import PlainLabel

COLUMN_WIDTH = 440


class Onboarding(QWidget):
    setupRequested = Signal()

    def __init__(
        self, local_servers: LocalServersModel | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("Onboarding")
        icon = PlainLabel("", self)
        icon.setPixmap(QIcon(str(resource_path("icons", "parley.svg"))).pixmap(72, 72))
        icon.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        title = PlainLabel(self.tr("Welcome to Parley"), self)
        title.setObjectName("OnboardingTitle")
        title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        text = PlainLabel(
            self.tr(
                "Connect a model provider to start chatting: a local server such as "
                "Ollama, LM Studio or llama.cpp, or a service such as OpenAI, Anthropic, "
                "Google Gemini, DeepSeek or OpenRouter with an API key. Keys are kept in "
                "your system keyring."
            ),
            self,
        )
        text.setObjectName("OnboardingText")
        text.setWordWrap(True)
        text.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.setup_button = QPushButton(self.tr("Set up a provider…"), self)
        self.setup_button.setObjectName("SendButton")
        self.setup_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setup_button.clicked.connect(self.setupRequested)

        # A column of fixed width, centred by stretches: wrapped text gets its full height
        # only when the layout itself sizes it (an alignment flag would cut it short).
        column = QVBoxLayout()
        column.addWidget(icon)
        column.addSpacing(8)
        column.addWidget(title)
        column.addWidget(text)
        column.addSpacing(12)
        column.addWidget(self.setup_button, 0, Qt.AlignmentFlag.AlignHCenter)
        self.found: FoundServers | None = None
        if local_servers is not None:
            self.found = FoundServers(local_servers, self, compact=True)
            column.addSpacing(16)
            column.addWidget(self.found)
        holder = QWidget(self)
        holder.setLayout(column)
        holder.setFixedWidth(COLUMN_WIDTH)
        column.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(holder)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(2)
        layout.addLayout(row)
        layout.addStretch(3)
