"""A real HTTP/1.1 server on 127.0.0.1 that speaks the OpenAI wire format, scripted per test.

Provider code is tested against real sockets rather than a mocked transport, because
what breaks in the field lives below httpx's API: chunk boundaries, a UTF-8 character
split across two reads, a connection dropped mid-body, a server that goes quiet.

Each response is a list of steps (`Head`, `Send`, `SendRaw`, `SendNow`, `Sleep`,
`Gate`, `Disconnect`) played in order, every write flushed on its own so the client
really sees separate reads. Responses are queued: each request pops the next one; with
the queue empty the server answers like a tiny OpenAI-compatible endpoint (a short
streamed "Hello from the test server.", a completion, or a model list), so UI tests can
just type and see text.

The server runs its own asyncio loop on its own thread, so it works the same under
`asyncio.run` and under a Qt (qasync) loop. Every response uses `Connection: close`:
one request per connection keeps the request/response pairing and the "client went
away" signal unambiguous.

    server.enqueue(sse_response(chat_chunk(content="Hi"), Sleep(0.2), chat_chunk(
        finish_reason="stop"), usage_chunk(3, 1), DONE))
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, Literal

from tests.support.waiting import CEILING_S

DEFAULT_ANSWER = "Hello from the test server."
DEFAULT_MODELS = ("test-model", "test-model-mini")
MODEL = "test-model"
DONE = b"data: [DONE]\n\n"

# --- steps ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Head:
    """Status line and headers. `framing` decides how body writes reach the wire:
    "chunked" (each `Send` is one HTTP chunk), "close" (raw bytes, body ends when the
    connection closes) or "length" (raw bytes; give a Content-Length header yourself).
    `Connection: close` is always added."""

    status: int = 200
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "text/event-stream"),)
    framing: Literal["chunked", "close", "length"] = "chunked"


@dataclass(frozen=True, slots=True)
class Send:
    """Body bytes, framed per `Head.framing`, then flushed (`drain`)."""

    data: bytes


@dataclass(frozen=True, slots=True)
class SendRaw:
    """Bytes written to the socket as they are, bypassing the framing, then flushed."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Sleep:
    """Pause (a slow or stalled server). Cut short, ending the script, if the client leaves."""

    seconds: float


@dataclass(frozen=True, slots=True)
class Disconnect:
    """Drop the connection now, without finishing the body."""


@dataclass(frozen=True, slots=True)
class SendNow:
    """Body bytes made by `make()` as the step plays (a chunk carrying the time it was
    sent, say), framed and flushed like `Send`."""

    make: Callable[[], bytes]


@dataclass(frozen=True, slots=True)
class Gate:
    """Wait until the test sets `opened` (it did something mid-stream), at most
    `timeout` seconds; cut short, ending the script, if the client leaves."""

    opened: threading.Event
    timeout: float = 60.0


Step = Head | Send | SendRaw | Sleep | Disconnect | SendNow | Gate


# --- OpenAI wire builders ---------------------------------------------------------------


def _dumps(obj: Any) -> bytes:
    """Compact JSON with raw UTF-8, as OpenAI sends it."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def sse_data(payload: Any) -> bytes:
    """One `data:` event; `payload` is JSON-encoded unless it is already str/bytes."""
    if isinstance(payload, bytes):
        body = payload
    elif isinstance(payload, str):
        body = payload.encode()
    else:
        body = _dumps(payload)
    return b"data: " + body + b"\n\n"


def usage_dict(prompt: int, completion: int, reasoning: int | None = None) -> dict[str, Any]:
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    if reasoning is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
    return usage


def chat_chunk(
    content: str | None = None,
    reasoning: str | None = None,
    finish_reason: str | None = None,
    usage: Mapping[str, Any] | None = None,
    *,
    role: str | None = None,
    reasoning_key: str = "reasoning_content",
    model: str = MODEL,
) -> bytes:
    """A `chat.completion.chunk` SSE event, byte for byte as OpenAI streams it.

    With only `usage` given it is the usage-only final chunk (`"choices": []`), as sent
    for `stream_options.include_usage`.
    """
    chunk: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": model,
        "system_fingerprint": "fp_test",
        "choices": [],
    }
    if (content, reasoning, finish_reason, role) != (None, None, None, None) or usage is None:
        delta: dict[str, Any] = {}
        if role is not None:
            delta["role"] = role
        if content is not None:
            delta["content"] = content
        if reasoning is not None:
            delta[reasoning_key] = reasoning
        chunk["choices"] = [
            {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
        ]
    chunk["usage"] = dict(usage) if usage is not None else None
    return sse_data(chunk)


def usage_chunk(prompt: int, completion: int, reasoning: int | None = None) -> bytes:
    return chat_chunk(usage=usage_dict(prompt, completion, reasoning))


def completion_body(
    content: str,
    *,
    reasoning: str | None = None,
    finish_reason: str = "stop",
    usage: Mapping[str, Any] | None = None,
    model: str = MODEL,
) -> dict[str, Any]:
    """A non-streaming `chat.completion` object."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if reasoning is not None:
        message["reasoning_content"] = reasoning
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": dict(usage) if usage is not None else usage_dict(5, 5),
    }


def models_body(ids: Iterable[str] = DEFAULT_MODELS) -> dict[str, Any]:
    data = [{"id": i, "object": "model", "created": 0, "owned_by": "test"} for i in ids]
    return {"object": "list", "data": data}


# --- whole responses --------------------------------------------------------------------


def sse_response(
    *parts: bytes | Step, status: int = 200, headers: Mapping[str, str] | None = None
) -> list[Step]:
    """A chunked `text/event-stream` response; bytes become `Send` steps, steps pass as is."""
    all_headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
    all_headers.update(headers or {})
    steps: list[Step] = [Head(status, tuple(all_headers.items()))]
    steps += [Send(p) if isinstance(p, bytes) else p for p in parts]
    return steps


def raw_response(
    body: bytes, *, status: int = 200, headers: Mapping[str, str] | None = None
) -> list[Step]:
    """A complete response with a Content-Length body."""
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    all_headers["Content-Length"] = str(len(body))
    return [Head(status, tuple(all_headers.items()), framing="length"), Send(body)]


def json_response(
    payload: Any, *, status: int = 200, headers: Mapping[str, str] | None = None
) -> list[Step]:
    return raw_response(_dumps(payload), status=status, headers=headers)


def error_response(
    status: int,
    message: str,
    *,
    error_type: str = "invalid_request_error",
    code: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> list[Step]:
    """An OpenAI-style JSON error body, e.g. 401 `invalid_api_key` or 429 with Retry-After."""
    error = {"message": message, "type": error_type, "param": None, "code": code}
    return json_response({"error": error}, status=status, headers=headers)


def default_stream(text: str = DEFAULT_ANSWER) -> list[Step]:
    """`text` streamed word by word, then finish_reason, usage and [DONE]."""
    words = text.split(" ")
    pieces = [w if i == 0 else " " + w for i, w in enumerate(words)]
    chunks = [chat_chunk(role="assistant", content="")]
    chunks += [chat_chunk(content=p) for p in pieces]
    chunks += [chat_chunk(finish_reason="stop"), usage_chunk(12, len(pieces)), DONE]
    return sse_response(*chunks)


# --- the server -------------------------------------------------------------------------


@dataclass(slots=True)
class RecordedRequest:
    """What the server received. Header names are lower-cased; `received_at` is the
    server's own `time.monotonic()` when the whole request had arrived."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    received_at: float = field(default_factory=time.monotonic)
    client_gone: threading.Event = field(default_factory=threading.Event)

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class SSEServer:
    """Start with `start()` (or the `sse_server` fixture); `stop()` ends every connection."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = 0
        self._queue: deque[list[Step]] = deque()
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Condition()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._startup_error: BaseException | None = None
        self._router: Callable[[RecordedRequest], Sequence[Step] | None] | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    # --- scripting (any thread) ------------------------------------------------------

    def enqueue(self, *steps: Step | Sequence[Step]) -> None:
        """Queue one response: `enqueue(sse_response(...))` or `enqueue(Head(), Send(b""))`."""
        flat: list[Step] = []
        for item in steps:
            flat.extend([item] if isinstance(item, Step) else item)  # type: ignore[arg-type]
        with self._lock:
            self._queue.append(flat)

    def script(self, *responses: Sequence[Step]) -> None:
        """Queue several responses, one per coming request, in order."""
        for response in responses:
            self.enqueue(response)

    def route(self, responder: Callable[[RecordedRequest], Sequence[Step] | None]) -> None:
        """Answer by the request itself, for concurrent requests whose order is not
        fixed: `responder(request)` gives the steps, or None to use the queue."""
        with self._lock:
            self._router = responder

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def wait_for_requests(self, count: int, timeout: float = CEILING_S) -> bool:
        with self._lock:
            return self._lock.wait_for(lambda: len(self._requests) >= count, timeout)

    # --- lifecycle -------------------------------------------------------------------

    def start(self) -> SSEServer:
        ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._run, args=(ready,), name="sse-test-server", daemon=True
        )
        self._thread.start()
        if not ready.wait(CEILING_S):
            raise RuntimeError("the test server did not start")
        if self._startup_error is not None:
            raise RuntimeError("the test server did not start") from self._startup_error
        return self

    def stop(self) -> None:
        if self._loop is None or self._thread is None or not self._thread.is_alive():
            return
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def __enter__(self) -> SSEServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _run(self, ready: threading.Event) -> None:
        assert self._loop is not None
        loop = self._loop
        asyncio.set_event_loop(loop)
        try:
            self._server = loop.run_until_complete(asyncio.start_server(self._handle, self.host, 0))
            self.port = self._server.sockets[0].getsockname()[1]
        except BaseException as exc:
            self._startup_error = exc
            ready.set()
            loop.close()
            return
        ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(self._shutdown())
            loop.close()

    async def _shutdown(self) -> None:
        assert self._server is not None
        self._server.close()
        # Every task, not only `_tasks`: a connection accepted just before the stop has
        # a handler task that has not run yet (so has not registered itself); left
        # pending, it would be destroyed with the loop, never awaited.
        current = asyncio.current_task()
        pending = [t for t in asyncio.all_tasks() if t is not current]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        await self._server.wait_closed()

    # --- connections -----------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        watcher: asyncio.Task[None] | None = None
        try:
            request = await _read_request(reader)
            if request is None:
                return
            with self._lock:
                self._requests.append(request)
                routed = self._router(request) if self._router is not None else None
                if routed is not None:
                    steps = list(routed)
                else:
                    steps = self._queue.popleft() if self._queue else _default_response(request)
                self._lock.notify_all()
            gone = asyncio.Event()
            watcher = asyncio.create_task(_watch_eof(reader, request, gone))
            await _play(steps, writer, gone)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the client went away; that is what some tests are about
        finally:
            if watcher is not None:
                watcher.cancel()
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
            self._tasks.discard(task)


async def _read_request(reader: asyncio.StreamReader) -> RecordedRequest | None:
    """Minimal HTTP/1.1 parsing: request line, headers, Content-Length body."""
    request_line = await reader.readline()
    if not request_line.strip():
        return None
    method, target, _version = request_line.decode("latin-1").split(" ", 2)
    headers: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return RecordedRequest(method, target, headers, body)


async def _watch_eof(
    reader: asyncio.StreamReader, request: RecordedRequest, gone: asyncio.Event
) -> None:
    """Notice the client closing its side (cancelled stream, client timeout)."""
    with contextlib.suppress(ConnectionError):
        while await reader.read(65536):
            pass
    request.client_gone.set()
    gone.set()


async def _play(steps: Sequence[Step], writer: asyncio.StreamWriter, gone: asyncio.Event) -> None:
    head: Head | None = None
    for planned in steps:
        step = Send(planned.make()) if isinstance(planned, SendNow) else planned
        if isinstance(step, Head):
            head = step
            writer.write(_head_bytes(step))
        elif isinstance(step, Send):
            if head is None:
                head = Head()
                writer.write(_head_bytes(head))
            if head.framing == "chunked":
                if not step.data:
                    continue  # an empty chunk would end the body
                writer.write(b"%x\r\n%b\r\n" % (len(step.data), step.data))
            else:
                writer.write(step.data)
        elif isinstance(step, SendRaw):
            writer.write(step.data)
        elif isinstance(step, Sleep):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(gone.wait(), step.seconds)
            if gone.is_set():
                return
            continue
        elif isinstance(step, Gate):
            deadline = asyncio.get_running_loop().time() + step.timeout
            while not step.opened.is_set() and not gone.is_set():
                if asyncio.get_running_loop().time() > deadline:
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(gone.wait(), 0.01)
            if gone.is_set():
                return
            continue
        elif isinstance(step, Disconnect):
            writer.transport.abort()
            return
        await writer.drain()
    if head is not None and head.framing == "chunked":
        writer.write(b"0\r\n\r\n")
        await writer.drain()


def _head_bytes(head: Head) -> bytes:
    try:
        reason = HTTPStatus(head.status).phrase
    except ValueError:
        reason = "Unknown"
    lines = [f"HTTP/1.1 {head.status} {reason}"]
    lines += [f"{name}: {value}" for name, value in head.headers]
    if head.framing == "chunked":
        lines.append("Transfer-Encoding: chunked")
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _default_response(request: RecordedRequest) -> list[Step]:
    """With nothing scripted, behave like a tiny OpenAI-compatible server."""
    path = request.path.split("?", 1)[0]
    if request.method == "GET" and path.endswith("/models"):
        return json_response(models_body())
    if request.method == "POST" and path.endswith("/chat/completions"):
        try:
            streaming = bool((request.json or {}).get("stream"))
        except ValueError:
            return error_response(400, "The request body is not valid JSON")
        return default_stream() if streaming else json_response(completion_body(DEFAULT_ANSWER))
    return error_response(404, f"Unknown route {request.method} {path}", code="not_found")
