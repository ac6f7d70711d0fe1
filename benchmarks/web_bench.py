"""How long reading a large web page takes, and what a web search adds to the engine's time.

Run from the repository root:  python benchmarks/web_bench.py [--runs 20]

A loopback server (tests/support/web_servers.py) serves a 2 MiB article-like HTML page
(navigation, inline scripts and styles, paragraphs with links, lists, tables) and a
SearXNG-shaped JSON answer of 8 results.

- Page: `fetch_page` end to end with its default 20,000-character cap (download,
  decode, HTML to text on a worker thread, which stops reading once it has the text it
  may return), beside its parts timed alone: the bare download with httpx, and
  `html_to_text` with that cap. "Loop stall" is the longest gap a 5 ms ticker on the
  same loop saw during the fetch: the window would freeze that long. Target: fetch to
  text <= 300 ms. For reference, `html_to_text` of the whole page without a cap (what
  a caller asking for all of a page's text pays; the standard library's parser does
  most of that work).
- Search: `web_search` against the bare GET of the same URL with the same client (the
  engine's own time, as a caller without Parley's checks would pay it), alternating;
  the overhead is the difference of the medians. Target: <= 50 ms.

p50 and p95 over `--runs` runs each, after one warm-up run.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop.core.web_search import WebEngine, WebSearchSettings  # noqa: E402
from desktop.engine.web.engines import web_search  # noqa: E402
from desktop.engine.web.html_text import html_to_text  # noqa: E402
from desktop.engine.web.page_text import fetch_page  # noqa: E402
from tests.support.web_servers import Hit, WebServer, html_response  # noqa: E402

PAGE_BYTES = 2 * 1024 * 1024 - 4096  # just under the cap: the whole page is read
FETCH_TARGET_MS = 300.0
SEARCH_TARGET_MS = 50.0
_TEXT = (
    "the of and to in is for that with as on by this from are or be at an it which "
    "network request page server result search engine query proxy certificate browser "
    "library python async event loop thread parser markup paragraph heading article"
)
WORDS = _TEXT.split()


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 20))]
    words[rng.randrange(len(words))] = f'<a href="/wiki/{words[0]}">{words[-1]}</a>'
    if rng.random() < 0.3:
        words[0] = f"<b>{words[0]}</b>"
    return " ".join(words).capitalize() + ". "


def article(size: int, seed: int = 7) -> bytes:
    """An HTML page of about `size` bytes, shaped like a long wiki article."""
    rng = random.Random(seed)
    nav = " | ".join(f"<a href='/s{i}'>Section {i}</a>" for i in range(40))
    head = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>A long article"
        "</title><style>" + "body{margin:0}.nav a{color:#06c} " * 200 + "</style>"
        "<script>" + "window.dataLayer.push({event:'x', n: 1});\n" * 300 + "</script></head>"
        "<body><nav class='nav'>" + nav + "</nav><main><article>"
    )
    parts = [head]
    total = len(head)
    section = 0
    tail = "</article></main><footer>© The wiki</footer></body></html>"
    while True:
        section += 1
        block = [f"<h2 id='s{section}'>Section {section}</h2>"]
        block += [f"<p>{''.join(sentence(rng) for _ in range(4))}</p>" for _ in range(5)]
        block.append("<ul>" + "".join(f"<li>{sentence(rng)}</li>" for _ in range(4)) + "</ul>")
        if section % 3 == 0:
            rows = "".join(
                f"<tr><td>{rng.choice(WORDS)}</td><td>{rng.randint(1, 999)}</td></tr>"
                for _ in range(6)
            )
            block.append(f"<table><tr><th>Name</th><th>Value</th></tr>{rows}</table>")
        if section % 5 == 0:
            block.append(f"<script>track('section', {section});</script>")
        text = "\n".join(block)
        if total + len(text.encode()) + len(tail.encode()) > size:
            break
        parts.append(text)
        total += len(text.encode())
    return ("".join(parts) + tail).encode()


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


async def timed(work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """Wall time of `work` in ms, and the longest gap of a 5 ms ticker beside it."""
    gaps: list[float] = []
    running = True

    async def ticker() -> None:
        last = time.perf_counter()
        while running:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    tick = asyncio.create_task(ticker())
    start = time.perf_counter()
    await work()
    elapsed = time.perf_counter() - start
    running = False
    await tick
    return elapsed * 1000, max(gaps, default=0.0) * 1000


def row(name: str, samples: list[float], target: float | None = None) -> None:
    p50, p95 = percentiles(samples)
    goal = f"  (target <= {target:g} ms: {'ok' if p50 <= target else 'MISSED'})" if target else ""
    print(f"  {name:<34}{p50:>9.1f} ms{p95:>9.1f} ms{goal}")


async def bench(server: WebServer, runs: int) -> None:
    page = article(PAGE_BYTES)
    url = server.page("/article", html_response(page))
    hits = [Hit(f"Result {i} about <b>asyncio</b>", f"https://example.org/{i}", "word " * 60,
                "2024-05-01") for i in range(8)]  # fmt: skip
    server.hits = hits
    settings = WebSearchSettings(engine=WebEngine.SEARXNG, searxng_url=server.searxng_url)
    search_url = f"{server.searxng_url}/search"
    decoded = page.decode()

    async with httpx.AsyncClient(trust_env=False) as client:

        async def fetch() -> None:
            fetched = await fetch_page(client, url)
            assert len(fetched.text) == 20_000  # the default cap; the whole page was read

        async def download() -> None:
            response = await client.get(url)
            assert len(response.content) == len(page)

        async def search() -> None:
            found = await web_search(client, settings, "python asyncio", max_results=8,
                                     secret=lambda _name: None)  # fmt: skip
            assert len(found) == 8

        async def bare_search() -> None:
            response = await client.get(search_url, params={"q": "python asyncio",
                                                            "format": "json"})  # fmt: skip
            assert response.json()["results"]

        for work in (fetch, download, search, bare_search):  # warm-up
            await work()
        fetch_ms, stalls, download_ms, convert_ms, whole_ms = [], [], [], [], []
        search_ms, bare_ms = [], []
        for _ in range(runs):
            elapsed, stall = await timed(fetch)
            fetch_ms.append(elapsed)
            stalls.append(stall)
            download_ms.append((await timed(download))[0])
            start = time.perf_counter()
            html_to_text(decoded, 20_000)
            convert_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            html_to_text(decoded)
            whole_ms.append((time.perf_counter() - start) * 1000)
            bare_ms.append((await timed(bare_search))[0])
            search_ms.append((await timed(search))[0])

    text = html_to_text(decoded)[1]
    print(f"page: {len(page) / 1024 / 1024:.2f} MiB of HTML -> {len(text):,} characters of text")
    print(f"{runs} runs each{'':<20}{'p50':>12}{'p95':>12}")
    row("fetch_page, to text (20,000 chars)", fetch_ms, FETCH_TARGET_MS)
    row("  bare download (httpx)", download_ms)
    row("  html_to_text, 20,000 chars", convert_ms)
    row("  longest loop stall while fetching", stalls)
    row("html_to_text, the whole page", whole_ms)
    row("web_search (SearXNG, 8 results)", search_ms)
    row("  bare GET of the same answer", bare_ms)
    overhead = [ours - bare for ours, bare in zip(search_ms, bare_ms, strict=True)]
    overhead_p50 = statistics.median(search_ms) - statistics.median(bare_ms)
    verdict = "ok" if overhead_p50 <= SEARCH_TARGET_MS else "MISSED"
    print(
        f"  {'search overhead (median difference)':<34}{overhead_p50:>9.1f} ms"
        f"{percentiles(overhead)[1]:>9.1f} ms  (target <= {SEARCH_TARGET_MS:g} ms: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with WebServer() as server:
        asyncio.run(bench(server, args.runs))


if __name__ == "__main__":
    main()
