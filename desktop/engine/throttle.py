"""Coalesce many changes into one action per interval (UI updates, database writes)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Throttle:
    """Runs `action` at most once per `interval` seconds after `touch()`.

    The first touch schedules the action `interval` later; touches until then are
    absorbed. `flush()` runs a pending action now, so the last change is never lost.
    """

    def __init__(self, interval: float, action: Callable[[], None]) -> None:
        self._interval = interval
        self._action = action
        self._handle: asyncio.TimerHandle | None = None

    @property
    def pending(self) -> bool:
        return self._handle is not None

    def touch(self) -> None:
        if self._handle is None:
            loop = asyncio.get_running_loop()
            self._handle = loop.call_later(self._interval, self._fire)

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
