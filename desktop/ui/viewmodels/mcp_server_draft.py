"""An MCP server as its form holds it (arguments as typed, headers as table rows), and
the settings it makes, or what stops it, named by the field to show it beside.

The settings parser has the last word (`parse_mcp_server`): a draft is turned into the
same data the settings file holds and parsed, so the form accepts exactly what the file
does. Only the fields of the draft's kind are read: a URL left in the form while the
kind is "program" is not saved.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication

from desktop.core.errors import SettingsError
from desktop.core.mcp_settings import McpServerSettings, McpTransport, parse_mcp_server

FIELDS = ("name", "command", "args", "cwd", "env", "url", "headers")


@dataclass(frozen=True, slots=True)
class McpServerDraft:
    name: str = ""
    transport: McpTransport = McpTransport.STDIO
    command: str = ""
    args: str = ""  # shell words, as typed: `-y "@scope/server x"`
    cwd: str = ""
    env: tuple[tuple[str, str], ...] = ()
    url: str = ""
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class DraftProblem:
    field: str  # one of FIELDS
    text: str


def draft_of(server: McpServerSettings) -> McpServerDraft:
    return McpServerDraft(
        server.name,
        server.transport,
        server.command,
        shlex.join(server.args),
        server.cwd,
        tuple(server.env.items()),
        server.url,
        tuple(server.headers.items()),
    )


def server_of(
    draft: McpServerDraft, server_id: str, *, enabled: bool = True
) -> McpServerSettings | DraftProblem:
    """The settings `draft` makes for the server `server_id`, or the first problem."""
    name = draft.name.strip()
    if not name:
        return DraftProblem(
            "name", QCoreApplication.translate("McpServersModel", "Give the server a name.")
        )
    data: dict[str, Any] = {
        "id": server_id,
        "name": name,
        "transport": draft.transport.value,
        "enabled": enabled,
    }
    if draft.transport is McpTransport.STDIO:
        if not draft.command.strip():
            return DraftProblem(
                "command",
                QCoreApplication.translate(
                    "McpServersModel", "Enter the program to run, such as uvx or npx."
                ),
            )
        try:
            args = shlex.split(draft.args)
        except ValueError as error:
            return DraftProblem(
                "args",
                QCoreApplication.translate(
                    "McpServersModel", "The arguments cannot be read: %1."
                ).replace("%1", str(error)),
            )
        env, problem = rows_mapping(draft.env, case_sensitive=True)
        if problem:
            return DraftProblem("env", problem)
        data |= {"command": draft.command, "args": args, "env": env, "cwd": draft.cwd}
    else:
        if not draft.url.strip():
            return DraftProblem(
                "url",
                QCoreApplication.translate(
                    "McpServersModel", "Enter the server's address, such as https://…/mcp."
                ),
            )
        headers, problem = rows_mapping(draft.headers, case_sensitive=False)
        if problem:
            return DraftProblem("headers", problem)
        data |= {"url": draft.url, "headers": headers}
    try:
        return parse_mcp_server(data, "server")
    except SettingsError as error:
        path = error.field.removeprefix("server.")
        field = re.split(r"[.\[]", path, maxsplit=1)[0]
        detail = path[len(field) :].lstrip(".")
        text = error.problem
        if detail:
            text = (
                QCoreApplication.translate("McpServersModel", "%1: %2")
                .replace("%1", detail)
                .replace("%2", error.problem)
            )
        return DraftProblem(field if field in FIELDS else "name", text)


def rows_mapping(
    rows: Sequence[tuple[str, str]], *, case_sensitive: bool
) -> tuple[dict[str, str], str]:
    """A two-column editor's rows as a mapping, and what is wrong with them ("" if
    nothing): a value without a name, or a name given twice. Empty rows are ignored;
    names and values are checked again by the settings parser."""
    mapping: dict[str, str] = {}
    seen: set[str] = set()
    for raw_name, raw_value in rows:
        name, value = raw_name.strip(), raw_value.strip()
        if not name and not value:
            continue
        if not name:
            return {}, QCoreApplication.translate(
                "McpServersModel", "The value %1 needs a name."
            ).replace("%1", repr(value))
        key = name if case_sensitive else name.lower()
        if key in seen:
            return {}, QCoreApplication.translate(
                "McpServersModel", "The name %1 is given twice."
            ).replace("%1", repr(name))
        seen.add(key)
        mapping[name] = value
    return mapping, ""
