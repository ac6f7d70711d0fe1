"""Generations on a real network path: retries shown on the message, broken streams,
tool calls stored and sent back, and the provider settings that shape each request."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from desktop.core.models import (
    ErrorPart,
    MessageStatus,
    ModelRef,
    NoticePart,
    RetryWait,
    TextPart,
    ToolCallPart,
)
from desktop.engine.export.markdown import to_markdown
from desktop.engine.export.parley_json import from_json, to_json
from desktop.engine.turn import versions
from tests.support.chat_wire import turns
from tests.support.engine_harness import MODEL, Harness, run, updates
from tests.support.sse_server import (
    DONE,
    Disconnect,
    Sleep,
    chat_chunk,
    default_stream,
    error_response,
    sse_data,
    sse_response,
    usage_chunk,
)
from tests.support.waiting import wait_for


def tool_chunk(index: int, *, call_id: str | None = None, name: str | None = None, args: str = ""):
    """An OpenAI `chat.completion.chunk` carrying one piece of a tool call."""
    function: dict[str, Any] = {"arguments": args}
    if name is not None:
        function["name"] = name
    piece: dict[str, Any] = {"index": index, "function": function}
    if call_id is not None:
        piece.update(id=call_id, type="function")
    return sse_data(
        {
            "id": "chatcmpl-test",
            "object": "chat.completion.chunk",
            "created": 1700000000,
            "model": "test-model",
            "choices": [{"index": 0, "delta": {"tool_calls": [piece]}, "finish_reason": None}],
        }
    )


# --- retries --------------------------------------------------------------------------------


def test_a_rate_limited_request_shows_the_wait_then_the_answer(tmp_path, sse_server):
    sse_server.script(
        error_response(429, "Rate limit reached", headers={"retry-after-ms": "300"}),
        default_stream("Worth the wait."),
    )

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        await h.wait_finished()
        seen = updates(h, result.assistant_message_id)
        waits = [m.retry for m in seen if m.retry is not None]
        assert waits and waits[0] == RetryWait("Rate limited", 1, attempt=2, max_attempts=3)
        waiting = next(m for m in seen if m.retry is not None)
        assert waiting.status is MessageStatus.STREAMING and waiting.text == ""
        final = seen[-1]
        assert final.status is MessageStatus.COMPLETE and final.retry is None
        assert final.text == "Worth the wait."
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.retry is None and stored.text == "Worth the wait."
        # Latency counts from the send: the wait is part of what the person waited.
        assert stored.first_token_ms is not None and stored.first_token_ms >= 300

    run(tmp_path, sse_server, body)


def test_the_wait_counts_down_each_second(tmp_path, sse_server):
    sse_server.script(
        error_response(429, "Rate limit reached", headers={"retry-after-ms": "2200"}),
        default_stream(),
    )

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        await h.wait_finished()
        shown = [m.retry.seconds_left for m in updates(h, result.assistant_message_id) if m.retry]
        assert shown[:3] == [3, 2, 1]

    run(tmp_path, sse_server, body)


def test_the_countdown_and_the_retry_keep_time_when_timers_fire_early(tmp_path, sse_server):
    """Each number stays until its second is over, and the retry waits the whole time."""
    sse_server.script(
        error_response(429, "Rate limit reached", headers={"retry-after-ms": "2200"}),
        default_stream(),
    )

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        await h.wait_finished()
        shown = [m.retry.seconds_left for m in updates(h, result.assistant_message_id) if m.retry]
        assert shown[:3] == [3, 2, 1]
        first, second = sse_server.requests
        assert second.received_at - first.received_at >= 2.2

    run(tmp_path, sse_server, body, early_timers=True)


def test_when_every_try_fails_the_error_says_how_many_were_made(tmp_path, sse_server):
    busy = error_response(503, "Overloaded", error_type="server_error")
    sse_server.script(busy, busy, busy)

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        await h.wait_finished()
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.ERROR and stored.retry is None
        assert stored.error is not None and stored.error.status_code == 503
        assert "Overloaded" in stored.error.message
        assert stored.error.message.endswith("(Parley tried 3 times.)")
        assert len(sse_server.requests) == 3

    run(tmp_path, sse_server, body)


def test_a_broken_stream_keeps_its_text_is_not_retried_and_can_be_continued(tmp_path, sse_server):
    sse_server.script(
        sse_response(chat_chunk(content="The first half"), Disconnect()),
        sse_response(chat_chunk(content=" and the rest."), chat_chunk(finish_reason="stop"), DONE),
    )

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Tell me", MODEL)
        await h.wait_finished()
        broken = h.repo.get_message(result.assistant_message_id)
        assert broken.status is MessageStatus.ERROR
        assert broken.text == "The first half"
        assert isinstance(broken.parts[-1], ErrorPart)
        assert "closed before the answer was complete" in broken.parts[-1].message
        assert len(sse_server.requests) == 1  # not silently sent again
        assert versions.can_continue(broken)

        await h.chat.continue_message(broken.id)
        await h.wait_finished(2)
        done = h.repo.get_message(broken.id)
        assert done.status is MessageStatus.COMPLETE
        assert done.parts == [TextPart("The first half and the rest.")]
        sent = turns(sse_server.requests[1].json)
        assert sent[1] == {"role": "assistant", "content": "The first half"}

    run(tmp_path, sse_server, body)


# --- tool calls -------------------------------------------------------------------------------


def tool_call_answer() -> list[Any]:
    return sse_response(
        chat_chunk(role="assistant", content="Let me check."),
        tool_chunk(0, call_id="call_w", name="get_weather"),
        tool_chunk(0, args='{"city": '),
        tool_chunk(0, args='"Paris"}'),
        tool_chunk(1, call_id="call_t", name="get_time", args="{}"),
        chat_chunk(finish_reason="tool_calls"),
        usage_chunk(20, 9),
        DONE,
    )


def test_an_answer_ending_in_tool_calls_is_stored_complete_with_a_notice(tmp_path, sse_server):
    sse_server.enqueue(tool_call_answer())

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Weather in Paris?", MODEL)
        await h.wait_finished()
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.COMPLETE
        assert stored.parts[:3] == [
            TextPart("Let me check."),
            ToolCallPart("call_w", "get_weather", '{"city": "Paris"}'),
            ToolCallPart("call_t", "get_time", "{}"),
        ]
        notice = stored.parts[3]
        assert isinstance(notice, NoticePart)
        assert "get_weather, get_time" in notice.text and "no tools" in notice.text
        assert len(stored.parts) == 4

    run(tmp_path, sse_server, body)


def test_tool_calls_survive_export_and_import_and_read_well_in_markdown(tmp_path, sse_server):
    sse_server.enqueue(tool_call_answer())

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "Weather in Paris?", MODEL)
        await h.wait_finished()
        conversation = h.chat.conversation(result.conversation_id)
        messages = h.repo.active_path(result.conversation_id)
        data = json.loads(json.dumps(to_json(conversation, messages)))
        _, imported = from_json(data)
        assert imported[1].parts == messages[1].parts
        markdown = to_markdown(conversation, messages, branch_only=True)
        assert "**Tool call:** `get_weather`" in markdown
        assert '```json\n{"city": "Paris"}\n```' in markdown

    run(tmp_path, sse_server, body)


def test_the_next_request_carries_the_calls_and_their_results(tmp_path, sse_server):
    sse_server.script(tool_call_answer(), default_stream("It is sunny."))

    async def body(h: Harness) -> None:
        first = await h.chat.send(None, "Weather in Paris?", MODEL)
        await h.wait_finished()
        # A tool ran for the first call (the tool loop will do this); the second never ran.
        answer = h.repo.get_message(first.assistant_message_id)
        parts = list(answer.parts)
        parts[1] = replace(parts[1], result="18 °C, sunny")
        h.repo.save_message(replace(answer, parts=parts))

        await h.chat.send(first.conversation_id, "Thanks", MODEL)
        await h.wait_finished(2)
        sent = turns(sse_server.requests[1].json)
        assert sent[0] == {"role": "user", "content": "Weather in Paris?"}
        assert sent[1] == {
            "role": "assistant",
            "content": "Let me check.",
            "tool_calls": [
                {
                    "id": "call_w",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                },
                {
                    "id": "call_t",
                    "type": "function",
                    "function": {"name": "get_time", "arguments": "{}"},
                },
            ],
        }
        assert sent[2] == {"role": "tool", "tool_call_id": "call_w", "content": "18 °C, sunny"}
        assert sent[3]["role"] == "tool" and sent[3]["tool_call_id"] == "call_t"
        assert sent[3]["content"].startswith("Error:")  # it never ran, and says so
        assert sent[4] == {"role": "user", "content": "Thanks"}

    run(tmp_path, sse_server, body)


# --- what the provider settings add -----------------------------------------------------------


def test_reasoning_effort_is_sent_only_to_models_that_reason(tmp_path, sse_server):
    sse_server.script(default_stream(), default_stream())

    async def body(h: Harness) -> None:
        await h.chat.send(None, "hi", ModelRef("local", "o4-mini"))
        await h.wait_finished()
        await h.chat.send(None, "hi", ModelRef("local", "gpt-4o"))
        await h.wait_finished(2)
        reasoning, plain = (r.json for r in sse_server.requests)
        assert reasoning["reasoning_effort"] == "high"
        assert "reasoning_effort" not in plain

    run(
        tmp_path,
        sse_server,
        body,
        provider={"models": ["o4-mini", "gpt-4o"]},
        reasoning_effort="high",
    )


def test_a_model_override_turns_reasoning_on_for_an_unknown_model(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        caps = h.settings.capabilities(MODEL)
        assert caps.supports_reasoning and caps.context_length == 4096
        assert not h.settings.capabilities(ModelRef("local", "other")).supports_reasoning
        assert not h.settings.capabilities(ModelRef("gone", "test-model")).supports_reasoning
        options = h.settings.request_options(MODEL)
        assert options.reasoning_effort is not None and options.reasoning_effort.value == "low"

    run(
        tmp_path,
        sse_server,
        body,
        provider={"model_overrides": {"test-model": {"reasoning": True, "context_length": 4096}}},
        reasoning_effort="low",
    )


def test_provider_headers_and_extra_body_reach_the_wire_last(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        await h.chat.send(None, "hi", MODEL)
        await h.wait_finished()
        request = sse_server.requests[0]
        assert request.headers["x-team"] == "blue"
        assert request.headers["accept"] == "application/x-custom"  # ours, overridden
        assert request.json["seed"] == 7
        assert "stream_options" not in request.json  # null removes a key
        assert request.json["stream"] is True

    run(
        tmp_path,
        sse_server,
        body,
        provider={
            "headers": {"X-Team": "blue", "Accept": "application/x-custom"},
            "extra_body": {"seed": 7, "stream_options": None},
        },
    )


def test_a_retried_generation_waits_for_real_then_answers(tmp_path, sse_server):
    """Without an injected sleep: the engine really waits, and nothing blocks meanwhile."""
    sse_server.script(
        error_response(503, "Overloaded", error_type="server_error"), default_stream()
    )

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        await wait_for(lambda: any(m.retry for m in updates(h, result.assistant_message_id)))
        await h.wait_finished()
        assert h.repo.get_message(result.assistant_message_id).status is MessageStatus.COMPLETE

    run(tmp_path, sse_server, body)


# --- the provider's stall timeout ---------------------------------------------------------


@pytest.mark.slow
def test_a_stream_silent_longer_than_the_providers_stall_timeout_ends_saying_so(
    tmp_path, sse_server
):
    sse_server.enqueue(sse_response(chat_chunk(content="Before the silence"), Sleep(40)))

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        await h.wait_finished()
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.ERROR
        assert stored.text == "Before the silence"
        assert "The server sent nothing for 10 s" in stored.error.message
        assert "Stall timeout in Settings → Providers" in stored.error.message

    run(tmp_path, sse_server, body, provider={"stall_timeout": 10})


def test_a_stream_silent_for_less_than_the_stall_timeout_completes(tmp_path, sse_server):
    sse_server.enqueue(
        sse_response(
            chat_chunk(content="Slow "),
            Sleep(2),
            chat_chunk(content="but sure."),
            chat_chunk(finish_reason="stop"),
            DONE,
        )
    )

    async def body(h: Harness) -> None:
        result = await h.chat.send(None, "hi", MODEL)
        await h.wait_finished()
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.COMPLETE
        assert stored.text == "Slow but sure."

    run(tmp_path, sse_server, body, provider={"stall_timeout": 10})
