"""Indexing progress, sent often enough to move a progress bar and no more.

A pass over a thousand small files changes its state thousands of times a second; each
event crosses to the GUI thread and repaints. `ProgressThrottle` sends at most one
event per interval (about ten a second), and always the newest state: a change held
back is sent when the interval is over, so the last file named is the one being read.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from desktop.core.knowledge import IndexProgress

PROGRESS_INTERVAL_S = 0.1


class ProgressThrottle:
    """Sends `current()` through `send` at most once per `interval` (on the running
    loop), and at once when asked to (`now=True`: a state change, the end)."""

    def __init__(
        self,
        current: Callable[[], IndexProgress],
        send: Callable[[IndexProgress], None],
        interval: float = PROGRESS_INTERVAL_S,
    ) -> None:
        self._current = current
        self._send = send
        self._interval = interval
        self._last = -interval
        self._timer: asyncio.TimerHandle | None = None

    def changed(self, *, now: bool = False) -> None:
        elapsed = time.monotonic() - self._last
        if now or elapsed >= self._interval:
            self._emit()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(
                self._interval - elapsed, self._emit
            )

    def close(self) -> None:
        """Drop a change still held back (the final state is sent with `now=True`)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _emit(self) -> None:
        self.close()
        self._last = time.monotonic()
        self._send(self._current())
