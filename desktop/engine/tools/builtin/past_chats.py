"""`search_conversations`: the person's earlier chats, searched when the model needs them.

Offered only by an assistant whose "search past chats" switch is on (see
`turn/answer_inputs.py`). The chat asking is left out unless the model asks for it,
and dates may bound the search. What comes back is numbered with the answer's other
sources and kept on the answer as citations that open the chat at that message; the
model reads only the number, the chat's title, the date and a snippet: no ids.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from functools import partial
from typing import Any, Final

from desktop.core.errors import ParleyError
from desktop.core.models import CitationPart, SourceKind
from desktop.core.search import SearchHit, SearchScope
from desktop.core.tools import ToolDefinition
from desktop.engine.tools.registry import Tool, ToolContext, ToolFailure

SEARCH_CONVERSATIONS: Final = "search_conversations"
SEARCH_LIMIT: Final = 10
SNIPPET_CHARS: Final = 400


def _day(arguments: Mapping[str, Any], key: str) -> date | None:
    value = arguments.get(key)
    if value is None or value == "":
        return None
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        raise ToolFailure(f"'{key}' must be a date such as 2026-03-31.") from None


def _scope(arguments: Mapping[str, Any], context: ToolContext) -> SearchScope:
    """Days are the person's local days: `until` takes in the whole of its day."""
    since, until = _day(arguments, "since"), _day(arguments, "until")
    if since is not None and until is not None and until < since:
        raise ToolFailure("'until' is before 'since'.")
    zone = datetime.now().astimezone().tzinfo
    return SearchScope(
        since=datetime.combine(since, time(), zone) if since else None,
        until=(
            datetime.combine(until + timedelta(days=1), time(), zone) - timedelta(microseconds=1)
            if until
            else None
        ),
        exclude_conversation_id=(
            None if arguments.get("include_current") is True else context.conversation_id or None
        ),
    )


def _citation(hit: SearchHit, number: int) -> CitationPart:
    when = hit.written_at or hit.updated_at
    return CitationPart(
        number=number,
        library_id="",
        path="",
        relative_path="",
        excerpt=hit.snippet,
        kind=SourceKind.CHAT,
        title=hit.conversation_title,
        conversation_id=hit.conversation_id,
        message_id=hit.message_id or "",
        date=when.isoformat(timespec="seconds"),
    )


def _key(hit: SearchHit) -> tuple[SourceKind, str]:
    return SourceKind.CHAT, hit.message_id or f"title:{hit.conversation_id}"


async def _search(arguments: Mapping[str, Any], context: ToolContext) -> str:
    query = arguments.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ToolFailure("Give a non-empty 'query'.")
    if context.search is None:
        raise ToolFailure("Conversation search is not available.")
    limit = arguments.get("limit", SEARCH_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int):
        limit = SEARCH_LIMIT
    scope = _scope(arguments, context)
    sources = context.sources
    place = sources.line_up() if sources is not None else None
    try:
        try:
            hits = await asyncio.to_thread(
                context.search, query.strip(), max(1, min(SEARCH_LIMIT, limit)), scope
            )
        except ParleyError:  # its words may name folders on this computer: not told
            raise ToolFailure("The earlier chats could not be searched just now.") from None
        if place is not None:
            await place.reached()
        return json.dumps({"results": _numbered(hits, context)}, ensure_ascii=False)
    finally:
        if place is not None:
            place.leave()


def _numbered(hits: list[SearchHit], context: ToolContext) -> list[dict[str, Any]]:
    sources = context.sources
    if sources is not None:
        sources.add([(_key(hit), partial(_citation, hit)) for hit in hits])
    results = []
    for hit in hits:
        when = hit.written_at or hit.updated_at
        shown: dict[str, Any] = {
            "conversation": hit.conversation_title,
            "date": when.astimezone().date().isoformat(),
            "snippet": hit.snippet[:SNIPPET_CHARS],
        }
        number = sources.number_of(_key(hit)) if sources is not None else None
        results.append({"number": number, **shown} if number is not None else shown)
    return results


SEARCH_PAST_CHATS = Tool(
    ToolDefinition(
        SEARCH_CONVERSATIONS,
        "Search the person's earlier conversations in Parley (not this one, unless "
        "include_current is true), by words. Returns numbered results with the chat's "
        "title, date and a snippet; cite one you use by its number, e.g. [2].",
        {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "words or a quoted phrase"},
                "limit": {"type": "integer", "minimum": 1, "maximum": SEARCH_LIMIT},
                "since": {"type": "string", "description": "first day, YYYY-MM-DD"},
                "until": {"type": "string", "description": "last day, YYYY-MM-DD"},
                "include_current": {
                    "type": "boolean",
                    "description": "also search this conversation",
                },
            },
            "required": ["query"],
        },
    ),
    _search,
)
