"""How long local server detection takes, and whether the event loop stays free meanwhile.

Run from the repository root:  python benchmarks/local_servers_bench.py [--runs 5]

Four loopback ports stand in for Ollama, LM Studio, llama.cpp and vLLM, in three cases:
all refuse (nothing installed), all accept and never answer (the worst case: a hung
server or a port held by something else), and one real OpenAI-compatible server among
hanging ones. Parley probes them concurrently under one deadline; the baseline, measured
in the same run, asks them one after another with the same per-request timeout, as a
simple loop would. "Longest loop stall" is the longest gap seen by a 10 ms ticker on the
same loop while detecting: the window would freeze for that long (median of the runs;
the very first detection in a process also pays a one-time import of httpx's async
backend, printed on its own line).
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop.core.settings import ProviderKind  # noqa: E402
from desktop.engine.local_servers import (  # noqa: E402
    PROBE_DEADLINE_S,
    LocalServer,
    detect_local_servers,
)
from tests.support.sse_server import SSEServer  # noqa: E402

NAMES = ("Ollama", "LM Studio", "llama.cpp server", "vLLM")


def specs(ports: list[int]) -> list[LocalServer]:
    return [
        LocalServer(name, ProviderKind.OPENAI_CHAT, port, "/v1", "/models")
        for name, port in zip(NAMES, ports, strict=True)
    ]


def refused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def silent_port(stack: ExitStack) -> int:
    sock = stack.enter_context(socket.socket())
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    return sock.getsockname()[1]


async def sequential(servers: list[LocalServer]) -> int:
    """The baseline: one port after another, each with the same timeout."""
    found = 0
    timeout = httpx.Timeout(PROBE_DEADLINE_S, connect=0.4)
    async with httpx.AsyncClient(trust_env=False, timeout=timeout) as client:
        for server in servers:
            try:
                response = await client.get(server.base_url() + server.models_path)
                found += response.status_code == 200
            except httpx.HTTPError:
                pass
    return found


async def timed(work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """Wall time of `work` and the longest stall of a 10 ms ticker beside it."""
    stalls: list[float] = []
    running = True

    async def ticker() -> None:
        last = time.perf_counter()
        while running:
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            stalls.append(now - last - 0.01)
            last = now

    tick = asyncio.create_task(ticker())
    start = time.perf_counter()
    await work()
    elapsed = time.perf_counter() - start
    running = False
    await tick
    return elapsed, max(stalls, default=0.0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with ExitStack() as stack:
        server = stack.enter_context(SSEServer())
        cases = {
            "all 4 refuse": [refused_port() for _ in NAMES],
            "all 4 hang": [silent_port(stack) for _ in NAMES],
            "1 server + 3 hang": [server.port] + [silent_port(stack) for _ in NAMES[1:]],
        }
        first = asyncio.run(timed(lambda: detect_local_servers(specs(cases["all 4 refuse"]))))
        print(f"first detection in this process: longest loop stall {first[1] * 1000:.1f} ms")
        header = ("case", "Parley (concurrent)", "baseline (one by one)", "longest loop stall")
        print(f"{header[0]:<20} {header[1]:>21} {header[2]:>23} {header[3]:>20}")
        for case, ports in cases.items():
            servers = specs(ports)
            ours, base, stall = [], [], []
            for _ in range(args.runs):
                t, s = asyncio.run(timed(lambda servers=servers: detect_local_servers(servers)))
                ours.append(t)
                stall.append(s)
                base.append(asyncio.run(timed(lambda servers=servers: sequential(servers)))[0])
            print(
                f"{case:<20} {statistics.median(ours) * 1000:>18.0f} ms"
                f" {statistics.median(base) * 1000:>20.0f} ms"
                f" {statistics.median(stall) * 1000:>17.1f} ms"
            )


if __name__ == "__main__":
    main()
