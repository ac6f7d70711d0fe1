"""The provider contract: a unified request in, typed stream events out; texts in,
vectors out.

Every wire protocol (one module each) implements `ChatProvider`. The engine builds a
`ChatRequest` (or hands over the texts of a knowledge library) and never sees vendor JSON.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from desktop.core.capabilities import ReasoningEffort, ReportedCapabilities
from desktop.core.errors import ProviderError
from desktop.core.events import StreamEvent
from desktop.core.knowledge import EmbeddingKind
from desktop.core.models import Role, Usage


@dataclass(frozen=True, slots=True)
class ImageInput:
    """An image for a model with vision: raw bytes, encoded by each adapter its own way.
    `width` and `height` (pixels), when known, are what its token estimate goes by."""

    mime: str  # image/png, image/jpeg, image/webp
    data: bytes
    width: int | None = None
    height: int | None = None


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool the model may call: `parameters` is a JSON Schema object."""

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object"})


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A call the model made in an earlier step; `arguments` is its JSON text."""

    call_id: str
    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What a call returned (or why it failed, `is_error`), for the next model step."""

    call_id: str
    name: str
    content: str
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class RequestMessage:
    """One turn as every wire needs it.

    An assistant turn carries the tool calls it made and their results, as they are
    stored (results live on the assistant message's tool parts); each adapter lays them
    out its own way (OpenAI: `tool` messages; Anthropic and Gemini: a user turn of
    results). `reasoning` and `reasoning_signature` go back where a protocol requires.
    """

    role: Role
    text: str
    reasoning: str | None = None
    reasoning_signature: str | None = None
    images: tuple[ImageInput, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """Everything a provider needs for one model step.

    `system` is sent the provider's way (a system message, a top-level field); when the
    model has no system role the engine has already moved it into the first user turn
    (`with_system_as_user`). `extra_headers` and `extra_body` come from the person's
    provider settings and are merged last, over whatever the adapter built.
    """

    model: str
    messages: tuple[RequestMessage, ...]
    system: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    max_output_tokens: int | None = None
    reasoning_effort: ReasoningEffort | None = None
    tools: tuple[ToolSpec, ...] = ()
    extra_headers: Mapping[str, str] = field(default_factory=dict)
    extra_body: Mapping[str, Any] = field(default_factory=dict)


def with_system_as_user(request: ChatRequest) -> ChatRequest:
    """`system` moved into a leading user turn, for models without a system role."""
    if not request.system:
        return request
    note = RequestMessage(role=Role.USER, text=request.system)
    return replace(request, system=None, messages=(note, *request.messages))


def merge_extra_body(body: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """The person's extra JSON over the adapter's body: nested objects merge key by key,
    anything else (including lists) is replaced, and a null removes the key."""
    merged = dict(body)
    for key, value in extra.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = merge_extra_body(merged[key], value)
        else:
            merged[key] = value
    return merged


@dataclass(frozen=True, slots=True)
class Completion:
    """A whole answer from a non-streaming call."""

    text: str
    reasoning: str = ""
    usage: Usage | None = None
    finish_reason: str | None = None


class ProviderHTTPError(ProviderError):
    """The server answered with an HTTP error status.

    `retry_after` is the server's `Retry-After` in seconds when it sent one, so the
    engine's backoff can honour it instead of guessing. `detail` is the server's own
    words, the end of `message`, kept apart so the message can be worded again in any
    language.
    """

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        retryable: bool = False,
        retry_after: float | None = None,
        detail: str = "",
    ):
        super().__init__(message, status_code=status_code, retryable=retryable)
        self.retry_after = retry_after
        self.detail = detail


class ChatProvider(Protocol):
    def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        """Yield events until the answer is complete.

        Raises `ProviderError` (with the server's message) for HTTP errors, and
        `StreamBrokenError` when the stream breaks or stalls after it started.
        Cancellation propagates unchanged and closes the response.
        """
        ...

    async def complete(self, request: ChatRequest) -> Completion:
        """The same request without streaming."""
        ...

    async def list_models(self) -> list[str]:
        """Model ids the endpoint offers, sorted."""
        ...

    async def list_embedding_models(self) -> list[str]:
        """The endpoint's models that turn text into vectors (none where the protocol
        has no embeddings)."""
        ...

    async def describe_models(self, models: Sequence[str]) -> dict[str, ReportedCapabilities]:
        """What the endpoint says about `models` (only those it says something about).

        Endpoints whose model list carries nothing about capabilities return an empty
        dict without asking anything. Raises `ProviderError` when the endpoint cannot be
        asked; an answer about one model that cannot be read just leaves that model out.
        """
        ...

    async def embed(
        self,
        texts: Sequence[str],
        model: str,
        *,
        dimensions: int | None = None,
        kind: EmbeddingKind = EmbeddingKind.DOCUMENT,
    ) -> list[list[float]]:
        """One vector per text, in the order of `texts`, all of one length.

        Any number of texts: they go in batches of at most `EMBED_BATCH_SIZE`, at most
        `EMBED_CONCURRENCY` requests at once (`providers/embeddings.py`); no texts, no
        request. `dimensions` asks the model for shorter vectors and is sent only when
        given; `kind` tells a model that embeds passages and questions apart which this
        is (Gemini). Raises `ProviderError` for HTTP errors, for an answer that is not
        embeddings, and at once for a protocol without embedding models (Anthropic).
        Cancellation stops every request in flight.
        """
        ...
