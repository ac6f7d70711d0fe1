"""Progress is sent at most about ten times a second, and the newest state always."""

from __future__ import annotations

import asyncio
import time

from desktop.core.knowledge import IndexProgress, LibraryState
from desktop.engine.knowledge.progress import PROGRESS_INTERVAL_S, ProgressThrottle
from tests.support.waiting import run_within, wait_for


def test_a_burst_of_changes_sends_few_events_and_the_last_one():
    sent: list[IndexProgress] = []
    state = {"done": 0}

    async def main() -> float:
        throttle = ProgressThrottle(
            lambda: IndexProgress("lib", LibraryState.INDEXING, state["done"], 5000), sent.append
        )
        started = time.monotonic()
        for done in range(1, 5001):
            state["done"] = done
            throttle.changed()
            if done % 500 == 0:
                await asyncio.sleep(0)  # the loop gets a turn now and then, as in a pass
        elapsed = time.monotonic() - started
        await wait_for(lambda: sent[-1].done == 5000)
        throttle.close()
        return elapsed

    elapsed = run_within(main())
    # One at once, then at most one per interval of the burst, and the held-back last.
    assert len(sent) <= 2 + elapsed / PROGRESS_INTERVAL_S
    assert sent[0].done == 1
    assert sent[-1].done == 5000


def test_now_sends_at_once_and_close_drops_a_held_change():
    sent: list[IndexProgress] = []
    state = {"value": LibraryState.SCANNING}

    async def main() -> None:
        throttle = ProgressThrottle(lambda: IndexProgress("lib", state["value"]), sent.append)
        throttle.changed()
        state["value"] = LibraryState.INDEXING
        throttle.changed(now=True)
        assert [e.state for e in sent] == [LibraryState.SCANNING, LibraryState.INDEXING]
        throttle.changed()  # within the interval: held back
        throttle.close()
        # A timer due after the held change's would run after it (timers run in the
        # order they are due): once it has run, the held change would have been sent.
        later = asyncio.Event()
        asyncio.get_running_loop().call_later(PROGRESS_INTERVAL_S, later.set)
        await later.wait()

    run_within(main())
    assert len(sent) == 2
