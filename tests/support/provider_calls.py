"""Driving a provider against the loopback server from a plain (non-Qt) test: the one
harness every provider test uses.

Each call gets a fresh event loop and its own httpx client; the outer ceiling turns a
hang into a failure instead of a stuck test run, and is never a time budget.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx

from desktop.core.events import StreamEvent, TextDelta
from desktop.providers.base import ChatProvider, ChatRequest
from tests.support.sse_server import SSEServer
from tests.support.waiting import CEILING_S

T = TypeVar("T")
P = TypeVar("P", bound=ChatProvider)
WAIT = CEILING_S  # the longest a test waits for something that should happen promptly

ProviderFactory = Callable[..., P]


def run(coro: Awaitable[T]) -> T:
    async def guarded() -> T:
        return await asyncio.wait_for(coro, CEILING_S)

    return asyncio.run(guarded())


def call(
    factory: ProviderFactory[P],
    base_url: str,
    action: Callable[[P], Awaitable[T]],
    **options: Any,
) -> T:
    """`action(provider)` with `provider = factory(client, base_url, **options)`."""

    async def main() -> T:
        async with httpx.AsyncClient(trust_env=False) as client:
            return await action(factory(client, base_url, **options))

    return run(main())


def stream(
    factory: ProviderFactory[P],
    base_url: str,
    request: ChatRequest,
    received: list[StreamEvent] | None = None,
    **options: Any,
) -> list[StreamEvent]:
    """Every event of one stream; pass `received` to see what came before an exception."""
    events = received if received is not None else []

    async def consume(provider: P) -> list[StreamEvent]:
        async for event in provider.stream(request):
            events.append(event)
        return events

    return call(factory, base_url, consume, **options)


async def client_went_away(server: SSEServer) -> bool:
    """Wait, off the loop, until the server sees the last connection closed. Call it while
    the httpx client is still open, so it proves the provider closed the response."""
    return await asyncio.to_thread(server.requests[-1].client_gone.wait, WAIT)


def text_of(events: list[StreamEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


@dataclass(frozen=True)
class Harness:
    """`call` and `stream` bound to one protocol's adapter and test server address, so a
    test module says `stream(sse_server)` and gets every event of its default request."""

    make: ProviderFactory[Any]
    url: Callable[[SSEServer], str]
    request: ChatRequest | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def call(
        self,
        server: SSEServer,
        action: Callable[[Any], Awaitable[T]],
        *,
        base_url: str | None = None,
        **options: Any,
    ) -> T:
        """`action(adapter)` for an adapter of `server` (or of `base_url`)."""
        merged = {**self.options, **options}
        return call(self.make, base_url or self.url(server), action, **merged)

    def stream(
        self,
        server: SSEServer,
        request: ChatRequest | None = None,
        received: list[StreamEvent] | None = None,
        *,
        base_url: str | None = None,
        **options: Any,
    ) -> list[StreamEvent]:
        """Every event of one stream; pass `received` to see what came before an error."""
        chosen = request or self.request
        assert chosen is not None, "no request given and no default"
        merged = {**self.options, **options}
        return stream(self.make, base_url or self.url(server), chosen, received, **merged)


def server_root(server: SSEServer) -> str:
    return server.url


def server_v1(server: SSEServer) -> str:
    return server.base_url
