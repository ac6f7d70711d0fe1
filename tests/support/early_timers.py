"""An asyncio loop whose timers fire early, to show that a wait does not end too soon.

Under the Qt (qasync) loop that runs Parley, timers fire a few per cent early:
`asyncio.sleep(2.0)` has returned after 1.93 s. Here every timer fires after half its
delay, so code that trusts one sleep is caught every time, whatever the machine's load.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from contextvars import Context
from typing import Any, TypeVar

T = TypeVar("T")


class EarlyTimersLoop(asyncio.SelectorEventLoop):
    def call_at(
        self,
        when: float,
        callback: Callable[..., object],
        *args: Any,
        context: Context | None = None,
    ) -> asyncio.TimerHandle:
        now = self.time()
        early = now + (when - now) / 2 if when > now else when
        return super().call_at(early, callback, *args, context=context)


def run_with_early_timers(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on an `EarlyTimersLoop`."""
    with asyncio.Runner(loop_factory=EarlyTimersLoop) as runner:
        return runner.run(main)
