"""Driving a provider against the loopback server from a plain (non-Qt) test.

Each call gets a fresh event loop and its own httpx client; the outer timeout turns a
hang into a failure instead of a stuck test run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx

from desktop.core.events import StreamEvent
from desktop.providers.base import ChatProvider, ChatRequest
from tests.support.sse_server import SSEServer

T = TypeVar("T")
P = TypeVar("P", bound=ChatProvider)
WAIT = 10.0  # generous: only for things that should happen promptly

ProviderFactory = Callable[..., P]


def run(coro: Awaitable[T]) -> T:
    async def guarded() -> T:
        return await asyncio.wait_for(coro, 30)

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
