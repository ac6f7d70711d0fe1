"""How long a test waits for something that should happen.

A condition that holds within a fraction of a second on a quiet machine can take tens
of seconds on a 2-core machine with every core busy (the main window took 23-31 s to
appear there). Tests poll for conditions or wait on signals, and give up only at this
ceiling: reaching it means something is broken, not that the machine is slow. Nothing
is ever timed against a budget here; speed is the benchmarks' business.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any, Final, TypeVar

T = TypeVar("T")

CEILING_S: Final = 120.0
"""The longest a test waits for one thing to happen."""

HANG_GUARD_S: Final = 600.0
"""The longest a whole test body may run before it is treated as hung."""


def wait_until(predicate: Callable[[], bool], what: str, timeout: float = CEILING_S) -> None:
    """Poll `predicate` (outside any event loop: a child process, a file) until it holds;
    fail naming `what` at the ceiling."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"{what}: not within {timeout:g} s"
        time.sleep(0.02)


async def wait_for(predicate: Callable[[], bool], timeout: float = CEILING_S) -> None:
    """Let the running event loop work until `predicate` holds; fail at the ceiling."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def run_within(coroutine: Coroutine[Any, Any, T], timeout: float = HANG_GUARD_S) -> T:
    """`asyncio.run(coroutine)`, failing if it has not ended after `timeout` seconds."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))
