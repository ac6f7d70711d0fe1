"""`ToolService`: which tools a conversation gets, and the person's policy for each."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from desktop.core.dispatch import EventBus
from desktop.core.models import Conversation
from desktop.core.paths import DataPaths
from desktop.core.search import SearchHit, SearchScope
from desktop.core.settings import Settings
from desktop.core.tools import MCP_PREFIX, ToolDefinition, ToolPolicy, named_server
from desktop.engine.tools.builtin import BUILTIN_TOOLS
from desktop.engine.tools.builtin.web import WEB_FETCH, WEB_SEARCH
from desktop.engine.tools.outputs import OUTPUTS_FOLDER
from desktop.engine.tools.registry import Tool, Toolbox, ToolContext
from desktop.engine.tools.web_port import Web
from desktop.storage.database import Database
from desktop.storage.search import search

MAX_TOOL_STEPS = 256  # model/tool steps per generation

Search = Callable[[str, int, SearchScope], list[SearchHit]]


class SettingsStore(Protocol):
    """Where tool policies and grants are read and saved (the settings service)."""

    @property
    def settings(self) -> Settings: ...

    def save(self, settings: Settings) -> None: ...


class ToolSource(Protocol):
    """Tools that exist only while something runs (an MCP server's), listed anew for
    every generation; `ToolService.prepare()` asks each source."""

    async def tools(self) -> Sequence[Tool]: ...

    def listed(self) -> Sequence[Tool]:
        """The tools as last listed, without starting anything (for Settings)."""
        ...


class ToolService:
    """Built-in tools (plus `extra` ones, such as a server's) and their policies.

    `search` answers conversation search (query, limit) -> hits as plain dicts.
    """

    def __init__(
        self,
        paths: DataPaths,
        settings: SettingsStore,
        *,
        search: Search | None = None,
        extra: Sequence[Tool] = (),
        sources: Sequence[ToolSource] = (),
        web: Web | None = None,
    ) -> None:
        self._paths = paths
        self._settings = settings
        self._search = search
        self._web = web
        self._tools: dict[str, Tool] = {t.name: t for t in (*BUILTIN_TOOLS, *extra)}
        self._extra = tuple(extra)
        self._sources = tuple(sources)
        # The tools known changed (a server listed its tools, or stopped): a call shown
        # before its tool was known can now be shown as what it is.
        self.changed: EventBus[None] = EventBus()

    @property
    def data_root(self) -> Path:
        return self._paths.root

    def definitions(self, workspace: bool = True) -> list[ToolDefinition]:
        return [t.definition for t in self._tools.values() if workspace or not t.needs_workspace]

    def definition(self, name: str) -> ToolDefinition | None:
        tool = self._tools.get(name)
        return tool.definition if tool else None

    def source_of(self, name: str) -> str:
        """Where the tool called `name` comes from, also while it is not known: an MCP
        tool's name begins with its server's, which settings name ("" if unknown)."""
        definition = self.definition(name)
        if definition is not None:
            return definition.source
        servers = self._settings.settings.mcp_servers
        owners = [s for s in servers if name.startswith(f"{MCP_PREFIX}{s.id}__")]
        if owners:
            return max(owners, key=lambda s: len(s.id)).name
        return named_server(name) or ""

    def set_tools(self, tools: Sequence[Tool]) -> None:
        """Replace the extra tools (a server connected or changed its tools)."""
        before = self._tools
        self._tools = {t.name: t for t in (*BUILTIN_TOOLS, *tools)}
        if [t.definition for t in before.values()] != [t.definition for t in self._tools.values()]:
            self.changed.emit(None)

    async def prepare(self) -> None:
        """List the sources' tools again before a generation picks its toolbox (this is
        when MCP servers start, lazily)."""
        if not self._sources:
            return
        listed = [tool for source in self._sources for tool in await source.tools()]
        self.set_tools([*self._extra, *listed])

    def refresh_listed(self) -> None:
        """Take the sources' tools as they are now (a server started, stopped or changed
        its tools) without starting anything, so Settings shows what exists."""
        if self._sources:
            listed = [tool for source in self._sources for tool in source.listed()]
            self.set_tools([*self._extra, *listed])

    def toolbox(self, conversation: Conversation | None) -> Toolbox:
        """The tools offered for one request of this conversation, minus those turned
        off; grants for definitions that changed are dropped first."""
        self._drop_stale_grants()
        return self.offered(conversation)

    def offered(self, conversation: Conversation | None) -> Toolbox:
        """The tools a request of this conversation would be offered now, changing
        nothing (no server is started, no setting saved): for an estimate."""
        workspace = (
            Path(conversation.workspace) if conversation and conversation.workspace else None
        )
        policies = self._settings.settings.tools
        unset = self._web_tools_unset()
        chosen = {
            name: tool
            for name, tool in self._tools.items()
            if (workspace is not None or not tool.needs_workspace)
            and name not in unset
            and policies.policy(tool.definition) is not ToolPolicy.OFF
        }
        context = ToolContext(
            conversation_id=conversation.id if conversation else "",
            workspace=workspace,
            outputs_dir=self._paths.root / OUTPUTS_FOLDER,
            offered=tuple(t.definition for t in chosen.values()),
            search=self._search,
            web=self._web,
        )
        return Toolbox(chosen, context)

    def _web_tools_unset(self) -> set[str]:
        """The web tools the person has not set up: no engine, or pages not allowed."""
        web = self._settings.settings.web_search
        if self._web is None or web.engine is None:
            return {WEB_SEARCH, WEB_FETCH}
        return set() if web.fetch_enabled else {WEB_FETCH}

    def policy(self, definition: ToolDefinition) -> ToolPolicy:
        return self._settings.settings.tools.policy(definition)

    def allow_always(self, definition: ToolDefinition) -> None:
        settings = self._settings.settings
        self._settings.save(replace(settings, tools=settings.tools.granted(definition)))

    def _drop_stale_grants(self) -> None:
        settings = self._settings.settings
        tools = settings.tools.without_stale_grants([t.definition for t in self._tools.values()])
        if tools is not settings.tools:
            self._settings.save(replace(settings, tools=tools))


def conversation_search(database: Database) -> Search:
    """Conversation search for the `search_conversations` tool (blocking: the tool
    runs it in a worker thread)."""

    def run(query: str, limit: int, scope: SearchScope) -> list[SearchHit]:
        return search(database, query, limit, scope)

    return run
