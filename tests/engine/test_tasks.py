"""The engine's background tasks: kept, stopped and reported the same way everywhere."""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest

from desktop.engine.tasks import KeyedTasks
from tests.support.waiting import run_within


def test_a_task_nobody_else_holds_runs_to_its_end():
    ended = []

    async def work(release: asyncio.Event) -> None:
        await release.wait()
        ended.append(True)

    async def body() -> None:
        tasks = KeyedTasks("test")
        release = asyncio.Event()
        tasks.start("a", work(release))
        gc.collect()  # asyncio itself keeps only a weak reference
        release.set()
        while tasks.busy("a"):
            await asyncio.sleep(0)

    run_within(body(), 30)
    assert ended == [True]


def test_a_task_counts_as_ended_as_soon_as_it_is_done():
    async def body() -> None:
        tasks = KeyedTasks("test")
        task = tasks.start("a", asyncio.sleep(0))
        assert tasks.busy("a") and tasks.running("a") == [task]
        await task  # its done callback has not run yet
        assert not tasks.busy("a") and tasks.running("a") == []

    run_within(body(), 30)


def test_keys_are_independent_and_a_key_holds_several_tasks():
    async def body() -> None:
        tasks = KeyedTasks("test")
        first = tasks.start("a", asyncio.sleep(60))
        second = tasks.start("a", asyncio.sleep(60))
        other = tasks.start("b", asyncio.sleep(60))
        assert tasks.running("a") == [first, second]
        await tasks.cancel("a")
        assert first.cancelled() and second.cancelled()
        assert tasks.busy("b") and not other.done()
        await tasks.close()
        assert other.cancelled() and not tasks.busy("b")

    run_within(body(), 30)


def test_cancel_waits_for_what_a_task_does_as_it_stops():
    saved = []

    async def work(started: asyncio.Event) -> None:
        started.set()
        try:
            await asyncio.sleep(60)
        finally:
            await asyncio.sleep(0.01)  # saving its state takes a moment
            saved.append(True)

    async def body() -> None:
        tasks = KeyedTasks("test")
        started = asyncio.Event()
        tasks.start("a", work(started))
        await started.wait()
        await tasks.cancel("a")
        assert saved == [True]

    run_within(body(), 30)


def test_a_caller_cancelled_while_it_waits_does_not_interrupt_the_stopping_task():
    saved = []

    async def work(started: asyncio.Event, stopping: asyncio.Event) -> None:
        started.set()
        try:
            await asyncio.sleep(60)
        finally:
            stopping.set()
            await asyncio.sleep(0.05)
            saved.append(True)

    async def body() -> None:
        tasks = KeyedTasks("test")
        started, stopping = asyncio.Event(), asyncio.Event()
        task = tasks.start("a", work(started, stopping))
        await started.wait()
        waiter = asyncio.create_task(tasks.cancel("a"))
        await stopping.wait()
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter  # the caller's own cancellation is raised
        await asyncio.wait({task}, timeout=30)
        assert saved == [True]

    run_within(body(), 30)


def test_cancel_now_frees_the_key_at_once_and_close_still_waits():
    saved = []

    async def work(started: asyncio.Event) -> None:
        started.set()
        try:
            await asyncio.sleep(60)
        finally:
            await asyncio.sleep(0.01)
            saved.append(True)

    async def body() -> None:
        tasks = KeyedTasks("test")
        started = asyncio.Event()
        task = tasks.start("a", work(started))
        await started.wait()
        tasks.cancel_now("a")
        assert not task.done() and not tasks.busy("a")  # asked, not yet ended
        await tasks.close()
        assert task.cancelled() and saved == [True]

    run_within(body(), 30)


def test_a_failure_is_logged_with_its_traceback(caplog):
    async def failing() -> None:
        raise RuntimeError("boom")

    async def body() -> None:
        tasks = KeyedTasks("titles")
        task = tasks.start("a", failing())
        await asyncio.wait({task}, timeout=30)
        await asyncio.sleep(0)  # the done callback

    with caplog.at_level(logging.ERROR, logger="desktop.engine.tasks"):
        run_within(body(), 30)
    [record] = [r for r in caplog.records if r.name == "desktop.engine.tasks"]
    assert "titles task failed" in record.getMessage()
    assert record.exc_info is not None and "boom" in str(record.exc_info[1])


def test_a_cancelled_task_is_not_reported_as_failed(caplog):
    async def body() -> None:
        tasks = KeyedTasks("test")
        tasks.start("a", asyncio.sleep(60))
        await asyncio.sleep(0)
        await tasks.cancel("a")
        await asyncio.sleep(0)

    with caplog.at_level(logging.ERROR, logger="desktop.engine.tasks"):
        run_within(body(), 30)
    assert not [r for r in caplog.records if r.name == "desktop.engine.tasks"]
