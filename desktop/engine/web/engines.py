"""One web search, by the engine the person chose: SearXNG, Brave, Tavily or DuckDuckGo.

Each engine has its own address, key and answer shape; `web_search` hides them behind
one call returning cleaned `WebResult`s (results.py), or raising `WebSearchError` with a
sentence that says what to do: add a key, check it, enable JSON output, wait, or use
another engine. Keys are read through `secret` only when the engine needs one, so a
locked keyring does not stop a keyless engine.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from types import MappingProxyType
from typing import Any

import httpx

from desktop.core.i18n import tr
from desktop.core.web_search import (
    BRAVE_KEY_SECRET,
    MAX_RESULTS_LIMIT,
    SEARXNG_PASSWORD_SECRET,
    TAVILY_KEY_SECRET,
    WebEngine,
    WebSearchSettings,
)
from desktop.engine.web import duckduckgo
from desktop.engine.web.results import WebResult, WebSearchError, collect
from desktop.engine.web.transfer import Answer, host_of, request
from desktop.providers.http_errors import error_detail

log = logging.getLogger(__name__)

ENDPOINTS: Mapping[WebEngine, str] = MappingProxyType(
    {
        WebEngine.BRAVE: "https://api.search.brave.com/res/v1/web/search",
        WebEngine.TAVILY: "https://api.tavily.com/search",
        WebEngine.DUCKDUCKGO: "https://html.duckduckgo.com/html/",
    }
)
LABELS: Mapping[WebEngine, str] = MappingProxyType(
    {
        WebEngine.SEARXNG: "SearXNG",
        WebEngine.BRAVE: "Brave Search",
        WebEngine.TAVILY: "Tavily",
        WebEngine.DUCKDUCKGO: "DuckDuckGo",
    }
)
MAX_QUERY_CHARS = 400  # Brave's limit, and more than any useful query


@dataclass(frozen=True, slots=True)
class _Call:
    client: httpx.AsyncClient
    settings: WebSearchSettings
    query: str
    wanted: int
    secret: Callable[[str], str | None]
    timeout_s: float
    endpoint: str
    label: str

    def key(self, name: str) -> str | None:
        value = self.secret(name)
        return value.strip() if value and value.strip() else None


async def web_search(
    client: httpx.AsyncClient,
    settings: WebSearchSettings,
    query: str,
    *,
    max_results: int,
    secret: Callable[[str], str | None],
    timeout_s: float = 15.0,
    endpoints: Mapping[WebEngine, str] | None = None,
) -> list[WebResult]:
    """At most `max_results` (1-8) results for `query` from `settings.engine`.

    `secret(name)` gives a keyring entry (`BRAVE_KEY_SECRET`...) or None; `endpoints`
    replaces an engine's public address (SearXNG's is always the person's own).
    """
    engine = settings.engine
    if engine is None:
        raise WebSearchError(tr("Web search is off: choose an engine in Settings → Web search."))
    text = " ".join(query.split())[:MAX_QUERY_CHARS]
    if not text:
        raise WebSearchError(tr("There is nothing to search for: the query is empty."))
    wanted = max(1, min(max_results, MAX_RESULTS_LIMIT))
    endpoint = (endpoints or {}).get(engine) or ENDPOINTS.get(engine, "")
    call = _Call(client, settings, text, wanted, secret, timeout_s, endpoint, LABELS[engine])
    found = await _SEARCHES[engine](call)
    results = collect(found, wanted)
    log.info("web search via %s: %d results, %d kept", engine.value, len(found), len(results))
    return results


async def _searxng(call: _Call) -> list[WebResult]:
    base = call.settings.searxng_url
    if not base:
        raise WebSearchError(
            tr("Add the address of your SearXNG instance in Settings → Web search.")
        )
    auth = None
    if call.settings.searxng_username:
        password = call.key(SEARXNG_PASSWORD_SECRET) or ""
        auth = httpx.BasicAuth(call.settings.searxng_username, password)
    answer = await request(
        call.client,
        "GET",
        f"{base}/search",
        label=call.label,
        timeout_s=call.timeout_s,
        error=WebSearchError,
        params={"q": call.query, "format": "json"},
        headers={"Accept": "application/json"},
        auth=auth,
    )
    host = host_of(answer.url)
    if answer.status == HTTPStatus.UNAUTHORIZED:
        raise WebSearchError(
            tr(
                "SearXNG ({host}) refused the user name or password: check them in "
                "Settings → Web search."
            ).format(host=host)
        )
    if answer.status == HTTPStatus.FORBIDDEN or (
        httpx.codes.is_success(answer.status) and "html" in answer.content_type
    ):
        raise WebSearchError(
            tr(
                "SearXNG ({host}) does not give results as JSON (HTTP {status}): enable "
                "`json` in search.formats of the SearXNG settings (settings.yml)."
            ).format(host=host, status=answer.status)
        )
    data = _json(_checked(answer, call), call)
    return [
        WebResult(
            title=_text(item, "title"),
            url=_text(item, "url"),
            snippet=_text(item, "content"),
            published=_text(item, "publishedDate"),
            engine=_text(item, "engine") or WebEngine.SEARXNG.value,
        )
        for item in _items(data.get("results"))
    ]


async def _brave(call: _Call) -> list[WebResult]:
    key = call.key(BRAVE_KEY_SECRET)
    if key is None:
        raise WebSearchError(tr("Add your Brave Search API key in Settings → Web search."))
    answer = await request(
        call.client,
        "GET",
        call.endpoint,
        label=call.label,
        timeout_s=call.timeout_s,
        error=WebSearchError,
        params={"q": call.query, "count": str(call.wanted)},
        headers={"Accept": "application/json", "X-Subscription-Token": key},
    )
    data = _json(_checked(answer, call), call)
    web = data.get("web")
    return [
        WebResult(
            title=_text(item, "title"),
            url=_text(item, "url"),
            snippet=_text(item, "description"),
            published=_text(item, "page_age") or _text(item, "age"),
            engine=WebEngine.BRAVE.value,
        )
        for item in _items(web.get("results") if isinstance(web, dict) else None)
    ]


async def _tavily(call: _Call) -> list[WebResult]:
    key = call.key(TAVILY_KEY_SECRET)
    if key is None:
        raise WebSearchError(tr("Add your Tavily API key in Settings → Web search."))
    answer = await request(
        call.client,
        "POST",
        call.endpoint,
        label=call.label,
        timeout_s=call.timeout_s,
        error=WebSearchError,
        json={"query": call.query, "max_results": call.wanted, "search_depth": "basic"},
        headers={"Accept": "application/json", "Authorization": f"Bearer {key}"},
    )
    data = _json(_checked(answer, call), call)
    return [
        WebResult(
            title=_text(item, "title"),
            url=_text(item, "url"),
            snippet=_text(item, "content"),
            published=_text(item, "published_date"),
            engine=WebEngine.TAVILY.value,
        )
        for item in _items(data.get("results"))
    ]


async def _duckduckgo(call: _Call) -> list[WebResult]:
    # A rate limit is not retried: DuckDuckGo treats a retry as more of the same.
    answer = await request(
        call.client,
        "POST",
        call.endpoint,
        label=call.label,
        timeout_s=call.timeout_s,
        error=WebSearchError,
        retry_rate_limits=False,
        data={"q": call.query},
        headers={"Accept": "text/html"},
    )
    if answer.status in duckduckgo.RATE_LIMITED_STATUSES:
        log.info("web search via %s: HTTP %d", call.label, answer.status)
        raise duckduckgo.rate_limited()
    # Up to a few MiB of HTML: parsed in a worker thread, off the event loop.
    return await asyncio.to_thread(duckduckgo.parse_results, _checked(answer, call).body)


_SEARCHES: Mapping[WebEngine, Callable[[_Call], Awaitable[list[WebResult]]]] = MappingProxyType(
    {
        WebEngine.SEARXNG: _searxng,
        WebEngine.BRAVE: _brave,
        WebEngine.TAVILY: _tavily,
        WebEngine.DUCKDUCKGO: _duckduckgo,
    }
)


def _checked(answer: Answer, call: _Call) -> Answer:
    """`answer` if it succeeded; else the error it stands for is raised."""
    log.info("web search via %s: HTTP %d", call.label, answer.status)
    if httpx.codes.is_success(answer.status):
        return answer
    raise WebSearchError(_status_message(answer, call.label))


def _status_message(answer: Answer, name: str) -> str:
    status, host = answer.status, host_of(answer.url)
    if status in (HTTPStatus.UNAUTHORIZED, HTTPStatus.FORBIDDEN):
        return tr(
            "{name} rejected the API key (HTTP {status}): check it in Settings → Web search."
        ).format(name=name, status=status)
    if status == HTTPStatus.TOO_MANY_REQUESTS:
        wait = answer.retry_after
        if wait:
            return tr(
                "{name} is limiting how often Parley may search (HTTP 429): try again in "
                "{seconds} s."
            ).format(name=name, seconds=max(1, round(wait)))
        return tr(
            "{name} is limiting how often Parley may search (HTTP 429): try again in a minute."
        ).format(name=name)
    if httpx.codes.is_server_error(status):
        return tr("{name} ({host}) had a server error (HTTP {status}): try again later.").format(
            name=name, host=host, status=status
        )
    return tr("{name} ({host}) refused the search (HTTP {status}): {detail}").format(
        name=name, host=host, status=status, detail=error_detail(answer.body, answer.content_type)
    )


def _json(answer: Answer, call: _Call) -> dict[str, Any]:
    try:
        data = json.loads(answer.body)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise WebSearchError(
            tr("{name} ({host}) sent an answer that is not the JSON it should send.").format(
                name=call.label, host=host_of(answer.url)
            )
        )
    return data


def _items(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _text(item: Mapping[str, Any], key: str) -> str:
    value = item.get(key)
    return value if isinstance(value, str) else ""
