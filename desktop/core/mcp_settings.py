"""MCP servers as the person configured them, and their consent to start each one.

A stdio server is a program Parley runs on the person's computer, so it never starts
without their consent, and the consent is bound to a hash of the exact command line
(command, arguments, environment, working folder): a changed command line is a
different program and needs consent again. Consent lives apart from the server list
(`Settings.mcp_consent`), so a pasted or imported server entry cannot bring its own.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from desktop.core.errors import SettingsError
from desktop.core.i18n import QT_TR_NOOP, tr

_SERVER_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_HASH = re.compile(r"^[0-9a-f]{64}$")


class McpTransport(StrEnum):
    STDIO = "stdio"  # a local program speaking over stdin/stdout
    HTTP = "http"  # a streamable-HTTP endpoint


@dataclass(frozen=True, slots=True)
class McpServerSettings:
    id: str
    name: str
    transport: McpTransport = McpTransport.STDIO
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str = ""
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    enabled: bool = True

    @property
    def command_line_hash(self) -> str:
        """What consent is bound to: sha256 of the canonical command line, in hex."""
        canonical = json.dumps(
            {
                "command": self.command,
                "args": list(self.args),
                "env": dict(self.env),
                "cwd": self.cwd,
            },
            sort_keys=True,
            ensure_ascii=False,
            separators=(",", ":"),
        )
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    @property
    def needs_consent(self) -> bool:
        return self.transport is McpTransport.STDIO


def has_consent(consent: Mapping[str, str], server: McpServerSettings) -> bool:
    """True when `server` may start: HTTP servers run elsewhere; a stdio server needs
    consent given for exactly its current command line."""
    return not server.needs_consent or consent.get(server.id) == server.command_line_hash


# --- validation -----------------------------------------------------------------


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise SettingsError(
            where, tr("must be a string, not {type}").format(type=type(value).__name__)
        )
    return value


def _string_map(data: Any, where: str, key_ok: Callable[[str], bool], what: str) -> dict[str, str]:
    if not isinstance(data, dict):
        raise SettingsError(where, tr("must be an object"))
    result: dict[str, str] = {}
    for key, raw in data.items():
        if not key_ok(key):
            raise SettingsError(f"{where}.{key}", tr("is not a valid {what}").format(what=tr(what)))
        value = _string(raw, f"{where}.{key}")
        if "\n" in value or "\r" in value or "\0" in value:
            raise SettingsError(f"{where}.{key}", tr("must be on one line"))
        result[key] = value
    return result


_KEYS = {"id", "name", "transport", "command", "args", "env", "cwd", "url", "headers", "enabled"}


def parse_mcp_server(data: Any, where: str) -> McpServerSettings:
    if not isinstance(data, dict):
        raise SettingsError(where, tr("must be an object"))
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SettingsError(f"{where}.{unknown[0]}", tr("unknown setting (check the spelling)"))
    sid = _string(data.get("id"), f"{where}.id")
    if not _SERVER_ID.match(sid):
        raise SettingsError(f"{where}.id", tr("must be 1-40 lowercase letters, digits, '-' or '_'"))
    name = _string(data.get("name", sid), f"{where}.name").strip() or sid
    try:
        transport = McpTransport(_string(data.get("transport", "stdio"), f"{where}.transport"))
    except ValueError:
        raise SettingsError(f"{where}.transport", tr("must be one of: stdio, http")) from None
    enabled = data.get("enabled", True)
    if not isinstance(enabled, bool):
        raise SettingsError(f"{where}.enabled", tr("must be true or false"))
    if transport is McpTransport.STDIO:
        command = _string(data.get("command", ""), f"{where}.command").strip()
        if not command or "\0" in command:
            raise SettingsError(f"{where}.command", tr("must name the program to run"))
        raw_args = data.get("args", [])
        if not isinstance(raw_args, list):
            raise SettingsError(f"{where}.args", tr("must be a list of strings"))
        args = tuple(_string(a, f"{where}.args[{i}]") for i, a in enumerate(raw_args))
        for i, a in enumerate(args):
            if "\0" in a:
                raise SettingsError(f"{where}.args[{i}]", tr("must not contain a NUL character"))
        env = _string_map(
            data.get("env", {}), f"{where}.env", lambda k: bool(_ENV_NAME.match(k)), "name"
        )
        cwd = _string(data.get("cwd", ""), f"{where}.cwd").strip()
        return McpServerSettings(sid, name, transport, command, args, env, cwd, enabled=enabled)
    url = _string(data.get("url"), f"{where}.url").strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise SettingsError(f"{where}.url", tr("must be an http:// or https:// URL with a host"))
    headers = _string_map(
        data.get("headers", {}),
        f"{where}.headers",
        lambda k: bool(_HEADER_NAME.match(k)),
        QT_TR_NOOP("HTTP header name"),
    )
    return McpServerSettings(sid, name, transport, url=url, headers=headers, enabled=enabled)


def parse_mcp_servers(data: Any) -> tuple[McpServerSettings, ...]:
    if not isinstance(data, list):
        raise SettingsError("mcp_servers", tr("must be a list"))
    servers = [parse_mcp_server(s, f"mcp_servers[{i}]") for i, s in enumerate(data)]
    seen: set[str] = set()
    for i, s in enumerate(servers):
        if s.id in seen:
            raise SettingsError(f"mcp_servers[{i}].id", tr("{id!r} is used twice").format(id=s.id))
        seen.add(s.id)
    return tuple(servers)


def parse_mcp_consent(data: Any) -> dict[str, str]:
    if not isinstance(data, dict):
        raise SettingsError("mcp_consent", tr("must be an object"))
    for sid, digest in data.items():
        if not isinstance(digest, str) or not _HASH.match(digest):
            raise SettingsError(f"mcp_consent.{sid}", tr("must be a command line's sha256 hash"))
    return dict(data)


def dump_mcp_server(server: McpServerSettings) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": server.id,
        "name": server.name,
        "transport": server.transport.value,
    }
    if server.transport is McpTransport.STDIO:
        data["command"] = server.command
        data["args"] = list(server.args)
        if server.env:
            data["env"] = dict(server.env)
        if server.cwd:
            data["cwd"] = server.cwd
    else:
        data["url"] = server.url
        if server.headers:
            data["headers"] = dict(server.headers)
    if not server.enabled:
        data["enabled"] = False
    return data
