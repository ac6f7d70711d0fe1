"""UI fixtures: the real application objects on a qasync loop, offscreen."""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLocale

from desktop.app import Parley, create_event_loop
from desktop.core.paths import DataPaths
from desktop.core.settings import Language
from desktop.engine.local_servers import LocalServer
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.secrets import SecretStore
from desktop.ui.language import install_translations, remove_translations
from tests.support.waiting import CEILING_S, HANG_GUARD_S

# A test that ends while the app still has a request in flight (a title or suggestion
# asked after the last answer, a restart mid-request) quits Parley mid-connection; now
# and then (1-2 runs in 1,800 tests) the loopback socket being opened is only reclaimed
# by the collector, which reports it. The engine tests, which end their requests in a
# known order, still fail on any unclosed socket.
_SHUTDOWN_LEAKS = (
    "ignore:unclosed <socket.socket.*raddr=\\('127.0.0.1':ResourceWarning",
    "ignore:unclosed transport <_SelectorSocketTransport:ResourceWarning",
    "ignore:Exception ignored in. <socket.socket.*raddr=\\('127.0.0.1'"
    ":pytest.PytestUnraisableExceptionWarning",
    "ignore:Exception ignored in. <function _SelectorTransport.__del__"
    ":pytest.PytestUnraisableExceptionWarning",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            for rule in _SHUTDOWN_LEAKS:
                item.add_marker(pytest.mark.filterwarnings(rule))


@pytest.fixture(autouse=True)
def english(qapp) -> Iterator[None]:
    """The UI in English as Parley starts it on an English system: with the English
    plural forms ("1 model", "3 models") installed."""
    install_translations(qapp, Language.ENGLISH, QLocale("en_US"))
    try:
        yield
    finally:  # tests outside the UI see the engine's source texts, as without Qt
        remove_translations(qapp)


@pytest.fixture
def loop(qapp) -> Iterator[asyncio.AbstractEventLoop]:
    hooks = sys.get_asyncgen_hooks()
    event_loop = create_event_loop(qapp)
    asyncio.set_event_loop(event_loop)
    try:
        yield event_loop
    finally:
        event_loop.run_until_complete(asyncio.sleep(0))  # let finalisers run
        event_loop.close()
        asyncio.set_event_loop(None)
        # Collect the closed loop's Qt timers here, on the GUI thread, not later from
        # whichever thread happens to trigger a collection.
        gc.collect()
        sys.set_asyncgen_hooks(*hooks)


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


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """Quit every Parley the test started while its loop can still run. Right after the
    test, pytest-qt processes Qt events outside the asyncio loop; a request still in
    flight (a model fetch, a title) would be stepped there, fail with "no running event
    loop" and leave its socket open."""
    try:
        return (yield)
    finally:
        driver = getattr(item, "funcargs", {}).get("driver")
        if isinstance(driver, AppDriver):
            for parley in list(driver.apps):
                driver.close(parley)


@pytest.fixture
def driver(qapp, loop, memory_keyring) -> Iterator[AppDriver]:
    app_driver = AppDriver(qapp, loop)
    try:
        yield app_driver
    finally:
        for parley in list(app_driver.apps):
            app_driver.close(parley)
        for database in app_driver._databases:
            database.close()
