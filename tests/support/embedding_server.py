"""A loopback embedding server speaking OpenAI's, Ollama's and Gemini's embedding wires,
with vectors a test can predict.

One `EmbeddingServer` answers all three, byte for byte in each vendor's shape:

    POST {url}/v1/embeddings                                   (OpenAI, both kinds)
    POST {url}/api/embed                                       (Ollama)
    POST {url}/v1beta/models/{model}:batchEmbedContents        (Gemini)

so one server serves a provider of any of these kinds (`base_url(kind)` gives the
address the person would type). It is the `SSEServer` (`sse_server.py`) with a router:
real sockets, every request recorded, faults scripted with the same steps.

**The vectors** (`vector_for`): a hashed bag of words. Each word (lower case, letters and
digits) is first mapped through `SYNONYMS` ("automobile" → "car"), then hashed (BLAKE2b,
stable across runs and machines) to one of `dims` buckets, which counts 1; the vector is
then L2-normalised. Texts sharing words point the same way, so a search finds "the car
would not start" for the query "automobile" while a word index alone would not. With no
word at all the vector is a unit vector on bucket 0, so every answer is a valid
embedding. `dims` is 256, or the size a request asks for (`dimensions`,
`outputDimensionality`), so a test can see the size was sent.

**Model lists**: `GET /v1/models`, `/api/tags` and `/v1beta/models` list `models` (model
id → whether it embeds; Gemini's entries say so in `supportedGenerationMethods`).

**Counting and reading requests**: `requests` (every request, `RecordedRequest` with
`.path`, `.headers` and `.json`), `inputs()` (the texts of each request, whatever its
wire), `embedded()` (every text embedded, in the order received), `wait_for_requests(n)`,
`peak_in_flight` (the most requests that were being answered at once; a scripted
answer that does not start with a `Head` is not counted).

**Latency**: `latency_s` makes every answer start that much later (a remote model).

**Faults**: `enqueue(steps)` answers the next request with `steps` instead (an HTTP
error built with `sse_server.error_response`, `gemini_wire.error_response`,
`ollama_wire.error_response`, a malformed body with `json_response`...);
`hold()` returns an event: until it is set, every answer waits (a slow server; the wait
ends early if the client goes away, which `requests[i].client_gone` then shows).

    with EmbeddingServer() as server:
        provider = HttpAdapter(client, OllamaSpec(server.base_url(ProviderKind.OLLAMA)))
        vectors = await provider.embed(["a car", "an automobile"], EMBEDDING_MODEL)
        assert vectors[0] == vectors[1] == vector_for("a car")
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from desktop.core.settings import ProviderKind
from tests.support.gemini_wire import error_response as gemini_error
from tests.support.gemini_wire import model_entry
from tests.support.gemini_wire import models_page as gemini_models_page
from tests.support.ollama_wire import tags_body
from tests.support.sse_server import (
    Gate,
    Head,
    RecordedRequest,
    SendNow,
    Sleep,
    SSEServer,
    Step,
    error_response,
    json_response,
    models_body,
)
from tests.support.waiting import CEILING_S

DIMS = 256
EMBEDDING_MODEL = "test-embed"  # any model name is answered; this one reads as an embedder

# Words that mean the same for the test vectors: the left one is embedded as the right.
SYNONYMS: Mapping[str, str] = {
    "automobile": "car",
    "automobiles": "car",
    "cars": "car",
    "motorcar": "car",
    "physician": "doctor",
    "doctors": "doctor",
    "fix": "repair",
    "fixed": "repair",
    "repaired": "repair",
}

_WORD = re.compile(r"\w+")


def words_of(text: str) -> list[str]:
    """The words a text is embedded as: lower case, synonyms mapped."""
    return [SYNONYMS.get(word, word) for word in _WORD.findall(text.lower())]


def bucket(word: str, dims: int = DIMS) -> int:
    """Which of `dims` buckets `word` counts in."""
    digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % dims


def vector_for(text: str, dims: int = DIMS) -> list[float]:
    """The server's vector for `text`: its hashed bag of words, L2-normalised."""
    counts = [0.0] * dims
    for word in words_of(text):
        counts[bucket(word, dims)] += 1.0
    norm = math.sqrt(sum(value * value for value in counts))
    if norm == 0.0:
        counts[0] = 1.0
        return counts
    return [value / norm for value in counts]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity (the dot product, for the server's unit vectors)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norms if norms else 0.0


# --- the three wires --------------------------------------------------------------------


def openai_body(vectors: Sequence[Sequence[float]], model: str) -> dict[str, Any]:
    """An OpenAI `/embeddings` answer."""
    return {
        "object": "list",
        "data": [
            {"object": "embedding", "index": i, "embedding": list(v)} for i, v in enumerate(vectors)
        ],
        "model": model,
        "usage": {"prompt_tokens": 3 * len(vectors), "total_tokens": 3 * len(vectors)},
    }


def ollama_body(vectors: Sequence[Sequence[float]], model: str) -> dict[str, Any]:
    """An Ollama `/api/embed` answer."""
    return {
        "model": model,
        "embeddings": [list(v) for v in vectors],
        "total_duration": 14143917,
        "load_duration": 1019500,
        "prompt_eval_count": 3 * len(vectors),
    }


def gemini_body(vectors: Sequence[Sequence[float]]) -> dict[str, Any]:
    """A Gemini `batchEmbedContents` answer."""
    return {"embeddings": [{"values": list(v)} for v in vectors]}


def wire_of(request: RecordedRequest) -> str | None:
    """ "openai", "ollama" or "gemini", from the request's path; None for anything else."""
    path = request.path.split("?", 1)[0]
    if request.method != "POST":
        return None
    if path.endswith("/embeddings"):
        return "openai"
    if path == "/api/embed":
        return "ollama"
    if path.endswith(":batchEmbedContents"):
        return "gemini"
    return None


def inputs_of(request: RecordedRequest) -> list[str]:
    """The texts one embedding request carries, whatever its wire."""
    body = request.json or {}
    if wire_of(request) == "gemini":
        return [r["content"]["parts"][0]["text"] for r in body.get("requests", [])]
    given = body.get("input", [])
    return [given] if isinstance(given, str) else list(given)


# The models the server lists, and which of them embed (Gemini's list says so).
MODELS: Mapping[str, bool] = {
    "gpt-4o-mini": False,
    "text-embedding-3-small": True,
    "nomic-embed-text": True,
    "gemini-2.5-flash": False,
    "gemini-embedding-001": True,
}


def model_list(request: RecordedRequest, models: Mapping[str, bool]) -> list[Step] | None:
    """The model list in the wire the path asks for; None if it asks for something else."""
    path = request.path.split("?", 1)[0]
    if request.method != "GET":
        return None
    if path == "/v1/models":
        return json_response(models_body(models))
    if path == "/api/tags":
        return json_response(tags_body(models))
    if path == "/v1beta/models":
        methods = {True: ("embedContent", "batchEmbedContents"), False: ("generateContent",)}
        entries = [model_entry(name, methods[embeds]) for name, embeds in models.items()]
        return json_response(gemini_models_page(entries))
    return None


def answer(request: RecordedRequest, dims: int = DIMS) -> list[Step]:
    """The well-formed answer to an embedding request of any of the three wires."""
    wire = wire_of(request)
    if wire is None:
        return error_response(404, f"Unknown route {request.method} {request.path}")
    try:
        body = request.json or {}
    except ValueError:
        return error_response(400, "The request body is not valid JSON")
    texts = inputs_of(request)
    if wire == "gemini":
        requests = body.get("requests", [])
        named = "models/" + request.path.split("?", 1)[0].rsplit("/", 1)[-1].split(":")[0]
        if any(r.get("model") != named for r in requests):  # as Google refuses it
            return gemini_error(400, "Model names should match", "INVALID_ARGUMENT")
        size = requests[0].get("outputDimensionality", dims) if requests else dims
        return json_response(gemini_body([vector_for(t, size) for t in texts]))
    size = body.get("dimensions", dims)
    vectors = [vector_for(t, size) for t in texts]
    model = str(body.get("model", ""))
    if wire == "openai":
        return json_response(openai_body(vectors, model))
    return json_response(ollama_body(vectors, model))


# --- the server -------------------------------------------------------------------------


class EmbeddingServer:
    """Start with `start()` (or `with`, or the `embedding_server` fixture); `stop()` ends
    every connection."""

    def __init__(self, dims: int = DIMS) -> None:
        self.dims = dims
        self.models: Mapping[str, bool] = MODELS  # what GET .../models lists
        self.latency_s = 0.0  # each answer starts this much later (a remote model)
        self._http = SSEServer()
        self._http.route(self._respond)
        self._lock = threading.Lock()
        self._scripted: deque[list[Step]] = deque()
        self._release: threading.Event | None = None
        self._in_flight = 0
        self._peak = 0

    # --- addresses -----------------------------------------------------------------

    @property
    def url(self) -> str:
        """The server's root, `http://127.0.0.1:port`."""
        return self._http.url

    def base_url(self, kind: ProviderKind) -> str:
        """What a person would type as the base URL of a provider of `kind`."""
        if kind in (ProviderKind.OPENAI_CHAT, ProviderKind.OPENAI_RESPONSES):
            return f"{self.url}/v1"
        return self.url  # Ollama's root; Gemini's adapter adds /v1beta itself

    # --- what it received ----------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        return self._http.requests

    def inputs(self) -> list[list[str]]:
        """The texts of each request received, request by request."""
        return [inputs_of(request) for request in self.requests]

    def embedded(self) -> list[str]:
        """Every text received, in the order the requests arrived."""
        return [text for texts in self.inputs() for text in texts]

    def wait_for_requests(self, count: int, timeout: float = CEILING_S) -> bool:
        return self._http.wait_for_requests(count, timeout)

    @property
    def peak_in_flight(self) -> int:
        """The most requests being answered at once so far (counted from a request's
        arrival until its answer starts to be written)."""
        with self._lock:
            return self._peak

    # --- scripting -----------------------------------------------------------------

    def enqueue(self, *responses: Sequence[Step]) -> None:
        """Answer the next requests with `responses`, one each, instead of vectors."""
        with self._lock:
            self._scripted.extend(list(response) for response in responses)

    def hold(self) -> threading.Event:
        """Make every answer wait until the returned event is set (at most the test
        ceiling; a request whose client leaves ends at once)."""
        release = threading.Event()
        with self._lock:
            self._release = release
        return release

    # --- lifecycle -----------------------------------------------------------------

    def start(self) -> EmbeddingServer:
        self._http.start()
        return self

    def stop(self) -> None:
        self._http.stop()

    def __enter__(self) -> EmbeddingServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # --- answering (the server's thread) -------------------------------------------

    def _respond(self, request: RecordedRequest) -> list[Step]:
        with self._lock:
            scripted = self._scripted.popleft() if self._scripted else None
            release = self._release
        listed = model_list(request, self.models)
        steps = scripted if scripted is not None else listed or answer(request, self.dims)
        held: list[Step] = [Gate(release, CEILING_S)] if release is not None else []
        if self.latency_s:
            held.append(Sleep(self.latency_s))
        if not steps or not isinstance(steps[0], Head):
            return [*held, *steps]  # a scripted fault (a cut connection): not counted
        with self._lock:
            self._in_flight += 1
            self._peak = max(self._peak, self._in_flight)
        # The count drops once the status line is out and before the body: the client
        # cannot have the whole answer yet, so a request it sends next is never counted
        # together with this one. (An empty body write puts nothing on the wire.)
        return [*held, steps[0], SendNow(self._answered), *steps[1:]]

    def _answered(self) -> bytes:
        with self._lock:
            self._in_flight -= 1
        return b""
