"""The web as an answer's tools reach it: the person's engine and keys, over the
network settings' client (proxy, trusted certificates) as it is at each call."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx

from desktop.core.web_search import WebSearchSettings, secret_name
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
        # The keyring may block (a locked store asking to be unlocked): read the one
        # secret the engine needs in a worker thread, never on the event loop.
        name = secret_name(settings.engine) if settings.engine is not None else None
        value = await asyncio.to_thread(self._secret, name) if name else None
        return await web_search(
            self._client(),
            settings,
            query,
            max_results=min(max_results, settings.max_results),
            secret=lambda wanted: value if wanted == name else None,
        )

    async def fetch(self, url: str) -> FetchedPage:
        return await fetch_page(self._client(), url)
