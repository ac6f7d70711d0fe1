"""The main window as a person uses it: type, press Enter, watch the answer, stop, reopen."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.core.models import MessageStatus
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, Sleep, chat_chunk, sse_response
from tests.support.ui_actions import answer_widget, bodies, type_and_send
from tests.support.waiting import CEILING_S


async def remember_this(driver, parley) -> None:
    """Send "Remember this" and wait for the test server's default answer."""
    type_and_send(parley, "Remember this")
    await driver.until(lambda: len(bodies(parley)) == 2 and not parley.chat_vm.busy)
    await driver.until(lambda: bodies(parley)[1] == "Hello from the test server.")


def test_typing_a_message_and_pressing_enter_streams_the_answer(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.enqueue(
        sse_response(
            chat_chunk(reasoning="The user greets me."),
            Sleep(0.1),
            chat_chunk(content="**Hello** there, "),
            Sleep(0.1),
            chat_chunk(content="here is code:\n\n```python\nprint('hi')\n```\n"),
            chat_chunk(finish_reason="stop"),
            DONE,
        )
    )
    parley = driver.start(tmp_path)
    composer = parley.window.chat_view.composer

    async def body() -> None:
        type_and_send(parley, "Hello Parley")
        assert composer.edit.toPlainText() == ""  # accepted and cleared
        # While it thinks, the reasoning streams in an open section.
        await driver.until(
            lambda: len(bodies(parley)) == 2 and answer_widget(parley).reasoning_body.isVisible()
        )
        assert answer_widget(parley).reasoning_toggle.text() == "Thinking…"
        await driver.until(lambda: "print('hi')" in bodies(parley)[1])
        await driver.until(lambda: not parley.chat_vm.busy)

        user_text, answer_text = bodies(parley)
        assert user_text == "Hello Parley"
        assert answer_text.startswith("Hello there, here is code:")  # markdown rendered
        answer = answer_widget(parley)
        assert "<pre" in answer.body.toHtml()
        assert answer.reasoning_toggle.text().startswith("Thought for")
        assert not answer.reasoning_body.isVisible()  # folded away once the answer came
        assert "test-model" in answer.meta.text()
        # The sidebar lists the new conversation, titled after the first message.
        assert parley.conversations_vm.conversation_count() == 1
        assert parley.conversations_vm.title_of(parley.chat_vm.conversationId) == "Hello Parley"
        assert parley.window.chat_view.title.text() == "Hello Parley"

    driver.run(body())


def test_shift_enter_inserts_a_line_break_instead_of_sending(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    edit = parley.window.chat_view.composer.edit

    async def body() -> None:
        QTest.keyClicks(edit, "line one")
        QTest.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        QTest.keyClicks(edit, "line two")
        assert edit.toPlainText() == "line one\nline two"
        assert sse_server.requests == []
        QTest.keyClick(edit, Qt.Key.Key_Return)
        await driver.until(lambda: len(bodies(parley)) == 2 and not parley.chat_vm.busy)
        assert bodies(parley)[0] == "line one\nline two"

    driver.run(body())


def test_stop_mid_stream_keeps_the_partial_text(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.enqueue(sse_response(chat_chunk(content="The first half"), Sleep(30)))
    parley = driver.start(tmp_path)
    composer = parley.window.chat_view.composer

    async def body() -> None:
        type_and_send(parley, "Write a long essay")
        await driver.until(lambda: len(bodies(parley)) == 2 and "first half" in bodies(parley)[1])
        assert parley.chat_vm.busy and composer.stop_button.isVisible()
        QTest.mouseClick(composer.stop_button, Qt.MouseButton.LeftButton)
        await driver.until(lambda: not parley.chat_vm.busy)

        answer = answer_widget(parley)
        assert answer.body.toPlainText().strip() == "The first half"
        assert answer.status.isVisible() and answer.status.text() == "Stopped"
        assert not composer.stop_button.isVisible()
        stored = parley.repository.get_message(answer.item.id)
        assert stored.status is MessageStatus.CANCELLED and stored.text == "The first half"
        assert sse_server.requests[0].client_gone.wait(CEILING_S)  # the connection was closed

    driver.run(body())


def test_escape_stops_the_answer_too(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.enqueue(sse_response(chat_chunk(content="Some words"), Sleep(30)))
    parley = driver.start(tmp_path)

    async def body() -> None:
        type_and_send(parley, "Go")
        await driver.until(lambda: len(bodies(parley)) == 2 and bodies(parley)[1] == "Some words")
        QTest.keyClick(parley.window.chat_view.composer.edit, Qt.Key.Key_Escape)
        await driver.until(lambda: not parley.chat_vm.busy)
        assert answer_widget(parley).status.text() == "Stopped"

    driver.run(body())


def test_a_second_instance_on_the_same_data_folder_shows_the_conversation(
    driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)
    first = driver.start(tmp_path)
    driver.run(remember_this(driver, first))
    second = driver.start(tmp_path)  # the first is still running: WAL lets both work
    model = second.conversations_vm
    assert model.conversation_count() == 1
    assert model.data(model.index(0)) == "Today"  # the section header
    assert model.data(model.index(1)) == "Remember this"
    second.window.sidebar.list.clicked.emit(model.index(1))
    assert bodies(second) == ["Remember this", "Hello from the test server."]

    driver.close(first)
    third = driver.start(tmp_path)  # and after the first has quit
    third.window.open_conversation(third.conversations_vm.id_at(1))
    assert bodies(third) == ["Remember this", "Hello from the test server."]


def test_an_answer_left_streaming_by_a_crash_reopens_as_interrupted(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.enqueue(sse_response(chat_chunk(content="Kept across the crash"), Sleep(30)))
    first = driver.start(tmp_path)
    reader = driver.reader(tmp_path)

    async def send() -> None:
        type_and_send(first, "Start something long")
        # Wait until the throttled write (about twice a second) has put the text on disk.
        await driver.until(
            lambda: any(
                m.text == "Kept across the crash"
                for m in reader.active_path(first.chat_vm.conversationId)
            ),
        )

    driver.run(send())
    # A new instance starts while the first is still "streaming": as after a crash.
    second = driver.start(tmp_path)
    second.window.open_conversation(second.conversations_vm.id_at(1))
    answer = answer_widget(second)
    assert answer.body.toPlainText().strip() == "Kept across the crash"
    assert answer.status.text().startswith("Interrupted")


def test_window_size_and_sidebar_width_are_remembered(driver, tmp_path):
    first = driver.start(tmp_path)
    first.window.resize(720, 520)
    driver.run(asyncio.sleep(0.05))  # let the layout settle, as it has when a person quits
    first.window.splitter.setSizes([230, 490])
    driver.run(asyncio.sleep(0.05))
    first_width = first.window.splitter.sizes()[0]
    driver.close(first)
    second = driver.start(tmp_path)
    driver.run(asyncio.sleep(0.05))
    assert (second.window.width(), second.window.height()) == (720, 520)
    assert second.window.splitter.sizes()[0] == first_width == 230


def test_the_chat_open_at_quit_is_open_again_at_the_next_start(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    first = driver.start(tmp_path)
    driver.run(remember_this(driver, first))
    chat_id = first.chat_vm.conversationId
    driver.close(first)
    second = driver.start(tmp_path)
    assert second.chat_vm.conversationId == chat_id
    assert bodies(second) == ["Remember this", "Hello from the test server."]
    driver.close(second)

    driver.reader(tmp_path).delete_conversation(chat_id)  # gone before the next start
    third = driver.start(tmp_path)
    assert third.chat_vm.conversationId == ""
    assert bodies(third) == []
