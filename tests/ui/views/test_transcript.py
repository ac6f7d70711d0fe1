"""The transcript as a person scrolls it: following the answer, staying put, long chats."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtTest import QTest

from desktop.render import render_markdown
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, Sleep, chat_chunk, sse_response
from tests.support.transcript import PARAGRAPH, conversation, live_ids, message, screen_top
from tests.support.ui_actions import answer_widget, type_and_send

NO_SERVER = "http://127.0.0.1:9/v1"  # a provider is configured (the chat page shows); unused


def start(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    return driver.start(tmp_path)


def long_stream(chunks: int, pause: float = 0.03) -> list[bytes | Sleep]:
    steps: list[bytes | Sleep] = []
    for number in range(chunks):
        steps += [chat_chunk(content=f"Part {number}: {PARAGRAPH}\n\n"), Sleep(pause)]
    return [*steps, chat_chunk(finish_reason="stop"), DONE]


def test_the_view_follows_a_streaming_answer(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.enqueue(sse_response(*long_stream(80, pause=0.015)))
    parley = driver.start(tmp_path)
    transcript = parley.window.chat_view.transcript
    bar = transcript.verticalScrollBar()
    samples: list[tuple[int, int]] = []

    def finished() -> bool:
        samples.append((bar.value(), bar.maximum()))
        answer = answer_widget(parley) if len(transcript.message_ids()) == 2 else None
        return answer is not None and "Part 79:" in answer.body.toPlainText()

    async def body() -> None:
        type_and_send(parley, "Tell me a long story")
        await driver.until(finished)
        assert bar.maximum() > transcript.viewport().height()  # it really scrolled
        assert all(value == maximum for value, maximum in samples)
        assert transcript.at_bottom and not transcript.jump_button.isVisible()

    driver.run(body())


@pytest.mark.slow
def test_scrolled_up_the_view_stays_put_and_offers_a_way_back(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.enqueue(sse_response(*long_stream(100, pause=0.03)))
    parley = driver.start(tmp_path)
    transcript = parley.window.chat_view.transcript
    bar = transcript.verticalScrollBar()

    async def body() -> None:
        type_and_send(parley, "Tell me a long story")
        await driver.until(lambda: bar.maximum() > transcript.viewport().height())
        bar.setValue(100)  # the person scrolls up to re-read the question
        question = transcript.message_ids()[0]
        value, question_top = bar.value(), screen_top(transcript, question)
        grown = bar.maximum()
        await driver.until(lambda: bar.maximum() > grown + 200)  # more text arrived
        assert bar.value() == value
        assert screen_top(transcript, question) == question_top
        assert transcript.jump_button.isVisible()

        QTest.mouseClick(transcript.jump_button, Qt.MouseButton.LeftButton)
        assert transcript.at_bottom and not transcript.jump_button.isVisible()
        grown = bar.maximum()
        await driver.until(lambda: bar.maximum() > grown + 200)
        assert bar.value() == bar.maximum()  # following the answer again
        await driver.until(lambda: not parley.chat_vm.busy)

    driver.run(body())


def test_a_long_conversation_has_widgets_only_near_the_viewport(driver, tmp_path):
    parley = start(driver, tmp_path)
    transcript = parley.window.chat_view.transcript
    items = conversation(2_000)

    async def body() -> None:
        parley.chat_vm.transcript.messagesReset.emit(items)
        await asyncio.sleep(0.3)  # the margin beyond the viewport is prepared when idle
        assert transcript.message_ids() == [item.id for item in items]
        live = live_ids(transcript)
        assert 0 < len(live) < 60
        assert live[-1] == items[-1].id and transcript.message_widget(items[0].id) is None
        assert transcript.at_bottom

        transcript.setFocus()
        QTest.keyClick(transcript, Qt.Key.Key_Home)
        assert transcript.verticalScrollBar().value() == 0
        first = transcript.message_widget(items[0].id)
        assert first is not None and first.body.toPlainText() == "Question 0"
        assert screen_top(transcript, items[0].id) >= 0
        await asyncio.sleep(0.3)
        assert len(live_ids(transcript)) < 60
        assert transcript.message_widget(items[-1].id) is None  # the bottom ones went away

    driver.run(body())


def test_rows_above_that_change_height_do_not_move_what_is_read(driver, tmp_path):
    parley = start(driver, tmp_path)
    transcript = parley.window.chat_view.transcript
    bar = transcript.verticalScrollBar()
    items = conversation(400)

    async def body() -> None:
        parley.chat_vm.transcript.messagesReset.emit(items)
        bar.setValue(bar.maximum() // 2)
        await asyncio.sleep(0.2)
        reading = next(
            mid for mid in live_ids(transcript) if screen_top(transcript, mid) > 0
        )  # the first message starting inside the viewport
        top = screen_top(transcript, reading)
        above = items[transcript.message_ids().index(reading) - 6]
        longer = PARAGRAPH * 20
        parley.chat_vm.transcript.messageUpdated.emit(
            replace(above, markdown=longer, html_source=render_markdown(longer))
        )
        assert screen_top(transcript, reading) == top
        parley.chat_vm.transcript.messageUpdated.emit(
            replace(above, markdown="short", html_source="<p>short</p>")
        )
        assert screen_top(transcript, reading) == top

    driver.run(body())


def test_page_keys_scroll_the_transcript(driver, tmp_path):
    parley = start(driver, tmp_path)
    transcript = parley.window.chat_view.transcript
    bar = transcript.verticalScrollBar()

    async def body() -> None:
        parley.chat_vm.transcript.messagesReset.emit(conversation(200))
        await asyncio.sleep(0.05)
        transcript.setFocus()
        bottom = bar.value()
        QTest.keyClick(transcript, Qt.Key.Key_PageUp)
        assert bottom - bar.value() > transcript.viewport().height() // 2
        QTest.keyClick(transcript, Qt.Key.Key_Home)
        assert bar.value() == 0 and transcript.jump_button.isVisible()
        QTest.keyClick(transcript, Qt.Key.Key_PageDown)
        assert bar.value() > transcript.viewport().height() // 2
        QTest.keyClick(transcript, Qt.Key.Key_End)
        assert bar.value() == bar.maximum() and not transcript.jump_button.isVisible()
        # The keys work from inside a message too: it passes them on.
        last = transcript.message_widget(transcript.message_ids()[-1])
        QTest.keyClick(last.body, Qt.Key.Key_PageUp)
        assert bar.value() < bar.maximum()

    driver.run(body())


def test_showing_the_same_chat_again_keeps_the_place(driver, tmp_path):
    parley = start(driver, tmp_path)
    transcript = parley.window.chat_view.transcript
    bar = transcript.verticalScrollBar()
    items = conversation(300)

    async def body() -> None:
        parley.chat_vm.transcript.messagesReset.emit(items)
        bar.setValue(bar.maximum() // 2)
        await asyncio.sleep(0.1)
        reading = next(mid for mid in live_ids(transcript) if screen_top(transcript, mid) > 0)
        top = screen_top(transcript, reading)
        parley.chat_vm.transcript.messagesReset.emit(
            list(items)
        )  # e.g. re-rendered for a new theme
        assert screen_top(transcript, reading) == top
        parley.chat_vm.transcript.messagesReset.emit(conversation(3))  # another chat: its end
        assert transcript.at_bottom

    driver.run(body())


def test_a_streamed_answer_ends_equal_to_a_full_render(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    pieces = [
        "# Plan\n\nFirst a paragraph with **bold** and `code`.\n\n- one\n- tw",
        "o\n  - nested\n\n```python\ndef f(x):\n",
        "    return x * 2\n```\n\n| a | b |\n|---|---|\n| 1 |",
        " 2 |\n\n> quoted\n> text\n\n---\n\nThe end.\n",
    ]
    steps: list[bytes | Sleep] = []
    for piece in pieces:
        steps += [chat_chunk(content=piece), Sleep(0.08)]
    sse_server.enqueue(sse_response(*steps, chat_chunk(finish_reason="stop"), DONE))
    parley = driver.start(tmp_path)

    async def body() -> None:
        type_and_send(parley, "Make a plan")
        await driver.until(lambda: "The end." in answer_text())
        await driver.until(lambda: not answer_widget(parley).item.streaming)
        answer = answer_widget(parley)
        expected = QTextDocument()
        expected.setDefaultStyleSheet(answer.body.document().defaultStyleSheet())
        expected.setHtml(render_markdown("".join(pieces)))
        document = answer.body.document()
        assert answer.body.tail.reimported_units > 0  # it was streamed, not set at once
        assert document.toPlainText() == expected.toPlainText()
        assert document.blockCount() == expected.blockCount()
        assert document.toHtml() == expected.toHtml()

    def answer_text() -> str:
        ids = parley.window.chat_view.transcript.message_ids()
        widget = answer_widget(parley) if len(ids) == 2 else None
        return widget.body.toPlainText() if widget is not None else ""

    driver.run(body())


def test_an_empty_chat_has_no_rows_and_no_button(driver, tmp_path):
    parley = start(driver, tmp_path)
    transcript = parley.window.chat_view.transcript
    parley.chat_vm.transcript.messagesReset.emit([message("a", user=True), message("b")])
    assert live_ids(transcript) == ["a", "b"]
    parley.chat_vm.transcript.messagesReset.emit([])
    assert transcript.message_ids() == [] and live_ids(transcript) == []
    assert not transcript.jump_button.isVisible()


def test_an_idle_chat_stops_laying_out_and_painting(driver, tmp_path):
    # A short user bubble once re-wrapped between its width and Qt's default size hint
    # width on every layout pass: an endless relayout at 100% CPU while nothing changed.
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QWidget

    parley = start(driver, tmp_path)
    transcript = parley.window.chat_view.transcript
    items = [
        message("q1", user=True, text="Hi"),
        message("a1", text="A short answer."),
        message("q2", user=True, text="Explain"),
    ]
    seen: list[QEvent.Type] = []
    watched = (QEvent.Type.Paint, QEvent.Type.LayoutRequest)

    class Counter(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            # The transcript's own widgets only (the composer's cursor blinks).
            inside = isinstance(obj, QWidget) and transcript.isAncestorOf(obj)
            if event.type() in watched and inside:
                seen.append(event.type())
            return False

    counter = Counter()

    async def body() -> None:
        parley.chat_vm.transcript.messagesReset.emit(items)
        await asyncio.sleep(0.3)  # shown, measured, the margin prepared
        driver.qapp.installEventFilter(counter)
        try:
            await asyncio.sleep(0.3)
        finally:
            driver.qapp.removeEventFilter(counter)
        assert len(seen) < 5, seen[:10]

    driver.run(body())
