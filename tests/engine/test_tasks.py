"""The engine's background tasks: kept, stopped and reported the same way everywhere.

Every wait here is on an event or a condition: a task's "save as it stops" is a step the
test releases, never a sleep that is assumed long enough.
"""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest

from desktop.engine.tasks import KeyedTasks
from tests.support.waiting import CEILING_S, run_within, wait_for


async def forever(started: asyncio.Event | None = None) -> None:
    """Work that runs until it is cancelled."""
    if started is not None:
        started.set()
    await asyncio.Event().wait()


async def ended(task: asyncio.Task[None]) -> None:
    """Until `task` is done and every done callback added before this one has run."""
    done = asyncio.Event()
    task.add_done_callback(lambda _task: done.set())
    await asyncio.wait_for(done.wait(), CEILING_S)


def test_a_task_nobody_else_holds_runs_to_its_end():
    finished = []

    async def work(release: asyncio.Event) -> None:
        await release.wait()
        finished.append(True)

    async def body() -> None:
        tasks = KeyedTasks("test")
        release = asyncio.Event()
        tasks.start("a", work(release))
        gc.collect()  # asyncio itself keeps only a weak reference
        release.set()
        await wait_for(lambda: not tasks.busy("a"))

    run_within(body())
    assert finished == [True]


def test_a_task_counts_as_ended_as_soon_as_it_is_done():
    async def body() -> None:
        tasks = KeyedTasks("test")
        task = tasks.start("a", asyncio.sleep(0))
        assert tasks.busy("a") and tasks.running("a") == [task]
        await task  # its done callback has not run yet
        assert not tasks.busy("a") and tasks.running("a") == []

    run_within(body())


def test_keys_are_independent_and_a_key_holds_several_tasks():
    async def body() -> None:
        tasks = KeyedTasks("test")
        first = tasks.start("a", forever())
        second = tasks.start("a", forever())
        other = tasks.start("b", forever())
        assert tasks.running("a") == [first, second]
        await tasks.cancel("a")
        assert first.cancelled() and second.cancelled()
        assert tasks.busy("b") and not other.done()
        await tasks.close()
        assert other.cancelled() and not tasks.busy("b")

    run_within(body())


class Saving:
    """Work that, once cancelled, saves its state in a step the test releases."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.stopping = asyncio.Event()
        self.proceed = asyncio.Event()
        self.saved = False

    async def work(self) -> None:
        try:
            await forever(self.started)
        finally:
            self.stopping.set()
            await self.proceed.wait()
            self.saved = True


def test_cancel_waits_for_what_a_task_does_as_it_stops():
    async def body() -> None:
        tasks, saving = KeyedTasks("test"), Saving()
        tasks.start("a", saving.work())
        await saving.started.wait()
        waiter = asyncio.create_task(tasks.cancel("a"))
        await saving.stopping.wait()
        assert not waiter.done()  # still saving
        saving.proceed.set()
        await asyncio.wait_for(waiter, CEILING_S)
        assert saving.saved

    run_within(body())


def test_a_caller_cancelled_while_it_waits_does_not_interrupt_the_stopping_task():
    async def body() -> None:
        tasks, saving = KeyedTasks("test"), Saving()
        task = tasks.start("a", saving.work())
        await saving.started.wait()
        waiter = asyncio.create_task(tasks.cancel("a"))
        await saving.stopping.wait()
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter  # the caller's own cancellation is raised
        saving.proceed.set()
        await ended(task)
        assert saving.saved

    run_within(body())


def test_cancel_now_frees_the_key_at_once_and_close_still_waits():
    async def body() -> None:
        tasks, saving = KeyedTasks("test"), Saving()
        task = tasks.start("a", saving.work())
        await saving.started.wait()
        tasks.cancel_now("a")
        assert not task.done() and not tasks.busy("a")  # asked, not yet ended
        closing = asyncio.create_task(tasks.close())
        await saving.stopping.wait()
        assert not closing.done()
        saving.proceed.set()
        await asyncio.wait_for(closing, CEILING_S)
        assert task.cancelled() and saving.saved

    run_within(body())


def test_a_failure_is_logged_with_its_traceback(caplog):
    async def failing() -> None:
        raise RuntimeError("boom")

    async def body() -> None:
        tasks = KeyedTasks("titles")
        await ended(tasks.start("a", failing()))

    with caplog.at_level(logging.ERROR, logger="desktop.engine.tasks"):
        run_within(body())
    [record] = [r for r in caplog.records if r.name == "desktop.engine.tasks"]
    assert "titles task failed" in record.getMessage()
    assert record.exc_info is not None and "boom" in str(record.exc_info[1])


def test_a_cancelled_task_is_not_reported_as_failed(caplog):
    async def body() -> None:
        tasks = KeyedTasks("test")
        started = asyncio.Event()
        task = tasks.start("a", forever(started))
        await started.wait()
        await tasks.cancel("a")
        await ended(task)

    with caplog.at_level(logging.ERROR, logger="desktop.engine.tasks"):
        run_within(body())
    assert not [r for r in caplog.records if r.name == "desktop.engine.tasks"]
