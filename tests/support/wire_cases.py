"""The five wire protocols described alike, for the adapter contract suite.

Each `WireCase` says how its protocol's test server writes the pieces every answer is
made of (text, the end of an answer, a malformed event, an error inside the stream, an
HTTP error body, a whole JSON answer), byte for byte as the real service does, using
the builders in `sse_server`, `anthropic_wire`, `gemini_wire`, `ollama_wire` and
`responses_wire`. The contract tests then script every fault once, for all five.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.models import Usage
from desktop.core.settings import ProviderKind
from desktop.providers.adapter import WireSpec
from desktop.providers.anthropic.adapter import AnthropicSpec
from desktop.providers.gemini.adapter import GeminiSpec
from desktop.providers.ollama.adapter import OllamaSpec
from desktop.providers.openai_chat.adapter import OpenAIChatSpec
from desktop.providers.openai_responses.adapter import OpenAIResponsesSpec
from tests.support import anthropic_wire as a
from tests.support import gemini_wire as g
from tests.support import ollama_wire as o
from tests.support import responses_wire as r
from tests.support.adapters import AdapterFactory, factory
from tests.support.sse_server import (
    DONE,
    SSEServer,
    Step,
    chat_chunk,
    completion_body,
    error_response,
    sse_data,
    sse_response,
    usage_chunk,
)

Headers = Mapping[str, str] | None


class AnySignature:
    """Equal to any `ReasoningSignature`: an opaque value the test need not spell out."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ReasoningSignature)

    def __hash__(self) -> int:  # pragma: no cover - never hashed
        return 0


@dataclass(frozen=True)
class WireCase:
    id: str
    kind: ProviderKind
    spec: type[WireSpec]
    model: str
    v1: bool  # the base URL is the server's /v1 (the OpenAI kinds) or its root
    api_path: str  # what the adapter's base URL adds to the server's root
    chat_path: str  # where a streamed model step is posted (without the query)
    content_type: str  # of a streamed answer
    web_page_hint: str  # a regex the "web page instead of the API" error contains
    respond: Callable[..., list[Step]]  # a streamed response of these pieces
    text: Callable[[str], bytes]  # one piece of the answer's text
    finish: tuple[bytes, ...]  # what makes the answer complete
    closing: tuple[StreamEvent, ...]  # the events `finish` (and `tail`) give
    malformed: bytes  # an event that is not JSON
    malformed_unit: str  # what the error calls an event: "chunk", "event" or "line"
    in_stream_error: Callable[[str], bytes]  # an error reported inside a 200 stream
    error: Callable[[int, str, Headers], list[Step]]  # the vendor's HTTP error response
    whole: Any  # a whole JSON answer to a streamed request
    whole_events: tuple[Any, ...]  # what it is read as
    start: tuple[bytes, ...] = ()  # what comes before the first text
    tail: tuple[bytes, ...] = ()  # what follows `finish` in a well-formed answer
    stops_at_end: bool = True  # stops reading once the wire says the answer is over

    @property
    def make(self) -> AdapterFactory:
        return factory(self.spec)

    def url(self, server: SSEServer) -> str:
        return server.base_url if self.v1 else server.url

    def answer(self, *texts: str) -> list[bytes]:
        """A whole, well-formed streamed answer of `texts`."""
        return [*self.start, *(self.text(t) for t in texts), *self.finish, *self.tail]

    def __str__(self) -> str:
        return self.id


# --- OpenAI Chat Completions ------------------------------------------------------------

OPENAI_CHAT = WireCase(
    id="openai_chat",
    kind=ProviderKind.OPENAI_CHAT,
    spec=OpenAIChatSpec,
    model="test-model",
    v1=True,
    api_path="/v1",
    chat_path="/v1/chat/completions",
    content_type="text/event-stream",
    web_page_hint=r"check the base URL \(it usually ends in /v1\)",
    respond=sse_response,
    text=lambda piece: chat_chunk(content=piece),
    finish=(chat_chunk(finish_reason="stop"), usage_chunk(3, 2)),
    closing=(UsageReport(Usage(3, 2, 0)), Finished("stop")),
    tail=(DONE,),
    malformed=b'data: {"choices": [\n\n',
    malformed_unit="chunk",
    in_stream_error=lambda message: sse_data({"error": {"message": message, "code": 502}}),
    error=lambda status, message, headers: error_response(status, message, headers=headers),
    whole=completion_body("Whole answer", reasoning="Because."),
    whole_events=(
        ReasoningDelta("Because."),
        TextDelta("Whole answer"),
        UsageReport(Usage(5, 5, 0)),
        Finished("stop"),
    ),
)

# --- OpenAI Responses -------------------------------------------------------------------

ENCRYPTED = "gAAAAABo-opaque-encrypted-reasoning=="

OPENAI_RESPONSES = WireCase(
    id="openai_responses",
    kind=ProviderKind.OPENAI_RESPONSES,
    spec=OpenAIResponsesSpec,
    model="gpt-4.1",
    v1=True,
    api_path="/v1",
    chat_path="/v1/responses",
    content_type="text/event-stream",
    web_page_hint=r"api\.openai\.com/v1",
    respond=sse_response,
    text=lambda piece: r.ResponsesWire().text(piece),
    finish=(r.ResponsesWire().completed(r.usage(3, 2)),),
    closing=(UsageReport(Usage(3, 2, 0)), Finished("completed")),
    malformed=b'event: response.output_text.delta\ndata: {"delta": [\n\n',
    malformed_unit="event",
    in_stream_error=lambda message: r.ResponsesWire().error("server_is_overloaded", message),
    error=lambda status, message, headers: error_response(status, message, headers=headers),
    whole=r.response_object(
        "completed",
        [
            r.reasoning_item("rs_1", ("Short thought.",), ENCRYPTED),
            r.message_item("Whole answer"),
            r.function_call_item("call_1", "f", '{"a":1}'),
        ],
        r.usage(3, 4),
    ),
    whole_events=(
        ReasoningDelta("Short thought."),
        TextDelta("Whole answer"),
        AnySignature(),
        ToolCallDelta(0, "call_1", "f", '{"a":1}'),
        UsageReport(Usage(3, 4, 0)),
        Finished("completed"),
    ),
)

# --- Anthropic Messages -----------------------------------------------------------------

_ANTHROPIC_ERROR_TYPES = {
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
}

ANTHROPIC = WireCase(
    id="anthropic",
    kind=ProviderKind.ANTHROPIC,
    spec=AnthropicSpec,
    model=a.MODEL,
    v1=False,
    api_path="",
    chat_path="/v1/messages",
    content_type="text/event-stream",
    web_page_hint=r"api\.anthropic\.com",
    respond=sse_response,
    start=(a.message_start(), a.block_start(0, {"type": "text", "text": ""})),
    text=lambda piece: a.block_delta(0, {"type": "text_delta", "text": piece}),
    finish=(a.block_stop(0), a.message_delta()),
    closing=(UsageReport(Usage(10, 5)), Finished("end_turn")),
    tail=(a.MESSAGE_STOP,),
    malformed=b'event: content_block_delta\ndata: {"type": "content_block_delta", "ind\n\n',
    malformed_unit="event",
    in_stream_error=lambda message: a.error_event("api_error", message),
    error=lambda status, message, headers: a.error_body(
        status, _ANTHROPIC_ERROR_TYPES.get(status, "api_error"), message, headers=headers
    ),
    whole=a.message_body(
        [
            {"type": "thinking", "thinking": "Hmm.", "signature": "sig-J"},
            {"type": "text", "text": "Whole answer"},
            {"type": "tool_use", "id": "toolu_J", "name": "f", "input": {"a": 1}},
        ],
        stop_reason="tool_use",
        input_tokens=4,
        output_tokens=9,
    ),
    whole_events=(
        ReasoningDelta("Hmm."),
        TextDelta("Whole answer"),
        ToolCallDelta(0, call_id="toolu_J", name="f", arguments='{"a": 1}'),
        ReasoningSignature("sig-J"),
        UsageReport(Usage(4, 9)),
        Finished("tool_use"),
    ),
)

# --- Gemini -----------------------------------------------------------------------------

_GOOGLE_STATUSES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    503: "UNAVAILABLE",
}

GEMINI = WireCase(
    id="gemini",
    kind=ProviderKind.GEMINI,
    spec=GeminiSpec,
    model=g.MODEL,
    v1=False,
    api_path="/v1beta",
    chat_path="/v1beta/models/gemini-2.5-flash:streamGenerateContent",
    content_type="text/event-stream",
    web_page_hint=r"generativelanguage",
    respond=g.stream_response,
    text=lambda piece: g.chunk(g.text(piece)),
    finish=(g.chunk(g.text(""), finish_reason="STOP", usage_metadata=g.usage(3, 2)),),
    closing=(UsageReport(Usage(3, 2, 0)), Finished("STOP")),
    malformed=b'data: {"candidates": [\r\n\r\n',
    malformed_unit="chunk",
    in_stream_error=lambda message: g.event(
        {"error": {"code": 503, "message": message, "status": "UNAVAILABLE"}}
    ),
    error=lambda status, message, headers: g.error_response(
        status, message, _GOOGLE_STATUSES.get(status, "UNKNOWN"), headers=headers
    ),
    # A proxy that drops `alt=sse` gets the streamed chunks as one JSON list.
    whole=[
        g.response_body(g.text("Whole ")),
        g.response_body(g.text("answer"), finish_reason="STOP", usage_metadata=g.usage(2, 2)),
    ],
    whole_events=(
        TextDelta("Whole "),
        TextDelta("answer"),
        UsageReport(Usage(2, 2, 0)),
        Finished("STOP"),
    ),
    # The finish reason may come before the last usage: Gemini's stream is read to its end.
    stops_at_end=False,
)

# --- Ollama -----------------------------------------------------------------------------


def _ollama_whole() -> dict[str, Any]:
    body = o.done_body("stop", 4, 2)
    body["message"] = {"role": "assistant", "content": "Whole answer", "thinking": "Hm."}
    return body


OLLAMA = WireCase(
    id="ollama",
    kind=ProviderKind.OLLAMA,
    spec=OllamaSpec,
    model=o.MODEL,
    v1=False,
    api_path="",
    chat_path="/api/chat",
    content_type="application/x-ndjson",
    web_page_hint=r"11434",
    respond=o.ndjson_response,
    text=lambda piece: o.line(piece),
    finish=(o.done("stop", 4, 2),),
    closing=(UsageReport(Usage(4, 2, 0)), Finished("stop")),
    malformed=b'{"message": {"content": \n',
    malformed_unit="line",
    in_stream_error=o.error_line,
    error=lambda status, message, headers: o.error_response(status, message, headers=headers),
    whole=_ollama_whole(),
    whole_events=(
        ReasoningDelta("Hm."),
        TextDelta("Whole answer"),
        UsageReport(Usage(4, 2, 0)),
        Finished("stop"),
    ),
)

CASES: tuple[WireCase, ...] = (OPENAI_CHAT, OPENAI_RESPONSES, ANTHROPIC, GEMINI, OLLAMA)
