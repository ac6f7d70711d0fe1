"""One web page as text, for a model to read.

The address usually comes from a model (a search result, a link in a page), so every
hop is checked: only http(s) is fetched, redirects are followed by hand (at most five,
each target checked again: a `file://` or `ftp://` redirect is refused), the body is
streamed and cut at `max_bytes` (decompressed bytes, so a small gzip bomb is cut too),
and the whole fetch ends at `timeout_s`. Only HTML and text are read; an image or a PDF
is refused by its type before its body is downloaded. Turning HTML into text runs on a
worker thread: a 2 MiB page takes a noticeable part of a second, too long for the loop
that draws the window.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import httpx

from desktop.core.i18n import tr
from desktop.engine.web.html_text import charset_of, html_to_text
from desktop.engine.web.results import WebFetchError
from desktop.engine.web.transfer import host_of, read_capped, transport_failure

log = logging.getLogger(__name__)

MAX_REDIRECTS = 5
_HTML = frozenset({"text/html", "application/xhtml+xml"})
_TEXT = frozenset({"application/json", "application/xml", "application/javascript"})
_SNIFF_BYTES = 1024
_ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1"


@dataclass(frozen=True, slots=True)
class FetchedPage:
    url: str  # where the page was found, after redirects
    title: str
    text: str
    truncated: bool  # cut at the byte or character limit


async def fetch_page(
    client: httpx.AsyncClient,
    url: str,
    *,
    max_bytes: int = 2 * 1024 * 1024,
    timeout_s: float = 15.0,
    max_chars: int = 20_000,
) -> FetchedPage:
    """The page at `url` as text (at most `max_chars` characters); raises
    `WebFetchError` with a sentence naming the host when it cannot be read."""
    hops = [_web_address(url, redirected=False)]  # a failure names the host it happened at
    try:
        async with asyncio.timeout(timeout_s):
            body, too_long, kind, content_type, final = await _download(
                client, hops, max_bytes, timeout_s
            )
    except (TimeoutError, httpx.TransportError) as exc:
        raise transport_failure(exc, hops[-1], timeout_s, WebFetchError) from None
    except (httpx.InvalidURL, httpx.DecodingError) as exc:
        raise WebFetchError(
            tr("The page at {host} cannot be read: {reason}.").format(
                host=host_of(hops[-1]), reason=exc
            )
        ) from None
    title, text = await asyncio.to_thread(_convert, body, kind, content_type, max_chars, too_long)
    cut = len(text) > max_chars
    if cut:
        text = text[:max_chars].rstrip()
    log.info("fetched a page: %d bytes, %d characters, cut: %s", len(body), len(text), cut)
    return FetchedPage(final, title, text, too_long or cut)


async def _download(
    client: httpx.AsyncClient, hops: list[str], max_bytes: int, timeout_s: float
) -> tuple[bytes, bool, str, str, str]:
    """The body (capped), whether it was cut, "html" / "text" / "" (unknown: sniff),
    the Content-Type and the final address. Each address asked is added to `hops`."""
    for _hop in range(MAX_REDIRECTS + 1):
        current = hops[-1]
        request = client.build_request(
            "GET", current, headers={"Accept": _ACCEPT}, timeout=httpx.Timeout(timeout_s)
        )
        response = await client.send(request, stream=True, follow_redirects=False)
        try:
            if response.is_redirect:
                location = response.headers.get("location", "")
                hops.append(_web_address(urljoin(current, location), redirected=True))
                continue
            if not response.is_success:
                raise WebFetchError(
                    tr("{host} answered HTTP {status} for this page.").format(
                        host=host_of(current), status=response.status_code
                    )
                )
            content_type = response.headers.get("content-type", "")
            kind = _kind(content_type)
            body, too_long = await read_capped(response, max_bytes)
            return body, too_long, kind, content_type, str(response.url)
        finally:
            await response.aclose()
    raise WebFetchError(
        tr("The page at {host} redirected more than {count} times.").format(
            host=host_of(hops[0]), count=MAX_REDIRECTS
        )
    )


def _web_address(url: str, *, redirected: bool) -> str:
    try:
        parts = urlsplit(url.strip())
        scheme, host = parts.scheme.lower(), parts.hostname
    except ValueError:
        scheme, host = "", None
    if scheme in ("http", "https") and host:
        return url.strip()
    if redirected:
        text = tr("The page redirected to {address}; only http:// and https:// pages are read.")
    else:
        text = tr("Only http:// and https:// pages can be read, not {address}.")
    if scheme in ("http", "https"):
        address = tr("an address without a host")
    elif scheme:
        address = tr("a {scheme}: address").format(scheme=scheme)
    else:
        address = tr("an address without http:// or https://")
    raise WebFetchError(text.format(address=address))


def _kind(content_type: str) -> str:
    """How to read a body of this type; raises for types that are not text."""
    media = content_type.split(";", 1)[0].strip().lower()
    if not media:
        return ""
    if media in _HTML:
        return "html"
    if media.startswith("text/") or media in _TEXT or media.endswith(("+json", "+xml")):
        return "text"
    raise WebFetchError(
        tr("The page is {type}, not HTML or text: only web pages and plain text are read.").format(
            type=media
        )
    )


def _convert(
    body: bytes, kind: str, content_type: str, max_chars: int, cut: bool
) -> tuple[str, str]:
    """Title and text of the body (on a worker thread: large pages take a while)."""
    head = body[:_SNIFF_BYTES]
    if not kind:
        if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise WebFetchError(tr("The page is binary data, not HTML or text."))
        start = head.lstrip().lower()
        looks_html = start.startswith((b"<!doctype html", b"<html")) or b"<body" in start
        kind = "html" if looks_html else "text"
    text = body.decode(charset_of(content_type, body[:4096], kind == "html"), errors="replace")
    if cut:
        text = text.rstrip("\ufffd")  # a character split by the cut
    if kind == "html":
        return html_to_text(text, max_chars)
    return "", tidy_text(text)


def tidy_text(text: str) -> str:
    """Plain text as it came, with one kind of line break and no stray edges."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "").strip()
