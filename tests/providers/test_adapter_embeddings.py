"""`embed` on every protocol that has embeddings, against the loopback embedding server
(`tests/support/embedding_server.py`) speaking each wire: what is sent, in how many
requests, how the answer is read and checked, how a failure reads, and that a cancelled
call leaves no request behind. Anthropic, which has no embeddings, says so at once."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import pytest

from desktop.core.errors import ProviderError
from desktop.core.knowledge import EmbeddingKind
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.providers.adapter import HttpAdapter, WireSpec
from desktop.providers.anthropic.adapter import AnthropicSpec
from desktop.providers.base import ProviderHTTPError
from desktop.providers.embeddings import EMBED_BATCH_SIZE, EMBED_CONCURRENCY
from desktop.providers.gemini.adapter import GeminiSpec
from desktop.providers.ollama.adapter import OllamaSpec
from desktop.providers.openai_chat.adapter import OpenAIChatSpec
from desktop.providers.openai_responses.adapter import OpenAIResponsesSpec
from desktop.providers.registry import create_retrying_provider
from tests.support import gemini_wire, ollama_wire
from tests.support.embedding_server import (
    DIMS,
    EMBEDDING_MODEL,
    EmbeddingServer,
    cosine,
    gemini_body,
    ollama_body,
    openai_body,
    vector_for,
)
from tests.support.provider_calls import WAIT, run
from tests.support.sse_server import (
    Disconnect,
    Step,
    error_response,
    json_response,
    raw_response,
)

T = TypeVar("T")
KEY = "sk-test-SECRET-0123456789"


@dataclass(frozen=True)
class Wire:
    id: str
    kind: ProviderKind
    spec: Callable[[str], WireSpec]
    path: str  # where a batch for EMBEDDING_MODEL is posted
    error: Callable[[int, str], list[Step]]  # the vendor's HTTP error body

    def __str__(self) -> str:
        return self.id


WIRES = (
    Wire(
        "openai_chat",
        ProviderKind.OPENAI_CHAT,
        OpenAIChatSpec,
        "/v1/embeddings",
        lambda status, message: error_response(status, message),
    ),
    Wire(
        "openai_responses",
        ProviderKind.OPENAI_RESPONSES,
        OpenAIResponsesSpec,
        "/v1/embeddings",
        lambda status, message: error_response(status, message),
    ),
    Wire(
        "ollama",
        ProviderKind.OLLAMA,
        OllamaSpec,
        "/api/embed",
        ollama_wire.error_response,
    ),
    Wire(
        "gemini",
        ProviderKind.GEMINI,
        GeminiSpec,
        f"/v1beta/models/{EMBEDDING_MODEL}:batchEmbedContents",
        lambda status, message: gemini_wire.error_response(status, message, "INVALID_ARGUMENT"),
    ),
)


@pytest.fixture(params=WIRES, ids=str)
def wire(request: pytest.FixtureRequest) -> Wire:
    return request.param  # type: ignore[no-any-return]


def with_adapter(
    wire: Wire,
    server: EmbeddingServer,
    action: Callable[[HttpAdapter], Awaitable[T]],
    api_key: str | None = None,
) -> T:
    async def main() -> T:
        async with httpx.AsyncClient(trust_env=False) as client:
            adapter = HttpAdapter(client, wire.spec(server.base_url(wire.kind)), api_key)
            return await action(adapter)

    return run(main())


def embed(
    wire: Wire, server: EmbeddingServer, texts: list[str], **options: Any
) -> list[list[float]]:
    return with_adapter(wire, server, lambda a: a.embed(texts, EMBEDDING_MODEL, **options))


def embed_error(wire: Wire, server: EmbeddingServer, texts: list[str]) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        embed(wire, server, texts)
    return caught.value


TEXTS = [f"passage {i} about the car and the road" for i in range(150)]


# --- what is sent ------------------------------------------------------------------------


def test_150_texts_go_in_three_requests_of_at_most_64_and_come_back_in_order(
    wire: Wire, embedding_server: EmbeddingServer
):
    vectors = embed(wire, embedding_server, TEXTS)

    assert vectors == [vector_for(text) for text in TEXTS]
    requests = embedding_server.requests
    assert [r.path for r in requests] == [wire.path] * 3
    batches = sorted(embedding_server.inputs(), key=lambda texts: TEXTS.index(texts[0]))
    assert [len(texts) for texts in batches] == [64, 64, 22]
    assert [text for texts in batches for text in texts] == TEXTS  # each a run of the texts


def test_no_texts_means_no_request(wire: Wire, embedding_server: EmbeddingServer):
    assert embed(wire, embedding_server, []) == []
    assert embedding_server.requests == []


def test_dimensions_are_sent_only_when_chosen(wire: Wire, embedding_server: EmbeddingServer):
    plain = embed(wire, embedding_server, ["a car"])
    shorter = embed(wire, embedding_server, ["a car"], dimensions=64)

    assert len(plain[0]) == DIMS and len(shorter[0]) == 64
    first, second = (r.json for r in embedding_server.requests)
    if wire.kind is ProviderKind.GEMINI:
        assert all("outputDimensionality" not in r for r in first["requests"])
        assert [r["outputDimensionality"] for r in second["requests"]] == [64]
    else:
        assert "dimensions" not in first
        assert second["dimensions"] == 64


@pytest.mark.parametrize("wire", [w for w in WIRES if w.kind is not ProviderKind.GEMINI], ids=str)
def test_openai_and_ollama_bodies_are_the_model_and_the_list_of_inputs(
    wire: Wire, embedding_server: EmbeddingServer
):
    embed(wire, embedding_server, ["one", "two"], kind=EmbeddingKind.QUERY)

    body = embedding_server.requests[0].json
    expected: dict[str, Any] = {"model": EMBEDDING_MODEL, "input": ["one", "two"]}
    if wire.kind is not ProviderKind.OLLAMA:
        expected["encoding_format"] = "float"
    assert body == expected


@pytest.mark.parametrize(
    ("kind", "task"),
    [(EmbeddingKind.DOCUMENT, "RETRIEVAL_DOCUMENT"), (EmbeddingKind.QUERY, "RETRIEVAL_QUERY")],
)
def test_gemini_names_the_model_in_each_request_and_the_task_of_the_texts(
    embedding_server: EmbeddingServer, kind: EmbeddingKind, task: str
):
    gemini = next(w for w in WIRES if w.kind is ProviderKind.GEMINI)
    with_adapter(
        gemini, embedding_server, lambda a: a.embed(["one", "two"], EMBEDDING_MODEL, kind=kind)
    )

    assert embedding_server.requests[0].json == {
        "requests": [
            {
                "model": f"models/{EMBEDDING_MODEL}",
                "content": {"parts": [{"text": text}]},
                "taskType": task,
            }
            for text in ("one", "two")
        ]
    }


def test_the_key_goes_the_way_each_protocol_sends_it(wire: Wire, embedding_server: EmbeddingServer):
    with_adapter(wire, embedding_server, lambda a: a.embed(["x"], EMBEDDING_MODEL), KEY)

    request = embedding_server.requests[0]
    assert KEY not in request.path
    if wire.kind is ProviderKind.GEMINI:
        assert request.headers["x-goog-api-key"] == KEY
    else:
        assert request.headers["authorization"] == f"Bearer {KEY}"


def test_synonyms_embed_alike_so_a_search_can_find_them(
    wire: Wire, embedding_server: EmbeddingServer
):
    car, automobile, soup = embed(
        wire, embedding_server, ["The car would not start", "automobile", "tomato soup"]
    )
    assert cosine(automobile, car) > 0.4
    assert cosine(automobile, soup) == 0.0


# --- concurrency and cancellation ---------------------------------------------------------


def test_at_most_four_requests_are_in_flight(wire: Wire, embedding_server: EmbeddingServer):
    texts = [f"text {i}" for i in range(5 * EMBED_BATCH_SIZE)]
    release = embedding_server.hold()

    async def main() -> list[list[float]]:
        async with httpx.AsyncClient(trust_env=False) as client:
            adapter = HttpAdapter(client, wire.spec(embedding_server.base_url(wire.kind)))
            task = asyncio.ensure_future(adapter.embed(texts, EMBEDDING_MODEL))
            arrived = await asyncio.to_thread(
                embedding_server.wait_for_requests, EMBED_CONCURRENCY, WAIT
            )
            assert arrived
            release.set()
            return await task

    vectors = run(main())

    assert vectors == [vector_for(text) for text in texts]
    assert len(embedding_server.requests) == 5
    assert embedding_server.peak_in_flight == EMBED_CONCURRENCY


def test_cancelling_stops_the_request_a_slow_server_holds(
    wire: Wire, embedding_server: EmbeddingServer
):
    embedding_server.hold()  # never released: the server answers nothing

    async def main() -> bool:
        async with httpx.AsyncClient(trust_env=False) as client:
            adapter = HttpAdapter(client, wire.spec(embedding_server.base_url(wire.kind)))
            task = asyncio.ensure_future(adapter.embed(TEXTS, EMBEDDING_MODEL))
            assert await asyncio.to_thread(embedding_server.wait_for_requests, 3, WAIT)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            gone = [r.client_gone for r in embedding_server.requests]
            return all(await asyncio.gather(*(asyncio.to_thread(g.wait, WAIT) for g in gone)))

    assert run(main()), "a request was still open after the call was cancelled"


# --- failures ---------------------------------------------------------------------------------


def test_a_refused_request_shows_the_servers_words(wire: Wire, embedding_server: EmbeddingServer):
    embedding_server.enqueue(wire.error(400, "input[3] is longer than the model's context"))

    error = embed_error(wire, embedding_server, ["one"])

    assert isinstance(error, ProviderHTTPError)
    assert error.status_code == 400 and not error.retryable
    assert "input[3] is longer than the model's context" in str(error)


def test_a_key_the_server_echoes_is_not_shown(wire: Wire, embedding_server: EmbeddingServer):
    embedding_server.enqueue(wire.error(400, f"bad request from {KEY}"))

    with pytest.raises(ProviderError) as caught:
        with_adapter(wire, embedding_server, lambda a: a.embed(["x"], EMBEDDING_MODEL), KEY)

    assert KEY not in str(caught.value)


def answer_body(wire: Wire, vectors: list[Any]) -> dict[str, Any]:
    """A well-formed answer of `vectors` in `wire`'s shape (whatever they hold)."""
    if wire.kind is ProviderKind.GEMINI:
        return gemini_body(vectors)
    if wire.kind is ProviderKind.OLLAMA:
        return ollama_body(vectors, EMBEDDING_MODEL)
    return openai_body(vectors, EMBEDDING_MODEL)


def malformed_answers(wire: Wire) -> dict[str, list[Step]]:
    """Answers to a request for two texts that are not two embeddings."""
    one, two = vector_for("one"), vector_for("two")
    missing = answer_body(wire, [one, two])
    if wire.kind is ProviderKind.GEMINI:
        missing["embeddings"][1] = {"value": two}
    elif wire.kind is ProviderKind.OLLAMA:
        del missing["embeddings"]
    else:
        del missing["data"][1]["embedding"]
    nan = json.dumps(answer_body(wire, [one, [math.nan, *two[1:]]])).encode()
    return {
        "one vector for two texts": json_response(answer_body(wire, [one])),
        "a missing field": json_response(missing),
        "vectors of different lengths": json_response(answer_body(wire, [one, two[:10]])),
        "a string for a number": json_response(answer_body(wire, [one, ["0.5", *two[1:]]])),
        "NaN": raw_response(nan),
        "not JSON": raw_response(b"<html>proxy says no</html>"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "one vector for two texts",
        "a missing field",
        "vectors of different lengths",
        "a string for a number",
        "NaN",
        "not JSON",
    ],
)
def test_an_answer_that_is_not_embeddings_is_refused_clearly(
    wire: Wire, embedding_server: EmbeddingServer, case: str
):
    embedding_server.enqueue(malformed_answers(wire)[case])

    error = embed_error(wire, embedding_server, ["one", "two"])

    expected = "not valid JSON" if case == "not JSON" else "The server's answer was not embeddings"
    assert expected in str(error)
    assert not error.retryable


def test_openai_items_are_put_back_in_the_order_of_their_index(embedding_server: EmbeddingServer):
    wire = WIRES[0]
    texts = ["one", "two", "three"]
    items = [
        {"object": "embedding", "index": i, "embedding": vector_for(t)} for i, t in enumerate(texts)
    ]
    embedding_server.enqueue(json_response({"object": "list", "data": items[::-1]}))

    assert embed(wire, embedding_server, texts) == [vector_for(t) for t in texts]


def test_openai_items_whose_index_does_not_number_the_texts_are_refused(
    embedding_server: EmbeddingServer,
):
    wire = WIRES[0]
    items = [{"index": 0, "embedding": vector_for("a")}, {"index": 0, "embedding": vector_for("b")}]
    embedding_server.enqueue(json_response({"data": items}))

    assert "was not embeddings" in str(embed_error(wire, embedding_server, ["a", "b"]))


def test_a_connection_cut_before_the_answer_is_a_retryable_error(
    wire: Wire, embedding_server: EmbeddingServer
):
    embedding_server.enqueue([Disconnect()])

    error = embed_error(wire, embedding_server, ["one"])

    assert error.retryable


# --- which models embed ------------------------------------------------------------------------


def test_each_wire_lists_only_its_embedding_models(wire: Wire, embedding_server: EmbeddingServer):
    # Ollama's and OpenAI's lists are bare names; Gemini's says what each model does,
    # so a model it says embeds is listed whatever its name.
    embedding_server.models = {
        "gpt-4o-mini": False,
        "text-embedding-3-small": True,
        "nomic-embed-text:latest": True,
        "bge-reranker-v2-m3": False,
        "vectors-2": wire.kind is ProviderKind.GEMINI,
    }
    listed = with_adapter(wire, embedding_server, lambda a: a.list_embedding_models(), KEY)

    expected = ["nomic-embed-text:latest", "text-embedding-3-small"]
    if wire.kind is ProviderKind.GEMINI:
        expected.append("vectors-2")
    assert sorted(listed) == expected
    assert [r.method for r in embedding_server.requests] == ["GET"]


def test_a_model_list_the_server_refuses_is_a_provider_error(
    wire: Wire, embedding_server: EmbeddingServer
):
    embedding_server.enqueue(wire.error(401, "Incorrect API key provided"))
    with pytest.raises(ProviderError) as caught:
        with_adapter(wire, embedding_server, lambda a: a.list_embedding_models(), KEY)
    assert "401" in str(caught.value)


# --- Anthropic ---------------------------------------------------------------------------------


def test_anthropic_says_it_has_no_embedding_models_without_asking(
    embedding_server: EmbeddingServer,
):
    async def main() -> list[ProviderError]:
        errors = []
        async with httpx.AsyncClient(trust_env=False) as client:
            direct = HttpAdapter(client, AnthropicSpec(embedding_server.url), KEY)
            settings = ProviderSettings(
                id="claude",
                name="Claude",
                kind=ProviderKind.ANTHROPIC,
                base_url=embedding_server.url,
            )
            retrying = create_retrying_provider(settings, KEY, client)
            for provider in (direct, retrying):
                for texts in (["a passage"], []):
                    try:
                        await provider.embed(texts, "claude-sonnet-4-5")
                    except ProviderError as error:
                        errors.append(error)
        return errors

    errors = run(main())

    assert len(errors) == 4
    assert all("has no embedding models; choose another provider" in str(e) for e in errors)
    assert all(not e.retryable for e in errors)
    assert embedding_server.requests == []


def test_anthropic_lists_no_embedding_models_without_asking(embedding_server: EmbeddingServer):
    async def main() -> list[str]:
        async with httpx.AsyncClient(trust_env=False) as client:
            return await HttpAdapter(
                client, AnthropicSpec(embedding_server.url), KEY
            ).list_embedding_models()

    assert run(main()) == []
    assert embedding_server.requests == []
