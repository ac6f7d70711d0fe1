"""Settings: a list of categories on the left, the chosen page on the right (scrolling
when it is long), and a bar at the bottom that says what was saved, with Undo.

Nothing here has a Save button: every page saves a change as it is made, through the
view-models' `SettingsUndo` (`vm.undo`), which the bar and Ctrl+Z undo. Pages are in
settings_pages/; to add one, build it in `__init__` and call `add_page` where it
belongs in the list.

Keys: Up/Down in the list, or Ctrl+PgUp/Ctrl+PgDown anywhere, change the page; Ctrl+Z
undoes the last change (inside a text field it undoes the typing, as usual); Esc closes.
The page last shown is shown again when the window is opened again.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.settings_bar import SettingsBar
from desktop.ui.views.settings_pages.appearance_page import AppearancePage
from desktop.ui.views.settings_pages.assistants_page import AssistantsPage
from desktop.ui.views.settings_pages.desktop_page import DesktopPage
from desktop.ui.views.settings_pages.knowledge_page import KnowledgePage
from desktop.ui.views.settings_pages.mcp_page import McpServersPage
from desktop.ui.views.settings_pages.memory_page import MemoryPage
from desktop.ui.views.settings_pages.network_page import NetworkPage
from desktop.ui.views.settings_pages.ocr_page import OcrPage
from desktop.ui.views.settings_pages.prompts_page import PromptsPage
from desktop.ui.views.settings_pages.providers_page import ProvidersPage
from desktop.ui.views.settings_pages.sync_page import SyncPage
from desktop.ui.views.settings_pages.tools_page import ToolsPage
from desktop.ui.views.settings_pages.usage_page import UsagePage
from desktop.ui.views.settings_pages.web_search_page import WebSearchPage

PREFERRED_SIZE = (980, 700)  # the first size, when the screen has room for it
SCREEN_MARGIN = 48  # px kept free around the window on a smaller screen
NAV_PADDING = 56  # px around the longest category name: item and list padding, frame


class SettingsDialog(QDialog):
    def __init__(self, vm: SettingsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SettingsDialog")
        self.setWindowTitle(self.tr("Settings"))
        self._pages: list[QWidget] = []
        self._titles: list[str] = []
        self.nav = QListWidget(self)
        self.nav.setObjectName("SettingsNav")
        self.nav.setAccessibleName(self.tr("Settings categories"))
        self.nav.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.stack = QStackedWidget(self)
        self.title = PlainLabel("", self)
        self.title.setObjectName("SettingsPageTitle")

        # The pages, in the order the list shows them.
        self.providers = ProvidersPage(vm, self)
        self.add_page(self.providers, self.tr("Providers"))
        self.assistants = AssistantsPage(vm.assistants, self)
        self.add_page(self.assistants, self.tr("Assistants"))
        self.prompts = PromptsPage(vm.prompts, self)
        self.add_page(self.prompts, self.tr("Prompts"))
        self.knowledge = KnowledgePage(vm.knowledge, self)
        self.add_page(self.knowledge, self.tr("Knowledge"))
        self.memory = MemoryPage(vm.memory, self) if vm.memory is not None else None
        if self.memory is not None:
            self.add_page(self.memory, self.tr("Memory"))
        self.web_search = WebSearchPage(vm.web_search, self)
        self.add_page(self.web_search, self.tr("Web search"))
        self.tools = ToolsPage(vm.tools, self) if vm.tools is not None else None
        if self.tools is not None:
            self.add_page(self.tools, self.tr("Tools"))
        self.mcp = McpServersPage(vm.mcp, self) if vm.mcp is not None else None
        if self.mcp is not None:
            self.add_page(self.mcp, self.tr("MCP servers"))
        self.ocr = OcrPage(vm.ocr, self)
        self.add_page(self.ocr, self.tr("OCR"))
        self.usage = UsagePage(vm.usage, self)
        self.add_page(self.usage, self.tr("Usage && models"))
        self.appearance = AppearancePage(vm, self)
        self.add_page(self.appearance, self.tr("Appearance"))
        self.network = NetworkPage(vm, self)
        self.add_page(self.network, self.tr("Network"))
        self.sync = SyncPage(vm.sync, self) if vm.sync is not None else None
        if self.sync is not None:
            self.add_page(self.sync, self.tr("Sync"))
        self.desktop = DesktopPage(vm.desktop, self)
        self.add_page(self.desktop, self.tr("Desktop"))

        self.bar = SettingsBar(vm.undo, self)
        self.bar.close_button.clicked.connect(self.close)
        self.nav.currentRowChanged.connect(self._on_row_changed)
        self.nav.setCurrentRow(0)

        page_column = QVBoxLayout()
        page_column.setContentsMargins(20, 14, 12, 0)
        page_column.setSpacing(10)
        page_column.addWidget(self.title)
        page_column.addWidget(self.stack, 1)
        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(0)
        body.addWidget(self.nav)
        body.addLayout(page_column, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(body, 1)
        layout.addWidget(self.bar)

        for keys, step in (
            (QKeySequence(Qt.Modifier.CTRL | Qt.Key.Key_PageDown), 1),
            (QKeySequence(Qt.Modifier.CTRL | Qt.Key.Key_PageUp), -1),
        ):
            QShortcut(keys, self, lambda s=step: self._step_page(s))
        # Inside a text field Ctrl+Z is the field's own (it takes the key first).
        self.undo_shortcut = QShortcut(QKeySequence.StandardKey.Undo, self, vm.undo.undo)
        self._fit_to_screen()

    # --- pages ------------------------------------------------------------------------

    def add_page(self, page: QWidget, title: str) -> None:
        """Add `page` at the end of the list, under `title` (also its heading). A long
        page scrolls; its own buttons never become the default that Enter presses in a
        field (Enter there saves the field)."""
        title = title.replace("&&", "&")  # the names were once tab labels, "&&" escaped
        scroll = QScrollArea(self.stack)
        scroll.setObjectName("SettingsPageScroll")
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidgetResizable(True)
        scroll.setWidget(page)
        for button in page.findChildren(QPushButton):
            button.setAutoDefault(False)
        own = page.layout()
        if own is not None:  # the page's content lines up with its heading
            margins = own.contentsMargins()
            own.setContentsMargins(0, 0, margins.right(), margins.bottom())
        self.stack.addWidget(scroll)
        self._pages.append(page)
        self._titles.append(title)
        QListWidgetItem(title, self.nav)
        widest = max(self.nav.fontMetrics().horizontalAdvance(t) for t in self._titles)
        self.nav.setFixedWidth(widest + NAV_PADDING)

    def pages(self) -> list[QWidget]:
        """The pages in the order the list shows them."""
        return list(self._pages)

    def titles(self) -> list[str]:
        return list(self._titles)

    def title_of(self, page: QWidget) -> str:
        return self._titles[self._pages.index(page)]

    def current_page(self) -> QWidget:
        return self._pages[self.nav.currentRow()]

    def show_page(self, page: QWidget) -> None:
        """Turn to `page` (one of `pages()`)."""
        self.nav.setCurrentRow(self._pages.index(page))

    def _on_row_changed(self, row: int) -> None:
        if 0 <= row < len(self._pages):
            self.stack.setCurrentIndex(row)
            self.title.setText(self._titles[row])

    def _step_page(self, step: int) -> None:
        self.nav.setCurrentRow((self.nav.currentRow() + step) % len(self._pages))

    # --- the window -------------------------------------------------------------------

    def _fit_to_screen(self) -> None:
        """Open at a comfortable size, smaller on a small screen (also at 2× scaling:
        the sizes are device-independent)."""
        parent = self.parentWidget()
        screen = parent.screen() if parent is not None else QGuiApplication.primaryScreen()
        if screen is None:
            self.resize(*PREFERRED_SIZE)
            return
        area = screen.availableGeometry()
        width = min(PREFERRED_SIZE[0], area.width() - SCREEN_MARGIN)
        height = min(PREFERRED_SIZE[1], area.height() - SCREEN_MARGIN)
        self.setMinimumSize(min(480, width), min(360, height))
        self.resize(width, height)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not event.spontaneous():
            self.bar.reset()
            self.nav.setFocus()  # Up and Down change the page at once
