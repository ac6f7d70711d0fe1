"""The engine's one way to run work in the background: tasks kept by key.

asyncio holds only weak references to tasks, so a task nobody keeps can be collected
half-way; a task that fails with nobody awaiting it says so only when it is collected;
and a task still running at quit outlives its loop. Every background job of the engine
(answers being generated, titles and suggestions, model-information refreshes, desktop
notifications) is started here, under a key (a conversation, an endpoint), so that it is
referenced until it ends, its failure is logged, and whoever owns it can stop one key's
work or all of it and know that it has ended.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class KeyedTasks:
    """Background tasks grouped by key; `name` labels them in task names and logs."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._tasks: dict[str, list[asyncio.Task[None]]] = {}
        self._stopping: set[asyncio.Task[None]] = set()  # let go by `cancel_now`

    def start(self, key: str, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run `work` on the running loop under `key` (beside what already runs there)."""
        task = asyncio.get_running_loop().create_task(work, name=f"{self._name}:{key}")
        self._tasks.setdefault(key, []).append(task)
        task.add_done_callback(lambda ended: self._forget(key, ended))
        return task

    def running(self, key: str) -> list[asyncio.Task[None]]:
        """The tasks under `key` that have not ended, oldest first. A task counts as ended
        as soon as it is done, not when the loop gets round to its done callback: whoever
        heard of its end may ask next."""
        return [task for task in self._tasks.get(key, ()) if not task.done()]

    def busy(self, key: str) -> bool:
        return bool(self.running(key))

    def cancel_now(self, key: str) -> None:
        """Ask the tasks under `key` to stop, without waiting for them: the key is free
        at once (its work is for something that is gone), and `close` still waits."""
        for task in self._tasks.pop(key, ()):
            if not task.done():
                task.cancel()
                self._stopping.add(task)
                task.add_done_callback(self._stopping.discard)

    async def cancel(self, key: str) -> None:
        """Stop the tasks under `key` and wait until they have ended (a task may save its
        state as it stops: a second cancellation would interrupt that, so the wait is
        shielded). Only a cancellation of the caller itself is raised."""
        tasks = self.running(key)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.shield(asyncio.gather(*tasks, return_exceptions=True))

    async def close(self) -> None:
        """Stop everything, and wait until it has ended."""
        for key in list(self._tasks):
            await self.cancel(key)
        if self._stopping:
            await asyncio.shield(asyncio.gather(*self._stopping, return_exceptions=True))

    def _forget(self, key: str, task: asyncio.Task[None]) -> None:
        tasks = self._tasks.get(key)
        if tasks is not None and task in tasks:
            tasks.remove(task)
            if not tasks:
                del self._tasks[key]
        if not task.cancelled() and task.exception() is not None:
            log.error("%s task failed", self._name, exc_info=task.exception())
