"""A server without a model list (404 on /models) is common: fetching models and testing
the connection say so and ask for typed model ids, while a 404 from a chat request still
means a wrong address or model."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from desktop.core.errors import ProviderError
from desktop.core.models import Role
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.engine.settings_service import SettingsService
from desktop.providers.base import ChatRequest, RequestMessage
from desktop.storage.secrets import SecretStore
from tests.support.sse_server import SSEServer, completion_body, error_response, json_response
from tests.support.waiting import CEILING_S, run_within

NO_LIST = "This server does not list its models (it answered 404 when asked for them)."


def service_call(tmp_path: Path, action) -> object:  # type: ignore[no-untyped-def]
    async def main() -> object:
        async with httpx.AsyncClient(trust_env=False) as client:
            service = SettingsService(tmp_path / "settings.json", SecretStore(), client)
            try:
                return await action(service)
            finally:
                await service.aclose()

    return run_within(main(), CEILING_S)


def gateway(server: SSEServer, models: tuple[str, ...] = ()) -> ProviderSettings:
    return ProviderSettings("gw", "Gateway", ProviderKind.OPENAI_CHAT, server.base_url, models)


def test_fetching_models_from_a_server_without_a_list_says_to_type_them(tmp_path, sse_server):
    sse_server.enqueue(error_response(404, "Unknown route GET /v1/models", code="not_found"))
    with pytest.raises(ProviderError) as caught:
        service_call(tmp_path, lambda s: s.fetch_models(gateway(sse_server), None))
    text = str(caught.value)
    assert text.startswith(NO_LIST)
    assert "Type the model ids under Models" in text
    assert "does not know this address" not in text
    assert caught.value.status_code == 404
    assert [r.path for r in sse_server.requests] == ["/v1/models"]


def test_testing_without_a_list_or_a_model_says_to_type_one(tmp_path, sse_server):
    sse_server.enqueue(error_response(404, "Not found"))
    with pytest.raises(ProviderError, match=r"^This server does not list its models"):
        service_call(tmp_path, lambda s: s.check_connection(gateway(sse_server), None))
    assert len(sse_server.requests) == 1  # no chat request without a model to ask


def test_testing_without_a_list_asks_the_typed_model(tmp_path, sse_server):
    sse_server.script(
        error_response(404, "Not found"), json_response(completion_body("H", model="gw-1"))
    )
    check = service_call(tmp_path, lambda s: s.check_connection(gateway(sse_server), None, "gw-1"))
    assert check.model == "gw-1" and check.models is None
    assert sse_server.requests[1].path == "/v1/chat/completions"


def test_a_404_from_a_chat_request_still_means_a_wrong_address_or_model(tmp_path, sse_server):
    sse_server.script(
        error_response(404, "Not found"),
        error_response(404, "Not Found"),
    )
    with pytest.raises(ProviderError) as caught:
        service_call(tmp_path, lambda s: s.check_connection(gateway(sse_server), None, "nope"))
    assert str(caught.value).startswith("The server does not know this address or model (404)")


def test_a_generation_answered_404_names_the_address_or_model(tmp_path, sse_server):
    """The chat path is untouched: a 404 there is a wrong model or URL."""
    (tmp_path / "settings.json").write_text(
        '{"version": 1, "providers": [{"id": "gw", "name": "Gateway", "kind": "openai_chat", '
        f'"base_url": "{sse_server.base_url}", "models": ["nope"]}}]}}',
        encoding="utf-8",
    )
    sse_server.enqueue(error_response(404, "Not Found"))

    async def chat(service: SettingsService) -> str:
        provider = await service.provider("gw")
        try:
            async for _event in provider.stream(_request("nope")):
                pass
        except ProviderError as error:
            return str(error)
        return ""

    assert service_call(tmp_path, chat).startswith(
        "The server does not know this address or model (404)"
    )


def _request(model: str) -> ChatRequest:
    return ChatRequest(model=model, messages=(RequestMessage(Role.USER, "Hi"),))
