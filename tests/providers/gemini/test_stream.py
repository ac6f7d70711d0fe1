"""Gemini streams: thoughts and their signatures, whole function calls, finish reasons,
safety stops and blocked prompts."""

from __future__ import annotations

import json
from typing import Any

import pytest

from desktop.core.errors import ProviderError
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.models import Role, Usage
from desktop.providers.base import (
    ChatRequest,
    RequestMessage,
    ToolCall,
)
from desktop.providers.gemini.request import GENERATED_CALL_PREFIX
from desktop.providers.gemini.signatures import stored_signatures
from desktop.providers.gemini.stream import StreamTranslator
from desktop.providers.sse import ServerSentEvent
from tests.support import gemini_wire as g
from tests.support.adapters import gemini_adapter
from tests.support.provider_calls import (
    Harness,
    server_root,
)
from tests.support.sse_server import (
    SSEServer,
)

KEY = "AIzaSy-test-SECRET-0123456789"
MODEL = "gemini-2.5-flash"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
HARNESS = Harness(gemini_adapter, server_root, REQUEST, options={"api_key": KEY})
call = HARNESS.call
stream = HARNESS.stream


def sent_body(server: SSEServer, index: int = 0) -> Any:
    return server.requests[index].json


def done_chunk() -> bytes:
    return g.chunk(g.text(""), finish_reason="STOP", usage_metadata=g.usage(3, 2))


def test_reasoning_with_a_signature_on_the_last_text_part(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.thought("**Planning**\nThe user greets me.")),
            g.chunk(g.thought(" I will greet back.")),
            g.chunk(g.text("Hello there")),
            # Gemini closes with an empty text part that carries the signature.
            g.chunk(
                g.text("", signature="c2lnLXRleHQ="),
                finish_reason="STOP",
                usage_metadata=g.usage(5, 2, thoughts=40),
            ),
        )
    )
    assert stream(sse_server) == [
        ReasoningDelta("**Planning**\nThe user greets me."),
        ReasoningDelta(" I will greet back."),
        TextDelta("Hello there"),
        ReasoningSignature("c2lnLXRleHQ="),
        UsageReport(Usage(input_tokens=5, output_tokens=42, reasoning_tokens=40)),
        Finished("STOP"),
    ]


def test_max_tokens_finish_reason_is_passed_through(sse_server: SSEServer) -> None:
    sse_server.enqueue(g.stream_response(g.chunk(g.text("Cut"), finish_reason="MAX_TOKENS")))
    assert stream(sse_server)[-1] == Finished("MAX_TOKENS")


def test_call_with_an_id_and_no_args(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk({"functionCall": {"name": "now", "id": "fc-1"}}, finish_reason="STOP")
        )
    )
    events = stream(sse_server)
    assert events[0] == ToolCallDelta(index=0, call_id="fc-1", name="now", arguments="{}")


def test_a_step_with_several_signatures_announces_them_all(sse_server: SSEServer) -> None:
    """Each `ReasoningSignature` carries every signature of the step so far, with where
    it came; a plain value is kept for the usual single one."""
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.call("f", {}, signature="c2lnLWE=")),
            g.chunk(g.text("", signature="c2lnLWU="), finish_reason="STOP"),
        )
    )
    signatures = [e.signature for e in stream(sse_server) if isinstance(e, ReasoningSignature)]
    assert signatures[0] == "c2lnLWE="
    assert stored_signatures(signatures[-1]) == [
        {"on": "call", "index": 0, "signature": "c2lnLWE="},
        {"on": "end", "signature": "c2lnLWU="},
    ]
    # Both go back: the second has no free part left, so it comes back as it came.
    request = ChatRequest(
        model=MODEL,
        messages=(
            REQUEST.messages[0],
            RequestMessage(
                Role.ASSISTANT,
                "",
                reasoning_signature=signatures[-1],
                tool_calls=(ToolCall(GENERATED_CALL_PREFIX + "1", "f", "{}"),),
            ),
        ),
    )
    sse_server.enqueue(g.stream_response(done_chunk()))
    stream(sse_server, request)
    assert sent_body(sse_server, 1)["contents"][1]["parts"] == [
        {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "c2lnLWE="},
        {"text": "", "thoughtSignature": "c2lnLWU="},
    ]


def test_in_stream_error_event(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.text("a")),
            g.event(
                g.error_body(503, "The model is overloaded. Please try again later.", "UNAVAILABLE")
            ),
        )
    )
    received: list[StreamEvent] = []
    with pytest.raises(ProviderError, match="The model is overloaded") as info:
        stream(sse_server, received=received)
    assert (info.value.status_code, info.value.retryable) == (503, True)
    assert received == [TextDelta("a")]


def test_safety_stop_keeps_the_text_and_explains(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.text("Here is how")),
            g.chunk(g.text(" to"), finish_reason="SAFETY"),
        )
    )
    received: list[StreamEvent] = []
    with pytest.raises(ProviderError) as info:
        stream(sse_server, received=received)
    assert str(info.value) == (
        "Gemini stopped the answer because it was flagged by Gemini's safety filters (SAFETY)"
    )
    assert not info.value.retryable
    assert received == [TextDelta("Here is how"), TextDelta(" to")]


def test_malformed_function_call_stop_carries_the_finish_message(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk(
                finish_reason="MALFORMED_FUNCTION_CALL",
                finish_message="Malformed function call: print(default_api.x(",
            )
        )
    )
    with pytest.raises(ProviderError, match=r"could not format \(MALFORMED_FUNCTION_CALL\): "):
        stream(sse_server)


def test_blocked_prompt(sse_server: SSEServer) -> None:
    blocked = {
        "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
        "usageMetadata": g.usage(12, 0),
        "modelVersion": MODEL,
    }
    sse_server.enqueue(g.stream_response(g.event(blocked)))
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert str(info.value) == (
        "Gemini refused the prompt because it may contain prohibited content (PROHIBITED_CONTENT)"
    )


def test_arguments_are_json_text_the_engine_can_store() -> None:
    """The delta's arguments parse back to exactly what Gemini sent."""
    payload = g.response_body(g.call("f", {"nested": {"a": [1, 2.5, True]}, "s": "é"}))
    translator = StreamTranslator(call_id=lambda: "fixed")
    (delta,) = translator.feed(ServerSentEvent(json.dumps(payload)))
    assert isinstance(delta, ToolCallDelta)
    assert delta.call_id == "fixed"
    assert json.loads(delta.arguments) == {"nested": {"a": [1, 2.5, True]}, "s": "é"}
