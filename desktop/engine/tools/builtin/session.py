"""Tools about the session itself: the time, past conversations, what is available."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from desktop.core.tools import ToolDefinition
from desktop.engine.tools.registry import Tool, ToolContext, ToolFailure

SEARCH_LIMIT = 20


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


async def _search(arguments: Mapping[str, Any], context: ToolContext) -> str:
    query = arguments.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ToolFailure("Give a non-empty 'query'.")
    if context.search is None:
        raise ToolFailure("Conversation search is not available.")
    limit = arguments.get("limit", 10)
    limit = max(1, min(SEARCH_LIMIT, limit if isinstance(limit, int) else 10))
    return json.dumps({"results": context.search(query, limit)}, ensure_ascii=False)


async def _capabilities(_arguments: Mapping[str, Any], context: ToolContext) -> str:
    return json.dumps(
        {
            "tools": [
                {"name": t.name, "risk": t.risk.value, "source": t.source} for t in context.offered
            ],
            "workspace": context.workspace is not None,
            "retrieval": [
                name
                for name, present in (
                    ("knowledge_search", context.knowledge is not None),
                    ("conversation_search", context.search is not None),
                )
                if present
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

SEARCH_CONVERSATIONS = Tool(
    ToolDefinition(
        "search_conversations",
        "Full-text search over the person's earlier conversations in Parley.",
        {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "words or a quoted phrase"},
                "limit": {"type": "integer", "minimum": 1, "maximum": SEARCH_LIMIT},
            },
            "required": ["query"],
        },
    ),
    _search,
)

CAPABILITIES = Tool(
    ToolDefinition(
        "get_session_capabilities",
        "Which tools and retrieval modes this conversation really has right now.",
        {"type": "object", "properties": {}},
    ),
    _capabilities,
)
