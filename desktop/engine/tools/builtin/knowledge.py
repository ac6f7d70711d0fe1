"""`knowledge_search`: the person's documents, searched when the model needs them.

Offered first, and only to an answer whose assistant has libraries and whose model can
call tools (see `turn/retrieval.py`); the answer's `SearchLedger` runs each search,
numbers the sources and keeps the limits, so this module only checks the arguments.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from desktop.core.knowledge import MAX_PASSAGES
from desktop.core.tools import ToolDefinition
from desktop.engine.tools.registry import Tool, ToolContext, ToolFailure

KNOWLEDGE_SEARCH: Final = "knowledge_search"


async def _knowledge_search(arguments: Mapping[str, Any], context: ToolContext) -> str:
    query = arguments.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ToolFailure("Give a non-empty 'query': the words or question to look for.")
    if context.knowledge is None:
        raise ToolFailure("The person's documents are not available in this answer.")
    limit = arguments.get("limit", MAX_PASSAGES)
    if isinstance(limit, bool) or not isinstance(limit, int):
        limit = MAX_PASSAGES
    return await context.knowledge.search(query.strip(), limit)


SEARCH_KNOWLEDGE = Tool(
    ToolDefinition(
        KNOWLEDGE_SEARCH,
        "Search the person's own documents (their knowledge libraries) by meaning and by "
        "words. Returns numbered passages with their file and page or section. Cite a "
        "passage you use by its number in square brackets, e.g. [1]. Search again with "
        "other words if the first results do not answer the question.",
        {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "what to look for, in words"},
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_PASSAGES,
                    "description": f"how many passages (at most {MAX_PASSAGES})",
                },
            },
            "required": ["query"],
        },
    ),
    _knowledge_search,
)
