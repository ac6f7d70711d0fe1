"""Finding model servers on this computer: real loopback servers on free ports, a port
that refuses, one that accepts and never answers, and one that is not a model server."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator

import pytest

from desktop.core.settings import ProviderKind
from desktop.engine.local_servers import (
    DEFAULT_LOCAL_SERVERS,
    FoundServer,
    LocalServer,
    detect_local_servers,
)
from tests.support.sse_server import Sleep, SSEServer, json_response, raw_response

OLLAMA_TAGS = {
    "models": [
        {"name": "qwen3:8b", "model": "qwen3:8b", "size": 5225388164},
        {"name": "llama3.2:latest", "model": "llama3.2:latest", "size": 2019393189},
        {"model": "gemma3:4b"},  # no "name": the id is in "model"
        {"name": ""},
        "not an object",
    ]
}


def ollama(port: int) -> LocalServer:
    return LocalServer("Ollama", ProviderKind.OLLAMA, port, "", "/api/tags", "ollama")


def openai_compatible(name: str, port: int) -> LocalServer:
    return LocalServer(name, ProviderKind.OPENAI_CHAT, port, "/v1", "/models")


def detect(servers: list[LocalServer], deadline: float = 1.0) -> list[FoundServer]:
    async def run() -> list[FoundServer]:
        # The bound is only there so that a hanging probe fails the test instead of
        # hanging it; the detection's own deadline is what ends the probes.
        return await asyncio.wait_for(detect_local_servers(servers, deadline=deadline), 10)

    return asyncio.run(run())


@pytest.fixture
def closed_port() -> int:
    """A port nothing listens on: connecting is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that completes the TCP handshake (the kernel's backlog) and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield sock.getsockname()[1]


@pytest.fixture
def second_server() -> Iterator[SSEServer]:
    server = SSEServer().start()
    try:
        yield server
    finally:
        server.stop()


def test_the_defaults_are_the_usual_ports_of_each_server():
    ports = {server.name: (server.port, server.base_url()) for server in DEFAULT_LOCAL_SERVERS}
    assert ports == {
        "Ollama": (11434, "http://127.0.0.1:11434"),
        "LM Studio": (1234, "http://127.0.0.1:1234/v1"),
        "llama.cpp server": (8080, "http://127.0.0.1:8080/v1"),
        "vLLM": (8000, "http://127.0.0.1:8000/v1"),
    }


def test_finds_ollama_and_an_openai_compatible_server_with_their_models(
    sse_server, second_server, closed_port
):
    second_server.enqueue(json_response(OLLAMA_TAGS))
    servers = [
        openai_compatible("LM Studio", closed_port),
        ollama(second_server.port),
        openai_compatible("vLLM", sse_server.port),
    ]

    found = detect(servers)

    assert found == [
        FoundServer(
            "Ollama",
            ProviderKind.OLLAMA,
            f"http://127.0.0.1:{second_server.port}",
            ("gemma3:4b", "llama3.2:latest", "qwen3:8b"),
            "ollama",
        ),
        FoundServer(
            "vLLM",
            ProviderKind.OPENAI_CHAT,
            f"http://127.0.0.1:{sse_server.port}/v1",
            ("test-model", "test-model-mini"),
        ),
    ]
    assert [r.path for r in second_server.requests] == ["/api/tags"]
    assert [r.path for r in sse_server.requests] == ["/v1/models"]
    assert sse_server.requests[0].method == "GET"


def test_a_port_that_never_answers_does_not_hold_up_the_others(sse_server, silent_port):
    stalled = SSEServer().start()  # reads the request, then says nothing
    stalled.enqueue(Sleep(30))
    try:
        servers = [
            openai_compatible("llama.cpp server", silent_port),
            openai_compatible("vLLM", stalled.port),
            openai_compatible("LM Studio", sse_server.port),
        ]
        found = detect(servers, deadline=0.4)
    finally:
        stalled.stop()
    assert [server.name for server in found] == ["LM Studio"]


def test_something_else_on_the_port_is_not_taken_for_a_model_server(sse_server, second_server):
    sse_server.enqueue(
        raw_response(b"<html>router login</html>", headers={"Content-Type": "text/html"})
    )
    second_server.enqueue(json_response({"status": "ok", "data": "not a list"}))
    servers = [openai_compatible("vLLM", sse_server.port), ollama(second_server.port)]
    assert detect(servers) == []


def test_an_error_status_is_not_a_server_found(sse_server):
    sse_server.enqueue(json_response({"error": "unauthorized"}, status=401))
    assert detect([openai_compatible("vLLM", sse_server.port)]) == []


def test_the_system_proxy_is_not_used_for_this_computer(sse_server, closed_port, monkeypatch):
    dead_proxy = f"http://127.0.0.1:{closed_port}"
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, dead_proxy)
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    found = detect([openai_compatible("LM Studio", sse_server.port)])
    assert [server.models for server in found] == [("test-model", "test-model-mini")]


def test_no_servers_to_ask_is_no_servers_found():
    assert detect([]) == []


def test_cancelling_the_detection_leaves_no_probe_behind(silent_port):
    async def run() -> set[asyncio.Task]:
        servers = [openai_compatible("vLLM", silent_port), ollama(silent_port)]
        detection = asyncio.create_task(detect_local_servers(servers, deadline=5))
        await asyncio.sleep(0.1)  # the probes are connected and waiting
        detection.cancel()
        with pytest.raises(asyncio.CancelledError):
            await detection
        return asyncio.all_tasks() - {asyncio.current_task()}

    assert asyncio.run(run()) == set()
