"""Child processes Parley starts (workspace commands, the OCR engine): each in its own
process group, so Stop ends it and everything it started."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Coroutine
from typing import Any

Process = asyncio.subprocess.Process


def kill_tree(process: Process) -> None:
    """Kill the process and its children (its whole process group)."""
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if sys.platform == "win32":
            process.kill()
        else:
            os.killpg(process.pid, signal.SIGKILL)


async def start_guarded(start: Coroutine[Any, Any, Process]) -> Process:
    """The started process; a Stop that arrives while it is starting still kills it
    (it may already run) before the cancellation goes on."""
    starting = asyncio.ensure_future(start)
    try:
        return await asyncio.shield(starting)
    except asyncio.CancelledError:
        process = await starting
        kill_tree(process)
        await process.wait()
        raise
