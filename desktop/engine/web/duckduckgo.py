"""DuckDuckGo's HTML results page, read without a key.

There is no API: this reads the page html.duckduckgo.com serves to browsers without
JavaScript, so it breaks when its markup changes, and DuckDuckGo rate-limits scripted
searches (an HTTP 202, or a page with a "bots use DuckDuckGo too" challenge form instead
of results). Both are told apart from an honest "no results" and worded so the person
knows to try later or use a SearXNG instance, the keyless option that keeps working.

Result links point through DuckDuckGo's redirector (`//duckduckgo.com/l/?uddg=<target>`);
the real address is taken out of it, and ads (`/y.js`) are left out.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

from desktop.core.i18n import tr
from desktop.engine.web.results import WebResult, WebSearchError

RATE_LIMITED_STATUSES = frozenset({202, 403, 429})
ENGINE = "duckduckgo"


def rate_limited() -> WebSearchError:
    return WebSearchError(
        tr(
            "DuckDuckGo is rate-limiting scripted searches from this address. Try again "
            "later, or use a SearXNG instance (Settings → Web search), which does not."
        )
    )


@dataclass(slots=True)
class _Entry:
    href: str
    title: list[str] = field(default_factory=list)
    snippet: list[str] = field(default_factory=list)


class _ResultsPage(HTMLParser):
    """Collects each `a.result__a` (address and title) and the `.result__snippet` after it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.entries: list[_Entry] = []
        self.challenged = False  # the page is DuckDuckGo's bot check
        self._into: list[str] | None = None  # the text being collected
        self._tag = ""  # the element it ends with
        self._nested = 0  # elements of that name opened inside it

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        classes = values.get("class", "").split()
        if tag == "form" and (
            "anomaly" in values.get("action", "") or values.get("id") == "challenge-form"
        ):
            self.challenged = True
        if any(c.startswith(("anomaly-modal", "captcha")) for c in classes):
            self.challenged = True
        if self._into is not None:
            self._nested += tag == self._tag
            return
        if tag == "a" and "result__a" in classes:
            entry = _Entry(values.get("href", ""))
            self.entries.append(entry)
            self._collect(entry.title, tag)
        elif "result__snippet" in classes and self.entries and not self.entries[-1].snippet:
            self._collect(self.entries[-1].snippet, tag)

    def handle_endtag(self, tag: str) -> None:
        if self._into is None or tag != self._tag:
            return
        if self._nested:
            self._nested -= 1
        else:
            self._into = None

    def handle_data(self, data: str) -> None:
        if self._into is not None:
            self._into.append(data)

    def _collect(self, into: list[str], tag: str) -> None:
        self._into, self._tag, self._nested = into, tag, 0


def target(href: str) -> str:
    """Where a result link leads: the `uddg` target of DuckDuckGo's redirector, the link
    itself when it is direct, "" for DuckDuckGo's own pages (ads)."""
    href = href.strip()
    if href.startswith("//"):
        href = "https:" + href
    try:
        parts = urlsplit(href)
        host = (parts.hostname or "").lower()
    except ValueError:
        return ""
    ours = host == "duckduckgo.com" or host.endswith(".duckduckgo.com")
    if not host or ours:
        if parts.path.startswith("/l/"):
            return parse_qs(parts.query).get("uddg", [""])[0]
        return ""
    return href


def parse_results(page: bytes) -> list[WebResult]:
    """The results on a DuckDuckGo HTML page, in order; raises `WebSearchError` when the
    page is the bot check instead."""
    parser = _ResultsPage()
    parser.feed(page.decode("utf-8", errors="replace"))
    parser.close()
    # The parser has decoded the text; it is escaped back to the HTML-flavoured text the
    # JSON engines give, which `results.collect` turns into plain text for all alike
    # (a title about "&lt;b&gt;" keeps its "<b>" instead of losing it as a highlight).
    results = [
        WebResult(
            title=html.escape("".join(entry.title), quote=False),
            url=target(entry.href),
            snippet=html.escape("".join(entry.snippet), quote=False),
            engine=ENGINE,
        )
        for entry in parser.entries
    ]
    if parser.challenged and not any(r.url for r in results):
        raise rate_limited()
    return results
