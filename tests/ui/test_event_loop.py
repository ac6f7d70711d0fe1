"""The one event loop Parley runs on: qasync's, with its last pass kept inside the loop."""

from __future__ import annotations

import asyncio
from typing import Any


def test_work_left_ready_when_a_run_ends_still_sees_its_loop(loop):
    """Whatever is ready when a run ends (a request the window started just before it
    closed) is stepped with the loop it belongs to, never outside any loop, where it
    would fail with "no running event loop"."""
    seen: list[Any] = []

    def look(_body: Any) -> None:
        # Ready only after the run was told to stop: the body's end stops it first.
        loop.call_soon(lambda: seen.append(asyncio._get_running_loop()))

    async def body() -> None:
        task = asyncio.current_task()
        assert task is not None
        task.add_done_callback(look)

    loop.run_until_complete(body())
    loop.run_until_complete(asyncio.sleep(0))  # whatever the last pass left
    assert seen == [loop]
