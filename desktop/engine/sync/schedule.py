"""When sync runs by itself: soon after start, a few seconds after each finished
answer (several answers in a row make one sync), and every `interval` otherwise.

A run asked for while one is going is moved to just after it. Whether a run may
happen at all (a vault, a target, not paused) is asked at the moment it is due, so
pausing takes effect at once without cancelling timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Final

log = logging.getLogger(__name__)

DEBOUNCE_SECONDS: Final = 5.0
START_DELAY_SECONDS: Final = 3.0


class SyncSchedule:
    def __init__(
        self,
        run: Callable[[], Awaitable[object]],
        allowed: Callable[[], bool],
        interval_seconds: Callable[[], float],
    ) -> None:
        self._run = run
        self._allowed = allowed
        self._interval = interval_seconds
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._count: asyncio.TimerHandle | None = None
        self._counting: asyncio.Future[None] | None = None
        self._started = False

    def start(self) -> None:
        self._started = True
        self.soon(START_DELAY_SECONDS)

    async def stop(self) -> None:
        self._started = False
        for timer in (self._timer, self._count):
            if timer is not None:
                timer.cancel()
        self._timer = self._count = None
        for task in (self._task, self._counting):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    def after_answer(self) -> None:
        self.soon(DEBOUNCE_SECONDS)

    def count_soon(self, count: Callable[[], Awaitable[object]]) -> None:
        """Run `count` (how many changes wait) once answers stop coming for a moment."""
        if not self._started:
            return
        if self._count is not None:
            self._count.cancel()
        loop = asyncio.get_running_loop()
        self._count = loop.call_later(DEBOUNCE_SECONDS, lambda: self._spawn(self._quietly(count)))

    def _spawn(self, work: Awaitable[None]) -> None:
        self._counting = asyncio.ensure_future(work)

    def soon(self, delay: float = 0.0) -> None:
        """Run in `delay` seconds (a later request moves an earlier one back); only
        once started: until then every sync is asked for explicitly."""
        if not self._started:
            return
        if self._timer is not None:
            self._timer.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._timer = loop.call_later(delay, self._due)

    def _due(self) -> None:
        self._timer = None
        if self._task is not None and not self._task.done():
            self.soon(DEBOUNCE_SECONDS)
            return
        if self._allowed():
            self._task = asyncio.ensure_future(self._quietly(self._run))
        self.soon(self._interval())

    async def _quietly(self, work: Callable[[], Awaitable[object]]) -> None:
        try:
            await work()
        except Exception:  # the status says what went wrong; a background run adds nothing
            log.info("Background sync work did not finish", exc_info=True)
