"""MCP servers read from pasted JSON: what Claude Desktop, Cursor, VS Code and server
READMEs write, turned into `McpServerSettings` that never run on their own.

Accepted: `{"mcpServers": {name: server}}` (Claude Desktop, Cursor, Windsurf, Cline),
`{"servers": {...}}` and `{"mcp": {"servers": {...}}}` (VS Code), the bare
`{name: server}` object, or one server on its own. A server is a program (`command`,
`args`, `env`, `cwd`) or a URL (`url`, `serverUrl`, `httpUrl`; `headers`); `type` or
`transport` may say which ("stdio", "http", "streamable-http", "sse": Parley's HTTP kind
tries streamable HTTP and falls back to SSE).

Every server comes back turned off (`enabled=False`) and consent cannot come with it
(it lives apart, see `mcp_settings`): pasting starts nothing. Each entry that cannot
be used is a problem with its name and the reason; a name already set up is renamed
"name (2)", and a server already set up with the same command line or URL is left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from desktop.core.i18n import tr
from desktop.core.mcp_entry import EntryProblem, parse_entry, server_id_for
from desktop.core.mcp_json import JsonObject, read_json, size_problem
from desktop.core.mcp_settings import McpServerSettings, McpTransport

MAX_SERVERS = 100  # read from one paste
_SERVER_KEYS = ("command", "url", "serverUrl", "httpUrl")
_HINTS = ('"mcpServers"', '"servers"', '"command"', '"url"', '"serverUrl"', '"httpUrl"')


@dataclass(frozen=True, slots=True)
class ImportedServer:
    server: McpServerSettings  # turned off; id and name unique among the servers set up
    notes: tuple[str, ...] = ()  # renamed, placeholders left as they are...


@dataclass(frozen=True, slots=True)
class ImportProblem:
    name: str  # the entry as named in the JSON
    problem: str


@dataclass(frozen=True, slots=True)
class McpImport:
    servers: tuple[ImportedServer, ...] = ()
    problems: tuple[ImportProblem, ...] = ()  # entries left out, and why
    error: str = ""  # the text as a whole could not be read: nothing else is set


def looks_like_servers(text: str) -> bool:
    """Cheap test for a paste shortcut: JSON that names a server's parts. A text too
    large to read also counts (reading it says so), but it is not searched."""
    start = text.lstrip()[:1]
    if start not in ("{", '"'):
        return False
    return bool(size_problem(text)) or any(hint in text for hint in _HINTS)


def read_servers(text: str, existing: Sequence[McpServerSettings] = ()) -> McpImport:
    read = read_json(text)
    if read.error:
        return McpImport(error=read.error)
    entries, error = _entries(read.value)
    if error:
        return McpImport(error=error)
    problems: list[ImportProblem] = []
    if isinstance(entries, JsonObject):
        for name in entries.repeated:
            problems.append(
                ImportProblem(name, tr("is given twice in the pasted JSON: the last one is read"))
            )
    items = list(entries.items())
    if len(items) > MAX_SERVERS:
        problems.append(
            ImportProblem(
                "",
                tr("Only the first {count} servers are read; paste the others separately.").format(
                    count=MAX_SERVERS
                ),
            )
        )
        items = items[:MAX_SERVERS]
    names = _Names(existing)
    servers: list[ImportedServer] = []
    for key, raw in items:
        parsed = parse_entry(key, raw)
        if isinstance(parsed, EntryProblem):
            problems.append(ImportProblem(parsed.name, parsed.problem))
            continue
        same = _same_as(parsed.server, existing)
        if same is not None:
            problems.append(
                ImportProblem(
                    parsed.server.name,
                    tr("is already set up as “{name}”: left out").format(name=same.name),
                )
            )
            continue
        server, renamed = names.claim(parsed.server)
        notes = parsed.notes
        if renamed:
            note = tr("Renamed to “{new}”: a server named “{old}” is already set up.").format(
                new=server.name, old=parsed.server.name
            )
            notes = (note, *notes)
        servers.append(ImportedServer(server, notes))
    if not servers and not problems:
        return McpImport(error=tr("No MCP servers were found in this JSON."))
    return McpImport(tuple(servers), tuple(problems))


def added_to(
    existing: Sequence[McpServerSettings], servers: Iterable[McpServerSettings]
) -> tuple[McpServerSettings, ...]:
    """`existing` followed by `servers`, each turned off and renamed where its name or
    id is taken: what was read may be added after the settings changed meanwhile."""
    names = _Names(existing)
    return (*existing, *(names.claim(server)[0] for server in servers))


def _entries(value: Any) -> tuple[dict[str, Any], str]:
    """The name → server object in `value`, or why there is none."""
    if not isinstance(value, dict):
        return {}, tr(
            "This JSON is not an object of MCP servers. Paste the part that starts with "
            "{{ and holds “mcpServers”."
        )
    for path in (("mcpServers",), ("servers",), ("mcp", "servers")):
        found: Any = value
        for key in path:
            found = found.get(key) if isinstance(found, dict) else None
        if found is not None:
            if not isinstance(found, dict):
                return {}, tr("“{key}” must be an object of servers, each under its name.").format(
                    key=".".join(path)
                )
            return found, ""
    if any(isinstance(value.get(key), str) for key in _SERVER_KEYS):
        return {str(value.get("name", "")): value}, ""  # one server on its own
    return value, ""


@dataclass(slots=True)
class _Names:
    """Names and ids taken so far: those set up, then those read from this paste."""

    names: set[str]
    ids: set[str]

    def __init__(self, existing: Iterable[McpServerSettings]) -> None:
        servers = list(existing)
        self.names = {s.name.casefold() for s in servers}
        self.ids = {s.id for s in servers}

    def claim(self, server: McpServerSettings) -> tuple[McpServerSettings, bool]:
        """`server` with a name and id no other server has; whether it was renamed."""
        name, n = server.name, 2
        while name.casefold() in self.names:
            name, n = f"{server.name} ({n})", n + 1
        self.names.add(name.casefold())
        sid = server_id_for(name, self.ids)
        self.ids.add(sid)
        return McpServerSettings(
            sid,
            name,
            server.transport,
            server.command,
            server.args,
            server.env,
            server.cwd,
            server.url,
            server.headers,
            enabled=False,
        ), name != server.name


def _same_as(
    server: McpServerSettings, existing: Sequence[McpServerSettings]
) -> McpServerSettings | None:
    """A server set up already that runs the same command line or reaches the same URL."""
    for other in existing:
        if other.transport is not server.transport:
            continue
        if server.transport is McpTransport.STDIO:
            if other.command_line_hash == server.command_line_hash:
                return other
        elif other.url == server.url and dict(other.headers) == dict(server.headers):
            return other
    return None
