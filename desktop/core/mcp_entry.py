"""One MCP server entry of pasted JSON, in any of the common shapes, as Parley's settings.

The entry is checked field by field with sentences that name the field ("“args” must be
a list of strings"), then by the settings parser itself (environment names, header
names, the URL), so what is imported is exactly what the settings file accepts. Text
that would be shown to the person before they allow a program to run is refused when it
holds control or text-direction characters (they can make a command line read as
something it is not) or is longer than `MAX_FIELD_CHARS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr
from desktop.core.mcp_settings import McpServerSettings, McpTransport, parse_mcp_server

MAX_FIELD_CHARS = 8192  # one command, argument, value or URL
MAX_ITEMS = 256  # arguments, environment variables or headers of one server
MAX_NAME_CHARS = 80

_HIDING = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_PLACEHOLDER = re.compile(r"\$\{[^}]*\}")
_KINDS = {
    "stdio": McpTransport.STDIO,
    "http": McpTransport.HTTP,
    "streamable-http": McpTransport.HTTP,
    "streamablehttp": McpTransport.HTTP,
    "sse": McpTransport.HTTP,
}
# Launchers whose first plain argument names the server better than the launcher does.
_LAUNCHERS = {"npx", "uvx", "bunx", "pnpx", "pipx", "uv", "docker", "podman", "node", "deno"}
_LAUNCHER_WORDS = {"run", "dlx", "x", "exec", "tool"}


@dataclass(frozen=True, slots=True)
class ParsedEntry:
    server: McpServerSettings  # id is a placeholder; the caller gives it its own
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EntryProblem:
    name: str
    problem: str


class _Refused(Exception):
    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


def server_id_for(name: str, taken: set[str] | frozenset[str]) -> str:
    """A settings id made from `name` that no server in `taken` has."""
    base = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-_")[:32] or "server"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def parse_entry(key: str, raw: Any) -> ParsedEntry | EntryProblem:
    shown = _shown_name(key)
    try:
        return _parse(shown, raw)
    except _Refused as refused:
        return EntryProblem(shown or tr("(unnamed)"), refused.problem)


def _parse(name: str, raw: Any) -> ParsedEntry:
    if not isinstance(raw, dict):
        raise _Refused(tr("is not a server: expected an object with a “command” or a “url”"))
    kind = _kind(raw)
    notes: list[str] = []
    data: dict[str, Any] = {"id": "imported", "enabled": False, "transport": kind.value}
    if kind is McpTransport.STDIO:
        command = _text(raw.get("command"), "command", required=True)
        args = _texts(raw.get("args", []), "args")
        data |= {"command": command, "args": list(args)}
        data["env"] = _text_map(raw.get("env", {}), "env")
        data["cwd"] = _text(raw.get("cwd", ""), "cwd")
        if "envFile" in raw:
            notes.append(tr("Its “envFile” is not read: add those variables to its environment."))
        shown = [command, *args, *data["env"].values(), data["cwd"]]
    else:
        url = _text(_url_value(raw), "url", required=True)
        data |= {"url": url, "headers": _text_map(raw.get("headers", {}), "headers")}
        shown = [url, *data["headers"].values()]
    if any(_PLACEHOLDER.search(value) for value in shown):
        notes.append(
            tr("Uses ${…} placeholders, which Parley passes on as they are: put in real values.")
        )
    data["name"] = name or _derived_name(data)
    try:
        server = parse_mcp_server(data, "server")
    except SettingsError as error:
        field = error.field.removeprefix("server").lstrip(".")
        problem = error.problem
        if field:
            problem = tr("{field}: {problem}").format(field=field, problem=problem)
        raise _Refused(problem) from None
    return ParsedEntry(server, tuple(notes))


def _kind(raw: dict[str, Any]) -> McpTransport:
    said = raw.get("type", raw.get("transport"))
    if said is not None:
        if not isinstance(said, str):
            raise _Refused(tr('“type” must be a string such as "stdio" or "http"'))
        kind = _KINDS.get(said.strip().lower().replace("_", "-"))
        if kind is None:
            raise _Refused(
                tr(
                    "has the type “{type}”, which Parley cannot use "
                    "(it runs stdio programs and connects to HTTP or SSE URLs)"
                ).format(type=_clipped(said))
            )
        return kind
    has_command, has_url = "command" in raw, _url_value(raw) is not None
    if has_command and has_url:
        raise _Refused(tr('has both a “command” and a “url”: add "type" to say which'))
    if has_command:
        return McpTransport.STDIO
    if has_url:
        return McpTransport.HTTP
    raise _Refused(tr("has neither a “command” to run nor a “url” to connect to"))


def _url_value(raw: dict[str, Any]) -> Any:
    for key in ("url", "serverUrl", "httpUrl"):
        if key in raw:
            return raw[key]
    return None


def _text(value: Any, field: str, *, required: bool = False) -> str:
    if not isinstance(value, str):
        raise _Refused(tr("“{field}” must be text").format(field=field))
    text = value.strip()
    if required and not text:
        raise _Refused(tr("“{field}” is empty").format(field=field))
    _check(text, field)
    return text


def _texts(value: Any, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Refused(tr("“{field}” must be a list of strings").format(field=field))
    if len(value) > MAX_ITEMS:
        raise _Refused(
            tr("“{field}” has more than {count} items").format(field=field, count=MAX_ITEMS)
        )
    for item in value:
        _check(item, field)
    return tuple(value)


def _text_map(value: Any, field: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise _Refused(
            tr("“{field}” must be an object of names and text values").format(field=field)
        )
    if len(value) > MAX_ITEMS:
        raise _Refused(
            tr("“{field}” has more than {count} items").format(field=field, count=MAX_ITEMS)
        )
    for key, item in value.items():
        _check(key, field)
        _check(item, field)
    return dict(value)


def _check(value: str, field: str) -> None:
    if len(value) > MAX_FIELD_CHARS:
        raise _Refused(
            tr("“{field}” holds text longer than {count} characters").format(
                field=field, count=MAX_FIELD_CHARS
            )
        )
    if _HIDING.search(value):
        raise _Refused(
            tr(
                "“{field}” holds control or text-direction characters, "
                "which could hide what really runs"
            ).format(field=field)
        )


def _shown_name(key: str) -> str:
    """The entry's key as a name: invisible characters out, spaces collapsed, clipped."""
    return _clipped(" ".join(_HIDING.sub(" ", key).split()))


def _clipped(text: str) -> str:
    return text if len(text) <= MAX_NAME_CHARS else text[: MAX_NAME_CHARS - 1] + "…"


def _derived_name(data: dict[str, Any]) -> str:
    """A name for a server pasted without one: the URL's host, or the program (for a
    launcher such as `npx -y @scope/server-x@1`, the package: "server-x")."""
    if data.get("url"):
        return urlsplit(str(data["url"])).hostname or "server"
    program = re.split(r"[\\/]", str(data["command"]))[-1]
    program = re.sub(r"\.(exe|cmd|bat)$", "", program, flags=re.IGNORECASE)
    if program.lower() in _LAUNCHERS:
        for arg in data["args"]:
            if arg.startswith("-") or arg in _LAUNCHER_WORDS:
                continue
            package = arg.rsplit("/", 1)[-1]
            package = package.split("@", 1)[0] if not package.startswith("@") else package
            package = package.split(":", 1)[0]  # a docker image's tag
            return _clipped(package) or program
    return _clipped(program) or "server"
