"""The tray icon: a way back to Parley while its window is hidden, and a menu.

A desktop without a tray host (many Wayland desktops, Xvfb) is normal, not an error: the
icon is then never shown, `available` is False, and closing the window quits Parley.
The icon doubles as the last resort for notifications (`show_notice`), whose click
opens the conversation it was about.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from desktop.engine.notices import Notice

MESSAGE_MS = 8000


class Tray(QObject):
    newChatRequested = Signal()
    showRequested = Signal()
    quitRequested = Signal()
    noticeClicked = Signal(str)  # the conversation id of the balloon clicked ("" for none)

    def __init__(self, icon: QIcon, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.available = QSystemTrayIcon.isSystemTrayAvailable()
        self.menu = QMenu()
        self.new_chat_action = self._add(self.tr("New Chat"), self.newChatRequested.emit)
        self.show_action = self._add(self.tr("Show Parley"), self.showRequested.emit)
        self.floating_action = self._add(self.tr("Floating Chat"), self._toggle_floating)
        self.floating_action.setEnabled(False)  # until there is a floating window
        self.menu.addSeparator()
        self.quit_action = self._add(self.tr("Quit Parley"), self.quitRequested.emit)
        self._floating: Callable[[], object] | None = None
        self._notice_conversation = ""
        self.icon = QSystemTrayIcon(icon, self)
        self.icon.setToolTip("Parley")
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._on_activated)
        self.icon.messageClicked.connect(lambda: self.noticeClicked.emit(self._notice_conversation))
        if self.available:
            self.icon.show()

    def _add(self, text: str, slot: Callable[[], object]) -> QAction:
        action = QAction(text, self.menu)
        action.triggered.connect(slot)
        self.menu.addAction(action)
        return action

    def set_floating_toggle(self, toggle: Callable[[], object] | None) -> None:
        """What "Floating Chat" does; None leaves the entry disabled."""
        self._floating = toggle
        self.floating_action.setEnabled(toggle is not None)

    def _toggle_floating(self) -> None:
        if self._floating is not None:
            self._floating()

    def _on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (
            QSystemTrayIcon.ActivationReason.Trigger,
            QSystemTrayIcon.ActivationReason.DoubleClick,
        ):
            self.showRequested.emit()

    def show_notice(self, notice: Notice) -> bool:
        """A balloon from the icon; False when there is no icon to show it from."""
        if not self.available or not self.icon.isVisible():
            return False
        self._notice_conversation = notice.conversation_id
        self.icon.showMessage(
            notice.title, notice.body, QSystemTrayIcon.MessageIcon.Information, MESSAGE_MS
        )
        return True

    def close(self) -> None:
        self.icon.hide()
        self.menu.deleteLater()
