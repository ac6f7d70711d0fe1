"""The chat service end to end: a real SQLite file, a real HTTP stream on 127.0.0.1."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

from desktop.core.errors import EmptyMessageError
from desktop.core.events import GenerationFinished, MessageChanged
from desktop.core.limits import DB_WRITE_INTERVAL_S
from desktop.core.models import ErrorPart, MessageStatus, ModelRef, Role
from desktop.core.settings import Settings
from desktop.engine.library import Library
from desktop.engine.prompt.next_request import Draft as NextDraft
from desktop.engine.prompt.request_builder import RequestOptions
from desktop.engine.turn.chat_service import ChatService, title_from
from desktop.providers.adapter import HttpAdapter
from desktop.storage.database import Database
from desktop.storage.errors import DiskFullError
from desktop.storage.repository import ChatRepository
from tests.support.adapters import openai_chat_adapter
from tests.support.chat_wire import turns
from tests.support.engine_harness import MODEL, Harness, run
from tests.support.full_disk import SmallDisk
from tests.support.sse_server import (
    DONE,
    Disconnect,
    Gate,
    Sleep,
    chat_chunk,
    error_response,
    sse_response,
    usage_chunk,
)
from tests.support.waiting import CEILING_S, wait_for


def test_a_conversation_is_no_longer_generating_once_its_answer_finished(tmp_path, sse_server):
    """Whoever hears the finished event and then asks (the window deciding whether to
    offer Continue) learns that nothing runs any more, whatever order the loop runs
    its callbacks in."""
    seen_after_finish: list[bool] = []

    async def body(h: Harness) -> None:
        loop = asyncio.get_running_loop()

        def on_event(event: object) -> None:
            if isinstance(event, GenerationFinished):
                # The very next callback after the one that announced the end.
                cid = event.conversation_id
                loop.call_soon(lambda: seen_after_finish.append(h.chat.is_generating(cid)))

        h.chat.events.subscribe(on_event)
        result = await h.chat.send(None, "Say hello", MODEL)
        await h.wait_finished()
        await wait_for(lambda: bool(seen_after_finish))
        assert seen_after_finish == [False]
        assert not h.chat.is_generating(result.conversation_id)

    run(tmp_path, sse_server, body)


def test_send_streams_the_answer_and_persists_it(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Say hello", MODEL)
        await h.wait_finished()
        path = h.repo.active_path(result.conversation_id)
        assert [m.role for m in path] == [Role.USER, Role.ASSISTANT]
        answer = path[-1]
        assert answer.text == "Hello from the test server."
        assert answer.status is MessageStatus.COMPLETE
        assert answer.model == MODEL
        assert answer.usage is not None and answer.usage.input_tokens == 12
        assert answer.first_token_ms is not None and answer.finished_at is not None
        assert h.chat.conversation(result.conversation_id).title == "Say hello"
        sent = sse_server.requests[0].json
        assert sent["model"] == "test-model" and sent["stream"] is True
        assert turns(sent) == [{"role": "user", "content": "Say hello"}]
        assert [e.status for e in h.finished()] == [MessageStatus.COMPLETE]

    run(tmp_path, sse_server, body)


def test_user_message_and_placeholder_are_saved_before_the_server_answers(tmp_path, sse_server):
    sse_server.enqueue(sse_response(Sleep(1.0), chat_chunk(content="late"), DONE))

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Are you there?", MODEL)
        # The server has not answered yet, but both nodes are already on disk.
        other = ChatRepository(Database.open(h.tmp_path / "parley.db"))
        stored = other.active_path(result.conversation_id)
        assert [m.text for m in stored] == ["Are you there?", ""]
        assert stored[1].status is MessageStatus.STREAMING
        await h.wait_finished()

    run(tmp_path, sse_server, body)


def test_stop_keeps_the_partial_text_as_cancelled(tmp_path, sse_server):
    sse_server.enqueue(sse_response(chat_chunk(content="Partial answer"), Sleep(30)))

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Tell me a long story", MODEL)
        await wait_for(lambda: "Partial" in h.latest_text(result.assistant_message_id))
        await h.chat.stop(result.conversation_id)
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.CANCELLED
        assert stored.text == "Partial answer"
        assert stored.finished_at is not None
        assert [e.status for e in h.finished()] == [MessageStatus.CANCELLED]
        assert not h.chat.is_generating(result.conversation_id)
        assert sse_server.requests[0].client_gone.wait(CEILING_S)

    run(tmp_path, sse_server, body)


def test_a_second_send_cancels_and_awaits_the_first(tmp_path, sse_server):
    sse_server.enqueue(sse_response(chat_chunk(content="first"), Sleep(30)))

    async def body(h: Harness) -> None:
        first = await h.chat.send(None, "one", MODEL)
        await wait_for(lambda: h.latest_text(first.assistant_message_id) == "first")
        second = await h.chat.send(first.conversation_id, "two", MODEL)
        assert h.repo.get_message(first.assistant_message_id).status is MessageStatus.CANCELLED
        await h.wait_finished(2)
        path = h.repo.active_path(first.conversation_id)
        assert [m.id for m in path][-2:] == [second.user_message_id, second.assistant_message_id]
        assert path[-1].status is MessageStatus.COMPLETE
        # The second request carries the first exchange, including the partial answer.
        assert turns(sse_server.requests[1].json)[:3] == [
            {"role": "user", "content": "one"},
            {"role": "assistant", "content": "first"},
            {"role": "user", "content": "two"},
        ]
        assert [e.status for e in h.finished()] == [
            MessageStatus.CANCELLED,
            MessageStatus.COMPLETE,
        ]

    run(tmp_path, sse_server, body)


def test_a_server_error_becomes_a_visible_error_part(tmp_path, sse_server):
    sse_server.enqueue(error_response(401, "Incorrect API key provided", code="invalid_api_key"))

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        await h.wait_finished()
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.ERROR
        error = stored.error
        assert isinstance(error, ErrorPart) and error.status_code == 401
        assert "Incorrect API key provided" in error.message

    run(tmp_path, sse_server, body)


def test_a_disconnect_mid_stream_keeps_the_text_and_shows_the_error(tmp_path, sse_server):
    sse_server.enqueue(sse_response(chat_chunk(content="Half an ans"), Disconnect()))

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        await h.wait_finished()
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.ERROR
        assert stored.text == "Half an ans"
        assert stored.error is not None and stored.error.message

    run(tmp_path, sse_server, body)


def test_streaming_writes_are_coalesced(tmp_path, sse_server):
    # 60 deltas over about 2.4 s: the UI hears far fewer updates, the disk one save per
    # DB_WRITE_INTERVAL_S of streaming (however long a busy machine makes that).
    steps: list[object] = []
    for i in range(60):
        steps += [chat_chunk(content=f"w{i} "), Sleep(0.04)]
    sse_server.enqueue(
        sse_response(*steps, chat_chunk(finish_reason="stop"), usage_chunk(1, 60), DONE)
    )

    async def body(h: Harness) -> None:
        started = asyncio.get_running_loop().time()
        result = await h.chat.send(None, "count", MODEL)
        await h.wait_finished()
        streamed_for = asyncio.get_running_loop().time() - started
        updates = [
            e
            for e in h.events
            if isinstance(e, MessageChanged)
            and e.message.id == result.assistant_message_id
            and e.message.status is MessageStatus.STREAMING
        ]
        assert 1 <= h.repo.streaming_saves <= streamed_for / DB_WRITE_INTERVAL_S + 1
        assert h.repo.streaming_saves < 60  # never one save per delta
        assert len(updates) < 60
        assert h.repo.get_message(result.assistant_message_id).text.count("w") == 60

    run(tmp_path, sse_server, body)


def test_a_crash_mid_stream_leaves_an_interrupted_message_with_the_saved_text(tmp_path, sse_server):
    sse_server.enqueue(sse_response(chat_chunk(content="Saved before the crash"), Sleep(30)))

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        # Wait until the throttled write has reached the disk (about half a second).
        reader = ChatRepository(Database.open(h.tmp_path / "parley.db"))
        await wait_for(lambda: reader.get_message(result.assistant_message_id).text != "")
        # A new process starting on the same folder while this one "died" mid-stream.
        survivor = ChatService(reader, h.settings)
        assert survivor.recover() == [result.assistant_message_id]
        recovered = reader.get_message(result.assistant_message_id)
        assert recovered.status is MessageStatus.INTERRUPTED
        assert recovered.text == "Saved before the crash"
        assert recovered.finished_at is not None

    run(tmp_path, sse_server, body)


def test_empty_input_is_refused_and_nothing_is_saved(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        with pytest.raises(EmptyMessageError):
            await h.chat.send(None, "  \n ", MODEL)
        assert h.chat.conversations() == []
        assert sse_server.requests == []

    run(tmp_path, sse_server, body)


def test_an_unknown_provider_gives_an_error_on_the_answer_not_a_lost_message(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hello", ModelRef("gone", "x"))
        await h.wait_finished()
        path = h.repo.active_path(result.conversation_id)
        assert path[0].text == "hello"
        assert path[1].status is MessageStatus.ERROR and "gone" in path[1].error.message

    run(tmp_path, sse_server, body)


def test_titles_come_from_the_first_line_and_are_shortened_at_a_word():
    assert title_from("\n  First line\nsecond") == "First line"
    long = "word " * 30
    title = title_from(long)
    assert title.endswith("…") and len(title) <= 61 and " wor…" not in title


def test_sends_racing_on_one_conversation_leave_a_single_generation(tmp_path, sse_server):
    slow = sse_response(chat_chunk(content="slow"), Sleep(30))
    sse_server.script(slow, slow, slow)

    async def body(h: Harness) -> None:
        first = await h.chat.send(None, "first", MODEL)
        await wait_for(lambda: h.latest_text(first.assistant_message_id) == "slow")
        # Both sends must wait for the first generation to stop; only one may win.
        a, b = await asyncio.gather(
            h.chat.send(first.conversation_id, "a", MODEL),
            h.chat.send(first.conversation_id, "b", MODEL),
        )
        statuses = {
            mid: h.repo.get_message(mid).status
            for mid in (first.assistant_message_id, a.assistant_message_id)
        }
        assert set(statuses.values()) == {MessageStatus.CANCELLED}
        assert h.chat.is_generating(first.conversation_id)
        assert h.repo.get_message(b.assistant_message_id).status is MessageStatus.STREAMING
        # The tree is a single line: each message follows the one before it.
        path = h.repo.active_path(first.conversation_id)
        assert [m.text for m in path if m.role is Role.USER] == ["first", "a", "b"]

    run(tmp_path, sse_server, body)


def test_a_500_shows_the_servers_words(tmp_path, sse_server):
    crash = error_response(500, "The model crashed", error_type="server_error")
    sse_server.script(crash, crash, crash)  # every try fails

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        await h.wait_finished()
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.ERROR
        assert stored.error.status_code == 500 and "The model crashed" in stored.error.message

    run(tmp_path, sse_server, body)


class ShortStallProviders:
    """The real provider for the test server, with a stall timeout short enough to test."""

    def __init__(self, client: httpx.AsyncClient, base_url: str) -> None:
        self._client = client
        self._base_url = base_url
        self.settings = Settings()

    async def provider(self, provider_id: str) -> HttpAdapter:
        return openai_chat_adapter(self._client, self._base_url, stall_timeout=0.5)

    def request_options(self, model: ModelRef) -> RequestOptions:
        return RequestOptions()


def test_a_stalled_stream_keeps_the_text_and_says_the_server_went_silent(tmp_path, sse_server):
    sse_server.enqueue(sse_response(chat_chunk(content="Before the silence"), Sleep(30)))

    async def body(h: Harness) -> None:
        chat = ChatService(h.repo, ShortStallProviders(h.http, sse_server.base_url))
        finished: list[GenerationFinished] = []
        chat.events.subscribe(
            lambda e: finished.append(e) if isinstance(e, GenerationFinished) else None
        )
        result = await chat.send(None, "hi", MODEL)
        await wait_for(lambda: bool(finished))
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.ERROR
        assert stored.text == "Before the silence"
        assert "sent nothing for 0.5 s" in stored.error.message

    run(tmp_path, sse_server, body)


def test_a_send_on_a_full_disk_saves_nothing_and_works_again_once_there_is_room(
    sse_server, small_disk
):
    async def body(h: Harness) -> None:
        conversation = h.chat.create_conversation("Plans")
        small_disk.fill()
        with pytest.raises(DiskFullError, match=f"the disk holding {small_disk.root} is full"):
            await h.chat.send(conversation.id, "Where to?", MODEL)
        assert h.repo.messages(conversation.id) == []  # not the question without an answer
        assert sse_server.requests == [] and h.finished() == []
        small_disk.release()
        result = await h.chat.send(conversation.id, "Where to?", MODEL)
        await h.wait_finished()
        assert [m.text for m in h.repo.active_path(conversation.id)] == [
            "Where to?",
            "Hello from the test server.",
        ]
        assert result.conversation_id == conversation.id

    run(small_disk.root, sse_server, body)


# Free space left on the disk before a new chat's first message. Somewhere between
# none and enough (where exactly depends on what the write-ahead log holds) a new
# conversation's row alone fits but not the message with it: these sizes cover that
# window and both sides of it.
FREE_SIZES = [k * 1024 for k in (0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 128, 192)]


def test_a_new_chat_that_does_not_fit_on_the_disk_leaves_no_empty_chat_behind(sse_server, tmp_path):
    outcomes: dict[int, str] = {}
    for free in FREE_SIZES:
        with SmallDisk.mounted(tmp_path / f"disk-{free // 1024}k") as disk:

            async def body(h: Harness, disk: SmallDisk = disk, free: int = free) -> None:
                disk.fill(leave=free)
                try:
                    await h.chat.send(None, "A brand new chat " * 50, MODEL)
                except DiskFullError:
                    outcomes[free] = "refused"
                else:
                    outcomes[free] = "sent"
                    await h.wait_finished()
                disk.release()
                chats = h.repo.list_conversations()
                # Each chat in the list holds the message it was made for; a refused
                # one left nothing at all.
                assert [len(h.repo.messages(c.id)) for c in chats] == (
                    [2] if outcomes[free] == "sent" else []
                ), f"{free} bytes free: {outcomes[free]}"

            run(disk.root, sse_server, body)
    assert "refused" in outcomes.values(), outcomes  # the window was reached


def _enqueue_an_answer_the_disk_fills_under(sse_server) -> tuple[threading.Event, list[str]]:
    """An answer that stops after "Saved. " until the returned event is set (the test
    fills the disk in between), then streams the returned words."""
    disk_filled = threading.Event()
    words = [f"word{i} " for i in range(30)]
    sse_server.enqueue(
        sse_response(
            chat_chunk(content="Saved. "),
            Gate(disk_filled),
            *[chat_chunk(content=w) for w in words],
            chat_chunk(finish_reason="stop"),
            DONE,
        )
    )
    return disk_filled, words


def test_an_answer_that_cannot_be_saved_is_shown_marked_and_saved_once_there_is_room(
    sse_server, small_disk
):
    disk_filled, words = _enqueue_an_answer_the_disk_fills_under(sse_server)

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Talk", MODEL)
        answer_id = result.assistant_message_id
        await wait_for(lambda: h.repo.get_message(answer_id).text == "Saved. ", 30)
        small_disk.fill()
        disk_filled.set()
        await h.wait_finished()

        full = "Saved. " + "".join(words)
        last = [e.message for e in h.events if isinstance(e, MessageChanged)][-1]
        assert last.text == full and last.status is MessageStatus.COMPLETE
        assert last.save_error is not None and "is full" in last.save_error
        assert [e.status for e in h.finished()] == [MessageStatus.COMPLETE]
        stored = h.repo.get_message(answer_id)
        assert stored.text == "Saved. " and stored.status is MessageStatus.STREAMING
        assert h.chat.save_unsaved() is False  # still no room: kept for later

        small_disk.release()
        assert h.chat.save_unsaved() is True
        stored = h.repo.get_message(answer_id)
        assert stored.text == full and stored.status is MessageStatus.COMPLETE
        again = [e.message for e in h.events if isinstance(e, MessageChanged)][-1]
        assert again.id == answer_id and again.save_error is None
        assert h.chat.save_unsaved() is True  # nothing left

    run(small_disk.root, sse_server, body)


@pytest.mark.slow
def test_an_answer_not_saved_yet_is_what_every_read_gives_until_it_is_saved(sse_server, small_disk):
    """The chat read back, an export and the estimate of the next request see the
    answer as it ended, not the start the disk still holds; it reaches the disk by
    itself once there is room."""
    disk_filled, words = _enqueue_an_answer_the_disk_fills_under(sse_server)
    full = "Saved. " + "".join(words)

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Talk", MODEL)
        conversation, answer_id = result.conversation_id, result.assistant_message_id
        await wait_for(lambda: h.repo.get_message(answer_id).text == "Saved. ", 30)
        small_disk.fill()
        disk_filled.set()
        await h.wait_finished()
        assert h.repo.get_message(answer_id).status is MessageStatus.STREAMING

        [_question, shown] = h.chat.active_path(conversation)
        assert (shown.text, shown.status) == (full, MessageStatus.COMPLETE)
        assert shown.save_error is not None and "Not saved yet" in shown.save_error
        assert h.chat.messages_by_id([answer_id]) == [shown]
        library = Library(h.db, h.repo, h.chat.events, h.chat.unsaved_over)
        assert full in library.export_markdown(conversation, branch_only=True)
        assert full in library.export_json(conversation, branch_only=False)
        draft = NextDraft(conversation, "And then?", (), MODEL)
        stale = ChatService(h.repo, h.settings).next_request.tokens(draft)  # the disk's copy
        assert h.chat.next_request.tokens(draft) > stale

        small_disk.release()  # nothing else is done: Parley tries again by itself
        await wait_for(lambda: h.repo.get_message(answer_id).text == full, 60)
        assert h.repo.get_message(answer_id).status is MessageStatus.COMPLETE
        again = [e.message for e in h.events if isinstance(e, MessageChanged)][-1]
        assert again.id == answer_id and again.save_error is None

    run(small_disk.root, sse_server, body)
