"""Settings → MCP servers: the list the person edits, and their consent to start one.

Adding a stdio server never starts it: the page first shows the consent dialog with the
exact command line (`consent_request`), and only "Allow and start" (`allow`) records
consent and starts the server. When a conversation would offer tools and an enabled
server still waits for consent, the manager says so and `consentAsked` asks the window to
show the same dialog, once per run for each server; declining (`decline`) leaves the
server out, and the MCP page says so.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QUrl, Signal
from PySide6.QtGui import QDesktopServices

from desktop.core.errors import SettingsError
from desktop.core.mcp_settings import McpServerSettings, McpTransport, has_consent, parse_mcp_server
from desktop.core.settings import Settings
from desktop.engine.settings_service import SettingsService
from desktop.engine.tools.mcp.events import McpConsentWanted, McpEvent, McpServersChanged
from desktop.engine.tools.mcp.manager import McpManager
from desktop.ui.viewmodels.tasks import TaskGroup


@dataclass(frozen=True, slots=True)
class ConsentRequest:
    """What the consent dialog shows: nothing of it is shortened."""

    server_id: str
    name: str
    command_line: str  # shell-quoted, exactly what runs
    cwd: str  # "" = Parley's own working folder
    env_names: tuple[str, ...]


class McpServersModel(QObject):
    changed = Signal()
    saveFailed = Signal(str)
    consentNeeded = Signal(str)  # server id: show the consent dialog for it
    consentAsked = Signal(str)  # server id: a conversation wants it; ask from the window

    def __init__(
        self,
        settings: SettingsService,
        manager: McpManager,
        tasks: TaskGroup,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = settings
        self._manager = manager
        self._tasks = tasks
        self._asked: set[str] = set()  # asked from a conversation in this run
        self._declined: set[str] = set()  # the person said no in this run
        settings.changed.subscribe(self._on_settings_changed)
        manager.events.subscribe(self._on_mcp_event)

    def servers(self) -> tuple[McpServerSettings, ...]:
        return self._settings.settings.mcp_servers

    def needs_consent(self, server_id: str) -> bool:
        server = self._settings.settings.mcp_server(server_id)
        return server is not None and not has_consent(self._settings.settings.mcp_consent, server)

    def running(self, server_id: str) -> bool:
        connection = self._manager.connection(server_id)
        return connection is not None and connection.running

    def declined(self, server_id: str) -> bool:
        """The person declined to let it run (this run) and it still has no consent."""
        return server_id in self._declined and self.needs_consent(server_id)

    def status(self, server_id: str) -> str:
        """One line on what the server is doing now, for its row."""
        server = self._settings.settings.mcp_server(server_id)
        if server is None or not server.enabled:
            return self.tr("Turned off")
        if self.declined(server_id):
            return self.tr("Not allowed to run: left out of conversations")
        if self.needs_consent(server_id):
            return self.tr("Waiting for your consent")
        connection = self._manager.connection(server_id)
        if connection is None:
            return self.tr("Starts when a conversation uses tools")
        if connection.running:
            return self.tr("Running")
        if connection.stopped_unexpectedly:
            delay = connection.restart_delay()
            if delay is None:
                return self.tr("Stopped unexpectedly too often: not restarted (see its log)")
            return self.tr(
                "Stopped unexpectedly — restarting in {seconds:g} s when next used"
            ).format(seconds=delay)
        return self.tr("Stopped")

    def add_stdio(self, name: str, command: str, args: str) -> str | None:
        """Add a stdio server (not started); its id, or None when invalid."""
        try:
            arguments = shlex.split(args)
        except ValueError as error:
            self.saveFailed.emit(f"args: {error}")
            return None
        data = {"name": name, "command": command, "args": arguments}
        return self._add(data, ask_consent=True)

    def add_http(self, name: str, url: str, headers: Sequence[tuple[str, str]] = ()) -> str | None:
        header_map, problem = header_rows(headers)
        if problem:
            self.saveFailed.emit(problem)
            return None
        data = {"name": name, "transport": "http", "url": url, "headers": header_map}
        return self._add(data, ask_consent=False)

    def set_headers(self, server_id: str, headers: Sequence[tuple[str, str]]) -> str | None:
        """Save an HTTP server's headers (it reconnects with them); the problem, or None."""
        settings = self._settings.settings
        server = settings.mcp_server(server_id)
        if server is None or server.transport is not McpTransport.HTTP:
            return self.tr("This server has no URL to send headers to.")
        header_map, problem = header_rows(headers)
        if problem:
            return problem
        data: dict[str, Any] = {
            "id": server.id,
            "name": server.name,
            "transport": "http",
            "url": server.url,
        }
        data |= {"headers": header_map, "enabled": server.enabled}
        try:
            changed = parse_mcp_server(data, "server")
        except SettingsError as error:
            return (
                self.tr("%1: %2")
                .replace("%1", error.field.removeprefix("server."))
                .replace("%2", error.problem)
            )
        servers = tuple(changed if s.id == server_id else s for s in settings.mcp_servers)
        try:
            self._settings.save(replace(settings, mcp_servers=servers))
        except Exception as error:  # an unwritable settings file
            return str(error)
        self._tasks.start(self._manager.refresh(), "mcp-refresh")
        return None

    def _add(self, data: dict[str, Any], *, ask_consent: bool) -> str | None:
        settings = self._settings.settings
        data = {**data, "id": self._new_id(str(data.get("name") or "server"), settings)}
        try:
            server = parse_mcp_server(data, "server")
        except SettingsError as error:
            self.saveFailed.emit(str(error))
            return None
        if not self._save(replace(settings, mcp_servers=(*settings.mcp_servers, server))):
            return None
        if ask_consent and server.transport is McpTransport.STDIO:
            self.consentNeeded.emit(server.id)
        return server.id

    def set_enabled(self, server_id: str, enabled: bool) -> None:
        settings = self._settings.settings
        servers = tuple(
            replace(s, enabled=enabled) if s.id == server_id else s for s in settings.mcp_servers
        )
        if self._save(replace(settings, mcp_servers=servers)):
            self._tasks.start(self._manager.refresh(), "mcp-refresh")
            if enabled and self.needs_consent(server_id):
                self.consentNeeded.emit(server_id)

    def remove(self, server_id: str) -> None:
        settings = self._settings.settings
        servers = tuple(s for s in settings.mcp_servers if s.id != server_id)
        consent = {k: v for k, v in settings.mcp_consent.items() if k != server_id}
        if self._save(replace(settings, mcp_servers=servers, mcp_consent=consent)):
            self._tasks.start(self._manager.refresh(), "mcp-refresh")

    def consent_request(self, server_id: str) -> ConsentRequest | None:
        server = self._settings.settings.mcp_server(server_id)
        if server is None or server.transport is not McpTransport.STDIO:
            return None
        return ConsentRequest(
            server.id,
            server.name,
            shlex.join([server.command, *server.args]),
            server.cwd,
            tuple(sorted(server.env)),
        )

    def allow(self, server_id: str) -> None:
        """ "Allow and start": consent for the current command line, then start it."""
        try:
            self._manager.give_consent(server_id)
        except Exception as error:  # an unwritable settings file
            self.saveFailed.emit(str(error))
            return
        self._declined.discard(server_id)
        self._tasks.start(self._start(), f"mcp-start-{server_id}")

    def decline(self, server_id: str) -> None:
        """The person did not allow it: it stays out of conversations, and its row says so."""
        self._declined.add(server_id)
        self.changed.emit()

    async def _start(self) -> None:
        await self._manager.tools()
        self.changed.emit()

    def open_log(self, server_id: str) -> bool:
        path = self._manager.log_file(server_id)
        target = path if path.exists() else path.parent
        return target.exists() and QDesktopServices.openUrl(QUrl.fromLocalFile(str(target)))

    def _new_id(self, name: str, settings: Settings) -> str:
        base = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-_")[:32] or "server"
        taken = {s.id for s in settings.mcp_servers}
        candidate, n = base, 2
        while candidate in taken:
            candidate, n = f"{base}-{n}", n + 1
        return candidate

    def _save(self, settings: Settings) -> bool:
        try:
            self._settings.save(settings)
        except Exception as error:  # an unwritable settings file
            self.saveFailed.emit(str(error))
            return False
        return True

    def _on_settings_changed(self, _settings: Settings) -> None:
        self.changed.emit()

    def _on_mcp_event(self, event: McpEvent) -> None:
        if isinstance(event, McpServersChanged):
            self.changed.emit()
        elif isinstance(event, McpConsentWanted):
            for server_id in event.server_ids:
                if server_id not in self._asked and server_id not in self._declined:
                    self._asked.add(server_id)
                    self.consentAsked.emit(server_id)


def header_rows(rows: Sequence[tuple[str, str]]) -> tuple[dict[str, str], str]:
    """The headers editor's rows as a mapping, and what is wrong with them ("" if
    nothing): a value without a name, or a name given twice. Empty rows are ignored;
    names and values are checked again by the settings parser."""
    headers: dict[str, str] = {}
    seen: set[str] = set()
    for raw_name, raw_value in rows:
        name, value = raw_name.strip(), raw_value.strip()
        if not name and not value:
            continue
        if not name:
            return {}, QCoreApplication.translate(
                "McpServersModel", "The header with the value %1 needs a name."
            ).replace("%1", repr(value))
        if name.lower() in seen:
            return {}, QCoreApplication.translate(
                "McpServersModel", "The header %1 is given twice."
            ).replace("%1", repr(name))
        seen.add(name.lower())
        headers[name] = value
    return headers, ""
