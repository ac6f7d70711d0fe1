"""Waiting that never ends early.

An event loop's timer may fire a little before its time (under the Qt loop that runs
Parley, `asyncio.sleep(2.0)` has returned after 1.93 s). A wait that must not end early
(a server's `Retry-After`, our backoff, the countdown a person reads) therefore sleeps
until a deadline on a monotonic clock has really passed, sleeping again for whatever is
left when the timer fired too soon.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def sleep_until(deadline: float, clock: Callable[[], float] = time.monotonic) -> None:
    """Return once `clock() >= deadline` (at once if it already is)."""
    # Waiting for a time to pass, not for an event: a loop of sleeps is the point.
    while (left := deadline - clock()) > 0:  # noqa: ASYNC110
        await asyncio.sleep(left)


async def sleep_at_least(seconds: float) -> None:
    """Like `asyncio.sleep(seconds)`, but never returns before `seconds` have passed."""
    await sleep_until(time.monotonic() + seconds)
