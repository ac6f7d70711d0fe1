"""The network settings on the wire: a proxy really carries the requests, "no proxy"
ignores the environment's, a change takes a new client without cutting running answers,
and a bad CA bundle is a readable settings error, never a crash."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from desktop.core.errors import ProviderError, SettingsError
from desktop.core.models import ModelRef, Role
from desktop.core.settings import NetworkSettings, ProviderSettings, ProxyMode
from desktop.engine.http_clients import HttpClients
from desktop.engine.settings_service import SettingsService
from desktop.providers.base import ChatRequest, RequestMessage
from desktop.storage.secrets import SecretStore
from tests.support.embedding_server import EMBEDDING_MODEL, EmbeddingServer, vector_for
from tests.support.proxy import RecordingProxy
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, SSEServer, chat_chunk, sse_response
from tests.support.waiting import run_within, wait_for

UPSTREAM = "http://parley-upstream.invalid/v1"  # resolvable only by the proxy


def point_at(path: Path, proxy_url: str) -> None:
    """The proxy's address is known only once it listens: put it into the settings."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("network", {}).get("proxy_url") == "PROXY":
        data["network"]["proxy_url"] = proxy_url
        path.write_text(json.dumps(data), encoding="utf-8")


def with_service(
    path: Path, body: Callable[[SettingsService, RecordingProxy], Awaitable[None]]
) -> None:
    async def main() -> None:
        async with RecordingProxy() as proxy:
            point_at(path, proxy.url)
            service = SettingsService(path, SecretStore())
            try:
                await body(service, proxy)
            finally:
                await service.aclose()

    run_within(main())


def provider_settings(service: SettingsService) -> ProviderSettings:
    provider = service.settings.provider("p")
    assert provider is not None
    return provider


@pytest.fixture
def environment_proxy(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Set the environment's proxy as a system proxy setting would."""
    for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)

    def set_proxy(url: str) -> None:
        for name in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy"):
            monkeypatch.setenv(name, url)

    return set_proxy


def test_a_custom_proxy_carries_every_request(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write_settings(
        path,
        UPSTREAM,
        provider_id="p",
        name="P",
        network={"proxy_mode": "custom", "proxy_url": "PROXY"},
    )

    async def body(service: SettingsService, proxy: RecordingProxy) -> None:
        models = await service.fetch_models(provider_settings(service), None)
        assert models == ["via-proxy"]
        assert proxy.lines == [f"GET {UPSTREAM}/models HTTP/1.1"]  # absolute URI: proxied
        https = replace(provider_settings(service), base_url="https://parley-upstream.invalid/v1")
        with pytest.raises(ProviderError):
            await service.fetch_models(https, None)
        assert proxy.lines[-1] == "CONNECT parley-upstream.invalid:443 HTTP/1.1"

    with_service(path, body)


def test_no_proxy_ignores_the_environments_proxy(
    tmp_path: Path, sse_server: SSEServer, environment_proxy: Callable[[str], None]
) -> None:
    path = tmp_path / "settings.json"
    write_settings(
        path, sse_server.base_url, provider_id="p", name="P", network={"proxy_mode": "none"}
    )

    async def body(service: SettingsService, proxy: RecordingProxy) -> None:
        environment_proxy(proxy.url)
        # Rebuild the client while the variables are set (custom, then none again).
        custom = NetworkSettings(ProxyMode.CUSTOM, proxy.url)
        service.save(replace(service.settings, network=custom))
        service.save(replace(service.settings, network=NetworkSettings(ProxyMode.NONE)))
        models = await service.fetch_models(provider_settings(service), None)
        assert models == ["test-model", "test-model-mini"]  # the server itself answered
        assert proxy.lines == []
        assert sse_server.requests[-1].path == "/v1/models"

    with_service(path, body)


def test_the_system_proxy_is_used_by_default(
    tmp_path: Path, environment_proxy: Callable[[str], None]
) -> None:
    path = tmp_path / "settings.json"
    write_settings(path, UPSTREAM, provider_id="p", name="P")

    async def body(service: SettingsService, proxy: RecordingProxy) -> None:
        environment_proxy(proxy.url)
        # A network change rebuilds the client; going back to "system" reads the
        # environment again.
        none = replace(service.settings.network, proxy_mode=ProxyMode.NONE)
        service.save(replace(service.settings, network=none))
        service.save(replace(service.settings, network=NetworkSettings()))
        assert await service.fetch_models(provider_settings(service), None) == ["via-proxy"]
        assert proxy.lines == [f"GET {UPSTREAM}/models HTTP/1.1"]

    with_service(path, body)


def test_changing_the_proxy_takes_effect_for_the_next_request(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write_settings(path, UPSTREAM, provider_id="p", name="P", network={"proxy_mode": "none"})

    async def body(service: SettingsService, proxy: RecordingProxy) -> None:
        with pytest.raises(ProviderError, match="Could not connect"):
            await service.fetch_models(provider_settings(service), None)
        old = service._client
        network = NetworkSettings(ProxyMode.CUSTOM, proxy.url)
        service.save(replace(service.settings, network=network))
        assert service._client is not old
        assert await service.fetch_models(provider_settings(service), None) == ["via-proxy"]
        await asyncio.sleep(0)  # the unused old client is closed on the loop
        assert old.is_closed
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert saved["network"] == {"proxy_mode": "custom", "proxy_url": proxy.url}

    with_service(path, body)


def test_an_answer_streaming_keeps_its_client_until_it_ends(
    tmp_path: Path, sse_server: SSEServer
) -> None:
    path = tmp_path / "settings.json"
    write_settings(path, sse_server.base_url, provider_id="p", name="P")
    sse_server.enqueue(
        sse_response(
            chat_chunk(content="first"),
            chat_chunk(content=" second"),
            chat_chunk(finish_reason="stop"),
            DONE,
        )
    )

    async def body(service: SettingsService, proxy: RecordingProxy) -> None:
        provider = await service.provider("p")
        old = service._client
        request = ChatRequest("test-model", (RequestMessage(Role.USER, "hi"),))
        received: list[object] = []
        async for event in provider.stream(request):
            received.append(event)
            if len(received) == 1:
                # The person changes the network settings mid-answer.
                service.save(replace(service.settings, network=NetworkSettings(ProxyMode.NONE)))
                await asyncio.sleep(0.05)
                assert not old.is_closed  # still carrying this answer
        assert len(received) >= 2
        await asyncio.sleep(0.05)
        assert old.is_closed  # closed as soon as the answer no longer needs it
        assert not service._client.is_closed

    with_service(path, body)


def test_the_provider_handed_out_embeds_and_keeps_its_client_while_it_does(
    tmp_path: Path, embedding_server: EmbeddingServer
) -> None:
    path = tmp_path / "settings.json"
    write_settings(path, embedding_server.url, kind="ollama", provider_id="p", name="P")
    texts = [f"passage {i}" for i in range(100)]
    release = embedding_server.hold()

    async def body(service: SettingsService, proxy: RecordingProxy) -> None:
        provider = await service.provider("p")
        old = service._client
        task = asyncio.ensure_future(provider.embed(texts, EMBEDDING_MODEL))
        assert await asyncio.to_thread(embedding_server.wait_for_requests, 2)
        # The person changes the network settings while a library is being embedded.
        service.save(replace(service.settings, network=NetworkSettings(ProxyMode.NONE)))
        assert service._clients is not None
        await asyncio.gather(*service._clients._closing)  # whatever closing was started
        assert not old.is_closed  # still carrying the embedding requests
        release.set()
        assert await task == [vector_for(t) for t in texts]
        await wait_for(lambda: old.is_closed)  # closed once the embedding no longer needs it

    with_service(path, body)


def test_a_missing_ca_bundle_is_refused_with_a_clear_message_and_nothing_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "settings.json"
    write_settings(path, UPSTREAM, provider_id="p", name="P")
    before = path.read_text(encoding="utf-8")

    async def body(service: SettingsService, proxy: RecordingProxy) -> None:
        client = service._client
        missing = tmp_path / "company-ca.pem"
        bad = replace(service.settings, network=NetworkSettings(ca_bundle=str(missing)))
        with pytest.raises(SettingsError) as info:
            service.save(bad)
        assert info.value.field == "network.ca_bundle"
        assert str(missing) in str(info.value) and "does not exist" in str(info.value)
        assert path.read_text(encoding="utf-8") == before
        assert service._client is client and not client.is_closed
        assert service.settings.network == NetworkSettings()

        garbage = tmp_path / "not-a-cert.pem"
        garbage.write_text("hello", encoding="utf-8")
        with pytest.raises(SettingsError, match="not a readable PEM certificate file"):
            service.save(replace(bad, network=NetworkSettings(ca_bundle=str(garbage))))

    with_service(path, body)


def test_a_bad_ca_bundle_saved_earlier_does_not_stop_parley_from_starting(
    tmp_path: Path, sse_server: SSEServer
) -> None:
    path = tmp_path / "settings.json"
    write_settings(
        path,
        sse_server.base_url,
        provider_id="p",
        name="P",
        network={"ca_bundle": str(tmp_path / "gone.pem")},
    )

    async def body(service: SettingsService, proxy: RecordingProxy) -> None:
        assert service.network_error is not None
        assert service.network_error.field == "network.ca_bundle"
        assert service.load_error is None  # the file itself is valid
        # The system's certificates alone are used meanwhile: requests still work.
        assert await service.fetch_models(provider_settings(service), None) == [
            "test-model",
            "test-model-mini",
        ]
        # Saving something else is not refused for it, and it stays reported.
        service.remember_model(ModelRef("p", "test-model"))
        assert service.settings.last_model == ModelRef("p", "test-model")
        assert service.network_error is not None
        # Fixing the setting clears the problem.
        service.save(replace(service.settings, network=NetworkSettings()))
        assert service.network_error is None

    with_service(path, body)


def test_a_generation_gets_capabilities_for_its_model(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write_settings(path, UPSTREAM, provider_id="p", name="P")

    async def body(service: SettingsService, proxy: RecordingProxy) -> None:
        assert service.capabilities(ModelRef("p", "gpt-4o")).supports_vision
        assert not service.capabilities(ModelRef("p", "mystery")).supports_vision

    with_service(path, body)


def test_clients_are_all_closed_at_quit(tmp_path: Path) -> None:
    async def main() -> None:
        clients = HttpClients(NetworkSettings())
        first = clients.current
        provider_client = first
        clients._acquire(provider_client)  # an answer still streaming on it
        clients.reconfigure(NetworkSettings(ProxyMode.NONE))
        second = clients.current
        assert not first.is_closed
        await clients.aclose()
        assert first.is_closed and second.is_closed

    asyncio.run(main())
