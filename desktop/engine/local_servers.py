"""Model servers already running on this computer, found by asking their default ports.

A newcomer who has Ollama or LM Studio open should not have to know a port number: every
known port is asked at once, each for its model list, and whatever answers like that
server is offered with its models. The probe never goes through a proxy (a proxy cannot
reach this computer's loopback, and a company proxy might log the attempt) and is bounded
by one short deadline, so a port held by something that accepts and never answers costs
no more than the deadline.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from desktop.core.settings import ProviderKind

log = logging.getLogger(__name__)

PROBE_DEADLINE_S = 1.2  # the whole detection, every port at once
CONNECT_TIMEOUT_S = 0.4  # loopback connects in microseconds; a refusal is immediate
HOST = "127.0.0.1"


@dataclass(frozen=True, slots=True)
class LocalServer:
    """A kind of server and where it listens by default."""

    name: str
    kind: ProviderKind
    port: int
    api_path: str  # the base URL's path: "" for Ollama's own API, "/v1" for OpenAI's
    models_path: str  # under the base URL
    preset_id: str = ""

    def base_url(self, host: str = HOST) -> str:
        return f"http://{host}:{self.port}{self.api_path}"


DEFAULT_LOCAL_SERVERS: tuple[LocalServer, ...] = (
    LocalServer("Ollama", ProviderKind.OLLAMA, 11434, "", "/api/tags", "ollama"),
    LocalServer("LM Studio", ProviderKind.OPENAI_CHAT, 1234, "/v1", "/models", "lmstudio"),
    LocalServer("llama.cpp server", ProviderKind.OPENAI_CHAT, 8080, "/v1", "/models"),
    LocalServer("vLLM", ProviderKind.OPENAI_CHAT, 8000, "/v1", "/models"),
)


@dataclass(frozen=True, slots=True)
class FoundServer:
    name: str
    kind: ProviderKind
    base_url: str
    models: tuple[str, ...]
    preset_id: str = ""


async def detect_local_servers(
    servers: Sequence[LocalServer] = DEFAULT_LOCAL_SERVERS,
    *,
    host: str = HOST,
    deadline: float = PROBE_DEADLINE_S,
) -> list[FoundServer]:
    """The servers of `servers` that answer on `host`, in the order given.

    Never raises for a network problem: a port that refuses, hangs or answers something
    else is simply not a server of that kind.
    """
    if not servers:
        return []
    timeout = httpx.Timeout(deadline, connect=min(CONNECT_TIMEOUT_S, deadline))
    # Only plain http:// on this computer is asked, so no certificates are needed; loading
    # them (what verification would do) costs ~25 ms of the window's thread per detection.
    async with httpx.AsyncClient(trust_env=False, verify=False, timeout=timeout) as client:
        probes = [asyncio.ensure_future(_probe(client, server, host)) for server in servers]
        try:
            done, _pending = await asyncio.wait(probes, timeout=deadline)
        finally:
            # Past the deadline, or the detection itself cancelled: no probe outlives it.
            for probe in probes:
                probe.cancel()
            await asyncio.gather(*probes, return_exceptions=True)
    return [found for probe in probes if probe in done and (found := probe.result()) is not None]


async def _probe(client: httpx.AsyncClient, server: LocalServer, host: str) -> FoundServer | None:
    base_url = server.base_url(host)
    try:
        response = await client.get(base_url + server.models_path)
        if response.status_code != httpx.codes.OK:
            return None
        payload = response.json()
    except (httpx.HTTPError, ValueError) as error:
        log.debug("no %s at %s: %s", server.name, base_url, type(error).__name__)
        return None
    models = _model_ids(server.kind, payload)
    if models is None:
        return None
    return FoundServer(server.name, server.kind, base_url, models, server.preset_id)


def _model_ids(kind: ProviderKind, payload: Any) -> tuple[str, ...] | None:
    """The model ids of a model list, or None when `payload` is not one (something else
    listens on that port)."""
    if not isinstance(payload, dict):
        return None
    key, id_keys = (
        ("models", ("name", "model")) if kind is ProviderKind.OLLAMA else ("data", ("id",))
    )
    items = payload.get(key)
    if not isinstance(items, list):
        return None
    ids: list[str] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        model = next((v for k in id_keys if isinstance(v := item.get(k), str) and v), None)
        if model and model not in ids:
            ids.append(model)
    return tuple(sorted(ids))
