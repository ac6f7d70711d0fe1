"""Settings: providers, assistants, knowledge libraries, memories, web search, appearance,
network, tools, MCP servers, OCR and desktop integration, one page each (see
settings_pages/)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTabWidget, QVBoxLayout, QWidget

from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.views.settings_pages.appearance_page import AppearancePage
from desktop.ui.views.settings_pages.assistants_page import AssistantsPage
from desktop.ui.views.settings_pages.desktop_page import DesktopPage
from desktop.ui.views.settings_pages.knowledge_page import KnowledgePage
from desktop.ui.views.settings_pages.mcp_page import McpServersPage
from desktop.ui.views.settings_pages.memory_page import MemoryPage
from desktop.ui.views.settings_pages.network_page import NetworkPage
from desktop.ui.views.settings_pages.ocr_page import OcrPage
from desktop.ui.views.settings_pages.providers_page import ProvidersPage
from desktop.ui.views.settings_pages.tools_page import ToolsPage
from desktop.ui.views.settings_pages.usage_page import UsagePage
from desktop.ui.views.settings_pages.web_search_page import WebSearchPage


class SettingsDialog(QDialog):
    def __init__(self, vm: SettingsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.resize(900, 620)
        self.tabs = QTabWidget(self)
        self.providers = ProvidersPage(vm, self)
        self.appearance = AppearancePage(vm, self)
        self.network = NetworkPage(vm, self)
        self.tabs.addTab(self.providers, self.tr("Providers"))
        self.tabs.addTab(self.appearance, self.tr("Appearance"))
        self.tabs.addTab(self.network, self.tr("Network"))
        self.assistants = AssistantsPage(vm.assistants, self)
        self.tabs.addTab(self.assistants, self.tr("Assistants"))
        self.knowledge = KnowledgePage(vm.knowledge, self)
        self.tabs.addTab(self.knowledge, self.tr("Knowledge"))
        self.memory = MemoryPage(vm.memory, self) if vm.memory is not None else None
        if self.memory is not None:
            self.tabs.addTab(self.memory, self.tr("Memory"))
        self.web_search = WebSearchPage(vm.web_search, self)
        self.tabs.addTab(self.web_search, self.tr("Web search"))
        self.tools = ToolsPage(vm.tools, self) if vm.tools is not None else None
        if self.tools is not None:
            self.tabs.addTab(self.tools, self.tr("Tools"))
        self.mcp = McpServersPage(vm.mcp, self) if vm.mcp is not None else None
        if self.mcp is not None:
            self.tabs.addTab(self.mcp, self.tr("MCP servers"))
        self.ocr = OcrPage(vm.ocr, self)
        self.tabs.addTab(self.ocr, self.tr("OCR"))
        self.usage = UsagePage(vm.usage, self)
        self.tabs.addTab(self.usage, self.tr("Usage && models"))
        self.desktop = DesktopPage(vm.desktop, self)
        self.tabs.addTab(self.desktop, self.tr("Desktop"))
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(close)
