"""Try a request again when it failed before any answer arrived, and say so.

Connection failures, 408, 409, 429 and 5xx are worth another try; the wait doubles each
time with some jitter (so many windows do not retry in step) and honours the server's
`Retry-After` / `retry-after-ms`. A wait the server asks for beyond `max_wait_s` is not
sat through: the error reaches the person at once, with the server's words. Before each
wait a `Retrying` event goes out, so the message can show "Rate limited — retrying in
4 s". A stream that already yielded something is never retried: the partial answer
stays, and the person decides (Continue).

Every wait lasts at least as long as asked (`deadline.sleep_at_least`): a retry sent
before the server's time is one more request it refuses, and an event loop's timer
can fire a little early.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from http import HTTPStatus
from typing import TypeVar

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.deadline import sleep_at_least
from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import Retrying, StreamEvent
from desktop.core.i18n import tr
from desktop.core.knowledge import EmbeddingKind
from desktop.providers.base import ChatProvider, ChatRequest, Completion, ProviderHTTPError
from desktop.providers.embeddings import Vectors, embed_in_batches

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    max_attempts: int = 3
    base_delay_s: float = 1.0
    max_delay_s: float = 20.0  # our own backoff never waits longer than this
    max_wait_s: float = 60.0  # a server's Retry-After beyond this is not waited for
    jitter: float = 0.2  # +-20 %

    def delay(self, attempt: int, error: ProviderError, rng: Callable[[], float]) -> float | None:
        """Seconds to wait before try `attempt + 1`, or None to give up now."""
        if attempt >= self.max_attempts or not should_retry(error):
            return None
        asked = error.retry_after if isinstance(error, ProviderHTTPError) else None
        if asked is not None:
            return asked if asked <= self.max_wait_s else None
        backoff = min(self.base_delay_s * 2.0 ** (attempt - 1), self.max_delay_s)
        return backoff * (1 + self.jitter * (2 * rng() - 1))


def should_retry(error: ProviderError) -> bool:
    return error.retryable and not isinstance(error, StreamBrokenError)


def retry_reason(error: ProviderError) -> str:
    """A few words for the message status while waiting."""
    status = error.status_code
    if status == HTTPStatus.TOO_MANY_REQUESTS:
        return tr("Rate limited")
    if status == HTTPStatus.REQUEST_TIMEOUT:
        return tr("The server timed out")
    if status == HTTPStatus.CONFLICT:
        return tr("The server reported a conflict")
    if status is not None and status >= HTTPStatus.INTERNAL_SERVER_ERROR:
        return tr("The server had an error")
    return tr("Could not reach the server")


class RetryingProvider:
    """Wraps any `ChatProvider` with the retry policy; the wrapped one never retries."""

    def __init__(
        self,
        inner: ChatProvider,
        policy: RetryPolicy | None = None,
        *,
        sleep: Callable[[float], Awaitable[object]] = sleep_at_least,
        rng: Callable[[], float] = random.random,
    ) -> None:
        self._inner = inner
        self._policy = policy or RetryPolicy()
        self._sleep = sleep
        self._rng = rng

    @property
    def inner(self) -> ChatProvider:
        return self._inner

    async def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        attempt = 1
        while True:
            started = False
            try:
                async with aclosing(self._inner.stream(request)) as events:  # type: ignore[type-var]
                    async for event in events:
                        started = True
                        yield event
                return
            except ProviderError as error:
                delay = None if started else self._policy.delay(attempt, error, self._rng)
                if delay is None:
                    raise
                attempt += 1
                yield Retrying(retry_reason(error), delay, attempt, self._policy.max_attempts)
                await self._sleep(delay)

    async def complete(self, request: ChatRequest) -> Completion:
        return await self._with_retries(lambda: self._inner.complete(request))

    async def list_models(self) -> list[str]:
        return await self._with_retries(self._inner.list_models)

    async def list_embedding_models(self) -> list[str]:
        return await self._with_retries(self._inner.list_embedding_models)

    async def describe_models(self, models: Sequence[str]) -> dict[str, ReportedCapabilities]:
        return await self._with_retries(lambda: self._inner.describe_models(models))

    async def embed(
        self,
        texts: Sequence[str],
        model: str,
        *,
        dimensions: int | None = None,
        kind: EmbeddingKind = EmbeddingKind.DOCUMENT,
    ) -> list[list[float]]:
        """Batched here, each batch tried again on its own: a rate limit met by the
        tenth batch of a library does not send the nine before it again. The wrapped
        provider gets one batch at a time, so each call of it is one request."""
        if not texts:  # the wrapped provider says whether it can embed at all
            return await self._inner.embed(texts, model, dimensions=dimensions, kind=kind)

        async def send(batch: list[str]) -> Vectors:
            return await self._with_retries(
                lambda: self._inner.embed(batch, model, dimensions=dimensions, kind=kind)
            )

        return await embed_in_batches(texts, send)

    async def _with_retries(self, call: Callable[[], Awaitable[T]]) -> T:
        attempt = 1
        while True:
            try:
                return await call()
            except ProviderError as error:
                delay = self._policy.delay(attempt, error, self._rng)
                if delay is None:
                    raise
                attempt += 1
                await self._sleep(delay)
