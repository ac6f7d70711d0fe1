"""The worker thread that splits and renders streaming answers ahead of time.

`StreamingRenderer.prefetch` hands its jobs here (see ``desktop/render/ahead.py``): while
an update waits in the pacer, its text is split into blocks and they are rendered in this
thread, so the GUI thread's share of an update is mostly the blocks with formulas, the
document edit and the repaint. The worker runs pure Python (Markdown, pygments) and
touches no Qt object; the GUI thread meanwhile mostly waits for the pacer's timer or runs
Qt's layout and painting, which release the interpreter lock.

Automatic garbage collection is held off while a job is queued or running: a collection
runs in whichever thread allocates past the threshold and would finalise Qt objects of the
window in this one (see ``desktop.core.collector``). When the worker reports back, the GUI
thread collects the young garbage (so the few objects the worker still allocates on its
way back to waiting cannot set a collection off there) and releases the hold; closing
waits for the job under way before it releases the holds.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Signal

from desktop.core import collector

log = logging.getLogger(__name__)


class _Relay(QObject):
    """Tells the GUI thread (a queued connection) that a job ended. Owned by its
    `RenderAhead`, so only the GUI thread deletes it."""

    finished = Signal()


@dataclass(slots=True)
class _Shared:
    """What the worker thread holds: never the `RenderAhead` itself (a QObject whose last
    reference dropped there would be deleted there). `lock` is held while a job reports
    and while `close` runs: once `closed`, the relay is never touched again. `pending`
    (the GUI thread's alone) counts jobs not reported back, each holding collections."""

    relay: _Relay
    closed: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    executor: ThreadPoolExecutor | None = None
    pending: int = 0


def _run(shared: _Shared, job: Callable[[], None]) -> None:
    try:
        job()
    except Exception:  # a job's bug must not end the worker (the GUI thread renders it)
        log.exception("a job of the worker that renders ahead failed")
    finally:
        with shared.lock, contextlib.suppress(RuntimeError):  # RuntimeError: relay deleted
            if not shared.closed:
                shared.relay.finished.emit()


def _stop(shared: _Shared) -> None:
    """No job reports from now on; once the job under way has ended (a job is bounded by
    the formatting budget) the holds of those not reported are released."""
    with shared.lock:
        shared.closed = True
    if shared.executor is not None:
        shared.executor.shutdown(wait=True, cancel_futures=True)
        shared.executor = None
    while shared.pending:
        shared.pending -= 1
        collector.release()


class RenderAhead(QObject):
    """Runs `submit`ted jobs one at a time in its worker thread; `submitted` counts them."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._shared = _Shared(_Relay(self))
        self._shared.relay.finished.connect(self._on_finished)
        # Deleted without `close` (its parent went first): stopped before its relay goes.
        self.destroyed.connect(functools.partial(_stop, self._shared))
        self.submitted = 0

    @property
    def pending(self) -> int:
        """Jobs not reported back yet (tests and benchmarks wait for 0)."""
        return self._shared.pending

    def submit(self, job: Callable[[], None]) -> None:
        """Run `job` in the worker, after those before it; automatic collections are held
        until it reports back (see the module's docstring). Nothing runs once closed."""
        shared = self._shared
        if shared.closed:
            return
        if shared.executor is None:
            shared.executor = ThreadPoolExecutor(1, thread_name_prefix="parley-render")
        collector.hold()
        shared.pending += 1
        try:
            shared.executor.submit(_run, shared, job)
        except RuntimeError:  # the interpreter is shutting down: nothing is rendered ahead
            shared.pending -= 1
            collector.release()
            return
        self.submitted += 1

    def close(self) -> None:
        """Stop the worker: the job under way finishes unreported, the queue is dropped.
        Call it before the app's objects go."""
        _stop(self._shared)

    def _on_finished(self) -> None:
        shared = self._shared
        if not shared.pending:
            return  # reported after `close`
        shared.pending -= 1
        gc.collect(0)  # the job's young garbage, here, before collections may run again
        collector.release()
