"""The web tools use the application's client as Parley makes it: with the default
network settings they reach the loopback engines, and a custom proxy carries them."""

from __future__ import annotations

from desktop.core.settings import NetworkSettings, ProxyMode
from desktop.core.web_search import BRAVE_KEY_SECRET, WebEngine, WebSearchSettings
from desktop.engine.web.engines import web_search
from desktop.engine.web.page_text import fetch_page
from desktop.providers.http_client import make_client
from tests.support.proxy import RecordingProxy
from tests.support.waiting import run_within
from tests.support.web_servers import HITS, html_response

QUERY = "proxy test query"


def test_the_default_client_searches_and_fetches(web_server):
    page_url = web_server.page("/p", html_response("<title>T</title><p>body text</p>"))

    async def main() -> None:
        client = make_client(NetworkSettings())
        try:
            for engine in WebEngine:
                results = await web_search(
                    client,
                    WebSearchSettings(engine=engine, searxng_url=web_server.searxng_url),
                    QUERY,
                    max_results=5,
                    secret={BRAVE_KEY_SECRET: "k" * 20, "web_search.tavily": "t" * 20}.get,
                    endpoints=web_server.endpoints,
                )
                assert [r.url for r in results] == [h.url for h in HITS]
            page = await fetch_page(client, page_url)
            assert (page.title, page.text) == ("T", "body text")
        finally:
            await client.aclose()

    run_within(main())
    assert all(r.headers["user-agent"].startswith("Parley/") for r in web_server.requests)


def test_a_custom_proxy_carries_the_search():
    async def main() -> list[str]:
        async with RecordingProxy() as proxy:
            network = NetworkSettings(ProxyMode.CUSTOM, proxy.url)
            client = make_client(network)
            try:
                await web_search(
                    client,
                    WebSearchSettings(WebEngine.SEARXNG, "http://searx.parley-test.invalid"),
                    QUERY,
                    max_results=5,
                    secret=lambda _name: None,
                )
            finally:
                await client.aclose()
            return proxy.lines

    [line] = run_within(main())
    assert line.startswith("GET http://searx.parley-test.invalid/search?q=proxy+test+query")
