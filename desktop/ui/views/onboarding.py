"""The first thing a new person sees: what Parley needs and one button to set it up."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.ui.resources import resource_path


class Onboarding(QWidget):
    setupRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Onboarding")
        icon = QLabel(self)
        icon.setPixmap(QIcon(str(resource_path("icons", "parley.svg"))).pixmap(72, 72))
        icon.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        title = QLabel(self.tr("Welcome to Parley"), self)
        title.setObjectName("OnboardingTitle")
        title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        text = QLabel(
            self.tr(
                "Connect a model provider to start chatting: a local server such as "
                "Ollama, LM Studio or llama.cpp, or any OpenAI-compatible service with "
                "an API key. Keys are kept in your system keyring."
            ),
            self,
        )
        text.setObjectName("OnboardingText")
        text.setWordWrap(True)
        text.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        text.setFixedWidth(440)
        self.setup_button = QPushButton(self.tr("Set up a provider…"), self)
        self.setup_button.setObjectName("SendButton")
        self.setup_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setup_button.clicked.connect(self.setupRequested)

        layout = QVBoxLayout(self)
        layout.addStretch(2)
        layout.addWidget(icon)
        layout.addSpacing(8)
        layout.addWidget(title)
        layout.addWidget(text, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addSpacing(12)
        layout.addWidget(self.setup_button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(3)
