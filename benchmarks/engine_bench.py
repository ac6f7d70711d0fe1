"""What the engine adds to a streamed answer, against reading the same stream bare.

Run from the repository root:  python benchmarks/engine_bench.py [--runs 7] [--chunks 4000]

A loopback server (this script with --serve, in a process of its own) answers every
request with one OpenAI Chat Completions stream, byte for byte as OpenAI sends it: a
role chunk, N content chunks of a word each, the finish and usage chunks and
`data: [DONE]`, every event its own HTTP chunk, written and drained one by one.

In process, from the request to the end of the answer, on one event loop with one
floor client and one Parley that serve every run (as the app's live on):
- floor: `httpx.AsyncClient` streams the response, splits it into SSE events and
  `json.loads` each, keeping the content;
- Parley: a real `ChatService` (a SQLite database in a temporary folder, settings
  pointing at the server, the app's own httpx client) sends one message, from `send`
  to its `GenerationFinished`: the request built, the stream decoded and folded into
  the answer's parts, the UI updates (every 40 ms) and saves (every 0.5 s) on the way
  and the final save.

As whole processes (this script with --child): the same two, each a fresh Python that
imports what it needs, does one answer and exits, timed from outside; Parley's opens
the database the runs in process left, as Parley opens its own at start-up, and ends
as `parley` does (`core/collector.py`: no final collections over a heap already closed).

The two alternate, run after run, and the medians are printed (the first run of each in
process, which pays one-time imports and warm-ups, is not counted); each ratio is set
against its target: 1.3× in process, 1.5× as whole processes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# A bench never touches the person's keyring (the provider has no key anyway).
os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")

# Only the standard library at the top: the whole-process figures time each child's own
# imports (httpx for the floor, Parley's modules for Parley), so they are made inside.

TARGET_IN_PROCESS = 1.3
TARGET_PROCESS = 1.5
MODEL = "bench-model"
NAMES = ("floor", "parley")
WORDS = ("The", " quick", " brown", " fox", " jumps", " over", " the", " lazy", " dog", ".\n")

# --- the server ---------------------------------------------------------------------------


def _event(chunk: dict[str, object]) -> bytes:
    body = json.dumps(chunk, separators=(",", ":"), ensure_ascii=False).encode()
    return b"data: " + body + b"\n\n"


def _chunk(delta: dict[str, str], finish: str | None = None, usage: object = None) -> bytes:
    choices = [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
    return _event(
        {
            "id": "chatcmpl-bench",
            "object": "chat.completion.chunk",
            "created": 1700000000,
            "model": MODEL,
            "system_fingerprint": "fp_bench",
            "choices": [] if usage else choices,
            "usage": usage,
        }
    )


def answer_text(chunks: int) -> str:
    return "".join(WORDS[n % len(WORDS)] for n in range(chunks))


def stream_events(chunks: int) -> list[bytes]:
    usage = {"prompt_tokens": 20, "completion_tokens": chunks, "total_tokens": 20 + chunks}
    events = [_chunk({"role": "assistant", "content": ""})]
    events += [_chunk({"content": WORDS[n % len(WORDS)]}) for n in range(chunks)]
    events += [_chunk({}, "stop"), _chunk({}, usage=usage), b"data: [DONE]\n\n"]
    return events


async def _serve(chunks: int) -> None:
    body = [b"%x\r\n%b\r\n" % (len(e), e) for e in stream_events(chunks)] + [b"0\r\n\r\n"]
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            await reader.readexactly(length)
            writer.write(head)
            for piece in body:
                writer.write(piece)
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    # Until the parent goes away (it closes our stdin).
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    server.close()


class Server:
    def __init__(self, chunks: int) -> None:
        self._process = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--chunks", str(chunks)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._process.stdout is not None
        self.base_url = f"http://127.0.0.1:{int(self._process.stdout.readline())}/v1"

    def stop(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(10)


# --- the two clients ----------------------------------------------------------------------


class Floor:
    """httpx reading the stream: SSE events split, each `data:` parsed, content kept."""

    def __init__(self, base_url: str) -> None:
        self._url = base_url + "/chat/completions"

    async def __aenter__(self) -> Floor:
        import httpx

        self._client = httpx.AsyncClient(timeout=60)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._client.aclose()

    async def answer(self) -> tuple[float, str]:
        """Seconds from the request to the end of the stream, and the answer's text."""
        started = time.perf_counter()
        body = {"model": MODEL, "messages": [{"role": "user", "content": "Go"}], "stream": True}
        pieces: list[str] = []
        async with self._client.stream("POST", self._url, json=body) as response:
            buffer = b""
            async for data in response.aiter_bytes():
                *events, buffer = (buffer + data).split(b"\n\n")
                for event in events:
                    payload = event.removeprefix(b"data: ")
                    if payload != b"[DONE]":
                        choices = json.loads(payload)["choices"]
                        if choices and (content := choices[0]["delta"].get("content")):
                            pieces.append(content)
        text = "".join(pieces)
        return time.perf_counter() - started, text


class Parley:
    """A real ChatService (a database, settings naming the server, the app's own httpx
    client) sending one message in a new chat, until its answer has finished."""

    def __init__(self, base_url: str, folder: Path) -> None:
        self._base_url = base_url
        self._folder = folder

    async def __aenter__(self) -> Parley:
        from desktop.engine.settings_service import SettingsService
        from desktop.engine.turn.chat_service import ChatService
        from desktop.storage.database import Database
        from desktop.storage.repository import ChatRepository
        from desktop.storage.secrets import SecretStore

        folder = self._folder
        provider = {
            "id": "local",
            "name": "Local",
            "kind": "openai_chat",
            "base_url": self._base_url,
            "models": [MODEL],
        }
        settings = json.dumps({"version": 1, "providers": [provider]})
        (folder / "settings.json").write_text(settings, encoding="utf-8")
        self._database = Database.open(folder / "parley.db")
        self._settings = SettingsService(folder / "settings.json", SecretStore())
        self._chat = ChatService(ChatRepository(self._database), self._settings)
        self._finished = asyncio.Event()
        self._chat.events.subscribe(self._heard)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._chat.shutdown()
        await self._settings.aclose()
        self._database.close()

    def _heard(self, event: object) -> None:
        from desktop.core.events import GenerationFinished

        if isinstance(event, GenerationFinished):
            self._finished.set()

    async def answer(self) -> tuple[float, str]:
        """Seconds from `send` to `GenerationFinished`, and the answer as saved."""
        from desktop.core.models import ModelRef

        self._finished.clear()
        started = time.perf_counter()
        sent = await self._chat.send(None, "Go", ModelRef("local", MODEL))
        await self._finished.wait()
        elapsed = time.perf_counter() - started
        return elapsed, self._chat.active_path(sent.conversation_id)[-1].text


async def one_answer(name: str, base_url: str, folder: Path) -> None:
    """A child process's whole work: one answer, then exit."""
    async with Floor(base_url) if name == "floor" else Parley(base_url, folder) as client:
        await client.answer()


# --- measuring ----------------------------------------------------------------------------


async def in_process(
    base_url: str, folder: Path, runs: int, expected: str
) -> dict[str, list[float]]:
    """One loop, one floor client and one Parley (as in the app, they live on); the first
    run of each warms up (imports, compiled SQL, the first connection) and is dropped."""
    times: dict[str, list[float]] = {name: [] for name in NAMES}
    async with Floor(base_url) as floor, Parley(base_url, folder) as parley:
        clients = {"floor": floor, "parley": parley}
        for run in range(runs + 1):
            for name, client in clients.items():
                elapsed, text = await client.answer()
                if text != expected:
                    raise SystemExit(f"{name} got {len(text)} characters, not {len(expected)}")
                if run:
                    times[name].append(elapsed)
    return times


def whole_processes(base_url: str, folder: Path, runs: int) -> dict[str, list[float]]:
    """Each run a fresh interpreter; Parley's opens the database the runs in process
    left (as Parley opens its own at start-up) and adds one chat to it."""
    times: dict[str, list[float]] = {name: [] for name in NAMES}
    for _ in range(runs):
        for name in NAMES:
            command = [sys.executable, __file__, "--child", name, "--url", base_url]
            started = time.perf_counter()
            subprocess.run([*command, "--folder", str(folder)], check=True)
            times[name].append(time.perf_counter() - started)
    return times


def table(title: str, times: dict[str, list[float]], target: float) -> None:
    ours, bare = statistics.median(times["parley"]), statistics.median(times["floor"])
    print(title)
    print(f"  {'Parley':>10}{'floor':>10}{'ratio':>8}{'target':>8}")
    print(f"  {ours:>9.3f}s{bare:>9.3f}s{ours / bare:>7.2f}×{target:>7.1f}×")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--chunks", type=int, default=4000)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child", choices=NAMES, help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(_serve(args.chunks))
        return
    if args.child:
        asyncio.run(one_answer(args.child, args.url, args.folder))
        if args.child == "parley":  # it leaves as `parley` does, everything closed
            from desktop.core import collector

            collector.skip_final_collections()
        return
    server = Server(args.chunks)
    try:
        with tempfile.TemporaryDirectory(prefix="parley-bench-") as name:
            folder, url = Path(name), server.base_url
            expected = answer_text(args.chunks)
            inside = asyncio.run(in_process(url, folder, args.runs, expected))
            outside = whole_processes(url, folder, args.runs)
    finally:
        server.stop()
    print(f"one streamed answer of {args.chunks:,} chunks, median of {args.runs} alternating runs")
    table("in process, send → finished", inside, TARGET_IN_PROCESS)
    table("whole processes, start → exit (imports included)", outside, TARGET_PROCESS)


if __name__ == "__main__":
    main()
