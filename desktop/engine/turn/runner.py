"""At most one running generation per conversation, and the message each one writes."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from desktop.engine.tasks import KeyedTasks


class GenerationRunner:
    """At most one generation per conversation, and the message each one writes.

    Callers hold `lock(conversation_id)` while they stop the old generation and start
    the next, so two actions that both waited for the stop cannot each start one.
    """

    def __init__(self) -> None:
        self._tasks = KeyedTasks("generation")
        self._message_ids: dict[str, str] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, conversation_id: str) -> asyncio.Lock:
        return self._locks.setdefault(conversation_id, asyncio.Lock())

    def is_running(self, conversation_id: str) -> bool:
        return self._tasks.busy(conversation_id)

    def message_id(self, conversation_id: str) -> str | None:
        """The message the conversation's running generation writes, if any."""
        return self._message_ids.get(conversation_id) if self.is_running(conversation_id) else None

    def start(self, conversation_id: str, message_id: str, run: Coroutine[Any, Any, None]) -> None:
        self._message_ids[conversation_id] = message_id
        self._tasks.start(conversation_id, run)

    async def stop(self, conversation_id: str) -> None:
        """Cancel the running generation (if any) and wait until it has saved its state."""
        await self._tasks.cancel(conversation_id)

    async def shutdown(self) -> None:
        await self._tasks.close()
