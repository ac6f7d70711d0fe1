"""What the paste preview says of each server read from JSON, before any is added.

The command line is shown whole and exactly (it is what would run once allowed); the
environment and headers show their names with the values masked, since they often hold
keys and tokens and a preview may be seen by someone looking over a shoulder.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from desktop.core.mcp_import import ImportedServer
from desktop.core.mcp_settings import McpServerSettings, McpTransport

MASK = "••••••"  # the same for every value: its length says nothing either


@dataclass(frozen=True, slots=True)
class ImportRow:
    server: McpServerSettings
    kind: str  # "Program (stdio)", "URL (HTTP or SSE)"
    target: str  # the command line, or the URL
    details: tuple[str, ...]  # working folder, environment, headers: one line each
    notes: tuple[str, ...]  # renamed, placeholders...


def kind_label(transport: McpTransport) -> str:
    if transport is McpTransport.STDIO:
        return QCoreApplication.translate("McpImportPreview", "Program (stdio)")
    return QCoreApplication.translate("McpImportPreview", "URL (HTTP or SSE)")


def command_line(server: McpServerSettings) -> str:
    """What runs, shell-quoted, or the URL connected to."""
    if server.transport is McpTransport.STDIO:
        return shlex.join([server.command, *server.args])
    return server.url


def masked(mapping: Mapping[str, str], separator: str) -> str:
    return ", ".join(f"{name}{separator}{MASK}" for name in mapping)


def import_row(imported: ImportedServer) -> ImportRow:
    server = imported.server
    details: list[str] = []
    if server.transport is McpTransport.STDIO:
        if server.cwd:
            details.append(
                QCoreApplication.translate("McpImportPreview", "Working folder: %1").replace(
                    "%1", server.cwd
                )
            )
        if server.env:
            details.append(
                QCoreApplication.translate("McpImportPreview", "Environment: %1").replace(
                    "%1", masked(server.env, "=")
                )
            )
    elif server.headers:
        details.append(
            QCoreApplication.translate("McpImportPreview", "Headers: %1").replace(
                "%1", masked(server.headers, ": ")
            )
        )
    return ImportRow(
        server, kind_label(server.transport), command_line(server), tuple(details), imported.notes
    )
