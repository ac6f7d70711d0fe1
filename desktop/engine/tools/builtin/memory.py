"""The memory tools: search, save, update and delete what the person asked the assistant
to remember. Offered when the assistant uses memories and the model calls tools; each
call goes to the answer's `AnswerMemory` (`turn/answer_memory.py`), which names memories
by per-answer handles. Saving, changing and deleting run without asking by default:
each shows on the answer's card, where the person can edit or undo it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from desktop.core.tools import ToolDefinition, ToolPolicy, ToolRisk
from desktop.engine.tools.registry import Handler, MemoryTools, Tool, ToolContext, ToolFailure

MEMORY_SEARCH: Final = "memory_search"
MEMORY_SAVE: Final = "memory_save"
MEMORY_UPDATE: Final = "memory_update"
MEMORY_DELETE: Final = "memory_delete"
MEMORY_TOOLS: Final = (MEMORY_SEARCH, MEMORY_SAVE, MEMORY_UPDATE, MEMORY_DELETE)


def _text(arguments: Mapping[str, Any], key: str) -> str:
    value = arguments.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ToolFailure(f"Give a non-empty '{key}'.")
    return value.strip()


def _memory(context: ToolContext) -> MemoryTools:
    if context.memory is None:
        raise ToolFailure("Memories are not used in this conversation.")
    return context.memory


async def _search(arguments: Mapping[str, Any], context: ToolContext) -> str:
    return await _memory(context).search(_text(arguments, "query"))


async def _save(arguments: Mapping[str, Any], context: ToolContext) -> str:
    return await _memory(context).save(_text(arguments, "text"))


async def _update(arguments: Mapping[str, Any], context: ToolContext) -> str:
    memory = _memory(context)
    return await memory.update(_text(arguments, "handle"), _text(arguments, "text"))


async def _delete(arguments: Mapping[str, Any], context: ToolContext) -> str:
    return await _memory(context).delete(_text(arguments, "handle"))


def _tool(name: str, description: str, properties: dict[str, Any], run: Handler, **kw: Any) -> Tool:
    schema = {"type": "object", "properties": properties, "required": list(properties)}
    return Tool(ToolDefinition(name, description, schema, **kw), run)


_HANDLE = {"type": "string", "description": "the memory's handle, e.g. m2"}
_FACT = {"type": "string", "description": "one short fact, in the person's terms"}

SEARCH_MEMORY = _tool(
    MEMORY_SEARCH,
    "Search what the person asked you to remember. Returns memories with handles.",
    {"query": {"type": "string", "description": "what to look for"}},
    _search,
)
SAVE_MEMORY = _tool(
    MEMORY_SAVE,
    "Remember a fact the person asked you to keep (or clearly wants kept) for later "
    "conversations. If it is already remembered, the existing memory's handle comes "
    "back: update that one instead of saving again.",
    {"text": _FACT},
    _save,
    risk=ToolRisk.WRITE,
    policy=ToolPolicy.AUTO,
)
UPDATE_MEMORY = _tool(
    MEMORY_UPDATE,
    "Change a remembered fact, named by its handle.",
    {"handle": _HANDLE, "text": _FACT},
    _update,
    risk=ToolRisk.WRITE,
    policy=ToolPolicy.AUTO,
)
DELETE_MEMORY = _tool(
    MEMORY_DELETE,
    "Forget a remembered fact, named by its handle (when the person asks you to).",
    {"handle": _HANDLE},
    _delete,
    risk=ToolRisk.WRITE,
    policy=ToolPolicy.AUTO,
)
