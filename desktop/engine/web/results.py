"""Search results as Parley keeps them: plain text, web addresses only, no duplicates.

Every engine's answer is untrusted: a title may carry markup, a "URL" may be
`javascript:`, an engine may list one page twice. Results are cleaned here, once, so
what reaches the model and the citation cards is the same whatever engine answered.
Cleaning interprets nothing: text that merely looks like a tag (`</web-result>`) stays
as text, for the layer that quotes results to the model to escape.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from desktop.core.errors import ParleyError

TITLE_MAX_CHARS = 300
SNIPPET_MAX_CHARS = 500
DATE_MAX_CHARS = 64
URL_MAX_CHARS = 2048

# The highlighting engines put in titles and snippets (Brave's <strong>, SearXNG's
# <span class="highlight">). Only these are removed: anything else that looks like a tag
# is kept as the text it is.
_HIGHLIGHT = re.compile(
    r"</?(?:b|strong|em|i|u|mark|span|small|sup|sub|br|wbr)(?:\s[^<>]*)?/?>", re.IGNORECASE
)
_SPACE = re.compile(r"\s+")
_UNSAFE = re.compile(r"[\x00-\x20\x7f]")  # no address holds these unescaped


class WebError(ParleyError):
    """Searching or reading the web failed; the message says which engine or host, and
    why, never what was searched for."""


class WebSearchError(WebError):
    """A web search failed (no key, a refused key, a rate limit, an unreachable engine)."""


class WebFetchError(WebError):
    """A page could not be read (not http(s), not text, too slow, unreachable)."""


@dataclass(frozen=True, slots=True)
class WebResult:
    """A result. Engines make them from what they received (text with entities and
    highlight tags); `collect` makes the plain-text ones callers get."""

    title: str
    url: str
    snippet: str
    published: str = ""  # as the engine wrote it (an ISO date, "2 days ago"...)
    engine: str = ""  # the engine that found it (SearXNG names its upstream engine)


def plain_text(value: object, limit: int) -> str:
    """`value` as one line of text: highlight tags removed, entities decoded, whitespace
    collapsed, at most `limit` characters (cut ones end with "…")."""
    if not isinstance(value, str):
        return ""
    text = _SPACE.sub(" ", html.unescape(_HIGHLIGHT.sub("", value))).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def web_url(value: object) -> str | None:
    """`value` when it is an http(s) address a person can safely open, else None.

    Addresses with a user name are refused too: "https://bank.example@evil.example/"
    reads as the bank and opens the other host.
    """
    if not isinstance(value, str):
        return None
    url = value.strip()
    if not url or len(url) > URL_MAX_CHARS or _UNSAFE.search(url):
        return None
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not host or "@" in parts.netloc:
        return None
    return url


def _identity(url: str) -> str:
    """Two addresses for one page: the same but for case in the scheme and host, or the
    #fragment."""
    parts = urlsplit(url)
    return urlunsplit(
        (parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", parts.query, "")
    )


def collect(results: Iterable[WebResult], max_results: int) -> list[WebResult]:
    """The first `max_results` results with a web address, each page once."""
    kept: list[WebResult] = []
    seen: set[str] = set()
    for result in results:
        url = web_url(result.url)
        if url is None:
            continue
        key = _identity(url)
        if key in seen:
            continue
        seen.add(key)
        kept.append(
            WebResult(
                title=plain_text(result.title, TITLE_MAX_CHARS) or url,
                url=url,
                snippet=plain_text(result.snippet, SNIPPET_MAX_CHARS),
                published=plain_text(result.published, DATE_MAX_CHARS),
                engine=plain_text(result.engine, DATE_MAX_CHARS),
            )
        )
        if len(kept) >= max_results:
            break
    return kept
