"""What `McpManager` tells the rest of Parley on its `events` bus (plain data, no Qt).

The settings pages refresh on `McpServersChanged`; the window asks for consent on
`McpConsentWanted`, since the engine must never show anything itself.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class McpServersChanged:
    """A server started, stopped (or crashed), or the tools it offers changed."""

    server_id: str


@dataclass(frozen=True, slots=True)
class McpConsentWanted:
    """A generation would offer tools, but these enabled stdio servers have no consent
    for their command line yet, so they were left out."""

    server_ids: tuple[str, ...]


McpEvent = McpServersChanged | McpConsentWanted
