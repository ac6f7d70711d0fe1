"""The worker that renders streaming answers ahead: its thread, its reports, its holds."""

from __future__ import annotations

import logging
import threading

import pytest

from desktop.core import collector
from desktop.ui.render_ahead import RenderAhead
from tests.support.waiting import CEILING_S


@pytest.fixture
def ahead(qapp):
    worker = RenderAhead()
    yield worker
    worker.close()
    worker.deleteLater()


def test_jobs_run_in_another_thread_with_collections_held_until_reported(ahead, qtbot):
    before = collector.holding()  # others' holds (a typesetter's) are theirs to release
    seen: list[tuple[int, int]] = []
    ahead.submit(lambda: seen.append((threading.get_ident(), collector.holding())))
    ahead.submit(lambda: seen.append((threading.get_ident(), collector.holding())))
    assert ahead.pending == 2 and ahead.submitted == 2
    qtbot.waitUntil(lambda: ahead.pending == 0, timeout=CEILING_S * 1000)
    assert len(seen) == 2 and all(held > before for _thread, held in seen)
    assert threading.get_ident() not in {thread for thread, _held in seen}
    assert collector.holding() == before


def test_a_failing_job_is_logged_and_still_reported(ahead, qtbot, caplog):
    before = collector.holding()

    def broken() -> None:
        raise ValueError("a bug")

    with caplog.at_level(logging.ERROR, logger="desktop.ui.render_ahead"):
        ahead.submit(broken)
        qtbot.waitUntil(lambda: ahead.pending == 0, timeout=CEILING_S * 1000)
    assert "failed" in caplog.text and "a bug" in caplog.text
    assert collector.holding() == before


def test_closing_waits_for_the_job_under_way_then_releases_every_hold(ahead, qapp):
    """Collections come back only once the worker has stopped allocating."""
    before = collector.holding()
    running, closing, go_on = threading.Event(), threading.Event(), threading.Event()
    ran: list[str] = []

    def slow() -> None:
        running.set()
        go_on.wait(CEILING_S)
        ran.append("slow")

    def let_it_finish_once_closing() -> None:
        closing.wait(CEILING_S)
        go_on.set()

    ahead.submit(slow)
    ahead.submit(lambda: ran.append("queued"))
    helper = threading.Thread(target=let_it_finish_once_closing)
    helper.start()
    try:
        assert running.wait(CEILING_S)
        closing.set()
        ahead.close()
        assert ran == ["slow"]  # it had finished when the holds were released
        assert ahead.pending == 0 and collector.holding() == before
        ahead.submit(lambda: ran.append("after close"))  # ignored
        qapp.processEvents()  # a report the finished job might have sent is dropped
        assert ran == ["slow"] and ahead.pending == 0
    finally:
        go_on.set()
        helper.join()


def test_deleting_it_without_closing_releases_its_holds(qapp, qtbot):
    before = collector.holding()
    worker = RenderAhead()
    go_on = threading.Event()
    try:
        worker.submit(lambda: go_on.wait(CEILING_S))
        assert collector.holding() == before + 1
        destroyed: list[bool] = []
        worker.destroyed.connect(lambda: destroyed.append(True))
        go_on.set()  # deleting waits for the job under way
        worker.deleteLater()
        qtbot.waitUntil(lambda: destroyed == [True], timeout=CEILING_S * 1000)
        assert collector.holding() == before
    finally:
        go_on.set()
