"""The main window: sidebar | chat, menus, error messages, the About box."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt, QUrl, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QIcon,
    QKeySequence,
    QShowEvent,
)
from PySide6.QtWidgets import QMainWindow, QMessageBox, QSplitter, QWidget

from desktop import __version__
from desktop.ui.resources import resource_path
from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.conversations import ConversationListModel
from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.views.chat_view import ChatView
from desktop.ui.views.settings_dialog import SettingsDialog
from desktop.ui.views.sidebar import Sidebar


class MainWindow(QMainWindow):
    closed = Signal()

    def __init__(
        self,
        chat: ChatViewModel,
        conversations: ConversationListModel,
        settings: SettingsViewModel,
        log_folder: Path,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._settings = settings
        self._log_folder = log_folder
        self._settings_dialog: SettingsDialog | None = None
        self.setWindowTitle("Parley")
        self.setWindowIcon(QIcon(str(resource_path("icons", "parley.svg"))))
        self.resize(1100, 720)
        self.setMinimumSize(640, 420)

        self.sidebar = Sidebar(conversations, self)
        self.chat_view = ChatView(chat, self)
        splitter = self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setHandleWidth(1)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.sidebar)
        splitter.addWidget(self.chat_view)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 840])
        self.setCentralWidget(splitter)
        self._build_menus()
        self._window_state = QSettings(
            str(log_folder.parent / "window.ini"), QSettings.Format.IniFormat
        )
        self._splitter_restored = False
        self._restore_window_state()

        self.sidebar.conversationChosen.connect(self.open_conversation)
        self.sidebar.newChatRequested.connect(self.new_chat)
        self.chat_view.setupRequested.connect(lambda: self.show_settings(new_provider=True))
        chat.conversationIdChanged.connect(self.sidebar.set_current)
        chat.errorOccurred.connect(self.show_error)
        conversations.errorOccurred.connect(self.show_error)
        settings.saveFailed.connect(self._on_settings_save_failed)
        self.chat_view.show_banner(settings.load_problem)
        settings.providersChanged.connect(lambda: self.chat_view.show_banner(settings.load_problem))

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self._action(file_menu, self.tr("&New Chat"), self.new_chat, QKeySequence.StandardKey.New)
        self._action(
            file_menu,
            self.tr("&Settings…"),
            self.show_settings,
            QKeySequence.StandardKey.Preferences,
        ).setShortcuts([QKeySequence.StandardKey.Preferences, QKeySequence("Ctrl+,")])
        file_menu.addSeparator()
        self._action(file_menu, self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        self._action(help_menu, self.tr("Open &Log Folder"), self.open_log_folder)
        self._action(help_menu, self.tr("&About Parley"), self.show_about)

    def _action(self, menu, text: str, slot, shortcut=None) -> QAction:  # type: ignore[no-untyped-def]
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    # --- navigation ---------------------------------------------------------------

    def open_conversation(self, conversation_id: str) -> None:
        self._chat.open_conversation(conversation_id)
        self.chat_view.focus_composer()

    def new_chat(self) -> None:
        self._chat.new_chat()
        self.chat_view.focus_composer()

    def show_settings(self, new_provider: bool = False) -> None:
        if self._settings_dialog is None:
            self._settings_dialog = SettingsDialog(self._settings, self)
        if new_provider is True:
            self._settings_dialog.providers.start_new()
        self._settings_dialog.show()
        self._settings_dialog.raise_()
        self._settings_dialog.activateWindow()

    # --- messages -----------------------------------------------------------------

    def show_error(self, message: str) -> None:
        """Non-modal: an error never blocks the rest of the app."""
        box = QMessageBox(
            QMessageBox.Icon.Warning, "Parley", message, QMessageBox.StandardButton.Ok, self
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setModal(False)
        box.show()

    def _on_settings_save_failed(self, message: str) -> None:
        if self._settings_dialog is None or not self._settings_dialog.isVisible():
            self.show_error(message)

    def open_log_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._log_folder)))

    def show_about(self) -> None:
        box = QMessageBox(self)
        box.setWindowTitle(self.tr("About Parley"))
        box.setIconPixmap(self.windowIcon().pixmap(64, 64))
        box.setText(
            self.tr(
                "<h3>Parley %1</h3><p>A native desktop chat client for large language models."
                "</p><p>Logs: %2</p>"
            )
            .replace("%1", __version__)
            .replace("%2", str(self._log_folder))
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def _restore_window_state(self) -> None:
        """Size, position and sidebar width as the person left them (kept on screen by Qt)."""
        geometry = self._window_state.value("main/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._splitter_restored:  # only once laid out at its real size
            self._splitter_restored = True
            state = self._window_state.value("main/splitter")
            if isinstance(state, QByteArray) and not state.isEmpty():
                self.splitter.restoreState(state)

    def _save_window_state(self) -> None:
        self._window_state.setValue("main/geometry", self.saveGeometry())
        self._window_state.setValue("main/splitter", self.splitter.saveState())
        self._window_state.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._save_window_state()
        if self._settings_dialog is not None:
            self._settings_dialog.close()
        super().closeEvent(event)
        self.closed.emit()
