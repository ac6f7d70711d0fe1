"""What endpoints say about their models, as the settings service asks for it, keeps it
and hands it to the capability check: table < endpoint < the person."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from desktop.core.models import ModelRef
from desktop.core.settings import ProviderKind
from desktop.engine.settings_service import SettingsService
from desktop.storage.model_info_cache import FILE_NAME
from desktop.storage.secrets import SecretStore
from tests.support.embedding_server import EmbeddingServer
from tests.support.model_reports import ollama_router, ollama_show
from tests.support.ollama_wire import tags_body
from tests.support.settings_files import write_settings
from tests.support.sse_server import (
    RecordedRequest,
    Sleep,
    SSEServer,
    Step,
    error_response,
    json_response,
)
from tests.support.waiting import CEILING_S, run_within, wait_for

MODEL = "my-finetune:latest"  # unknown to the table: text only until the endpoint speaks
REF = ModelRef("ollama", MODEL)
SHOWS = {
    MODEL: ollama_show("llama", 8192, ["completion", "vision", "tools"]),
    "qwen3:8b": ollama_show("qwen3", 40_960, ["completion", "tools", "thinking"]),
    "nomic-embed-text": ollama_show("nomic-bert", 2048, ["embedding"]),
}


def ollama_settings(folder: Path, base_url: str, **options: Any) -> Path:
    return write_settings(
        folder, base_url, (MODEL,), kind="ollama", provider_id="ollama", name="Ollama", **options
    )


def ollama(server: SSEServer, shows: dict[str, dict] = SHOWS) -> None:
    """The server answers as an Ollama holding `shows`' models."""
    show = ollama_router(shows)

    def respond(request: RecordedRequest) -> list[Step] | None:
        if request.path == "/api/tags":
            return json_response(tags_body(shows))
        return show(request)

    server.route(respond)


def with_service(
    path: Path,
    body: Callable[[SettingsService], Awaitable[None]],
    **options: Any,
) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            service = SettingsService(path, SecretStore(), client, **options)
            try:
                await body(service)
            finally:
                await service.aclose()

    run_within(main())


def shows_asked(server: SSEServer) -> list[str]:
    return [r.json["model"] for r in server.requests if r.path == "/api/show"]


def test_fetching_models_from_ollama_teaches_the_capability_check(
    tmp_path: Path, sse_server: SSEServer, memory_keyring
) -> None:
    ollama(sse_server)
    path = ollama_settings(tmp_path, sse_server.url)

    async def body(service: SettingsService) -> None:
        before = service.capabilities(REF)
        assert not before.supports_vision and not before.supports_tools
        provider = service.settings.provider("ollama")
        assert provider is not None
        # The embedding model is not offered: it cannot chat.
        assert await service.fetch_models(provider, None) == [MODEL, "qwen3:8b"]
        assert sorted(shows_asked(sse_server)) == sorted(SHOWS)
        caps = service.capabilities(REF)
        assert (caps.supports_vision, caps.supports_tools, caps.context_length) == (
            True,
            True,
            8192,
        )
        assert service.request_options(REF).capabilities == caps  # what a send checks

    with_service(path, body)
    saved = json.loads((tmp_path / FILE_NAME).read_text(encoding="utf-8"))
    assert saved["endpoints"][f"ollama {sse_server.url}"]["models"][MODEL] == {
        "vision": True,
        "tools": True,
        "reasoning": False,
        "context_length": 8192,
        "chat": True,
    }
    asked = len(sse_server.requests)

    async def next_run(service: SettingsService) -> None:
        assert service.capabilities(REF).supports_vision  # from the file, without asking

    with_service(path, next_run)
    assert len(sse_server.requests) == asked


def test_a_model_the_endpoint_said_cannot_chat_is_offered_for_embeddings_whatever_its_name(
    tmp_path: Path, sse_server: SSEServer, memory_keyring
) -> None:
    shows = {**SHOWS, "house-vectors:v1": ollama_show("bert", 512, ["embedding"])}
    ollama(sse_server, shows)
    path = ollama_settings(tmp_path, sse_server.url)

    async def body(service: SettingsService) -> None:
        # Named as an embedding model: listed before the endpoint said anything.
        assert await service.embedding_models("ollama") == ["nomic-embed-text"]
        provider = service.settings.provider("ollama")
        assert provider is not None
        await service.fetch_models(provider, None)  # the endpoint describes each model
        assert await service.embedding_models("ollama") == ["house-vectors:v1", "nomic-embed-text"]
        assert await service.embedding_models("no-such-provider") == []

    with_service(path, body)


def test_a_bare_list_s_embedding_models_are_not_offered_for_chat(
    tmp_path: Path, embedding_server: EmbeddingServer, memory_keyring
) -> None:
    url = embedding_server.base_url(ProviderKind.OPENAI_CHAT)
    embedding_server.models = {"gpt-4o": False, "text-embedding-3-small": True, "o3": False}
    path = write_settings(tmp_path, url, ("gpt-4o",), provider_id="local")

    async def body(service: SettingsService) -> None:
        provider = service.settings.provider("local")
        assert provider is not None
        assert await service.fetch_models(provider, None) == ["gpt-4o", "o3"]
        check = await service.check_connection(provider, None)
        assert check.models == ("gpt-4o", "o3")
        assert await service.embedding_models("local") == ["text-embedding-3-small"]

    with_service(path, body)


def test_the_person_overrides_what_the_endpoint_said_field_by_field(
    tmp_path: Path, sse_server: SSEServer, memory_keyring
) -> None:
    ollama(sse_server)
    path = ollama_settings(tmp_path, sse_server.url, model_overrides={MODEL: {"vision": False}})

    async def body(service: SettingsService) -> None:
        provider = service.settings.provider("ollama")
        assert provider is not None
        await service.fetch_models(provider, None)
        caps = service.capabilities(REF)
        assert not caps.supports_vision  # the person's word
        assert caps.supports_tools  # the endpoint's, the person said nothing
        # The form's "Default (…)" shows table + endpoint, without the override.
        default = service.default_capabilities(ProviderKind.OLLAMA, sse_server.url, MODEL)
        assert default.supports_vision
        elsewhere = service.default_capabilities(ProviderKind.OLLAMA, "http://other:1", MODEL)
        assert not elsewhere.supports_vision  # another address said nothing

    with_service(path, body)


def test_test_connection_asks_too(tmp_path: Path, sse_server: SSEServer, memory_keyring) -> None:
    ollama(sse_server)
    path = ollama_settings(tmp_path, sse_server.url)

    async def body(service: SettingsService) -> None:
        provider = service.settings.provider("ollama")
        assert provider is not None
        check = await service.check_connection(provider, None)
        assert check.models == (MODEL, "qwen3:8b")
        assert service.capabilities(REF).supports_vision

    with_service(path, body)


def test_an_endpoint_that_cannot_say_leaves_the_table_and_the_list(
    tmp_path: Path, sse_server: SSEServer, memory_keyring
) -> None:
    def respond(request: RecordedRequest) -> list[Step] | None:
        if request.path == "/api/tags":
            return json_response(tags_body(SHOWS))
        return error_response(500, "show is broken")

    sse_server.route(respond)
    path = ollama_settings(tmp_path, sse_server.url)

    async def body(service: SettingsService) -> None:
        provider = service.settings.provider("ollama")
        assert provider is not None
        # The list stays whole, but for the model named as an embedding model.
        assert await service.fetch_models(provider, None) == [MODEL, "qwen3:8b"]
        assert not service.capabilities(REF).supports_vision

    with_service(path, body)
    assert not (tmp_path / FILE_NAME).exists()


def asking() -> list[asyncio.Task]:
    """The service's background asks in flight (each is a task named for its endpoint)."""
    return [t for t in asyncio.all_tasks() if t.get_name().startswith("model-info ")]


def test_a_stale_answer_is_asked_again_in_the_background_on_use_at_most_once_per_age(
    tmp_path: Path, sse_server: SSEServer, memory_keyring
) -> None:
    ollama(sse_server)
    path = ollama_settings(tmp_path, sse_server.url)
    now = [1_000_000.0]

    async def body(service: SettingsService) -> None:
        # Nothing known yet: the answer is the table's, at once; the endpoint is asked.
        assert not service.capabilities(REF).supports_vision
        await wait_for(lambda: service.capabilities(REF).supports_vision)
        assert shows_asked(sse_server) == [MODEL]  # the configured models only
        for _ in range(3):
            service.request_options(REF)
            await asyncio.sleep(0.02)
        assert shows_asked(sse_server) == [MODEL]
        now[0] += 3601  # older than the maximum age
        assert service.capabilities(REF).supports_vision  # the kept answer
        assert not asking()  # reading it started no ask
        service.request_options(REF)  # a request asks again
        await wait_for(lambda: len(shows_asked(sse_server)) == 2)

    with_service(path, body, model_info_max_age=3600, clock=lambda: now[0])


def test_a_failed_background_ask_is_not_repeated_within_the_age(
    tmp_path: Path, sse_server: SSEServer, memory_keyring
) -> None:
    sse_server.route(lambda request: error_response(500, "busy"))
    path = ollama_settings(tmp_path, sse_server.url)
    now = [1_000_000.0]

    async def body(service: SettingsService) -> None:
        service.request_options(REF)
        await wait_for(lambda: len(sse_server.requests) == 1)
        await asyncio.sleep(0.05)
        service.request_options(REF)
        await asyncio.sleep(0.05)
        assert len(sse_server.requests) == 1
        now[0] += 3601
        service.request_options(REF)
        await wait_for(lambda: len(sse_server.requests) == 2)

    with_service(path, body, model_info_max_age=3600, clock=lambda: now[0])
    assert not (tmp_path / FILE_NAME).exists()


def test_without_a_maximum_age_nothing_is_asked_on_its_own(
    tmp_path: Path, sse_server: SSEServer, memory_keyring
) -> None:
    ollama(sse_server)
    path = ollama_settings(tmp_path, sse_server.url)

    async def body(service: SettingsService) -> None:
        service.request_options(REF)
        await asyncio.sleep(0.1)

    with_service(path, body)
    assert sse_server.requests == []


def test_quitting_stops_a_background_ask(
    tmp_path: Path, sse_server: SSEServer, memory_keyring
) -> None:
    sse_server.route(lambda request: [Sleep(20), *json_response(SHOWS[MODEL])])
    path = ollama_settings(tmp_path, sse_server.url)

    async def body(service: SettingsService) -> None:
        service.request_options(REF)
        await wait_for(lambda: len(sse_server.requests) == 1)
        started = asyncio.get_running_loop().time()
        await service.aclose()
        assert asyncio.get_running_loop().time() - started < 2
        assert sse_server.requests[0].client_gone.wait(CEILING_S)

    with_service(path, body, model_info_max_age=3600)


def test_a_corrupt_cache_file_falls_back_to_the_table(
    tmp_path: Path, sse_server: SSEServer, memory_keyring
) -> None:
    path = ollama_settings(tmp_path, sse_server.url)
    (tmp_path / FILE_NAME).write_text("{oops", encoding="utf-8")

    async def body(service: SettingsService) -> None:
        assert service.load_error is None  # not a settings problem to show
        assert not service.capabilities(REF).supports_vision

    with_service(path, body)
