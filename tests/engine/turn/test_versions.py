"""Message versions end to end: a real SQLite file and a real HTTP stream on 127.0.0.1.

Which branch the model saw is proved from the request bodies the server received.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from desktop.core.errors import EmptyMessageError, ParleyError
from desktop.core.events import (
    ActivePathChanged,
    ConversationsChanged,
    Finished,
    MessageChanged,
    TextDelta,
)
from desktop.core.models import (
    ErrorPart,
    Message,
    MessageStatus,
    ModelRef,
    ReasoningPart,
    Role,
    TextPart,
    Usage,
    new_id,
)
from desktop.engine.prompt.request_builder import (
    CONTINUE_PROMPT,
    build_continue_request,
    build_request,
)
from desktop.engine.turn.stream_fold import fold, seeded_draft
from desktop.engine.turn.versions import (
    CannotContinueError,
    VersionError,
    sibling_step,
    version_groups,
    version_info,
    version_of,
)
from desktop.providers.base import RequestMessage
from desktop.storage.errors import MessageNotFound
from tests.support.chat_wire import turns as conversation_turns
from tests.support.engine_harness import MODEL, Harness, run
from tests.support.sse_server import (
    DONE,
    Disconnect,
    Sleep,
    SSEServer,
    chat_chunk,
    default_stream,
    error_response,
    sse_response,
)
from tests.support.waiting import CEILING_S, wait_for


def sent(server: SSEServer, index: int) -> list[dict[str, Any]]:
    """The `messages` of the index-th chat request the server received."""
    return conversation_turns(server.requests[index].json)


def turns(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"role": role, "content": content} for role, content in pairs]


def slow(text: str) -> list[Any]:
    """A stream that sends `text`, then stays silent until the client goes away."""
    return sse_response(chat_chunk(content=text), Sleep(30))


def stored(h: Harness, message_id: str) -> Message:
    """The message as it is on disk now (it must exist)."""
    message = h.repo.get_message(message_id)
    assert message is not None
    return message


def generation_tasks() -> list[asyncio.Task[Any]]:
    return [t for t in asyncio.all_tasks() if t.get_name().startswith("generation:")]


async def exchange(h: Harness, conversation_id: str | None, text: str) -> tuple[str, str, str]:
    """Send and wait for the answer; returns (conversation, user, assistant) ids."""
    done = len(h.finished())
    result = await h.chat.send(conversation_id, text, MODEL)
    await h.wait_finished(done + 1)
    return result.conversation_id, result.user_message_id, result.assistant_message_id


# --- regenerate and retry -----------------------------------------------------------


def test_regenerate_keeps_the_old_answer_and_later_sends_carry_the_new_one(tmp_path, sse_server):
    sse_server.script(default_stream("First answer."), default_stream("Second answer."))

    async def body(h: Harness) -> None:
        c, q, a1 = await exchange(h, None, "Question")
        result = await h.chat.regenerate(a1)
        assert result.user_message_id == q and result.assistant_message_id != a1
        await h.wait_finished(2)
        a2 = result.assistant_message_id

        assert [m.id for m in h.repo.siblings(a1)] == [a1, a2]
        assert stored(h, a1).text == "First answer."  # nothing overwritten
        assert stored(h, a2).text == "Second answer."
        assert [m.id for m in h.chat.active_path(c)] == [q, a2]
        # The regenerate request is the branch up to the question, without the old answer.
        assert sent(sse_server, 1) == turns(("user", "Question"))
        assert ActivePathChanged(c) in h.events

        await exchange(h, c, "Follow-up")
        assert sent(sse_server, 2) == turns(
            ("user", "Question"), ("assistant", "Second answer."), ("user", "Follow-up")
        )

    run(tmp_path, sse_server, body)


def test_version_labels_after_regenerating_twice(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        c, q, a1 = await exchange(h, None, "Question")
        a2 = (await h.chat.regenerate(a1)).assistant_message_id
        await h.wait_finished(2)
        a3 = (await h.chat.regenerate(a2)).assistant_message_id
        await h.wait_finished(3)

        info = h.chat.version_info(c)
        assert info == {q: (1, 1), a1: (1, 3), a2: (2, 3), a3: (3, 3)}

    run(tmp_path, sse_server, body)


def test_regenerate_uses_the_given_model_or_the_answers_own(tmp_path, sse_server):
    other = ModelRef("local", "other-model")

    async def body(h: Harness) -> None:
        _c, q, a1 = await exchange(h, None, "Question")
        a2 = (await h.chat.regenerate(a1, other)).assistant_message_id
        await h.wait_finished(2)
        assert sse_server.requests[1].json["model"] == "other-model"
        assert stored(h, a2).model == other

        # A user message id regenerates its answer: a new child, newest answer's model.
        a3 = (await h.chat.regenerate(q)).assistant_message_id
        await h.wait_finished(3)
        assert stored(h, a3).parent_id == q
        assert stored(h, a3).model == other
        assert [m.id for m in h.repo.siblings(a3)] == [a1, a2, a3]

    run(tmp_path, sse_server, body)


def test_retry_of_a_failed_answer_is_a_new_version_and_the_failure_stays(tmp_path, sse_server):
    crash = error_response(500, "The model crashed", error_type="server_error")
    sse_server.script(crash, crash, crash)  # the provider's own tries all fail

    async def body(h: Harness) -> None:
        c, q, failed = await exchange(h, None, "Question")
        assert stored(h, failed).status is MessageStatus.ERROR

        retried = (await h.chat.regenerate(failed)).assistant_message_id
        await h.wait_finished(2)
        kept = stored(h, failed)
        assert kept.status is MessageStatus.ERROR
        assert kept.error is not None and "The model crashed" in kept.error.message
        assert stored(h, retried).status is MessageStatus.COMPLETE
        assert h.chat.version_info(c)[retried] == (2, 2)
        assert [m.id for m in h.chat.active_path(c)] == [q, retried]
        assert sent(sse_server, 3) == turns(("user", "Question"))

    run(tmp_path, sse_server, body)


def test_regenerate_stops_the_running_generation_first(tmp_path, sse_server):
    sse_server.enqueue(slow("Still typ"))

    async def body(h: Harness) -> None:
        first = await h.chat.send(None, "Question", MODEL)
        await wait_for(lambda: h.latest_text(first.assistant_message_id) == "Still typ")
        second = await h.chat.regenerate(first.assistant_message_id)
        stopped = stored(h, first.assistant_message_id)
        assert stopped.status is MessageStatus.CANCELLED and stopped.text == "Still typ"
        assert h.chat.is_generating(first.conversation_id)
        assert len(generation_tasks()) == 1
        await h.wait_finished(2)
        assert stored(h, second.assistant_message_id).status is MessageStatus.COMPLETE

    run(tmp_path, sse_server, body)


def test_regenerate_refuses_what_has_no_question(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        conversation = h.chat.create_conversation("c")
        orphan = h.repo.add_message(
            Message(new_id(), conversation.id, None, Role.ASSISTANT, [TextPart("hi")], model=MODEL)
        )
        with pytest.raises(VersionError):
            await h.chat.regenerate(orphan.id)
        with pytest.raises(MessageNotFound):
            await h.chat.regenerate("missing")
        assert sse_server.requests == []

    run(tmp_path, sse_server, body)


# --- edit -----------------------------------------------------------------------------


def test_edit_adds_a_sibling_and_later_requests_carry_only_the_edited_text(tmp_path, sse_server):
    sse_server.script(
        default_stream("A1."), default_stream("A2."), default_stream("A2 edited."), default_stream()
    )

    async def body(h: Harness) -> None:
        c, _q1, _a1 = await exchange(h, None, "Q1")
        _, q2, a2 = await exchange(h, c, "Q2")

        result = await h.chat.edit(q2, "Q2 edited", MODEL)
        await h.wait_finished(3)
        q2b, a2b = result.user_message_id, result.assistant_message_id
        assert [m.id for m in h.repo.siblings(q2)] == [q2, q2b]
        assert [m.text for m in h.chat.active_path(c)] == ["Q1", "A1.", "Q2 edited", "A2 edited."]
        assert sent(sse_server, 2) == turns(
            ("user", "Q1"), ("assistant", "A1."), ("user", "Q2 edited")
        )
        # The original and its answer are untouched.
        assert stored(h, q2).text == "Q2"
        assert stored(h, a2).parent_id == q2 and stored(h, a2).text == "A2."

        await exchange(h, c, "Q3")
        contents = [m["content"] for m in sent(sse_server, 3)]
        assert contents == ["Q1", "A1.", "Q2 edited", "A2 edited.", "Q3"]
        assert stored(h, a2b).status is MessageStatus.COMPLETE

    run(tmp_path, sse_server, body)


def test_editing_the_first_message_makes_a_new_root(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        c, q1, _ = await exchange(h, None, "Frist")
        result = await h.chat.edit(q1, "First", MODEL)
        await h.wait_finished(2)
        assert stored(h, result.user_message_id).parent_id is None
        assert h.chat.version_info(c)[result.user_message_id] == (2, 2)
        assert h.chat.version_info(c)[q1] == (1, 2)
        assert sent(sse_server, 1) == turns(("user", "First"))

    run(tmp_path, sse_server, body)


def test_edit_refuses_empty_text_and_answers(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        c, q, a = await exchange(h, None, "Question")
        with pytest.raises(EmptyMessageError):
            await h.chat.edit(q, "  \n", MODEL)
        with pytest.raises(VersionError):
            await h.chat.edit(a, "I would rather have said", MODEL)
        assert len(h.repo.messages(c)) == 2
        assert len(sse_server.requests) == 1

    run(tmp_path, sse_server, body)


# --- switching versions ---------------------------------------------------------------


def test_switching_back_shows_the_latest_descendants_and_sends_go_there(tmp_path, sse_server):
    sse_server.script(
        default_stream("A1."),
        default_stream("A2."),
        default_stream("A3."),
        default_stream("A2 edited."),
        default_stream("A4."),
    )

    async def body(h: Harness) -> None:
        c, q1, a1 = await exchange(h, None, "Q1")
        _, q2, a2 = await exchange(h, c, "Q2")
        _, q3, a3 = await exchange(h, c, "Q3")
        edited = await h.chat.edit(q2, "Q2 edited", MODEL)
        await h.wait_finished(4)
        q2b, a2b = edited.user_message_id, edited.assistant_message_id
        h.events.clear()

        # Back to version 1 of Q2: its newest descendants (Q3, A3) come back too.
        assert h.chat.switch_version(q2b, -1) == a3
        assert [m.id for m in h.chat.active_path(c)] == [q1, a1, q2, a2, q3, a3]
        assert h.events == [ActivePathChanged(c)]
        assert h.chat.version_info(c)[q2] == (1, 2)

        # Clamped at the ends: no move, no event.
        assert h.chat.switch_version(q2, -1) is None
        assert h.events == [ActivePathChanged(c)]

        await exchange(h, c, "Q4")
        assert [m["content"] for m in sent(sse_server, 4)] == [
            "Q1",
            "A1.",
            "Q2",
            "A2.",
            "Q3",
            "A3.",
            "Q4",
        ]
        # Version 2's subtree is intact, and switching forward (clamped) finds it again.
        assert stored(h, a2b).parent_id == q2b
        assert h.chat.switch_version(q2, +5) == a2b
        assert [m.text for m in h.chat.active_path(c)] == ["Q1", "A1.", "Q2 edited", "A2 edited."]

    run(tmp_path, sse_server, body)


def test_switching_while_generating_leaves_the_generation_running(tmp_path, sse_server):
    sse_server.script(default_stream("A1."), slow("A2 is slo"))

    async def body(h: Harness) -> None:
        c, q, a1 = await exchange(h, None, "Q")
        a2 = (await h.chat.regenerate(a1)).assistant_message_id
        await wait_for(lambda: h.latest_text(a2) == "A2 is slo")
        assert h.chat.switch_version(a2, -1) == a1
        assert h.chat.is_generating(c)
        assert [m.id for m in h.chat.active_path(c)] == [q, a1]
        await h.chat.stop(c)
        assert stored(h, a2).text == "A2 is slo"
        assert [m.id for m in h.chat.active_path(c)] == [q, a1]  # finishing did not move it

    run(tmp_path, sse_server, body)


# --- delete -----------------------------------------------------------------------------


def test_deleting_a_middle_message_removes_its_subtree_and_moves_the_leaf(tmp_path, sse_server):
    sse_server.script(default_stream("A1."), default_stream("A1 again."), default_stream("A2."))

    async def body(h: Harness) -> None:
        c, q1, a1 = await exchange(h, None, "Q1")
        a1b = (await h.chat.regenerate(a1)).assistant_message_id
        await h.wait_finished(2)
        _, q2, a2 = await exchange(h, c, "Q2")
        assert [m.id for m in h.chat.active_path(c)] == [q1, a1b, q2, a2]
        h.events.clear()

        await h.chat.delete_message(a1b)  # the visible version, in the middle
        assert {m.id for m in h.repo.messages(c)} == {q1, a1}
        assert [m.id for m in h.chat.active_path(c)] == [q1, a1]  # previous sibling
        assert h.chat.version_info(c) == {q1: (1, 1), a1: (1, 1)}
        assert ActivePathChanged(c) in h.events and ConversationsChanged(c) in h.events

        await h.chat.delete_message(a1)  # an only child: back to its parent
        assert [m.id for m in h.chat.active_path(c)] == [q1]
        with pytest.raises(MessageNotFound):
            await h.chat.delete_message(a1)

    run(tmp_path, sse_server, body)


def test_delete_while_generating_stops_the_generation_first(tmp_path, sse_server, caplog):
    sse_server.enqueue(slow("Partial"))

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Tell me a long story", MODEL)
        await wait_for(lambda: h.latest_text(result.assistant_message_id) == "Partial")
        await h.chat.delete_message(result.user_message_id)

        assert not h.chat.is_generating(result.conversation_id)
        assert generation_tasks() == []
        assert [e.status for e in h.finished()] == [MessageStatus.CANCELLED]
        assert h.repo.messages(result.conversation_id) == []
        assert h.chat.active_path(result.conversation_id) == []
        assert sse_server.requests[0].client_gone.wait(CEILING_S)

    with caplog.at_level(logging.WARNING):
        run(tmp_path, sse_server, body)
    assert "vanished" not in caplog.text and "failed" not in caplog.text


def test_deleting_another_version_leaves_the_generation_running(tmp_path, sse_server):
    sse_server.script(default_stream("A1."), slow("A2 is slo"))

    async def body(h: Harness) -> None:
        c, q, a1 = await exchange(h, None, "Q")
        a2 = (await h.chat.regenerate(a1)).assistant_message_id
        await wait_for(lambda: h.latest_text(a2) == "A2 is slo")
        await h.chat.delete_message(a1)
        assert h.chat.is_generating(c)
        assert [m.id for m in h.chat.active_path(c)] == [q, a2]
        await h.chat.stop(c)
        assert stored(h, a2).text == "A2 is slo"

    run(tmp_path, sse_server, body)


# --- continue ---------------------------------------------------------------------------


def test_continue_appends_to_a_cancelled_answer(tmp_path, sse_server):
    sse_server.script(
        slow("Once upon a"),
        sse_response(chat_chunk(content=" time, the end."), chat_chunk(finish_reason="stop"), DONE),
    )

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Tell me a story", MODEL)
        answer = result.assistant_message_id
        await wait_for(lambda: h.latest_text(answer) == "Once upon a")
        await h.chat.stop(result.conversation_id)
        h.events.clear()

        await h.chat.continue_message(answer)
        await h.wait_finished(1)
        saved = stored(h, answer)
        assert saved.status is MessageStatus.COMPLETE
        assert saved.parts == [TextPart("Once upon a time, the end.")]  # one paragraph
        assert saved.finished_at is not None
        # Every update the listeners heard started with the earlier text.
        updates = [e.message for e in h.events if isinstance(e, MessageChanged)]
        assert updates[0].status is MessageStatus.STREAMING
        assert all(m.text.startswith("Once upon a") for m in updates)

        assert sent(sse_server, 1) == turns(
            ("user", "Tell me a story"),
            ("assistant", "Once upon a"),
            ("user", CONTINUE_PROMPT),
        )
        # The nudge is request-only: the conversation still holds two messages.
        assert [m.text for m in h.repo.messages(result.conversation_id)] == [
            "Tell me a story",
            "Once upon a time, the end.",
        ]

    run(tmp_path, sse_server, body)


def test_continue_an_interrupted_answer_adds_up_the_usage(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        conversation = h.chat.create_conversation("c")
        question = h.repo.add_message(
            Message(new_id(), conversation.id, None, Role.USER, [TextPart("Hi")])
        )
        answer = h.repo.add_message(
            Message(
                new_id(),
                conversation.id,
                question.id,
                Role.ASSISTANT,
                [ReasoningPart("thinking", 120), TextPart("Hello")],
                status=MessageStatus.STREAMING,
                model=MODEL,
                usage=Usage(10, 5),
                first_token_ms=250,
            )
        )
        assert h.chat.recover() == [answer.id]  # as after a crash

        await h.chat.continue_message(answer.id)
        await h.wait_finished()
        saved = stored(h, answer.id)
        assert saved.status is MessageStatus.COMPLETE
        assert saved.parts == [
            ReasoningPart("thinking", 120),
            TextPart("HelloHello from the test server."),
        ]
        assert saved.usage == Usage(10 + 12, 5 + 5)  # the test server reports 12 in, 5 out
        assert saved.first_token_ms == 250  # the original latency stays

    run(tmp_path, sse_server, body)


def test_continue_is_refused_unless_the_answer_stopped_early(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        c, q, a = await exchange(h, None, "Question")
        before = stored(h, a)
        with pytest.raises(CannotContinueError) as refused:
            await h.chat.continue_message(a)
        assert isinstance(refused.value, ParleyError) and "complete" in str(refused.value)
        with pytest.raises(CannotContinueError):
            await h.chat.continue_message(q)
        assert stored(h, a) == before
        assert len(sse_server.requests) == 1
        assert not h.chat.is_generating(c)

    run(tmp_path, sse_server, body)


def test_a_failed_continue_keeps_the_earlier_text_and_shows_the_error(tmp_path, sse_server):
    crash = error_response(500, "The model crashed", error_type="server_error")
    sse_server.script(slow("Partial"), crash, crash, crash)

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Question", MODEL)
        answer = result.assistant_message_id
        await wait_for(lambda: h.latest_text(answer) == "Partial")
        await h.chat.stop(result.conversation_id)

        await h.chat.continue_message(answer)
        await h.wait_finished(2)
        saved = stored(h, answer)
        assert saved.status is MessageStatus.ERROR
        assert saved.text == "Partial"
        assert isinstance(saved.parts[-1], ErrorPart)
        assert saved.error is not None and "The model crashed" in saved.error.message

    run(tmp_path, sse_server, body)


def test_a_continue_broken_or_stopped_midway_keeps_all_text(tmp_path, sse_server):
    sse_server.script(
        slow("One"),
        sse_response(chat_chunk(content=" two"), Disconnect()),
    )

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Count", MODEL)
        answer = result.assistant_message_id
        await wait_for(lambda: h.latest_text(answer) == "One")
        await h.chat.stop(result.conversation_id)

        await h.chat.continue_message(answer)  # the stream breaks after " two"
        await h.wait_finished(2)
        broken = stored(h, answer)
        assert broken.status is MessageStatus.ERROR and broken.text == "One two"
        assert isinstance(broken.parts[-1], ErrorPart)

        # Broken off with text kept: it continues again; a stop keeps everything, and
        # the error part of the failed attempt is dropped.
        sse_server.enqueue(slow(" three"))
        await h.chat.continue_message(answer)
        await wait_for(lambda: h.latest_text(answer) == "One two three")
        assert stored(h, answer).text.startswith("One two")
        await h.chat.stop(result.conversation_id)
        stopped = stored(h, answer)
        assert stopped.status is MessageStatus.CANCELLED
        assert stopped.parts == [TextPart("One two three")]  # the old error part is gone

    run(tmp_path, sse_server, body)


# --- pure helpers -----------------------------------------------------------------------


def _node(role: Role, text: str, parent: str | None = None) -> Message:
    return Message(new_id(), "c", parent, role, [TextPart(text)] if text else [])


def test_the_continue_request_ends_with_the_partial_answer_and_the_nudge():
    question = _node(Role.USER, "Q")
    partial = _node(Role.ASSISTANT, "Half", question.id)
    request = build_continue_request([question, partial], "m")
    assert request.model == "m"
    assert request.messages == (
        RequestMessage(Role.USER, "Q"),
        RequestMessage(Role.ASSISTANT, "Half"),
        RequestMessage(Role.USER, CONTINUE_PROMPT),
    )
    assert "repeat" in CONTINUE_PROMPT
    # Nothing to continue yet: the plain request for the question.
    empty = _node(Role.ASSISTANT, "", question.id)
    assert build_continue_request([question, empty], "m") == build_request([question], "m")
    with pytest.raises(ValueError):
        build_continue_request([question], "m")


def test_a_seeded_draft_grows_the_last_paragraph():
    draft = seeded_draft([ReasoningPart("r", 5), TextPart("Once upon")])
    draft = fold(draft, TextDelta(" a time"), 1.0)
    draft = fold(draft, Finished("stop"), 2.0)
    assert draft.parts() == [ReasoningPart("r", 5), TextPart("Once upon a time")]
    assert seeded_draft([]).parts() == []


def test_version_info_and_sibling_steps():
    children: dict[str | None, list[str]] = {None: ["r1", "r2"], "r1": ["a", "b", "c"]}
    assert version_info(children) == {
        "r1": (1, 2),
        "r2": (2, 2),
        "a": (1, 3),
        "b": (2, 3),
        "c": (3, 3),
    }
    siblings = ["a", "b", "c"]
    assert sibling_step(siblings, "b", -1) == "a"
    assert sibling_step(siblings, "b", +1) == "c"
    assert sibling_step(siblings, "a", -1) is None
    assert sibling_step(siblings, "a", +9) == "c"
    assert sibling_step(siblings, "x", +1) is None


def test_one_version_is_looked_up_in_the_groups_that_label_a_branch():
    children: dict[str | None, list[str]] = {
        None: ["r1", "r2"],
        "r1": ["a", "b", "c"],
        "a": ["q2"],
        "q2": ["a2"],
    }
    info = version_info(children)
    groups = version_groups(children, tip="a2")
    # Single children are left out (they are all 1/1), except under the tip, where
    # the next message arrives.
    assert groups == {None: ["r1", "r2"], "r1": ["a", "b", "c"], "a2": []}
    for parent, ids in children.items():
        for message_id in ids:
            assert version_of(groups, message_id, parent) == info[message_id]
    assert version_of(groups, "unknown", "r1") == (1, 1)
    assert version_groups(children, tip="a") == {
        None: ["r1", "r2"],
        "r1": ["a", "b", "c"],
        "a": ["q2"],  # the tip already has a child: a new one will be its 2/2
    }
    assert version_groups({}, tip=None) == {None: []}


def test_reveal_shows_the_branch_holding_a_message(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        first = await h.chat.send(None, "original question", MODEL)
        await h.wait_finished()
        edited = await h.chat.edit(first.user_message_id, "edited question", MODEL)
        await h.wait_finished(2)
        assert h.repo.active_path(first.conversation_id)[0].text == "edited question"
        h.chat.reveal(first.assistant_message_id)
        path = h.repo.active_path(first.conversation_id)
        assert [m.id for m in path] == [first.user_message_id, first.assistant_message_id]
        h.chat.reveal(first.user_message_id)  # already visible: nothing changes
        assert h.repo.active_path(first.conversation_id) == path
        assert edited.conversation_id == first.conversation_id

    run(tmp_path, sse_server, body)
