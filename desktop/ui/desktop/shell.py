"""Parley on the desktop while its window is not in front: the tray icon, notifications
that open their conversation, and closing to the tray.

Composition only: the tray is `tray.py`, what deserves a notification is
`engine/notices.py`, delivering it `engine/notify.py`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from desktop.engine.notices import Notice, NoticePolicy
from desktop.engine.notify import Notifier
from desktop.engine.settings_service import SettingsService
from desktop.engine.turn.chat_service import ChatService
from desktop.ui.desktop.single_instance import bring_forward
from desktop.ui.desktop.tray import Tray
from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.views.main_window import MainWindow

HINT_KEY = "tray/still_running_hint_shown"


class DesktopShell(QObject):
    def __init__(
        self,
        window: MainWindow,
        chat_vm: ChatViewModel,
        chat: ChatService,
        settings: SettingsService,
        *,
        state_file: Path,
        icon: Path,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._window = window
        self._chat_vm = chat_vm
        self._settings = settings
        # Beside the window geometry: the "still running in the tray" hint is shown once.
        self._state = QSettings(str(state_file), QSettings.Format.IniFormat)
        self.tray = Tray(QIcon(str(icon)), self)
        self.tray.newChatRequested.connect(self.new_chat)
        self.tray.showRequested.connect(lambda: bring_forward(window))
        self.tray.quitRequested.connect(window.quit)
        self.tray.noticeClicked.connect(self.open_conversation)
        self.notifier = Notifier(self.open_conversation, fallback=self.tray.show_notice, icon=icon)
        self.notices = NoticePolicy(
            chat,
            self.notifier.show,
            attended=self.attended,
            enabled=lambda: settings.settings.desktop.notifications,
        )
        window.hide_on_close = self.closes_to_tray
        window.hiddenToTray.connect(self._hint_once)

    def attended(self, conversation_id: str) -> bool:
        """The person is looking: a Parley window is active and shows this conversation
        (the floating window shares the main window's chat)."""
        return (
            QApplication.activeWindow() is not None
            and self._chat_vm.conversationId == conversation_id
        )

    def closes_to_tray(self) -> bool:
        return self._settings.settings.desktop.close_to_tray and self.tray.available

    def open_conversation(self, conversation_id: str) -> None:
        """A notification was clicked: the main window in front, on that conversation."""
        bring_forward(self._window)
        if conversation_id:
            self._window.open_conversation(conversation_id)

    def new_chat(self) -> None:
        bring_forward(self._window)
        self._window.new_chat()

    def _hint_once(self) -> None:
        if self._state.value(HINT_KEY, False, type=bool):
            return
        self._state.setValue(HINT_KEY, True)
        self._state.sync()
        text = self.tr("Parley is still running in the tray. Quit it from the tray menu.")
        self.notifier.show(Notice("", "Parley", text))

    async def aclose(self) -> None:
        self.notices.close()
        await self.notifier.aclose()
        self.tray.close()
