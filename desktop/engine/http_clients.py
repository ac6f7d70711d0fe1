"""The application's httpx client, rebuilt when the network settings change.

A client fixes its proxy and trusted certificates when it is made, so new network
settings need a new client. Answers already streaming keep the client they started
with: each provider handed out holds a lease on its client, and a replaced client is
closed when its last lease ends (or at quit), never under a running request.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import aclosing
from dataclasses import replace
from typing import TypeVar

import httpx

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.errors import SettingsError
from desktop.core.events import StreamEvent
from desktop.core.knowledge import EmbeddingKind
from desktop.core.settings import NetworkSettings
from desktop.providers.base import ChatProvider, ChatRequest, Completion
from desktop.providers.http_client import make_client

log = logging.getLogger(__name__)

T = TypeVar("T")
ClientFactory = Callable[[NetworkSettings], httpx.AsyncClient]


class HttpClients:
    """The current client for the network settings, and the replaced ones still in use.

    Built with a bad CA bundle the client falls back to the system's certificates
    alone (trusting less, never more) and `error` says why, so Parley still starts.
    """

    def __init__(self, network: NetworkSettings, factory: ClientFactory = make_client) -> None:
        self._factory = factory
        self._network = network
        self.error: SettingsError | None = None
        try:
            self._current = factory(network)
        except SettingsError as error:
            log.warning("network settings unusable, using the system certificates: %s", error)
            self.error = error
            self._current = factory(replace(network, ca_bundle=""))
        self._leases: dict[httpx.AsyncClient, int] = {}
        self._retired: set[httpx.AsyncClient] = set()
        self._closing: set[asyncio.Task[None]] = set()

    @property
    def current(self) -> httpx.AsyncClient:
        return self._current

    @property
    def network(self) -> NetworkSettings:
        return self._network

    def reconfigure(self, network: NetworkSettings) -> None:
        """Use a new client for `network`; raises SettingsError (and keeps the old client)
        if it cannot be built. The old client closes once nothing uses it."""
        if network == self._network:
            if self.error is None:
                return
            try:  # the same settings that failed at start-up: maybe the file is back
                client = self._factory(network)
            except SettingsError:
                return  # still the same problem, already reported; not this save's fault
        else:
            client = self._factory(network)
        old, self._current = self._current, client
        self._network, self.error = network, None
        self._retired.add(old)
        if not self._leases.get(old):
            self._close_soon(old)

    def lease(self, provider: ChatProvider, client: httpx.AsyncClient) -> ChatProvider:
        """`provider` (built on `client`), holding the client open while it works."""
        return _LeasedProvider(provider, client, self)

    async def aclose(self) -> None:
        """At quit: close every client, in use or not (generations were stopped first)."""
        for task in list(self._closing):
            await task
        for client in (*self._retired, self._current):
            await client.aclose()
        self._retired.clear()
        self._leases.clear()

    def _acquire(self, client: httpx.AsyncClient) -> None:
        self._leases[client] = self._leases.get(client, 0) + 1

    def _release(self, client: httpx.AsyncClient) -> None:
        left = self._leases.get(client, 0) - 1
        if left > 0:
            self._leases[client] = left
            return
        self._leases.pop(client, None)
        if client in self._retired:
            self._close_soon(client)

    def _close_soon(self, client: httpx.AsyncClient) -> None:
        """Close a replaced client on the loop; without a running loop, at quit."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._retired.discard(client)
        task = loop.create_task(client.aclose(), name="close-http-client")
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)


class _LeasedProvider:
    """A provider whose every call keeps its client from being closed under it."""

    def __init__(self, inner: ChatProvider, client: httpx.AsyncClient, owner: HttpClients):
        self._inner = inner
        self._client = client
        self._owner = owner

    @property
    def inner(self) -> ChatProvider:
        return self._inner

    async def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        self._owner._acquire(self._client)
        try:
            async with aclosing(self._inner.stream(request)) as events:  # type: ignore[type-var]
                async for event in events:
                    yield event
        finally:
            self._owner._release(self._client)

    async def complete(self, request: ChatRequest) -> Completion:
        return await self._leased(lambda: self._inner.complete(request))

    async def list_models(self) -> list[str]:
        return await self._leased(self._inner.list_models)

    async def list_embedding_models(self) -> list[str]:
        return await self._leased(self._inner.list_embedding_models)

    async def describe_models(self, models: Sequence[str]) -> dict[str, ReportedCapabilities]:
        return await self._leased(lambda: self._inner.describe_models(models))

    async def embed(
        self,
        texts: Sequence[str],
        model: str,
        *,
        dimensions: int | None = None,
        kind: EmbeddingKind = EmbeddingKind.DOCUMENT,
    ) -> list[list[float]]:
        return await self._leased(
            lambda: self._inner.embed(texts, model, dimensions=dimensions, kind=kind)
        )

    async def _leased(self, call: Callable[[], Awaitable[T]]) -> T:
        self._owner._acquire(self._client)
        try:
            return await call()
        finally:
            self._owner._release(self._client)
