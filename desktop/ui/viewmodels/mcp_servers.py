"""Settings → MCP servers: the list the person edits, and their consent to start one.

Adding a stdio server never starts it: the page first shows the consent dialog with the
exact command line (`consent_request`), and only "Allow and start" (`allow`) records
consent and starts the server. When a conversation would offer tools and an enabled
server still waits for consent, the manager says so and `consentAsked` asks the window to
show the same dialog, once per run for each server; declining (`decline`) leaves the
server out, and the MCP page says so.

An existing server's fields are saved as they are edited (`update`), with no Save
button: the Settings window's undo takes them back. Servers read from pasted JSON
(`read_import`, then `add_imported`) are added turned off; pasting starts nothing.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, QUrl, Signal
from PySide6.QtGui import QDesktopServices

from desktop.core.errors import ParleyError
from desktop.core.mcp_entry import server_id_for
from desktop.core.mcp_import import McpImport, added_to, read_servers
from desktop.core.mcp_settings import McpServerSettings, McpTransport, has_consent
from desktop.core.settings import Settings
from desktop.engine.settings_service import SettingsService
from desktop.engine.tools.mcp.events import McpConsentWanted, McpEvent, McpServersChanged
from desktop.engine.tools.mcp.manager import McpManager
from desktop.ui.viewmodels.mcp_server_draft import DraftProblem, McpServerDraft, server_of
from desktop.ui.viewmodels.settings_undo import SettingsUndo
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
        *,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = settings
        self._manager = manager
        self._tasks = tasks
        # Saves go through the Settings window's undo, which also reports a failed write.
        self._undo = undo if undo is not None else SettingsUndo(settings, self)
        self._last_edit = ("", "")  # (server id, field): a repeat coalesces in undo
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

    def add(self, draft: McpServerDraft) -> tuple[str, DraftProblem | None]:
        """Add the server the form describes (a program is not started: the consent
        dialog is asked for first); its id, or what stops it."""
        settings = self._settings.settings
        sid = server_id_for(draft.name.strip() or "server", {s.id for s in settings.mcp_servers})
        server = server_of(draft, sid)
        if isinstance(server, DraftProblem):
            return "", server
        servers = (*settings.mcp_servers, server)
        label = self.tr("MCP server %1 added").replace("%1", server.name)
        problem = self._save(replace(settings, mcp_servers=servers), label)
        if problem:
            return "", DraftProblem("name", problem)
        if server.needs_consent:
            self.consentNeeded.emit(server.id)
        return server.id, None

    def update(self, server_id: str, draft: McpServerDraft, field: str = "") -> DraftProblem | None:
        """Save an edited server at once (no Save button; the Settings window can undo
        it: edits of the same `field` in a row are one step). A server whose command
        line changed needs consent again before it runs."""
        settings = self._settings.settings
        server = settings.mcp_server(server_id)
        if server is None:
            return None
        changed = server_of(draft, server_id, enabled=server.enabled)
        if isinstance(changed, DraftProblem):
            return changed
        if changed == server:
            return None
        servers = tuple(changed if s.id == server_id else s for s in settings.mcp_servers)
        repeat = (server_id, field) == self._last_edit and bool(field)
        self._last_edit = (server_id, field)
        label = self.tr("MCP server %1 changed").replace("%1", changed.name)
        problem = self._save(replace(settings, mcp_servers=servers), label, coalesce=repeat)
        if problem:
            return DraftProblem("name", problem)
        if changed.command_line_hash != server.command_line_hash:
            self._asked.discard(server_id)  # a new program: ask again when it is wanted
            self._declined.discard(server_id)
        self._tasks.start(self._manager.refresh(), "mcp-refresh")
        return None

    def read_import(self, text: str) -> McpImport:
        """Servers in pasted JSON, as they would be added (nothing is saved)."""
        return read_servers(text, self.servers())

    def add_imported(self, servers: Sequence[McpServerSettings]) -> str:
        """Add servers read from JSON, turned off: none starts until the person turns it
        on and, for a program, allows its command line. "" or what went wrong."""
        if not servers:
            return ""
        settings = self._settings.settings
        label = self.tr("%n MCP server(s) added", "", len(servers))
        return self._save(
            replace(settings, mcp_servers=added_to(settings.mcp_servers, servers)), label
        )

    def set_enabled(self, server_id: str, enabled: bool) -> None:
        settings = self._settings.settings
        server = settings.mcp_server(server_id)
        if server is None:
            return
        servers = tuple(
            replace(s, enabled=enabled) if s.id == server_id else s for s in settings.mcp_servers
        )
        said = (
            self.tr("MCP server %1 turned on") if enabled else self.tr("MCP server %1 turned off")
        )
        label = said.replace("%1", server.name)
        if not self._report(self._save(replace(settings, mcp_servers=servers), label)):
            self._tasks.start(self._manager.refresh(), "mcp-refresh")
            if enabled and self.needs_consent(server_id):
                self.consentNeeded.emit(server_id)

    def remove(self, server_id: str) -> None:
        """Remove a server and the consent given to it (Undo brings back both)."""
        settings = self._settings.settings
        server = settings.mcp_server(server_id)
        if server is None:
            return
        servers = tuple(s for s in settings.mcp_servers if s.id != server_id)
        consent = {k: v for k, v in settings.mcp_consent.items() if k != server_id}
        label = self.tr("MCP server %1 removed").replace("%1", server.name)
        if not self._report(
            self._save(replace(settings, mcp_servers=servers, mcp_consent=consent), label)
        ):
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

    def _save(self, settings: Settings, label: str, *, coalesce: bool = False) -> str:
        """Save as a change the Settings window can undo; "" or why it was not saved
        (the window's bar also says why a write failed)."""
        try:
            saved = self._undo.save(settings, label, coalesce=coalesce)
        except ParleyError as error:  # settings the file would not accept
            return str(error)
        return "" if saved else self.tr("The settings file could not be written.")

    def _report(self, problem: str) -> str:
        if problem:
            self.saveFailed.emit(problem)
        return problem

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
