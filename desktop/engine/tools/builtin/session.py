"""Tools about the session itself: the time, and what is available."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from desktop.core.tools import ToolDefinition
from desktop.engine.tools.registry import Tool, ToolContext, ToolFailure


async def _current_time(arguments: Mapping[str, Any], _context: ToolContext) -> str:
    zone_name = arguments.get("timezone")
    if zone_name:
        try:
            now = datetime.now(ZoneInfo(str(zone_name)))
        except (ZoneInfoNotFoundError, ValueError):
            raise ToolFailure(f"Unknown time zone {zone_name!r}; use an IANA name.") from None
    else:
        now = datetime.now().astimezone()
    return json.dumps(
        {
            "iso": now.isoformat(timespec="seconds"),
            "weekday": now.strftime("%A"),
            "timezone": str(now.tzinfo),
        }
    )


async def _capabilities(_arguments: Mapping[str, Any], context: ToolContext) -> str:
    return json.dumps(
        {
            "tools": [
                {"name": t.name, "risk": t.risk.value, "source": t.source} for t in context.offered
            ],
            "workspace": context.workspace is not None,
            "retrieval": [
                t.name
                for t in context.offered
                if t.name in ("knowledge_search", "search_conversations", "web_search")
            ],
        }
    )


CURRENT_TIME = Tool(
    ToolDefinition(
        "current_time",
        "The current date and time, in the person's time zone or a given IANA zone.",
        {
            "type": "object",
            "properties": {"timezone": {"type": "string", "description": "e.g. Europe/Paris"}},
        },
    ),
    _current_time,
)

CAPABILITIES = Tool(
    ToolDefinition(
        "get_session_capabilities",
        "Which tools and retrieval modes this conversation really has right now.",
        {"type": "object", "properties": {}},
    ),
    _capabilities,
)
