"""Names for MCP tools that every provider accepts: `mcp__{server}__{tool}`.

Providers allow only [A-Za-z0-9_-] and at most 64 characters in a function name, so
other characters become "_" and a long name is cut; when cutting makes two names equal,
the later one ends in a short hash of its full name so both stay callable.
"""

from __future__ import annotations

import hashlib
import re

from desktop.core.tools import MCP_PREFIX

MAX_NAME = 64
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def sanitise(text: str) -> str:
    return _UNSAFE.sub("_", text) or "_"


def mcp_tool_name(server: str, tool: str, taken: set[str]) -> str:
    """A provider-safe, unique name for `tool` of `server`; adds it to `taken`."""
    full = f"{MCP_PREFIX}{sanitise(server)}__{sanitise(tool)}"
    name = full[:MAX_NAME]
    if name in taken:
        digest = hashlib.sha256(f"{server}\0{tool}".encode()).hexdigest()[:8]
        name = f"{full[: MAX_NAME - 9]}_{digest}"
        counter = 2
        while name in taken:
            suffix = f"_{digest}{counter}"
            name = f"{full[: MAX_NAME - len(suffix)]}{suffix}"
            counter += 1
    taken.add(name)
    return name
