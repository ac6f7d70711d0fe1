"""The configured MCP servers as a source of tools for `ToolService`.

Servers start lazily: when a generation first lists its tools (or a call needs one),
never at launch and never from a pasted config. A stdio server starts only with the
person's consent for its exact command line (`desktop.core.mcp_settings`); one that
lacks it is left out, listed by `awaiting_consent()` and announced on `events`
(`McpConsentWanted`) so the UI can ask. `McpServersChanged` tells the settings pages a
server started, stopped or crashed, or its tools changed; `listed()` is the tools of the
servers running now, for showing them without starting anything. Given an attachment
store, the PNG, JPEG and WebP images a tool returns are kept there and the call's part
lists them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from desktop.core.attachments import Attachment, AttachmentKind
from desktop.core.dispatch import EventBus
from desktop.core.errors import ParleyError
from desktop.core.mcp_settings import McpServerSettings, has_consent
from desktop.core.tools import ToolDefinition, ToolRisk
from desktop.engine.tools.mcp.connection import DEFAULT_BACKOFF, Backoff, McpConnection, log_path
from desktop.engine.tools.mcp.events import McpConsentWanted, McpEvent, McpServersChanged
from desktop.engine.tools.mcp.naming import mcp_tool_name
from desktop.engine.tools.mcp.results import McpImage, result_text, storable_images
from desktop.engine.tools.registry import Tool, ToolContext, ToolFailure, ToolResult
from desktop.engine.tools.service import SettingsStore

if TYPE_CHECKING:
    from mcp import types

log = logging.getLogger(__name__)

_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}


class ImageStore(Protocol):
    """Where returned images are kept (`desktop.storage.attachments.AttachmentStore`)."""

    def put_bytes(
        self, data: bytes, *, name: str, mime: str, kind: AttachmentKind
    ) -> Attachment: ...


def tool_definition(server: McpServerSettings, tool: types.Tool, name: str) -> ToolDefinition:
    """A server's tool as Parley offers it: it asks first unless the server says it
    only reads (the hint changes the definition, so a grant never outlives it)."""
    read_only = bool(tool.annotations and tool.annotations.read_only_hint)
    return ToolDefinition(
        name=name,
        description=tool.description or tool.title or tool.name,
        parameters=dict(tool.input_schema) or {"type": "object"},
        risk=ToolRisk.READ if read_only else ToolRisk.WRITE,
        source=server.name,
    )


class McpManager:
    def __init__(
        self,
        settings: SettingsStore,
        logs_dir: Path,
        *,
        call_timeout: float = 60.0,
        backoff: Backoff = DEFAULT_BACKOFF,
        attachments: ImageStore | None = None,
    ) -> None:
        self._settings = settings
        self._attachments = attachments
        self._logs_dir = logs_dir
        self._call_timeout = call_timeout
        self._backoff = backoff
        self._connections: dict[str, McpConnection] = {}
        self._listed: dict[str, list[Tool]] = {}  # server id -> its tools, while running
        self.events: EventBus[McpEvent] = EventBus()

    def servers(self) -> tuple[McpServerSettings, ...]:
        return self._settings.settings.mcp_servers

    def log_file(self, server_id: str) -> Path:
        return log_path(self._logs_dir, server_id)

    def awaiting_consent(self) -> list[McpServerSettings]:
        """Enabled stdio servers the person has not (or no longer) allowed to start."""
        consent = self._settings.settings.mcp_consent
        return [s for s in self.servers() if s.enabled and not has_consent(consent, s)]

    def give_consent(self, server_id: str) -> None:
        """The person allowed this server's current command line to run."""
        settings = self._settings.settings
        server = settings.mcp_server(server_id)
        if server is None:
            return
        consent = {**settings.mcp_consent, server_id: server.command_line_hash}
        self._settings.save(replace(settings, mcp_consent=consent))

    def connection(self, server_id: str) -> McpConnection | None:
        return self._connections.get(server_id)

    async def tools(self) -> list[Tool]:
        """Every tool of the enabled, allowed servers (starting them as needed); a
        server that fails to start is left out and its log says why."""
        await self._forget_changed()
        waiting = self.awaiting_consent()
        if waiting:
            self.events.emit(McpConsentWanted(tuple(s.id for s in waiting)))
        consent = self._settings.settings.mcp_consent
        taken: set[str] = set()
        found: list[Tool] = []
        for server in self.servers():
            if not server.enabled or not has_consent(consent, server):
                continue
            connection = self._connections.get(server.id)
            if connection is None:
                connection = McpConnection(
                    server,
                    self._logs_dir,
                    call_timeout=self._call_timeout,
                    backoff=self._backoff,
                    on_change=self._on_connection_change,
                )
                self._connections[server.id] = connection
            try:
                listed = await connection.list_tools()
            except ToolFailure as failure:
                log.warning("MCP server %s left out: %s", server.id, failure)
                continue
            tools = []
            for tool in listed:
                name = mcp_tool_name(server.id, tool.name, taken)
                definition = tool_definition(server, tool, name)
                tools.append(Tool(definition, _handler(self, server.id, tool.name)))
            self._remember(server.id, tools)
            found.extend(tools)
        return found

    def listed(self) -> list[Tool]:
        """The tools of the servers running now, as last listed (starts nothing)."""
        return [tool for tools in self._listed.values() for tool in tools]

    def _remember(self, server_id: str, tools: list[Tool]) -> None:
        before = self._listed.get(server_id)
        self._listed[server_id] = tools
        if before is None or [t.definition for t in before] != [t.definition for t in tools]:
            self.events.emit(McpServersChanged(server_id))

    def _on_connection_change(self, connection: McpConnection) -> None:
        sid = connection.server.id
        if not connection.running:
            self._listed.pop(sid, None)
        self.events.emit(McpServersChanged(sid))

    async def call(
        self, server_id: str, tool: str, arguments: Mapping[str, Any]
    ) -> str | ToolResult:
        settings = self._settings.settings
        server = settings.mcp_server(server_id)
        if server is None or not server.enabled:
            raise ToolFailure("This MCP server is no longer configured or is turned off.")
        if not has_consent(settings.mcp_consent, server):
            raise ToolFailure("This MCP server's command line has not been allowed to run.")
        connection = self._connections.get(server_id)
        if connection is None or connection.server != server:
            raise ToolFailure("This MCP server changed; ask again to use its current tools.")
        result = await connection.call(tool, dict(arguments))
        store = self._attachments
        if result.is_error or store is None:
            return result_text(result)
        kept = await self._keep_images(store, server_id, tool, storable_images(result))
        text = result_text(result, attached=kept)
        return ToolResult(text, tuple(kept.values())) if kept else text

    async def _keep_images(
        self, store: ImageStore, server_id: str, tool: str, images: list[McpImage]
    ) -> dict[int, str]:
        """Block index -> attachment id of each image stored; one that cannot be stored
        stays a note in the text (the call itself went fine)."""
        kept: dict[int, str] = {}
        for number, image in enumerate(images, 1):
            name = f"{server_id}-{tool}-{number}.{_EXTENSIONS[image.mime]}"
            try:
                attachment = await asyncio.to_thread(
                    store.put_bytes,
                    image.data,
                    name=name,
                    mime=image.mime,
                    kind=AttachmentKind.IMAGE,
                )
            except (ParleyError, OSError) as error:
                log.warning("could not keep an image from MCP tool %s: %s", tool, error)
                continue
            kept[image.index] = attachment.id
        return kept

    async def refresh(self) -> None:
        """Apply changed settings now: stop servers that were removed, turned off or
        changed (the settings page calls this; generations do it on their own)."""
        await self._forget_changed()

    async def _forget_changed(self) -> None:
        """Stop connections whose server was removed, turned off, changed or lost consent."""
        settings = self._settings.settings
        for sid, connection in list(self._connections.items()):
            current = settings.mcp_server(sid)
            if (
                current != connection.server
                or not current.enabled
                or not has_consent(settings.mcp_consent, current)
            ):
                del self._connections[sid]
                await connection.stop()

    async def stop(self) -> None:
        """Stop every server (Parley is quitting)."""
        connections, self._connections = list(self._connections.values()), {}
        for connection in connections:
            await connection.stop()


def _handler(manager: McpManager, server_id: str, tool: str) -> Any:
    async def run(arguments: Mapping[str, Any], _context: ToolContext) -> str | ToolResult:
        return await manager.call(server_id, tool, arguments)

    return run
