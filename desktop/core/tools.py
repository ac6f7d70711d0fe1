"""What a tool is, as plain data: its definition, its risk, and the person's policy.

A definition's hash binds an "always allow" grant to exactly what the person allowed:
if the tool's name, description, parameters, risk or source change (an MCP server
updated its tool), the hash changes and the person is asked again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

BUILTIN_SOURCE = "built-in"
MCP_PREFIX = "mcp__"  # MCP tools are named mcp__{server}__{tool} (engine/tools/mcp/naming.py)


def named_server(name: str) -> str | None:
    """The server part of an MCP tool's name (`mcp__git__git_add` -> "git"), or None
    for a name that is not an MCP tool's. Server ids may hold "_", so where the
    configured ids are known, `ToolService.source_of` matches them instead."""
    if not name.startswith(MCP_PREFIX):
        return None
    server, separator, tool = name.removeprefix(MCP_PREFIX).partition("__")
    return server if separator and server and tool else None


class ToolRisk(StrEnum):
    READ = "read"  # looks, changes nothing
    WRITE = "write"  # changes files or other state
    SHELL = "shell"  # runs arbitrary commands


class ToolPolicy(StrEnum):
    AUTO = "auto"
    ASK = "ask"
    OFF = "off"


def default_policy(risk: ToolRisk) -> ToolPolicy:
    """Reading runs by itself; anything that changes or executes asks first."""
    return ToolPolicy.AUTO if risk is ToolRisk.READ else ToolPolicy.ASK


@dataclass(frozen=True, slots=True)
class ToolDefinition:
    """A tool as offered to the model and shown to the person.

    `parameters` is a JSON Schema object; `source` is `BUILTIN_SOURCE` or the name of
    the MCP server that provides the tool.
    """

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object"})
    risk: ToolRisk = ToolRisk.READ
    source: str = BUILTIN_SOURCE
    # What happens without a choice of the person's, when the risk alone does not say
    # it: a web page fetched asks first though it changes nothing; a memory saved runs
    # at once, shown on its card with Undo.
    policy: ToolPolicy | None = None

    @property
    def definition_hash(self) -> str:
        """Stable across runs and key order: sha256 of the canonical JSON, in hex."""
        canonical = json.dumps(
            {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
                "risk": self.risk.value,
                "source": self.source,
            },
            sort_keys=True,
            ensure_ascii=False,
            separators=(",", ":"),
        )
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
