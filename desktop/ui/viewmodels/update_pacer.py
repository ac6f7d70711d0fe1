"""Apply a streaming answer's updates no more often than the GUI thread can afford.

The engine coalesces a reply into one update about every 40 ms. Applying one costs the
Markdown of the changed block, the document edit and the repaint, which grows with the
answer (a 20 KB answer with a long code block: about 6 ms). At a fixed 40 ms that is
15 % of the GUI thread, and more on a slow machine; typing, scrolling and resizing
then stutter. So the pacer reads the GUI thread's CPU time at each applied update: what
the thread spent since the previous one (that update, its repaint, which Qt does a
frame later, and anything else) is the cost of a cycle, and the next update waits until
a typical cycle's cost is at most `BUSY_SHARE` of its length, never less than
`MIN_INTERVAL_MS` and never more than `MAX_INTERVAL_MS`, so text keeps flowing.
"Typical" is a running average of the stream's cycles (`SMOOTHING`): a cycle's cost
grows with the text that arrived during it, so pacing by the last cycle alone lets one
costly cycle (a batch of typeset formulas, a garbage collection) stretch the next wait,
which then brings more text and costs more again; averaged, the cycles stay even.
Only the latest update of a message is kept while it waits: each carries the whole
message so far, so nothing is lost; a message's final update (complete, failed,
stopped) is applied at once. An update so costly that even `MAX_INTERVAL_MS` would
keep the thread busier than `MAX_BUSY_SHARE` (a reply of hostile markdown, whose
formatting the renderer bounds at a few hundred ms) waits longer instead, so the window
stays responsive between its updates.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from desktop.core.models import Message

BUSY_SHARE = 0.085  # under the 10 % target: the idle loop, and an average lags rising costs
MIN_INTERVAL_MS = 40
MAX_INTERVAL_MS = 250
MAX_BUSY_SHARE = 0.25
SMOOTHING = 0.3  # the newest cycle's weight in the typical cost
_CYCLE_SECONDS = 2 * MAX_INTERVAL_MS / 1000  # longer gaps: the stream paused, cost unknown


def next_delay_ms(cost_ms: float, since_start_ms: float, typical_ms: float | None = None) -> int:
    """How long to wait before the next update, `since_start_ms` after the last began:
    paced by the stream's `typical_ms` cycle (default: the last one, `cost_ms`), but
    never so soon that the last cycle's cost would exceed `MAX_BUSY_SHARE`."""
    typical = cost_ms if typical_ms is None else typical_ms
    interval = min(max(typical / BUSY_SHARE, MIN_INTERVAL_MS), MAX_INTERVAL_MS)
    interval = max(interval, cost_ms / MAX_BUSY_SHARE)
    return max(0, round(interval - since_start_ms))


class UpdatePacer(QObject):
    """Holds the latest streaming update per message and applies it when its turn comes.

    `applied` and `submitted` count updates, so tests and benchmarks can see coalescing;
    `measured` reports each cycle's cost in ms of GUI-thread CPU, repaint included.
    """

    measured = Signal(float)

    def __init__(self, apply: Callable[[Message], None], parent: QObject | None = None):
        super().__init__(parent)
        self._apply = apply
        self._pending: dict[str, Message] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._apply_pending)
        self._started = 0.0  # perf_counter when the last applied update began
        self._started_cpu = 0.0  # the GUI thread's CPU time then
        self._cost_ms = 0.0
        self._typical_ms: float | None = None  # the stream's average cycle
        self.applied = 0
        self.submitted = 0

    @property
    def last_cost_ms(self) -> float:
        """The GUI thread's CPU time over the last update cycle, repaint included."""
        return self._cost_ms

    @property
    def typical_ms(self) -> float | None:
        """The stream's average cycle cost (None before its first cycle is measured)."""
        return self._typical_ms

    @property
    def has_pending(self) -> bool:
        return bool(self._pending)

    def submit(self, message: Message) -> None:
        """Queue `message` (the whole message so far); replaces a queued older version."""
        self.submitted += 1
        self._pending[message.id] = message
        if not self._timer.isActive():
            since_start = (time.perf_counter() - self._started) * 1000
            self._timer.start(next_delay_ms(self._cost_ms, since_start, self._typical_ms))

    def discard(self, message_id: str | None = None) -> None:
        """Forget what waits (for one message, or all): a newer state is shown instead."""
        if message_id is None:
            self._pending.clear()
        else:
            self._pending.pop(message_id, None)
        if not self._pending:
            self._timer.stop()

    def _apply_pending(self) -> None:
        if not self._pending:
            return
        now, cpu = time.perf_counter(), time.thread_time()
        cycle_ms = 0.0
        if now - self._started < _CYCLE_SECONDS:  # a cycle of this stream, not a new one
            cycle_ms = (cpu - self._started_cpu) * 1000
            self.measured.emit(cycle_ms)
            typical = self._typical_ms
            self._typical_ms = (
                cycle_ms if typical is None else typical + SMOOTHING * (cycle_ms - typical)
            )
        else:
            self._typical_ms = None
        self._started, self._started_cpu = now, cpu
        pending, self._pending = self._pending, {}
        for message in pending.values():
            self._apply(message)
            self.applied += 1
        # The repaint comes later; this update's own work already bounds the next wait.
        self._cost_ms = max(cycle_ms, (time.thread_time() - cpu) * 1000)
