"""`AppDriver`: real Parley instances on data folders, driven on the Qt event loop (the
`driver` fixture of the UI tests hands one out)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from desktop.app import Parley
from desktop.core.paths import DataPaths
from desktop.engine.local_servers import LocalServer
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.secrets import SecretStore
from tests.support.waiting import CEILING_S, HANG_GUARD_S


class AppDriver:
    """Builds Parley instances on data folders and runs coroutines on the Qt loop."""

    def __init__(self, qapp: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.qapp = qapp
        self.loop = loop
        self.apps: list[Parley] = []
        self._databases: list[Database] = []

    def start(self, data_dir: Path, *, local_servers: Sequence[LocalServer] = ()) -> Parley:
        """A Parley on `data_dir`; it looks for local model servers only where told to,
        so a server running on the test machine changes nothing, and never asks a test
        server about its models on its own (that request would take a scripted answer)."""
        parley = Parley(
            self.qapp,
            DataPaths(data_dir),
            SecretStore(),
            local_servers=local_servers,
            model_info_max_age=None,
        )
        parley.show()
        self.apps.append(parley)
        return parley

    def run(self, coro: Awaitable[Any], timeout: float = HANG_GUARD_S) -> Any:
        """Run a test body on the loop, as the app runs everything: with the loop running."""
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    async def until(self, predicate: Callable[[], bool], timeout: float = CEILING_S) -> None:
        """Let the app work until `predicate()` holds."""
        deadline = self.loop.time() + timeout
        while not predicate():
            if self.loop.time() > deadline:
                raise AssertionError("the window never reached the expected state")
            await asyncio.sleep(0.02)

    def reader(self, data_dir: Path) -> ChatRepository:
        """A separate connection to a data folder's database, as another process has."""
        database = Database.open(DataPaths(data_dir).database)
        self._databases.append(database)
        return ChatRepository(database)

    def close(self, parley: Parley) -> None:
        parley.window.close()
        self.run(parley.aclose())
        parley.window.deleteLater()
        self.apps.remove(parley)
        left = self.loop.run_until_complete(_tasks_left_running())
        assert not left, f"Parley quit with work still running: {left}"


async def _tasks_left_running() -> list[str]:
    """Tasks other than this one still pending after a quit (a request Parley started
    and never ended). Async generators the collector found abandoned are closed by
    tasks of their own (the loop's finaliser hook): those are let finish first."""
    here = asyncio.current_task()

    def pending() -> list[asyncio.Task[Any]]:
        return [t for t in asyncio.all_tasks() if t is not here and not t.done()]

    await asyncio.sleep(0)
    closing = [t for t in pending() if type(t.get_coro()).__name__ == "async_generator_athrow"]
    if closing:
        await asyncio.wait(closing, timeout=CEILING_S)
    return sorted(f"{t.get_name()} ({t.get_coro()!r})" for t in pending())
