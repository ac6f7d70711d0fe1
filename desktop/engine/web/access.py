"""The web as an answer's tools reach it: the person's engine and keys, over the
network settings' client (proxy, trusted certificates) as it is at each call."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from desktop.core.web_search import WebSearchSettings
from desktop.engine.web.engines import web_search
from desktop.engine.web.page_text import FetchedPage, fetch_page
from desktop.engine.web.results import WebResult


class WebAccess:
    def __init__(
        self,
        settings: Callable[[], WebSearchSettings],
        client: Callable[[], httpx.AsyncClient],
        secret: Callable[[str], str | None],
    ) -> None:
        self._settings = settings
        self._client = client
        self._secret = secret

    @property
    def settings(self) -> WebSearchSettings:
        return self._settings()

    async def search(self, query: str, max_results: int) -> list[WebResult]:
        settings = self._settings()
        return await web_search(
            self._client(),
            settings,
            query,
            max_results=min(max_results, settings.max_results),
            secret=self._secret,
        )

    async def fetch(self, url: str) -> FetchedPage:
        return await fetch_page(self._client(), url)
