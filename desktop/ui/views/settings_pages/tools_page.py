"""Settings → Tools: each tool with what it does, its risk and Auto / Ask / Off, and
the tools the person always allows, each with Remove. The list is drawn again when an
MCP server starts or stops, so its tools appear and go while the page is open."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop.core.tools import BUILTIN_SOURCE, ToolPolicy, ToolRisk
from desktop.ui.viewmodels.tool_settings import ToolSettingsModel
from desktop.ui.views.labels import MarkupLabel, PlainLabel, escape


class ToolsPage(QWidget):
    def __init__(self, model: ToolSettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.selectors: dict[str, QComboBox] = {}
        intro = PlainLabel(
            self.tr(
                "Auto runs a tool when the model asks; Ask shows you the call first; "
                "Off never offers it. Tools that change files or run commands ask by default."
            ),
            self,
        )
        intro.setWordWrap(True)
        self._scroll = QScrollArea(self)
        self._scroll.setWidgetResizable(True)
        self._show_tools()

        self.grants_box = QGroupBox(self.tr("Always allowed"), self)
        self._grants = QVBoxLayout(self.grants_box)
        self.grant_rows: dict[str, QWidget] = {}

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self._scroll, 1)
        layout.addWidget(self.grants_box)
        model.changed.connect(self._show_grants)
        model.toolsChanged.connect(self._show_tools)
        self._show_grants()

    def _show_tools(self) -> None:
        model = self._model
        self.selectors = {}
        table = QWidget()
        grid = QGridLayout(table)
        grid.setColumnStretch(1, 1)
        for row, tool in enumerate(model.rows()):
            definition = tool.definition
            name = MarkupLabel(f"<b>{escape(definition.name)}</b>", table)
            source = "" if definition.source == BUILTIN_SOURCE else f" · {definition.source}"
            about = PlainLabel(
                f"{definition.description}\n{self._risk(definition.risk)}{source}", table
            )
            about.setWordWrap(True)
            about.setObjectName("MetaLabel")
            selector = QComboBox(table)
            selector.setObjectName(f"policy_{definition.name}")
            for policy, text in (
                (ToolPolicy.AUTO, self.tr("Auto")),
                (ToolPolicy.ASK, self.tr("Ask")),
                (ToolPolicy.OFF, self.tr("Off")),
            ):
                selector.addItem(text, policy.value)
            selector.setCurrentIndex(selector.findData(tool.policy.value))
            selector.currentIndexChanged.connect(
                lambda _i, n=definition.name, s=selector: model.set_policy(
                    n, ToolPolicy(s.currentData())
                )
            )
            self.selectors[definition.name] = selector
            grid.addWidget(name, row, 0)
            grid.addWidget(about, row, 1)
            grid.addWidget(selector, row, 2)
        grid.setRowStretch(grid.rowCount(), 1)
        old = self._scroll.takeWidget()
        self._scroll.setWidget(table)
        if old is not None:
            old.deleteLater()

    def _risk(self, risk: ToolRisk) -> str:
        return {
            ToolRisk.READ: self.tr("Reads only"),
            ToolRisk.WRITE: self.tr("Changes files"),
            ToolRisk.SHELL: self.tr("Runs commands"),
        }[risk]

    def _show_grants(self) -> None:
        for row in self.grant_rows.values():
            row.deleteLater()
        self.grant_rows = {}
        while self._grants.count():
            item = self._grants.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        grants = self._model.grants()
        if not grants:
            self._grants.addWidget(
                PlainLabel(self.tr("No tool is always allowed."), self.grants_box)
            )
        for name in grants:
            row = QWidget(self.grants_box)
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.addWidget(PlainLabel(name, row), 1)
            remove = QPushButton(self.tr("Remove"), row)
            remove.clicked.connect(lambda _c=False, n=name: self._model.remove_grant(n))
            line.addWidget(remove)
            self._grants.addWidget(row)
            self.grant_rows[name] = row
