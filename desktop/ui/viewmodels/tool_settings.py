"""Settings → Tools: a policy per tool and the "always allow" grants, as the person
edits them; everything is saved in `Settings.tools` at once. The list follows the MCP
servers: when one starts, stops or changes its tools, `toolsChanged` redraws it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal

from desktop.core.settings import Settings, ToolSettings
from desktop.core.tools import ToolDefinition, ToolPolicy, default_policy
from desktop.engine.settings_service import SettingsService
from desktop.engine.tools.mcp.events import McpEvent, McpServersChanged
from desktop.engine.tools.mcp.manager import McpManager
from desktop.engine.tools.service import ToolService
from desktop.ui.viewmodels.settings_undo import SettingsUndo


@dataclass(frozen=True, slots=True)
class ToolRow:
    definition: ToolDefinition
    policy: ToolPolicy  # what the person chose, or the default for its risk


class ToolSettingsModel(QObject):
    changed = Signal()
    toolsChanged = Signal()  # the tools themselves, not only policies or grants
    saveFailed = Signal(str)

    def __init__(
        self,
        settings: SettingsService,
        tools: ToolService,
        parent: QObject | None = None,
        *,
        mcp: McpManager | None = None,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = settings
        self._tools = tools
        self._undo = undo  # the Settings window's history: every change can be undone
        settings.changed.subscribe(self._on_settings_changed)
        if mcp is not None:
            mcp.events.subscribe(self._on_mcp_event)

    @property
    def _current(self) -> ToolSettings:
        return self._settings.settings.tools

    def rows(self) -> list[ToolRow]:
        chosen = self._current.policies
        return [
            ToolRow(d, chosen.get(d.name) or d.policy or default_policy(d.risk))
            for d in self._tools.definitions(workspace=True)
        ]

    def grants(self) -> list[str]:
        """Names of the tools the person always allows, sorted."""
        return sorted(self._current.always_allow)

    def set_policy(self, name: str, policy: ToolPolicy) -> None:
        policies = {**self._current.policies, name: policy}
        self._save(replace(self._current, policies=policies))

    def remove_grant(self, name: str) -> None:
        grants = {k: v for k, v in self._current.always_allow.items() if k != name}
        self._save(replace(self._current, always_allow=grants))

    def _save(self, tools: ToolSettings) -> None:
        changed = replace(self._settings.settings, tools=tools)
        if self._undo is not None:
            self._undo.save(changed)  # a failure is said in the window's bar
            return
        try:
            self._settings.save(changed)
        except Exception as error:  # an unwritable settings file
            self.saveFailed.emit(str(error))

    def _on_settings_changed(self, _settings: Settings) -> None:
        self.changed.emit()

    def _on_mcp_event(self, event: McpEvent) -> None:
        if isinstance(event, McpServersChanged):
            self._tools.refresh_listed()
            self.toolsChanged.emit()
