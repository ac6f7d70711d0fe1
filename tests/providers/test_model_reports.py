"""What each adapter reads from its endpoint about models, against the loopback server
answering with recorded payloads."""

from __future__ import annotations

import httpx
import pytest

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.errors import ProviderError
from desktop.providers.adapter import HttpAdapter
from desktop.providers.base import ChatProvider
from desktop.providers.retry import RetryingProvider, RetryPolicy
from tests.support.adapters import (
    anthropic_adapter,
    gemini_adapter,
    ollama_adapter,
    openai_chat_adapter,
    openai_responses_adapter,
)
from tests.support.model_reports import (
    GEMINI_MODELS,
    LMSTUDIO_MODELS,
    OLLAMA_SHOW,
    OPENAI_MODELS,
    OPENROUTER_MODELS,
    ollama_router,
)
from tests.support.provider_calls import call, run
from tests.support.sse_server import SSEServer, error_response, json_response

Reported = ReportedCapabilities


# --- Ollama: /api/show per model ---------------------------------------------------------


def test_ollama_reads_capabilities_and_context_from_api_show(sse_server: SSEServer) -> None:
    sse_server.route(ollama_router(OLLAMA_SHOW))
    asked = ["gemma3:4b", "qwen3:8b", "nomic-embed-text", "old-llama", "gone:1b", "gemma3:4b"]
    reports = call(ollama_adapter, sse_server.url, lambda p: p.describe_models(asked))
    assert reports == {
        "gemma3:4b": Reported(
            vision=True, tools=False, reasoning=False, context_length=131_072, chat=True
        ),
        "qwen3:8b": Reported(
            vision=False, tools=True, reasoning=True, context_length=40_960, chat=True
        ),
        # An embedding model: it cannot answer.
        "nomic-embed-text": Reported(
            vision=False, tools=False, reasoning=False, context_length=2048, chat=False
        ),
        # A server from before the `capabilities` list states only the window.
        "old-llama": Reported(context_length=4096),
        # "gone:1b" (404) is left out; nothing is stated about the system role.
    }
    requests = sse_server.requests
    assert len(requests) == 5  # each model once
    assert {r.method for r in requests} == {"POST"}
    assert {r.path for r in requests} == {"/api/show"}
    assert sorted(r.body for r in requests) == sorted(
        f'{{"model":"{m}"}}'.encode() for m in dict.fromkeys(asked)
    )
    assert all(r.headers["accept"] == "application/json" for r in requests)


def test_ollama_sends_its_key_and_raises_when_no_model_can_be_shown(
    sse_server: SSEServer,
) -> None:
    sse_server.route(lambda request: error_response(401, "unauthorized"))
    with pytest.raises(ProviderError, match="401"):
        call(
            ollama_adapter,
            sse_server.url,
            lambda p: p.describe_models(["a", "b"]),
            api_key="ollama-key",
        )
    assert sse_server.requests[0].headers["authorization"] == "Bearer ollama-key"


def test_ollama_with_no_models_asks_nothing(sse_server: SSEServer) -> None:
    assert call(ollama_adapter, sse_server.url, lambda p: p.describe_models([])) == {}
    assert sse_server.requests == []


# --- Gemini: the model list ------------------------------------------------------------------


def test_gemini_reads_limits_and_thinking_from_the_model_list_it_fetched(
    sse_server: SSEServer,
) -> None:
    sse_server.enqueue(json_response(GEMINI_MODELS))

    async def fetch_then_describe(provider: HttpAdapter) -> tuple[list, dict]:
        models = await provider.list_models()
        return models, await provider.describe_models([*models, "gemini-unknown"])

    models, reports = call(gemini_adapter, sse_server.url, fetch_then_describe, api_key="g-key")
    assert models == ["gemini-2.0-flash", "gemini-2.5-flash", "gemma-3-27b-it"]
    assert reports == {
        "gemini-2.5-flash": Reported(reasoning=True, context_length=1_048_576),
        "gemini-2.0-flash": Reported(context_length=1_048_576),  # `thinking` not stated
        "gemma-3-27b-it": Reported(context_length=131_072),
    }
    assert len(sse_server.requests) == 1  # the list read for the ids said it all
    assert sse_server.requests[0].path == "/v1beta/models?pageSize=1000"


def test_gemini_reads_the_list_when_asked_first(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response(GEMINI_MODELS))
    reports = call(
        gemini_adapter, sse_server.url, lambda p: p.describe_models(["gemini-2.5-flash"])
    )
    assert reports == {"gemini-2.5-flash": Reported(reasoning=True, context_length=1_048_576)}
    assert [r.path for r in sse_server.requests] == ["/v1beta/models?pageSize=1000"]


# --- OpenAI-compatible: the /models items ------------------------------------------------------


def test_openrouter_items_state_context_vision_tools_and_reasoning(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response(OPENROUTER_MODELS))
    asked = ["google/gemma-3-27b-it", "deepseek/deepseek-r1", "meta-llama/llama-3.3-70b-instruct"]
    reports = call(
        openai_chat_adapter, f"{sse_server.url}/api/v1", lambda p: p.describe_models(asked)
    )
    assert reports == {
        "google/gemma-3-27b-it": Reported(
            vision=True, tools=False, reasoning=False, context_length=96_000, chat=True
        ),
        "deepseek/deepseek-r1": Reported(
            vision=False, tools=True, reasoning=True, context_length=163_840, chat=True
        ),
        "meta-llama/llama-3.3-70b-instruct": Reported(
            vision=False, tools=True, reasoning=False, context_length=131_072, chat=True
        ),
    }
    assert [(r.method, r.path) for r in sse_server.requests] == [("GET", "/api/v1/models")]


def test_lm_studio_items_state_type_context_and_tool_use(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response(LMSTUDIO_MODELS))

    async def fetch_then_describe(provider: HttpAdapter) -> dict:
        return await provider.describe_models(await provider.list_models())

    reports = call(openai_chat_adapter, f"{sse_server.url}/api/v0", fetch_then_describe)
    assert reports == {
        "qwen2-vl-7b-instruct": Reported(vision=True, context_length=32_768),
        "meta-llama-3.1-8b-instruct": Reported(vision=False, tools=True, context_length=131_072),
        "text-embedding-nomic-embed-text-v1.5": Reported(context_length=2048, chat=False),
    }
    assert len(sse_server.requests) == 1  # the list was read once, for both


def test_bare_openai_items_state_nothing(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response(OPENAI_MODELS))
    reports = call(openai_chat_adapter, sse_server.base_url, lambda p: p.describe_models(["o3"]))
    assert reports == {}
    assert len(sse_server.requests) == 1


def refuse(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"no request was expected, got {request.method} {request.url}")


@pytest.mark.parametrize(
    ("factory", "base_url"),
    [
        (openai_chat_adapter, "https://api.openai.com/v1"),
        (openai_responses_adapter, "https://api.openai.com/v1"),
        (anthropic_adapter, "https://api.anthropic.com"),
    ],
)
def test_endpoints_whose_list_states_nothing_are_not_asked(factory, base_url: str) -> None:
    async def main() -> dict:
        async with httpx.AsyncClient(transport=httpx.MockTransport(refuse)) as client:
            provider: ChatProvider = factory(client, base_url, "sk-key")
            return await provider.describe_models(["gpt-4o", "claude-sonnet-4-5"])

    assert run(main()) == {}


def test_a_retrying_provider_passes_the_question_on_and_retries_it(sse_server: SSEServer) -> None:
    sse_server.enqueue(error_response(503, "overloaded"))
    sse_server.enqueue(json_response(OPENROUTER_MODELS))
    policy = RetryPolicy(base_delay_s=0.01)

    async def main() -> dict:
        async with httpx.AsyncClient(trust_env=False) as client:
            inner = openai_chat_adapter(client, sse_server.base_url)
            return await RetryingProvider(inner, policy).describe_models(["deepseek/deepseek-r1"])

    assert run(main())["deepseek/deepseek-r1"].context_length == 163_840
    assert len(sse_server.requests) == 2
