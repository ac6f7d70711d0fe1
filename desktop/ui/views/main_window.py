"""The main window: sidebar | chat, menus, error messages, the About box, and the
habits of a desktop window: a sidebar that hides, text that zooms, full screen, Tab
that follows the screen."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QRect, QSettings, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QCursor,
    QDesktopServices,
    QGuiApplication,
    QIcon,
    QKeySequence,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QGridLayout,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QWidget,
)

from desktop import __version__
from desktop.core.models import Role
from desktop.core.settings import Language
from desktop.ui.fonts import missing_cjk_font_notice
from desktop.ui.resources import resource_path
from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.conversations import ConversationListModel
from desktop.ui.viewmodels.import_export import ImportExportViewModel
from desktop.ui.viewmodels.search import SearchModel
from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.viewmodels.text_zoom import TextZoom
from desktop.ui.viewmodels.transfer import TransferViewModel
from desktop.ui.views.chat_view import ChatView
from desktop.ui.views.focus_ring import FocusRing
from desktop.ui.views.import_dialog import ImportDialog
from desktop.ui.views.labels import escape, message_box
from desktop.ui.views.main_menus import MainMenus
from desktop.ui.views.settings_pages.mcp_page import McpConsentPrompt
from desktop.ui.views.shortcuts_dialog import ShortcutsDialog
from desktop.ui.views.sidebar import Sidebar
from desktop.ui.views.summary_divider import CompressDialog
from desktop.ui.views.tab_order import next_in_reading_order
from desktop.ui.views.window_geometry import (
    MAIN_MIN_SIZE,
    area_for,
    clamp,
    first_main_rect,
    minimum_within,
)

if TYPE_CHECKING:
    from desktop.ui.views.backup_opener import BackupOpener
    from desktop.ui.views.settings_dialog import SettingsDialog


log = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    closed = Signal()
    hiddenToTray = Signal()  # closed while it only hides (close to tray)
    floatingRequested = Signal()  # show or hide the floating chat (app.py owns it)

    def __init__(
        self,
        chat: ChatViewModel,
        conversations: ConversationListModel,
        search: SearchModel,
        transfer: TransferViewModel,
        settings: SettingsViewModel,
        log_folder: Path,
        parent: QWidget | None = None,
        *,
        importer: ImportExportViewModel | None = None,
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._transfer = transfer
        self._importer = importer  # File → Import from Another App…
        self.import_dialog: ImportDialog | None = None
        self.backups: BackupOpener | None = None  # File → Back Up… (set by the app)
        self._settings = settings
        self._log_folder = log_folder
        self._settings_dialog: SettingsDialog | None = None
        # a conversation wants an MCP server never allowed to run: ask, without blocking
        self.mcp_consent = (
            McpConsentPrompt(settings.mcp, self) if settings.mcp is not None else None
        )
        self._export_target = ""  # a chat picked in the sidebar, else the open one
        # Asked on every close: True hides the window instead (close to tray, set by the
        # app while a tray icon can bring it back); quit() always really closes.
        self.hide_on_close: Callable[[], bool] = lambda: False
        self._quitting = False
        self.setWindowTitle("Parley")
        self.setWindowIcon(QIcon(str(resource_path("icons", "parley.svg"))))
        area = self._screen_area(None)
        self.setMinimumSize(minimum_within(MAIN_MIN_SIZE, area))
        self.setGeometry(first_main_rect(area))  # until a saved geometry is restored

        self.sidebar = Sidebar(conversations, search, self)
        self.chat_view = ChatView(chat, self, local_servers=settings.local_servers)
        splitter = self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setHandleWidth(1)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.sidebar)
        splitter.addWidget(self.chat_view)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 840])
        self.setCentralWidget(splitter)
        app = QApplication.instance()
        self.focus_ring = FocusRing(app, self) if isinstance(app, QApplication) else None
        self.zoom = TextZoom(settings, lambda: QApplication.font().pointSize(), self)
        self._restyle = QTimer(self)  # one restyle for a burst of font changes
        self._restyle.setSingleShot(True)
        self._restyle.setInterval(0)
        self._restyle.timeout.connect(self._apply_font_everywhere)
        self._build_menus()
        self._window_state = QSettings(
            str(log_folder.parent / "window.ini"), QSettings.Format.IniFormat
        )
        self._splitter_restored = False
        self._restore_window_state()

        self.sidebar.conversationChosen.connect(self.open_conversation)
        self.sidebar.searchHitChosen.connect(self.open_conversation_at)
        self.sidebar.exportRequested.connect(self._export_menu_for)
        transfer.failed.connect(self.show_error)
        transfer.exported.connect(
            lambda path: self.statusBar().showMessage(
                self.tr("Exported to %1").replace("%1", path), 6000
            )
        )
        transfer.imported.connect(self._on_imported)
        self.sidebar.newChatRequested.connect(self.new_chat)
        self.chat_view.setupRequested.connect(lambda: self.show_settings(new_provider=True))
        chat.conversationIdChanged.connect(self.sidebar.set_current)
        chat.errorOccurred.connect(self.show_error)
        chat.messageSaved.connect(
            lambda path: self.statusBar().showMessage(
                self.tr("Saved to %1").replace("%1", path), 6000
            )
        )
        conversations.errorOccurred.connect(self.show_error)
        settings.saveFailed.connect(self._on_settings_save_failed)
        self._font_notice = ""
        self._update_banner()
        settings.providersChanged.connect(self._update_banner)

    def _update_banner(self) -> None:
        notices = (self._settings.load_problem, self._font_notice)
        self.chat_view.show_banner("\n\n".join(text for text in notices if text))

    def check_fonts(self) -> None:
        """Say that CJK text will be boxes: once for this data folder, or at every start
        while Chinese is chosen (the window is in English for want of the font)."""
        told = self._window_state.value("notices/cjk_font_missing", False, bool)
        if told and self._settings.chosen_language != Language.CHINESE_SIMPLIFIED:
            return
        self._font_notice = missing_cjk_font_notice()
        if self._font_notice:
            log.warning("no font for CJK text: %s", self._font_notice)
            self._window_state.setValue("notices/cjk_font_missing", True)
            self._window_state.sync()
            self._update_banner()

    def compress_conversation(self) -> CompressDialog:
        """Summarise all but the last few messages now, with optional instructions
        (also offered on the summary divider once a summary exists)."""
        dialog = CompressDialog(self._chat.context, self)
        dialog.show()
        return dialog

    def _build_menus(self) -> None:
        menus = self.menus = MainMenus(self, self.zoom)
        self.export_menu = menus.export_menu
        self._fill_export_menu(self.export_menu)
        self.export_menu.triggered.connect(self._on_export_chosen)
        menus.file_menu.aboutToShow.connect(self._update_export_menu)
        self.edit_last_action = menus.edit_last
        self.compress_action = menus.compress
        self.floating_action = menus.floating
        self.sidebar_action = menus.sidebar
        self.full_screen_action = menus.full_screen

    @property
    def chat(self) -> ChatViewModel:
        return self._chat

    def global_floating_keys(self) -> list[QKeySequence]:
        """The floating chat's shortcut from any application, as set in Settings."""
        keys = self._settings.desktop.settings.floating_shortcut
        return [QKeySequence(keys)] if keys else []

    # --- export and import ----------------------------------------------------------

    def _fill_export_menu(self, menu: QMenu) -> None:
        """The four export choices; each action carries (markdown, branch_only) as data."""
        choices = (
            (self.tr("Markdown — this branch…"), True, True),
            (self.tr("Markdown — all versions…"), True, False),
            (self.tr("Parley JSON — whole chat…"), False, False),
            (self.tr("Parley JSON — this branch…"), False, True),
        )
        for text, markdown, branch_only in choices:
            action = QAction(text, menu)
            action.setData((markdown, branch_only))
            menu.addAction(action)

    def _on_export_chosen(self, action: QAction) -> None:
        markdown, branch_only = action.data()
        self.export_chat(self._export_target or self._chat.conversationId, markdown, branch_only)
        self._export_target = ""

    def _export_menu_for(self, conversation_id: str) -> None:
        """Export from the sidebar's context menu: the same choices, for that chat."""
        self._export_target = conversation_id
        self.export_menu.popup(QCursor.pos())

    def _update_export_menu(self) -> None:
        self.export_menu.setEnabled(bool(self._chat.conversationId))

    def export_chat(self, conversation_id: str, markdown: bool, branch_only: bool) -> None:
        if not conversation_id:
            return
        title = self.sidebar_title(conversation_id) or "chat"
        safe = "".join(c if c.isalnum() or c in " -_" else "_" for c in title).strip()[:60]
        suffix = ".md" if markdown else ".json"
        dialog = QFileDialog(self, self.tr("Export Chat"), str(Path.home() / f"{safe}{suffix}"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilter(
            self.tr("Markdown (*.md)") if markdown else self.tr("Parley JSON (*.json)")
        )
        dialog.setDefaultSuffix(suffix[1:])
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(
            lambda path: self._transfer.export_conversation(
                conversation_id, path, markdown, branch_only
            )
        )
        dialog.open()

    def import_chat(self) -> None:
        dialog = QFileDialog(self, self.tr("Import Chat"), str(Path.home()))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilter(self.tr("Parley JSON (*.json)"))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self._transfer.import_file)
        dialog.open()

    def import_from_app(self) -> QFileDialog | None:
        """Pick another app's export: a zip or JSON file, or a folder (Jan's threads/)
        through the dialog's "Choose a Folder Instead" button; then the import window."""
        if self._importer is None:
            return None
        if self.import_dialog is not None and self._importer.busy:
            self.import_dialog.raise_()  # one import at a time
            self.import_dialog.activateWindow()
            return None
        dialog = QFileDialog(self, self.tr("Import from Another App"), str(Path.home()))
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # for the folder button
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        files_filter = self.tr("Exports (*.zip *.json)")
        dialog.setNameFilters([files_filter, self.tr("All files (*)")])
        folder = QPushButton(self.tr("Choose a Folder Instead"), dialog)

        def toggle_folder() -> None:
            if dialog.fileMode() == QFileDialog.FileMode.Directory:
                dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
                dialog.setNameFilters([files_filter, self.tr("All files (*)")])
                folder.setText(self.tr("Choose a Folder Instead"))
            else:
                dialog.setFileMode(QFileDialog.FileMode.Directory)
                folder.setText(self.tr("Choose a File Instead"))

        folder.clicked.connect(toggle_folder)
        grid = dialog.layout()
        if isinstance(grid, QGridLayout):
            grid.addWidget(folder, grid.rowCount(), 0, 1, grid.columnCount())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self.import_export_at)
        dialog.open()
        return dialog

    def back_up(self) -> object:
        return self.backups.open() if self.backups is not None else None

    def restore_backup(self) -> object:
        return self.backups.open(restore=True) if self.backups is not None else None

    def import_export_at(self, path: str) -> ImportDialog | None:
        """Read the export at `path` into the import window's preview."""
        if self._importer is None:
            return None
        if self.import_dialog is None:
            self.import_dialog = ImportDialog(self._importer, self)
            self.import_dialog.openRequested.connect(self.open_conversation)
        self._importer.choose(path)
        self.import_dialog.show()
        self.import_dialog.raise_()
        self.import_dialog.activateWindow()
        return self.import_dialog

    def _on_imported(self, conversation_id: str, added: int, skipped: int) -> None:
        self.open_conversation(conversation_id)
        text = (
            self.tr("Imported %1 messages.").replace("%1", str(added))
            if added
            else self.tr("This chat was already here; nothing new to import.")
        )
        self.statusBar().showMessage(text, 8000)

    def sidebar_title(self, conversation_id: str) -> str:
        return self.sidebar.title_of(conversation_id)

    # --- navigation ---------------------------------------------------------------

    def open_conversation(self, conversation_id: str) -> None:
        self._chat.open_conversation(conversation_id)
        self.chat_view.focus_composer()

    def open_conversation_at(self, conversation_id: str, message_id: str) -> None:
        """Open a chat scrolled to one message (a search hit)."""
        self._chat.open_conversation(conversation_id, message_id)
        self.chat_view.focus_composer()

    def edit_last_message(self) -> None:
        message_id = self._chat.last_message_id(Role.USER)
        if message_id:
            self.chat_view.transcript.start_edit(message_id)

    def new_chat(self) -> None:
        self._chat.new_chat()
        self.chat_view.focus_composer()

    def focus_search(self) -> None:
        self.set_sidebar_shown(True)
        self.sidebar.focus_search()

    def insert_prompt(self) -> None:
        self.chat_view.composer.open_prompt_menu()

    def show_prompt_settings(self) -> None:
        """Settings on its Prompts page (the empty "/" list offers it)."""
        self.show_settings()
        dialog = self._settings_dialog
        if dialog is not None:
            dialog.show_page(dialog.prompts)

    # --- view -----------------------------------------------------------------------

    def set_sidebar_shown(self, shown: bool) -> None:
        """Show or hide the chat list; the chat takes its room. Kept across restarts."""
        focused = QApplication.focusWidget()
        if not shown and focused is not None and self.sidebar.isAncestorOf(focused):
            self.chat_view.focus_composer()
        self.sidebar.setVisible(shown)
        self.sidebar_action.setChecked(shown)

    def set_full_screen(self, on: bool) -> None:
        state = self.windowState()
        if on != bool(state & Qt.WindowState.WindowFullScreen):
            self.setWindowState(state ^ Qt.WindowState.WindowFullScreen)
        self.full_screen_action.setChecked(on)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.WindowStateChange:
            self.full_screen_action.setChecked(self.isFullScreen())

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ApplicationFontChange:
            self._restyle.start()
        return super().event(event)

    def _apply_font_everywhere(self) -> None:
        """A new text size (zoom, Settings → Appearance) reaches every widget.

        Qt does not pass a changed application font on to widgets under an application
        style sheet: they keep the size they were polished with. Setting the style sheet
        again polishes them anew, at the new size (in all windows, once per change)."""
        app = QApplication.instance()
        if isinstance(app, QApplication) and app.styleSheet():
            app.setStyleSheet(app.styleSheet())

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab goes where the eye goes (see `tab_order`)."""
        current = QApplication.focusWidget() or self.focusWidget()
        target = next_in_reading_order(self, current, next)
        if target is None:
            return super().focusNextPrevChild(next)
        reason = Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason
        target.setFocus(reason)
        return True

    def show_settings(self, new_provider: bool = False) -> None:
        if self._settings_dialog is None:
            # Built, and its nine pages imported, when first opened, not at start.
            from desktop.ui.views.settings_dialog import SettingsDialog

            self._settings_dialog = SettingsDialog(self._settings, self)
        if new_provider is True:
            self._settings_dialog.show_page(self._settings_dialog.providers)
            self._settings_dialog.providers.start_new()
        self._settings_dialog.show()
        self._settings_dialog.raise_()
        self._settings_dialog.activateWindow()

    # --- messages -----------------------------------------------------------------

    def show_error(self, message: str) -> None:
        """Non-modal: an error never blocks the rest of the app. Its text is shown as it
        is: it often carries a server's or a file's own words."""
        box = message_box(QMessageBox.Icon.Warning, "Parley", message, parent=self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setModal(False)
        box.show()

    def _on_settings_save_failed(self, message: str) -> None:
        if self._settings_dialog is None or not self._settings_dialog.isVisible():
            self.show_error(message)

    def show_shortcuts(self) -> ShortcutsDialog:
        dialog = ShortcutsDialog(self.menus.shortcut_sections(), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def open_log_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._log_folder)))

    def show_about(self) -> None:
        box = QMessageBox(self)
        box.setTextFormat(Qt.TextFormat.RichText)  # Parley's markup; the path is escaped
        box.setWindowTitle(self.tr("About Parley"))
        box.setIconPixmap(self.windowIcon().pixmap(64, 64))
        box.setText(
            self.tr(
                "<h3>Parley %1</h3><p>A native desktop chat client for large language models."
                "</p><p>Logs: %2</p>"
            )
            .replace("%1", __version__)
            .replace("%2", escape(str(self._log_folder)))
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def _screen_area(self, rect: QRect | None) -> QRect:
        """The free area of the screen showing most of `rect` (where the window opens,
        without one), in logical pixels: at 2× scaling a 1280×720 screen is 640×360."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        fallback = screen.availableGeometry() if screen is not None else QRect(0, 0, 1024, 768)
        if rect is None:
            return fallback
        areas = [s.availableGeometry() for s in QGuiApplication.screens()]
        return area_for(rect, areas, fallback)

    def _restore_window_state(self) -> None:
        """Size, position and sidebar as the person left them; a size from a bigger
        screen (or a lower scale) shrinks to fit the one the window comes back on."""
        geometry = self._window_state.value("main/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
            if not self.windowState() & (
                Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen
            ):
                area = self._screen_area(self.geometry())
                self.setMinimumSize(minimum_within(MAIN_MIN_SIZE, area))
                self.setGeometry(clamp(self.geometry(), area))
        self.full_screen_action.setChecked(self.isFullScreen())
        shown = self._window_state.value("main/sidebar", True, bool)
        self.set_sidebar_shown(bool(shown))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._splitter_restored:  # only once laid out at its real size
            self._splitter_restored = True
            self._log_geometry()
            state = self._window_state.value("main/splitter")
            if isinstance(state, QByteArray) and not state.isEmpty():
                self.splitter.restoreState(state)
                self.sidebar.setVisible(self.sidebar_action.isChecked())  # as hidden or not
            self._reopen_last_chat()

    def _log_geometry(self) -> None:
        """Where the window opened, for a report of a window that did not fit."""
        rect, area = self.geometry(), self._screen_area(self.geometry())
        screen = self.screen()
        log.info(
            "main window %dx%d at %d,%d; screen area %dx%d at %d,%d, scale %g",
            rect.width(),
            rect.height(),
            rect.x(),
            rect.y(),
            area.width(),
            area.height(),
            area.x(),
            area.y(),
            screen.devicePixelRatio() if screen is not None else 1.0,
        )

    def _reopen_last_chat(self) -> None:
        """The chat that was open when Parley last quit, as the first window shows it
        (one deleted since leaves a new chat; one already opened stays)."""
        last = self._window_state.value("main/conversation")
        if isinstance(last, str) and last and not self._chat.conversationId:
            self.open_conversation(last)

    def _save_window_state(self) -> None:
        self._window_state.setValue("main/geometry", self.saveGeometry())
        self._window_state.setValue("main/splitter", self.splitter.saveState())
        self._window_state.setValue("main/sidebar", self.sidebar_action.isChecked())
        self._window_state.setValue("main/conversation", self._chat.conversationId)
        self._window_state.sync()

    def quit(self) -> None:
        """Close for real, even when closing would only hide the window."""
        self._quitting = True
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._quitting and self.hide_on_close():
            self._save_window_state()
            event.ignore()
            self.hide()
            self.hiddenToTray.emit()
            return
        self._save_window_state()
        if self._settings_dialog is not None:
            self._settings_dialog.close()
        super().closeEvent(event)
        self.closed.emit()
