"""What the web tools need of the web (`engine/web/access.py` provides it): kept apart
so the tools' context can name it without importing the HTTP code."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from desktop.core.web_search import WebSearchSettings


class WebResultLike(Protocol):
    @property
    def title(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def snippet(self) -> str: ...
    @property
    def published(self) -> str: ...


class PageLike(Protocol):
    @property
    def url(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def truncated(self) -> bool: ...


class Web(Protocol):
    """The web as the tools use it (`engine/web/access.py`)."""

    @property
    def settings(self) -> WebSearchSettings: ...

    async def search(self, query: str, max_results: int) -> Sequence[WebResultLike]: ...

    async def fetch(self, url: str) -> PageLike: ...
