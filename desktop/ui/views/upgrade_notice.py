"""A small window saying the chat history is being upgraded, shown before the main window.

Upgrading a long history to a new schema takes seconds once; without a word the app
would seem not to start after a double-click. The upgrade runs on the GUI thread before
anything else exists, so the notice is painted once and then simply stays up.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEventLoop, Qt
from PySide6.QtWidgets import QVBoxLayout, QWidget

from desktop.ui.views.labels import PlainLabel


class UpgradeNotice(QWidget):
    def __init__(self) -> None:
        super().__init__(None, Qt.WindowType.SplashScreen | Qt.WindowType.WindowStaysOnTopHint)
        self.setObjectName("UpgradeNotice")
        self.setWindowTitle("Parley")
        title = PlainLabel(self.tr("Updating your chats for this version of Parley…"))
        title.setObjectName("UpgradeTitle")
        detail = PlainLabel(self.tr("This happens once and can take a few seconds."))
        detail.setObjectName("MetaLabel")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(28, 22, 28, 22)
        layout.addWidget(title)
        layout.addWidget(detail)

    def show_now(self) -> None:
        """Show and paint at once: the caller blocks the event loop right after."""
        self.adjustSize()
        self.show()
        self.raise_()
        for _ in range(3):  # map, lay out, paint
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
