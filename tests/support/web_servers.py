"""A loopback server shaped like the web search engines, and serving web pages.

One `WebServer` (the `SSEServer` of `sse_server.py` with a router: real sockets, every
request recorded, faults scripted with the same steps) answers

    GET  {url}/searx/search?q=…&format=json      SearXNG (`searxng_url` is {url}/searx)
    GET  {url}/res/v1/web/search?q=…&count=N     Brave Search
    POST {url}/tavily/search                     Tavily (JSON body)
    POST {url}/html/                             DuckDuckGo's HTML page (form body q=…)
    GET  any path given to `page()` / `redirect()`

each in that engine's own answer shape, listing `hits` (Brave and Tavily cut them to the
count asked for). `endpoints` is what `web_search(..., endpoints=)` needs to use it.
SearXNG without `format=json` answers its HTML page, as an instance whose JSON output
is off does.

`enqueue(steps)` answers the next request with `steps` instead (`json_response`,
`html_response`, a `Gate` that holds it...); `requests` lists what arrived, and
`query_of` / `form_of` read a request's parameters.
"""

from __future__ import annotations

import html
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from desktop.core.web_search import WebEngine
from tests.support.sse_server import (
    RecordedRequest,
    SSEServer,
    Step,
    json_response,
    raw_response,
)
from tests.support.waiting import CEILING_S


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result as the test means it; each engine's shape is made from it."""

    title: str
    url: str
    snippet: str
    date: str = ""


HITS: tuple[Hit, ...] = (
    Hit("Python <b>asyncio</b> docs", "https://docs.python.org/3/library/asyncio.html",
        "asyncio is a library to write <b>concurrent</b> code.", "2024-05-01T00:00:00"),
    Hit("Real Python &amp; asyncio", "https://realpython.com/async-io-python/",
        "A walkthrough of async IO in Python.", "2023-11-20"),
    Hit("Stack Overflow", "https://stackoverflow.com/questions/tagged/python-asyncio",
        "Questions tagged python-asyncio."),
)  # fmt: skip


# --- answer shapes ----------------------------------------------------------------------


def searxng_body(query: str, hits: Sequence[Hit]) -> dict[str, Any]:
    results = [
        {"url": h.url, "title": h.title, "content": h.snippet, "engine": "duckduckgo",
         "engines": ["duckduckgo", "brave"], "score": 1.0, "category": "general",
         "publishedDate": h.date or None, "parsed_url": list(urlsplit(h.url))}
        for h in hits
    ]  # fmt: skip
    return {
        "query": query,
        "number_of_results": 0,
        "results": results,
        "answers": [],
        "corrections": [],
        "infoboxes": [],
        "suggestions": [],
        "unresponsive_engines": [],
    }


def brave_body(query: str, hits: Sequence[Hit]) -> dict[str, Any]:
    results = [
        {"type": "search_result", "title": h.title, "url": h.url, "description": h.snippet,
         "is_source_local": False, "language": "en", "family_friendly": True,
         "profile": {"name": urlsplit(h.url).hostname, "url": h.url},
         **({"page_age": h.date, "age": "May 1, 2024"} if h.date else {})}
        for h in hits
    ]  # fmt: skip
    return {
        "type": "search",
        "query": {"original": query, "more_results_available": True},
        "mixed": {"type": "mixed", "main": []},
        "web": {"type": "search", "results": results, "family_friendly": True},
    }


def tavily_body(query: str, hits: Sequence[Hit]) -> dict[str, Any]:
    results = [
        {"title": h.title, "url": h.url, "content": h.snippet, "score": 0.9,
         "raw_content": None, **({"published_date": h.date} if h.date else {})}
        for h in hits
    ]  # fmt: skip
    return {
        "query": query,
        "answer": None,
        "images": [],
        "results": results,
        "response_time": 0.42,
    }


def ddg_link(url: str) -> str:
    """DuckDuckGo's redirector address for `url`, as its result links carry it."""
    return f"//duckduckgo.com/l/?uddg={quote(url, safe='')}&amp;rut=0f3a9c"


def ddg_page(hits: Sequence[Hit], *, with_ad: bool = True) -> str:
    """A results page in the markup of html.duckduckgo.com. `Hit` text means what the
    JSON engines' text means (entities decoded, <b> a highlight, other tags literal
    text), so it is written as HTML meaning the same."""

    def markup(text: str) -> str:
        escaped = html.escape(html.unescape(text), quote=False)
        return escaped.replace("&lt;b&gt;", "<b>").replace("&lt;/b&gt;", "</b>")

    ad = (
        '<div class="result results_links results_links_deep result--ad">'
        '<h2 class="result__title"><a rel="nofollow" class="result__a" '
        'href="https://duckduckgo.com/y.js?ad_domain=ads.example&amp;ad_provider=bing">'
        "Buy things</a></h2>"
        '<a class="result__snippet" href="https://duckduckgo.com/y.js?x=1">An ad.</a></div>'
    )
    blocks = [ad] if with_ad else []
    for h in hits:
        link = ddg_link(h.url)
        blocks.append(
            '<div class="result results_links results_links_deep web-result ">'
            '<div class="links_main links_deep result__body">'
            f'<h2 class="result__title"><a rel="nofollow" class="result__a" href="{link}">'
            f"{markup(h.title)}</a></h2>"
            '<div class="result__extras"><div class="result__extras__url">'
            f'<a class="result__url" href="{link}">{html.escape(h.url)}</a></div></div>'
            f'<a class="result__snippet" href="{link}">{markup(h.snippet)}</a>'
            '<div class="clear"></div></div></div>'
        )
    if not hits:
        blocks.append('<div class="no-results">No results.</div>')
    return (
        "<!DOCTYPE html><html><head><title>q at DuckDuckGo</title>"
        '<link rel="stylesheet" href="/dist/h.css"></head><body>'
        '<div id="links" class="results">' + "".join(blocks) + "</div></body></html>"
    )


# The page DuckDuckGo serves a client it takes for a bot.
DDG_CHALLENGE = (
    "<!DOCTYPE html><html><head><title>DuckDuckGo</title></head><body>"
    '<form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=botnet" '
    'method="POST"><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo '
    'too.</div><div class="anomaly-modal__description">Please complete the following '
    'challenge</div><div class="anomaly-modal__images"></div></form></body></html>'
)


def html_response(
    body: str | bytes,
    *,
    status: int = 200,
    content_type: str = "text/html; charset=utf-8",
    headers: Mapping[str, str] | None = None,
) -> list[Step]:
    data = body.encode() if isinstance(body, str) else body
    return raw_response(
        data, status=status, headers={"Content-Type": content_type, **(headers or {})}
    )


def query_of(request: RecordedRequest) -> dict[str, str]:
    """The request's query parameters (the first value of each)."""
    return {k: v[0] for k, v in parse_qs(urlsplit(request.path).query).items()}


def form_of(request: RecordedRequest) -> dict[str, str]:
    """A form-encoded body's fields (the first value of each)."""
    return {k: v[0] for k, v in parse_qs(request.body.decode()).items()}


# --- the server -------------------------------------------------------------------------


class WebServer:
    """Start with `start()` or `with`; `stop()` ends every connection."""

    def __init__(self) -> None:
        self.hits: Sequence[Hit] = HITS
        self._http = SSEServer()
        self._http.route(self._respond)
        self._lock = threading.Lock()
        self._scripted: deque[list[Step]] = deque()
        self._pages: dict[str, list[Step]] = {}

    @property
    def url(self) -> str:
        return self._http.url

    @property
    def searxng_url(self) -> str:
        return f"{self.url}/searx"

    @property
    def endpoints(self) -> dict[WebEngine, str]:
        return {
            WebEngine.BRAVE: f"{self.url}/res/v1/web/search",
            WebEngine.TAVILY: f"{self.url}/tavily/search",
            WebEngine.DUCKDUCKGO: f"{self.url}/html/",
        }

    @property
    def requests(self) -> list[RecordedRequest]:
        return self._http.requests

    def wait_for_requests(self, count: int, timeout: float = CEILING_S) -> bool:
        return self._http.wait_for_requests(count, timeout)

    def enqueue(self, *responses: Sequence[Step]) -> None:
        """Answer the next requests with `responses`, one each, whatever they ask."""
        with self._lock:
            self._scripted.extend(list(response) for response in responses)

    def page(self, path: str, steps: Sequence[Step]) -> str:
        """Serve `steps` at `path` (every time); returns the page's address."""
        with self._lock:
            self._pages[path] = list(steps)
        return f"{self.url}{path}"

    def redirect(self, path: str, location: str, status: int = 302) -> str:
        return self.page(path, html_response(b"", status=status, headers={"Location": location}))

    def start(self) -> WebServer:
        self._http.start()
        return self

    def stop(self) -> None:
        self._http.stop()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _respond(self, request: RecordedRequest) -> list[Step]:
        with self._lock:
            if self._scripted:
                return self._scripted.popleft()
            page = self._pages.get(urlsplit(request.path).path)
        if page is not None:
            return page
        path, query = urlsplit(request.path).path, query_of(request)
        method, hits = request.method, list(self.hits)
        if method == "GET" and path == "/searx/search":
            if query.get("format") != "json":
                return html_response("<html><body>SearXNG results page</body></html>")
            return json_response(searxng_body(query.get("q", ""), hits))
        if method == "GET" and path == "/res/v1/web/search":
            count = int(query.get("count", "20"))
            return json_response(brave_body(query.get("q", ""), hits[:count]))
        if method == "POST" and path == "/tavily/search":
            body = request.json or {}
            return json_response(tavily_body(body.get("query", ""), hits[: body["max_results"]]))
        if method == "POST" and path == "/html/":
            return html_response(ddg_page(hits))
        return html_response("<h1>Not found</h1>", status=404)
