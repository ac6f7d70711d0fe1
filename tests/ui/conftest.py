"""UI fixtures: the real application objects on a qasync loop, offscreen."""

from __future__ import annotations

import asyncio
import gc
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLocale

from desktop.app import create_event_loop
from desktop.core.settings import Language
from desktop.ui.language import install_translations, remove_translations
from tests.support.app_driver import AppDriver

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
