"""One `ChatProvider` for every HTTP wire protocol, parametrised by a `WireSpec`.

The five adapters used to be near-copies: each built its headers, merged the person's
extra headers and body, opened the request through `HttpTransport`, chose SSE or NDJSON
and read a non-streamed answer, with small differences that were easy to lose in the
copies. `HttpAdapter` does all of that once. A protocol contributes a `WireSpec`: where
its requests go and with which headers, how its body is built, how its stream and its
whole answers are read, and how its models are listed and described. What is truly one
server's (Gemini's wording of a wrong key, Ollama refusing `think`) is a hook on the
spec, not a branch here.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import httpx

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.errors import ProviderError
from desktop.core.events import StreamEvent
from desktop.core.i18n import tr
from desktop.core.knowledge import EmbeddingKind
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.providers.base import ChatRequest, Completion, ProviderHTTPError, merge_extra_body
from desktop.providers.embedding_models import embedding_models
from desktop.providers.embeddings import Vectors, embed_in_batches
from desktop.providers.transport import HttpTransport, StreamReader
from desktop.providers.wire_common import Redactor

Framing = Literal["sse", "ndjson"]
JSON = "application/json"


@dataclass(frozen=True, slots=True)
class ChatCall:
    """Where one model step (or one batch of texts to embed) goes and its body, before
    the person's extras are merged."""

    url: str
    body: dict[str, Any]
    params: dict[str, str] | None = None


class Endpoint:
    """What a spec may ask of its adapter while listing or describing models: JSON from
    the endpoint, with the spec's headers and its wording of failures."""

    def __init__(self, transport: HttpTransport, spec: WireSpec, api_key: str | None) -> None:
        self._http = transport
        self._spec = spec
        self._key = api_key

    @property
    def has_key(self) -> bool:
        return self._key is not None

    async def open(
        self,
        method: str,
        url: str,
        *,
        headers: Mapping[str, str],
        body: dict[str, Any] | None = None,
        params: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """`HttpTransport.open`, its HTTP errors worded again where the spec says so."""
        try:
            return await self._http.open(method, url, headers=headers, body=body, params=params)
        except ProviderHTTPError as error:
            reworded = self._spec.reworded(error, has_key=self.has_key)
            if reworded is error:
                raise
            raise reworded from error

    async def get_json(self, url: str, params: Mapping[str, str] | None = None) -> Any:
        headers = self._spec.headers(self._key, JSON)
        response = await self.open("GET", url, headers=headers, params=params)
        return await self._http.read_json(response)

    async def post_json(
        self, url: str, body: dict[str, Any], params: Mapping[str, str] | None = None
    ) -> Any:
        response = await self.open(
            "POST", url, headers=self._spec.headers(self._key, JSON), body=body, params=params
        )
        return await self._http.read_json(response)


class WireSpec:
    """One protocol's part of an adapter, bound to one endpoint (`base_url`).

    Subclasses set `url_hint` (where to look when a web page comes back) and implement
    `chat_call`, `stream_reader` and `read_completion`, and `list_models`; the rest has
    the defaults most protocols share. A protocol with embedding models implements
    `embed_call` and `read_embeddings`; one without sets `no_embeddings` to the sentence
    that says so. A spec may keep state about its endpoint (what the last model list
    said), so each adapter has its own.
    """

    url_hint: ClassVar[str]
    no_embeddings: ClassVar[str | None] = None  # why `embed` is refused (QT_TR_NOOP)
    framing: ClassVar[Framing] = "sse"
    stream_accept: ClassVar[str] = "text/event-stream"

    def __init__(self, base_url: str) -> None:
        self.base_url = self.root(base_url)

    @staticmethod
    def root(base_url: str) -> str:
        """The address requests hang off, from what the person typed."""
        return base_url.rstrip("/")

    # --- requests -----------------------------------------------------------------

    def headers(self, api_key: str | None, accept: str) -> dict[str, str]:
        """`Accept` and the key, as a bearer token unless the protocol says otherwise."""
        headers = {"Accept": accept}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        return headers

    def merge_headers(self, ours: Mapping[str, str], theirs: Mapping[str, str]) -> dict[str, str]:
        """The person's extra headers over ours."""
        return {**ours, **theirs}

    def chat_call(self, request: ChatRequest, *, stream: bool) -> ChatCall:
        raise NotImplementedError

    def reworded(self, error: ProviderHTTPError, *, has_key: bool) -> ProviderHTTPError:
        """An HTTP error in this server's own terms; most need no rewording."""
        return error

    def second_try(
        self, request: ChatRequest, body: dict[str, Any], error: ProviderHTTPError
    ) -> dict[str, Any] | None:
        """The body to send once more after `error`, or None to raise it."""
        return None

    # --- answers ------------------------------------------------------------------

    def stream_reader(self, redact: Redactor) -> StreamReader[Any]:
        raise NotImplementedError

    def whole_answer(
        self, reader: StreamReader[Any], redact: Redactor
    ) -> Callable[[Any], list[StreamEvent]]:
        """How a whole JSON answer to a streamed request is read (a server that ignored
        `stream: true`): by default the reader's own `whole`."""
        return reader.whole  # type: ignore[attr-defined, no-any-return]

    def read_completion(self, payload: Any, redact: Redactor) -> Completion:
        raise NotImplementedError

    # --- embeddings ---------------------------------------------------------------

    def embed_call(
        self, texts: Sequence[str], model: str, *, dimensions: int | None, kind: EmbeddingKind
    ) -> ChatCall:
        """The request that embeds `texts` (one batch) with `model`."""
        raise NotImplementedError

    def read_embeddings(self, payload: Any, expected: int) -> Vectors:
        """`expected` vectors from the answer, in the order of the texts; raises
        `ProviderError` for an answer that is not that."""
        raise NotImplementedError

    # --- models -------------------------------------------------------------------

    async def list_models(self, endpoint: Endpoint) -> list[str]:
        raise NotImplementedError

    async def list_embedding_models(self, endpoint: Endpoint) -> list[str]:
        """The endpoint's models that make vectors. Most lists say nothing of what a
        model does, so the names decide (`embedding_models.is_embedding_model`)."""
        return embedding_models(await self.list_models(endpoint))

    async def describe_models(
        self, endpoint: Endpoint, models: Sequence[str]
    ) -> dict[str, ReportedCapabilities]:
        """Most model lists state nothing about capabilities: the table speaks for them."""
        return {}


class HttpAdapter:
    """`ChatProvider` for one endpoint of the protocol `spec` speaks."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        spec: WireSpec,
        api_key: str | None = None,
        *,
        connect_timeout: float = CONNECT_TIMEOUT_S,
        stall_timeout: float = STALL_TIMEOUT_S,
    ) -> None:
        self._http = HttpTransport(
            client, secret=api_key, connect_timeout=connect_timeout, stall_timeout=stall_timeout
        )
        self._key = (api_key or "").strip() or None
        self.spec = spec
        self._endpoint = Endpoint(self._http, spec, self._key)

    @property
    def base_url(self) -> str:
        """The address every request is made under, as the spec normalised it."""
        return self.spec.base_url

    def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        redact = self._http.redact
        reader = self.spec.stream_reader(redact)
        return self._http.stream(
            lambda: self._send(request, stream=True),
            reader,
            framing=self.spec.framing,
            whole_answer=self.spec.whole_answer(reader, redact),
            hint=self.spec.url_hint,
        )

    async def complete(self, request: ChatRequest) -> Completion:
        response = await self._send(request, stream=False)
        payload = await self._http.read_json(response)
        return self.spec.read_completion(payload, self._http.redact)

    async def list_models(self) -> list[str]:
        return await self.spec.list_models(self._endpoint)

    async def list_embedding_models(self) -> list[str]:
        if self.spec.no_embeddings is not None:
            return []
        return await self.spec.list_embedding_models(self._endpoint)

    async def describe_models(self, models: Sequence[str]) -> dict[str, ReportedCapabilities]:
        return await self.spec.describe_models(self._endpoint, models)

    async def embed(
        self,
        texts: Sequence[str],
        model: str,
        *,
        dimensions: int | None = None,
        kind: EmbeddingKind = EmbeddingKind.DOCUMENT,
    ) -> list[list[float]]:
        """Vectors for `texts` in their order, in batches (`providers/embeddings.py`).

        Sent as the model list is asked for: the key, the proxy and the wording of
        errors apply, the person's extra headers and body (made for chat requests) do not.
        """
        if self.spec.no_embeddings is not None:
            raise ProviderError(tr(self.spec.no_embeddings))

        async def send(batch: list[str]) -> Vectors:
            call = self.spec.embed_call(batch, model, dimensions=dimensions, kind=kind)
            payload = await self._endpoint.post_json(call.url, call.body, call.params)
            # Checking 64 × 768 numbers one by one takes milliseconds: not on the loop.
            return await asyncio.to_thread(self.spec.read_embeddings, payload, len(batch))

        return await embed_in_batches(texts, send)

    async def _send(self, request: ChatRequest, *, stream: bool) -> httpx.Response:
        """The model step's request, the person's extra body and headers merged last."""
        call = self.spec.chat_call(request, stream=stream)
        body = merge_extra_body(call.body, request.extra_body)
        accept = self.spec.stream_accept if stream else JSON
        headers = self.spec.merge_headers(
            self.spec.headers(self._key, accept), request.extra_headers
        )
        try:
            return await self._endpoint.open(
                "POST", call.url, headers=headers, body=body, params=call.params
            )
        except ProviderHTTPError as error:
            again = self.spec.second_try(request, body, error)
            if again is None:
                raise
            return await self._endpoint.open(
                "POST", call.url, headers=headers, body=again, params=call.params
            )
