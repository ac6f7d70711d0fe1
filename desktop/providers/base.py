"""The provider contract: a unified request in, typed stream events out.

Every wire protocol (one module each) implements `ChatProvider`. The engine builds a
`ChatRequest` and never sees vendor JSON.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Protocol

from desktop.core.errors import ProviderError
from desktop.core.events import StreamEvent
from desktop.core.models import Role, Usage


@dataclass(frozen=True, slots=True)
class RequestMessage:
    role: Role
    text: str
    reasoning: str | None = None  # sent back where a protocol requires it


@dataclass(frozen=True, slots=True)
class ChatRequest:
    model: str
    messages: tuple[RequestMessage, ...]
    temperature: float | None = None
    top_p: float | None = None
    max_output_tokens: int | None = None


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
    engine's backoff can honour it instead of guessing.
    """

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        retryable: bool = False,
        retry_after: float | None = None,
    ):
        super().__init__(message, status_code=status_code, retryable=retryable)
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a model can do. The UI and engine check these flags, never provider classes."""

    supports_vision: bool = False
    supports_tools: bool = False
    supports_system_role: bool = True
    reasoning_efforts: tuple[str, ...] = field(default_factory=tuple)
    context_length: int | None = None


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
