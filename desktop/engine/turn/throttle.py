"""Coalesce many changes into one action per interval (UI updates, database writes)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Throttle:
    """Runs `action` at most once per `interval` seconds after `touch()`.

    The first touch schedules the action `interval` later (on the loop's monotonic
    clock); touches until then are absorbed. A touch that finds the action overdue runs
    it at once: a burst of changes that never lets the loop reach its timers (a stream
    whose data is all buffered already) must not stretch the interval. `flush()` runs a
    pending action now, so the last change is never lost.
    """

    def __init__(self, interval: float, action: Callable[[], None]) -> None:
        self._interval = interval
        self._action = action
        self._handle: asyncio.TimerHandle | None = None
        self._due = 0.0
        self._time: Callable[[], float] = time.monotonic  # the loop's, once touched

    @property
    def pending(self) -> bool:
        return self._handle is not None

    def touch(self) -> None:
        """Called for every change (every chunk of a stream), so the usual case, an
        action already pending and not yet due, reads the clock and nothing else."""
        if self._handle is None:
            loop = asyncio.get_running_loop()
            self._time = loop.time
            self._due = loop.time() + self._interval
            self._handle = loop.call_later(self._interval, self._fire)
        elif self._time() >= self._due:
            self.flush()

    def flush(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._fire()

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _fire(self) -> None:
        self._handle = None
        self._action()
