"""The Anthropic wire rules that need no network: model families, token limits, how
turns are laid out, and the translator's handling of unusual streams."""

from __future__ import annotations

import json
from typing import Any

import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.errors import StreamBrokenError
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
)
from desktop.core.models import Role
from desktop.providers.anthropic.adapter import api_root, merge_headers
from desktop.providers.anthropic.models import (
    ClaudeFamily,
    Sampling,
    Thinking,
    claude_family,
    plan_tokens,
)
from desktop.providers.anthropic.request import (
    BLOCKS_PREFIX,
    MISSING_RESULT,
    build_body,
    build_messages,
    thinking_blocks,
)
from desktop.providers.anthropic.stream import StreamTranslator
from desktop.providers.base import ChatRequest, RequestMessage, ToolCall, ToolResult
from desktop.providers.sse import SSEDecoder
from tests.support.anthropic_wire import (
    block_delta,
    block_start,
    block_stop,
    message_delta,
    redacted_block,
    text_block,
    thinking_block,
    tool_block,
)

HI = RequestMessage(Role.USER, "Hi")


def translate(*raw: bytes | list[bytes]) -> list[StreamEvent]:
    """Bytes through the real SSE decoder and the translator."""
    decoder = SSEDecoder()
    translator = StreamTranslator()
    events: list[StreamEvent] = []
    for item in raw:
        for chunk in [item] if isinstance(item, bytes) else item:
            for sse in decoder.feed(chunk):
                events += translator.feed(sse)
    return events


# --- model families ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("claude-3-haiku-20240307", ClaudeFamily(max_output=4096)),
        ("claude-3-opus-latest", ClaudeFamily(max_output=4096)),
        ("claude-3-5-sonnet-20241022", ClaudeFamily(max_output=8192)),
        ("claude-3-5-haiku-latest", ClaudeFamily(max_output=8192)),
        ("claude-3-7-sonnet-20250219", ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 64000)),
        ("anthropic/claude-3.7-sonnet", ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 64000)),
        ("claude-sonnet-4-20250514", ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 64000)),
        ("claude-sonnet-4@20250514", ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 64000)),
        (
            "us.anthropic.claude-opus-4-20250514-v1:0",
            ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 32000),
        ),
        ("claude-opus-4-0", ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 32000)),
        ("claude-opus-4-1-20250805", ClaudeFamily(Thinking.BUDGET, Sampling.ONE, 32000)),
        ("claude-sonnet-4-5", ClaudeFamily(Thinking.BUDGET, Sampling.ONE, 64000)),
        ("claude-haiku-4-5-20251001", ClaudeFamily(Thinking.BUDGET, Sampling.ONE, 64000)),
        ("anthropic/claude-haiku-4.5", ClaudeFamily(Thinking.BUDGET, Sampling.ONE, 64000)),
        ("claude-opus-4-5-20251101", ClaudeFamily(Thinking.BUDGET, Sampling.ONE, 64000)),
        ("claude-opus-4-6", ClaudeFamily(Thinking.ADAPTIVE, Sampling.ONE, 128000)),
        ("claude-sonnet-4-6", ClaudeFamily(Thinking.ADAPTIVE, Sampling.ONE, 64000)),
        ("claude-opus-4-7", ClaudeFamily(Thinking.ADAPTIVE, Sampling.NONE, 128000)),
        ("claude-fable-5", ClaudeFamily(Thinking.ADAPTIVE, Sampling.NONE, 64000)),
        ("deepseek-chat", ClaudeFamily()),
        ("claude-mythos-preview", ClaudeFamily()),
    ],
)
def test_claude_family(model: str, family: ClaudeFamily) -> None:
    assert claude_family(model) == family


# --- max_tokens and thinking ------------------------------------------------------------


def plan(model: str, effort: ReasoningEffort | None, max_output: int | None = None) -> Any:
    request = ChatRequest(
        model=model, messages=(HI,), reasoning_effort=effort, max_output_tokens=max_output
    )
    return plan_tokens(request, claude_family(model))


@pytest.mark.parametrize(
    ("effort", "budget", "max_tokens"),
    [
        (ReasoningEffort.LOW, 2048, 10240),
        (ReasoningEffort.MEDIUM, 8192, 16384),
        (ReasoningEffort.HIGH, 16384, 24576),
        (ReasoningEffort.MAX, 32000, 40192),
    ],
)
def test_budget_per_effort(effort: ReasoningEffort, budget: int, max_tokens: int) -> None:
    result = plan("claude-sonnet-4-5", effort)
    assert result.thinking == {"type": "enabled", "budget_tokens": budget}
    assert result.max_tokens == max_tokens


@pytest.mark.parametrize("effort", [None, ReasoningEffort.OFF])
def test_no_thinking_when_off(effort: ReasoningEffort | None) -> None:
    result = plan("claude-sonnet-4-5", effort)
    assert (result.max_tokens, result.thinking, result.effort) == (8192, None, None)


def test_the_persons_limit_bounds_the_budget() -> None:
    result = plan("claude-sonnet-4-5", ReasoningEffort.HIGH, max_output=4096)
    assert result.max_tokens == 4096
    assert result.thinking == {"type": "enabled", "budget_tokens": 3072}


def test_too_small_a_limit_leaves_no_room_to_think() -> None:
    result = plan("claude-sonnet-4-5", ReasoningEffort.LOW, max_output=2000)
    assert (result.max_tokens, result.thinking) == (2000, None)


def test_the_limit_is_clamped_to_what_the_model_accepts() -> None:
    assert plan("claude-3-5-haiku-latest", None, max_output=100_000).max_tokens == 8192
    assert plan("some-gateway-model", None, max_output=100_000).max_tokens == 100_000


@pytest.mark.parametrize("effort", ["low", "medium", "high", "max"])
def test_adaptive_effort_is_named(effort: str) -> None:
    result = plan("claude-opus-4-7", ReasoningEffort(effort))
    assert result.thinking == {"type": "adaptive", "display": "summarized"}
    assert result.effort == effort


@pytest.mark.parametrize(
    ("model", "thinking", "sampling"),
    [
        ("claude-3-7-sonnet-latest", None, {"temperature": 0.2, "top_p": 0.8}),
        ("claude-sonnet-4-5", None, {"temperature": 0.2}),  # one of them: temperature wins
        ("claude-opus-4-7", None, {}),  # accepts neither
        ("claude-3-7-sonnet-latest", ReasoningEffort.LOW, {}),  # thinking forbids them
    ],
)
def test_sampling_parameters(
    model: str, thinking: ReasoningEffort | None, sampling: dict[str, float]
) -> None:
    request = ChatRequest(
        model=model, messages=(HI,), temperature=0.2, top_p=0.8, reasoning_effort=thinking
    )
    body = build_body(request, stream=True)
    assert {k: body[k] for k in ("temperature", "top_p") if k in body} == sampling


def test_top_p_alone_is_kept_where_only_one_is_allowed() -> None:
    request = ChatRequest(model="claude-sonnet-4-5", messages=(HI,), top_p=0.7)
    assert build_body(request, stream=False)["top_p"] == 0.7


# --- turn layout ------------------------------------------------------------------------


def test_consecutive_turns_merge_and_empty_ones_vanish() -> None:
    messages = (
        RequestMessage(Role.USER, "one"),
        RequestMessage(Role.USER, "   "),
        RequestMessage(Role.USER, "two"),
        RequestMessage(Role.ASSISTANT, ""),
        RequestMessage(Role.ASSISTANT, "reply"),
    )
    assert build_messages(messages) == [
        {
            "role": "user",
            "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "reply"}]},
    ]


def test_a_final_assistant_turn_is_a_prefill_without_trailing_space() -> None:
    messages = (HI, RequestMessage(Role.ASSISTANT, "Once upon a time \n"))
    assert build_messages(messages)[-1]["content"] == [{"type": "text", "text": "Once upon a time"}]


def test_tool_results_come_first_in_the_following_user_turn() -> None:
    step = RequestMessage(
        Role.ASSISTANT,
        "",
        tool_calls=(ToolCall("call.1/x", "f", '{"a": 1}'), ToolCall("c2", "g", "not json")),
        tool_results=(
            ToolResult("orphan", "h", "no call made this"),
            ToolResult("call.1/x", "f", ""),
        ),
    )
    turns = build_messages((HI, step, RequestMessage(Role.USER, "and then?")))
    assert turns[1] == {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "call_1_x", "name": "f", "input": {"a": 1}},
            {"type": "tool_use", "id": "c2", "name": "g", "input": {}},
        ],
    }
    assert turns[2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "call_1_x"},
            {
                "type": "tool_result",
                "tool_use_id": "c2",
                "content": MISSING_RESULT,
                "is_error": True,
            },
            {"type": "text", "text": "and then?"},
        ],
    }


def test_thinking_goes_back_only_for_the_turn_in_progress() -> None:
    def step(signature: str) -> RequestMessage:
        return RequestMessage(
            Role.ASSISTANT,
            "",
            reasoning=f"thought {signature}",
            reasoning_signature=signature,
            tool_calls=(ToolCall(f"id_{signature}", "f", "{}"),),
            tool_results=(ToolResult(f"id_{signature}", "f", "ok"),),
        )

    turns = build_messages(
        (HI, step("old"), RequestMessage(Role.USER, "more"), step("a"), step("b"))
    )
    assistant = [t["content"][0] for t in turns if t["role"] == "assistant"]
    assert assistant == [
        {"type": "tool_use", "id": "id_old", "name": "f", "input": {}},
        {"type": "thinking", "thinking": "thought a", "signature": "a"},
        {"type": "thinking", "thinking": "thought b", "signature": "b"},
    ]


def test_thinking_blocks_from_a_signature() -> None:
    assert thinking_blocks("text", None) == []
    assert thinking_blocks(None, "sig") == [
        {"type": "thinking", "thinking": "", "signature": "sig"}
    ]
    stored = [{"type": "redacted_thinking", "data": "xyz"}, {"type": "text", "text": "dropped"}]
    assert thinking_blocks("ignored", BLOCKS_PREFIX + json.dumps(stored)) == stored[:1]
    assert thinking_blocks("t", BLOCKS_PREFIX + "{broken") == []
    assert thinking_blocks("t", BLOCKS_PREFIX + '{"type": "thinking"}') == []


# --- the translator ---------------------------------------------------------------------


def test_tool_call_index_counts_tool_blocks_only() -> None:
    events = translate(
        text_block(0, "a"),
        thinking_block(1, "b", signature="s"),
        tool_block(2, "t1", "f", '{"x"', ": 1}"),
        text_block(3, "c"),
        tool_block(4, "t2", "g", "{}"),
    )
    assert [(e.index, e.call_id, e.arguments) for e in events if isinstance(e, ToolCallDelta)] == [
        (0, "t1", ""),
        (0, None, '{"x"'),
        (0, None, ": 1}"),
        (1, "t2", ""),
        (1, None, "{}"),
    ]


def test_two_thinking_blocks_are_separated_and_kept_together() -> None:
    events = translate(
        thinking_block(0, "first", signature="s1"),
        redacted_block(1, "opaque"),
        thinking_block(2, "second", signature="s2"),
    )
    assert [e for e in events if isinstance(e, ReasoningDelta)] == [
        ReasoningDelta("first"),
        ReasoningDelta("\n\n"),
        ReasoningDelta("second"),
    ]
    signatures = [e.signature for e in events if isinstance(e, ReasoningSignature)]
    assert signatures[0] == "s1"
    assert json.loads(signatures[-1].removeprefix(BLOCKS_PREFIX)) == [
        {"type": "thinking", "thinking": "first", "signature": "s1"},
        {"type": "redacted_thinking", "data": "opaque"},
        {"type": "thinking", "thinking": "second", "signature": "s2"},
    ]


def test_unsigned_thinking_has_no_signature() -> None:
    events = translate(
        block_start(0, {"type": "thinking", "thinking": ""}),
        block_delta(0, {"type": "thinking_delta", "thinking": "musing"}),
        block_stop(0),
    )
    assert events == [ReasoningDelta("musing")]


def test_deltas_for_a_block_never_announced_are_still_read() -> None:
    events = translate(
        block_delta(5, {"type": "text_delta", "text": "orphan text"}),
        block_delta(6, {"type": "input_json_delta", "partial_json": '{"k": 2}'}),
        block_delta(6, {"type": "citations_delta", "citation": {}}),
    )
    assert events == [TextDelta("orphan text"), ToolCallDelta(0, arguments='{"k": 2}')]


def test_stop_reason_and_completeness() -> None:
    translator = StreamTranslator()
    assert not translator.complete
    for sse in SSEDecoder().feed(message_delta("max_tokens", 3)):
        translator.feed(sse)
    assert translator.complete and not translator.done
    assert translator.finish()[-1] == Finished("max_tokens")


def test_non_object_event_is_malformed() -> None:
    with pytest.raises(StreamBrokenError, match="not an object"):
        translate(b"event: ping\ndata: [1, 2]\n\n")


# --- addresses and headers --------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "root"),
    [
        ("", "https://api.anthropic.com"),
        ("https://api.anthropic.com", "https://api.anthropic.com"),
        ("https://api.anthropic.com/v1/", "https://api.anthropic.com"),
        ("https://API.example.com/V1/Messages", "https://API.example.com"),
        ("https://api.deepseek.com/anthropic", "https://api.deepseek.com/anthropic"),
    ],
)
def test_api_root(given: str, root: str) -> None:
    assert api_root(given) == root


def test_headers_merge_case_insensitively() -> None:
    merged = merge_headers(
        {"Accept": "text/event-stream", "anthropic-version": "2023-06-01", "x-api-key": "k"},
        {"Anthropic-Version": "2024-01-01", "X-Custom": "1"},
    )
    assert merged == {
        "Accept": "text/event-stream",
        "x-api-key": "k",
        "Anthropic-Version": "2024-01-01",
        "X-Custom": "1",
    }
