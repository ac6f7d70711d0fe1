"""The disk fills while Parley runs: nothing typed or shown is lost, and it says why.

The data folder lives on a real, small filesystem that the test fills up
(tests/support/full_disk.py), so SQLite fails as it does on a full disk in the field.
"""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.core.models import MessageStatus
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, Gate, chat_chunk, sse_response, usage_chunk
from tests.support.ui_actions import type_and_send


def press_enter(parley) -> None:
    QTest.keyClick(parley.window.chat_view.composer.edit, Qt.Key.Key_Return)


def transcript_texts(parley) -> list[str]:
    transcript = parley.window.chat_view.transcript
    return [
        transcript.message_widget(mid).body.toPlainText().strip()
        for mid in transcript.message_ids()
    ]


def test_a_message_sent_on_a_full_disk_stays_in_the_composer_until_it_can_be_saved(
    driver, sse_server, small_disk
):
    data = small_disk.root / "data"
    write_settings(data, sse_server.base_url)
    parley = driver.start(data)
    composer = parley.window.chat_view.composer
    reader = driver.reader(data)
    errors: list[str] = []
    parley.chat_vm.errorOccurred.connect(errors.append)

    async def body() -> None:
        type_and_send(parley, "First question")
        await driver.until(lambda: len(transcript_texts(parley)) == 2 and not parley.chat_vm.busy)
        conversation = parley.chat_vm.conversationId
        small_disk.fill()

        type_and_send(parley, "Is this kept?")
        await driver.until(lambda: composer.notice.isVisible())
        assert composer.edit.toPlainText() == "Is this kept?"
        assert f"the disk holding {data} is full" in composer.notice.text
        assert composer.notice.label.textFormat() is Qt.TextFormat.PlainText
        assert composer.notice.text.startswith("Your message was not sent and is still here.")
        # Nothing half-saved: neither the question nor an empty answer joined the chat.
        assert [m.text for m in reader.active_path(conversation)] == [
            "First question",
            "Hello from the test server.",
        ]
        assert len(transcript_texts(parley)) == 2
        # The floating window's composer shares the chat, not the text sent here.
        floating = parley.floating.composer
        assert floating.edit.toPlainText() == "" and floating.notice.text == ""

        small_disk.release()
        press_enter(parley)  # the same text, now that there is room
        await driver.until(lambda: len(transcript_texts(parley)) == 4 and not parley.chat_vm.busy)
        assert composer.edit.toPlainText() == ""
        assert not composer.notice.isVisible()
        assert [m.text for m in reader.active_path(conversation)][2:] == [
            "Is this kept?",
            "Hello from the test server.",
        ]

    driver.run(body())
    assert errors == []


def test_a_message_that_failed_to_save_comes_back_even_when_what_was_typed_since_contains_it(
    driver, sse_server, small_disk
):
    data = small_disk.root / "data"
    write_settings(data, sse_server.base_url)
    parley = driver.start(data)
    composer = parley.window.chat_view.composer

    async def body() -> None:
        type_and_send(parley, "First question")
        await driver.until(lambda: len(transcript_texts(parley)) == 2 and not parley.chat_vm.busy)
        small_disk.fill()
        type_and_send(parley, "ok")
        assert composer.edit.toPlainText() == ""  # on its way: the saving fails later
        QTest.keyClicks(composer.edit, "looks ok?")  # typed before the failure is known
        await driver.until(lambda: composer.notice.isVisible())
        assert composer.edit.toPlainText() == "ok\n\nlooks ok?"
        assert f"the disk holding {data} is full" in composer.notice.text

    driver.run(body())


def test_a_new_chat_on_a_full_disk_keeps_the_text_and_says_why(driver, sse_server, small_disk):
    data = small_disk.root / "data"
    write_settings(data, sse_server.base_url)
    parley = driver.start(data)
    composer = parley.window.chat_view.composer
    small_disk.fill()

    async def body() -> None:
        type_and_send(parley, "A brand new chat")
        await driver.until(lambda: composer.notice.isVisible())
        assert composer.edit.toPlainText() == "A brand new chat"
        assert f"the disk holding {data} is full" in composer.notice.text
        assert parley.chat_vm.conversationId == ""
        assert parley.conversations_vm.conversation_count() == 0  # no empty chat left
        small_disk.release()
        press_enter(parley)
        await driver.until(lambda: len(transcript_texts(parley)) == 2 and not parley.chat_vm.busy)
        assert transcript_texts(parley) == ["A brand new chat", "Hello from the test server."]
        assert composer.edit.toPlainText() == ""

    driver.run(body())


# Free space before a new chat's first message: somewhere in there a new
# conversation's row alone would fit but not the message with it.
FREE_SIZES = [k * 1024 for k in (0, 16, 32, 40, 48, 56, 64, 96, 128, 192)]


def test_a_new_chat_that_does_not_fit_leaves_no_empty_chat_in_the_sidebar(
    driver, sse_server, small_disk
):
    data = small_disk.root / "data"
    write_settings(data, sse_server.base_url)
    parley = driver.start(data)
    composer = parley.window.chat_view.composer
    reader = driver.reader(data)
    sidebar = parley.conversations_vm

    def listed() -> list[str]:
        ids = (sidebar.id_at(row) for row in range(sidebar.rowCount()))
        return [i for i in ids if i]

    async def body() -> None:
        refused = 0
        for free in FREE_SIZES:
            parley.window.new_chat()
            composer.edit.clear()
            before = listed()
            small_disk.fill(leave=free)
            type_and_send(parley, f"A new chat with {free} bytes free")
            await driver.until(
                lambda: (
                    composer.notice.isVisible()
                    or (bool(parley.chat_vm.conversationId) and not parley.chat_vm.busy)
                ),
            )
            small_disk.release()
            if composer.notice.isVisible():  # refused: the text is back, no chat made
                refused += 1
                assert composer.edit.toPlainText() == f"A new chat with {free} bytes free"
                assert parley.chat_vm.conversationId == ""
                assert listed() == before, f"{free} bytes free"
            else:
                expected = len(before) + 1
                await driver.until(lambda n=expected: len(listed()) == n)
            # Every chat in the list (and in the database) holds its message.
            assert all(reader.messages(c) for c in listed()), f"{free} bytes free"
            assert all(reader.messages(c.id) for c in reader.list_conversations())
        assert refused > 0  # the sizes reached the window

    driver.run(body(), timeout=300)


def _enqueue_an_answer_the_disk_fills_under(sse_server) -> threading.Event:
    """An answer that stops after "Saved part. " until the returned event is set: the
    test fills the disk in between, then lets the rest stream."""
    disk_filled = threading.Event()
    sse_server.enqueue(
        sse_response(
            chat_chunk(content="Saved part. "),
            Gate(disk_filled),
            *[chat_chunk(content=f"more {i} ") for i in range(40)],
            chat_chunk(content="The end."),
            chat_chunk(finish_reason="stop"),
            usage_chunk(3, 42),
            DONE,
        )
    )
    return disk_filled


def test_an_answer_whose_saves_fail_keeps_its_text_on_screen_and_says_it_is_not_saved(
    driver, sse_server, small_disk
):
    data = small_disk.root / "data"
    write_settings(data, sse_server.base_url)
    disk_filled = _enqueue_an_answer_the_disk_fills_under(sse_server)
    parley = driver.start(data)
    reader = driver.reader(data)
    transcript = parley.window.chat_view.transcript

    def answer():
        return transcript.message_widget(transcript.message_ids()[-1])

    async def body() -> None:
        type_and_send(parley, "Tell me everything")
        conversation = ""

        def saved_answer() -> str:
            path = reader.active_path(conversation) if conversation else []
            return path[-1].text if len(path) == 2 else ""

        await driver.until(lambda: bool(parley.chat_vm.conversationId))
        conversation = parley.chat_vm.conversationId
        await driver.until(lambda: saved_answer() == "Saved part. ")
        small_disk.fill()
        disk_filled.set()

        await driver.until(lambda: not parley.chat_vm.busy)
        shown = answer()
        assert shown.body.toPlainText().strip().endswith("more 39 The end.")
        assert shown.error_box.isVisible()
        assert f"Not saved yet: the disk holding {data} is full" in shown.error_box.text()
        assert shown.error_box.textFormat() is Qt.TextFormat.PlainText
        assert saved_answer() == "Saved part. "  # what fitted before the disk filled

        # Room again: the next message first saves the answer that is on screen.
        small_disk.release()
        type_and_send(parley, "Thanks")
        await driver.until(lambda: len(transcript_texts(parley)) == 4 and not parley.chat_vm.busy)
        path = reader.active_path(conversation)
        assert path[1].text.endswith("more 39 The end.")
        assert path[1].status is MessageStatus.COMPLETE
        assert [m.text for m in path[2:]] == ["Thanks", "Hello from the test server."]
        assert not transcript.message_widget(path[1].id).error_box.isVisible()

    driver.run(body(), timeout=120)


@pytest.mark.slow
def test_an_answer_not_saved_yet_is_shown_as_it_ended_when_the_chat_is_opened_again(
    driver, sse_server, small_disk
):
    """The database holds only what fitted (the start, still `streaming`); leaving the
    chat and coming back shows the whole answer, marked, and it is saved once there is
    room, without anything else being sent."""
    data = small_disk.root / "data"
    write_settings(data, sse_server.base_url)
    disk_filled = _enqueue_an_answer_the_disk_fills_under(sse_server)
    parley = driver.start(data)
    reader = driver.reader(data)
    transcript = parley.window.chat_view.transcript

    def shown_answer():
        ids = transcript.message_ids()
        return transcript.message_widget(ids[-1]) if len(ids) == 2 else None

    async def body() -> None:
        type_and_send(parley, "Tell me everything")
        await driver.until(lambda: bool(parley.chat_vm.conversationId))
        conversation = parley.chat_vm.conversationId

        def stored():
            path = reader.active_path(conversation)
            return path[-1] if len(path) == 2 else None

        await driver.until(lambda: stored() is not None and stored().text == "Saved part. ")
        small_disk.fill()
        disk_filled.set()
        await driver.until(lambda: not parley.chat_vm.busy)
        assert stored().status is MessageStatus.STREAMING  # the last copy that fitted

        parley.window.new_chat()
        await driver.until(lambda: transcript.message_ids() == [])
        parley.chat_vm.open_conversation(conversation)
        await driver.until(lambda: shown_answer() is not None)
        again = shown_answer()
        assert again.body.toPlainText().strip().endswith("more 39 The end.")
        assert again.error_box.isVisible()
        assert f"Not saved yet: the disk holding {data} is full" in again.error_box.text()

        small_disk.release()  # and nothing else: Parley tries again by itself
        await driver.until(lambda: stored().status is MessageStatus.COMPLETE)
        assert stored().text.endswith("more 39 The end.")
        await driver.until(lambda: not shown_answer().error_box.isVisible())

    driver.run(body(), timeout=180)
