"""Notification words, and delivery falling back to the tray when the desktop has no
notification service (no session bus, or a bus nobody serves notifications on)."""

from __future__ import annotations

import asyncio
import logging
import subprocess
from collections.abc import Iterator

import pytest

from desktop.engine.notices import Notice, first_words
from desktop.engine.notify import Notifier
from tests.support.notification_daemon import NotificationDaemon


def test_first_words_keep_short_text_on_one_line():
    assert first_words("  Hello\n\nworld  ") == "Hello world"


def test_first_words_cut_long_text_at_a_word():
    text = "word " * 40
    cut = first_words(text, 30)
    assert cut == "word word word word word word…"
    assert len(cut) <= 30


def test_first_words_cut_one_long_word_where_it_must():
    assert first_words("x" * 100, 10) == "x" * 9 + "…"


@pytest.fixture
def bare_bus() -> Iterator[str]:
    """A session bus on which no notification daemon runs."""
    NotificationDaemon.skip_unless_available()
    process = subprocess.Popen(
        ["dbus-daemon", "--session", "--print-address=1", "--nofork"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    try:
        yield process.stdout.readline().strip()
    finally:
        process.terminate()
        process.wait(10)
        process.stdout.close()


@pytest.mark.parametrize("bus", ["none", "no daemon"])
def test_without_a_notification_service_notices_go_to_the_fallback_logged_once(
    bus, request, monkeypatch, caplog
):
    address = "unix:path=/nonexistent/bus" if bus == "none" else request.getfixturevalue("bare_bus")
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
    shown: list[Notice] = []
    notices = [Notice("c1", "Otters", "They hold hands."), Notice("c2", "Stones", "A pouch.")]

    async def run() -> None:
        notifier = Notifier(lambda _cid: None, fallback=lambda n: shown.append(n) or True)
        for notice in notices:
            notifier.show(notice)
        for _ in range(200):
            if len(shown) == len(notices):
                break
            await asyncio.sleep(0.02)
        await notifier.aclose()

    with caplog.at_level(logging.WARNING, logger="parley.notify"):
        asyncio.run(run())
    assert shown == notices
    ours = [r for r in caplog.records if r.name == "parley.notify"]
    assert len(ours) == 1 and "unavailable" in ours[0].getMessage()


@pytest.mark.parametrize("reads_markup", [True, False], ids=["body-markup", "plain"])
def test_a_notice_shows_its_words_as_written_whether_the_server_reads_markup_or_not(
    reads_markup, monkeypatch
):
    """A model's answer and the title it wrote are text: a server that reads the body as
    markup gets & < > escaped, a plain one gets them as they are; the summary is plain
    text for every server."""
    NotificationDaemon.skip_unless_available()
    capabilities = ("body", "actions", "body-markup") if reads_markup else ("body", "actions")
    daemon = NotificationDaemon(capabilities).start()
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", daemon.address)
    title = "Q&A: <i>tools</i>"
    body = 'See <a href="https://example.com">this</a> & <img src="x.png"/> <b>now</b>'

    async def run() -> bool:
        notifier = Notifier(lambda _cid: None)
        try:
            return await notifier.send_now(Notice("c1", title, body))
        finally:
            await notifier.aclose()

    try:
        assert asyncio.run(run())
        assert daemon.wait_for_calls(1)
        (call,) = daemon.calls
    finally:
        daemon.stop()
    assert call.summary == title
    if reads_markup:
        assert call.body == (
            'See &lt;a href="https://example.com"&gt;this&lt;/a&gt; &amp; '
            '&lt;img src="x.png"/&gt; &lt;b&gt;now&lt;/b&gt;'
        )
    else:
        assert call.body == body
