"""DuckDuckGo's HTML page: links out of its redirector, ads left out, and its rate limit
(HTTP 202, a bot check page) told apart from "no results" without retrying it."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from desktop.core.web_search import WebEngine, WebSearchSettings
from desktop.engine.web.duckduckgo import parse_results, target
from desktop.engine.web.engines import web_search
from desktop.engine.web.results import WebResult, WebSearchError, collect
from tests.support.sse_server import error_response
from tests.support.waiting import run_within
from tests.support.web_servers import (
    DDG_CHALLENGE,
    HITS,
    WebServer,
    ddg_page,
    form_of,
    html_response,
)

QUERY = "best hiking boots"


def search(server: WebServer, **kwargs: Any) -> list[WebResult]:
    async def main() -> list[WebResult]:
        async with httpx.AsyncClient() as client:
            return await web_search(
                client,
                WebSearchSettings(engine=WebEngine.DUCKDUCKGO),
                QUERY,
                max_results=kwargs.get("max_results", 5),
                secret=lambda _name: None,
                endpoints=server.endpoints,
            )

    return run_within(main())


def rate_limit_message(server: WebServer) -> str:
    with pytest.raises(WebSearchError) as caught:
        search(server)
    return str(caught.value)


def test_the_query_is_posted_as_a_form(web_server):
    search(web_server)

    [request] = web_server.requests
    assert request.method == "POST"
    assert request.path == "/html/"
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert form_of(request) == {"q": QUERY}


def test_results_lead_to_the_real_pages_and_ads_are_left_out(web_server):
    results = search(web_server)

    assert [r.url for r in results] == [h.url for h in HITS]
    assert results[1].title == "Real Python & asyncio"
    assert results[1].snippet == "A walkthrough of async IO in Python."
    assert all(r.engine == "duckduckgo" for r in results)


@pytest.mark.parametrize(
    "answer",
    [
        html_response("", status=202),
        html_response(DDG_CHALLENGE),
        html_response(DDG_CHALLENGE, status=403),
        error_response(429, "Too Many Requests", headers={"Retry-After": "0"}),
    ],
    ids=["202", "challenge-page", "403", "429"],
)
def test_a_rate_limit_suggests_searxng_and_is_not_retried(web_server, answer):
    web_server.enqueue(answer)

    message = rate_limit_message(web_server)

    assert "DuckDuckGo is rate-limiting scripted searches" in message
    assert "SearXNG" in message
    assert len(web_server.requests) == 1


def test_server_errors_are_retried_at_most_twice(web_server):
    broken = html_response("oops", status=503)
    web_server.enqueue(broken, broken, broken)

    assert "server error (HTTP 503)" in rate_limit_message(web_server)
    assert len(web_server.requests) == 3


def test_no_results_is_an_empty_list_not_an_error(web_server):
    web_server.hits = []

    assert search(web_server) == []


def test_a_page_of_results_is_read_even_if_it_mentions_the_bot_check():
    page = ddg_page(HITS).replace("</body>", '<div class="anomaly-modal__x"></div></body>')

    found = [r.url for r in parse_results(page.encode()) if r.url]
    assert found == [h.url for h in HITS]


def test_text_about_markup_keeps_its_words():
    page = (
        '<a class="result__a" href="https://example.org/">Use &lt;b&gt; for bold &amp;amp; '
        '&lt;/web-result&gt;</a><a class="result__snippet">x &lt; y &amp; <b>z</b></a>'
    )

    [result] = collect(parse_results(page.encode()), 5)

    assert result.title == "Use <b> for bold &amp; </web-result>"
    assert result.snippet == "x < y & z"


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2Fa%3Fb%3D1&rut=x",
         "https://example.org/a?b=1"),
        ("/l/?uddg=https%3A%2F%2Fexample.org%2F&rut=x", "https://example.org/"),
        ("https://example.net/direct", "https://example.net/direct"),
        ("https://duckduckgo.com/y.js?ad_domain=x", ""),
        ("//duckduckgo.com/l/?rut=x", ""),
        ("http://[::1", ""),
    ],
)  # fmt: skip
def test_link_targets(href, expected):
    assert target(href) == expected
