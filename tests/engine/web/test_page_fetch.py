"""Reading one page as text from a loopback server: markup turned into readable text,
the page's own charset, the size, time and redirect limits, and refusals (not http,
not text) worded for the person."""

from __future__ import annotations

import gzip
import socket
import threading
from typing import Any

import httpx
import pytest

from desktop.engine.web.page_text import FetchedPage, fetch_page
from desktop.engine.web.results import WebFetchError
from tests.support.sse_server import Gate, Head, Send
from tests.support.waiting import CEILING_S, run_within
from tests.support.web_servers import html_response

ARTICLE = """<!DOCTYPE html>
<html><head>
<meta charset="utf-8">
<title>  The   Article  </title>
<style>body { color: red; } .x::after { content: "STYLE TEXT" }</style>
<script>var secret = "SCRIPT TEXT"; document.write("</p>");</script>
</head>
<body>
<noscript>Enable JavaScript (NOSCRIPT TEXT)</noscript>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<h1>Main heading</h1>
<p>First    paragraph with a <a href="https://example.org/">link that stays</a>.</p>
<p>Second&nbsp;paragraph &amp; an entity.</p>
<ul><li>one</li><li>two</li></ul>
<template><p>TEMPLATE TEXT</p></template>
<svg viewBox="0 0 10 10"><title>SVG TITLE</title><text>SVG TEXT</text></svg>
</body></html>
"""


def fetch(url: str, **kwargs: Any) -> FetchedPage:
    async def main() -> FetchedPage:
        async with httpx.AsyncClient() as client:
            return await fetch_page(client, url, **kwargs)

    return run_within(main())


def refusal(url: str, **kwargs: Any) -> str:
    with pytest.raises(WebFetchError) as caught:
        fetch(url, **kwargs)
    return str(caught.value)


def test_a_page_becomes_its_title_and_readable_text(web_server):
    url = web_server.page("/article", html_response(ARTICLE))

    page = fetch(url)

    assert page.url == url
    assert page.title == "The Article"
    assert page.truncated is False
    assert page.text == (
        "Home | About\n\n"
        "Main heading\n\n"
        "First paragraph with a link that stays.\n\n"
        "Second paragraph & an entity.\n\n"
        "- one\n- two"
    )
    for hidden in ("SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG"):
        assert hidden not in page.text


def test_the_charset_comes_from_the_meta_tag_when_the_header_has_none(web_server):
    body = '<html><head><meta charset="windows-1251"><title>Привет</title></head>'
    body += "<body><p>Съешь же ещё этих мягких французских булок</p></body></html>"
    url = web_server.page("/ru", html_response(body.encode("cp1251"), content_type="text/html"))

    page = fetch(url)

    assert page.title == "Привет"
    assert page.text == "Съешь же ещё этих мягких французских булок"


def test_the_header_charset_wins_over_the_meta_tag(web_server):
    body = '<html><head><meta charset="utf-8"></head><body>café “quoted”</body></html>'
    url = web_server.page(
        "/latin",
        html_response(body.encode("cp1252"), content_type="text/html; charset=ISO-8859-1"),
    )

    assert fetch(url).text == "café “quoted”"


def test_undecodable_bytes_are_replaced_not_fatal(web_server):
    url = web_server.page("/bad", html_response(b"<p>ok \xff\xfe bytes</p>"))

    assert fetch(url).text == "ok \ufffd\ufffd bytes"


def test_plain_text_passes_through(web_server):
    text = "line one\r\n  indented line two\r\n\r\n<b>not markup</b>\n"
    url = web_server.page("/notes.txt", html_response(text, content_type="text/plain"))

    page = fetch(url)

    assert page.title == ""
    assert page.text == "line one\n  indented line two\n\n<b>not markup</b>"


def test_a_body_over_the_byte_limit_is_cut_and_says_so(web_server):
    paragraph = "<p>" + "word " * 200 + "</p>\n"
    body = "<html><body>" + paragraph * (3 * 1024 * 1024 // len(paragraph)) + "</body></html>"
    url = web_server.page("/big", html_response(body))

    page = fetch(url, max_chars=10_000_000)

    assert page.truncated is True
    assert 1_000_000 < len(page.text) < 2 * 1024 * 1024
    assert set(page.text.split()[:-1]) == {"word"}  # the last word may be cut


def test_a_compressed_body_counts_by_its_unpacked_size(web_server):
    body = gzip.compress(b"<p>" + b"a" * (4 * 1024 * 1024) + b"</p>")
    headers = {"Content-Encoding": "gzip"}
    url = web_server.page("/bomb", html_response(body, headers=headers))

    page = fetch(url, max_bytes=64 * 1024, max_chars=10_000_000)

    assert page.truncated is True
    assert len(page.text) <= 64 * 1024


def test_text_over_the_character_limit_is_cut_and_says_so(web_server):
    url = web_server.page("/long", html_response("<p>" + "x" * 50_000 + "</p>"))

    page = fetch(url)

    assert page.truncated is True
    assert len(page.text) == 20_000


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", "javascript:alert(1)", "ftp://example.org/a", "data:text/html,hi",
     "http://", "example.org/page"],
)  # fmt: skip
def test_only_http_and_https_addresses_are_read(url):
    message = refusal(url)
    assert message.startswith("Only http:// and https:// pages can be read, not a")
    assert "?" not in message


def test_a_redirect_to_a_file_address_is_refused(web_server):
    url = web_server.redirect("/go", "file:///etc/passwd")

    assert "redirected to a file: address" in refusal(url)
    assert len(web_server.requests) == 1


def test_redirects_are_followed_to_the_final_address(web_server):
    final = web_server.page("/final", html_response("<p>arrived</p>"))
    web_server.redirect("/b", "/final", status=301)
    start = web_server.redirect("/a", f"{web_server.url}/b", status=307)

    page = fetch(start)

    assert page.text == "arrived"
    assert page.url == final


def test_more_than_five_redirects_are_refused(web_server):
    for i in range(7):
        web_server.redirect(f"/r{i}", f"/r{i + 1}")

    assert "redirected more than 5 times" in refusal(f"{web_server.url}/r0")
    assert len(web_server.requests) == 6


@pytest.mark.parametrize("kind", ["image/png", "application/pdf", "application/octet-stream"])
def test_a_page_that_is_not_text_is_refused_by_its_type(web_server, kind):
    url = web_server.page("/file", html_response(b"\x89PNG\r\n\x1a\n\x00\x00", content_type=kind))

    assert f"The page is {kind}, not HTML or text" in refusal(url)


def test_binary_data_without_a_type_is_refused(web_server):
    blob = b"\x00\x01\x02abc\x00"
    steps = [Head(200, (("Content-Length", str(len(blob))),), framing="length"), Send(blob)]
    url = web_server.page("/blob", steps)

    assert "binary data" in refusal(url)


def test_an_error_status_is_named(web_server):
    url = web_server.page("/gone", html_response("<h1>Not here</h1>", status=404))

    host = web_server.url.removeprefix("http://")
    assert refusal(url) == f"{host} answered HTTP 404 for this page."


@pytest.mark.parametrize("started", [False, True], ids=["silent", "stalled-mid-body"])
def test_a_slow_page_ends_at_the_timeout(web_server, started):
    release = threading.Event()
    head = [Head(200, (("Content-Type", "text/html"),), framing="close"), Send(b"<p>part")]
    url = web_server.page("/slow", [*(head if started else []), Gate(release, CEILING_S)])
    try:
        message = refusal(url, timeout_s=0.5)
    finally:
        release.set()

    host = web_server.url.removeprefix("http://")
    assert message == f"{host} did not answer within 0.5 s."


def test_an_unreachable_host_is_named(web_server):
    url = f"{web_server.url}/x"
    web_server.stop()

    host = web_server.url.removeprefix("http://")
    message = refusal(url)
    assert message.startswith(f"Could not reach {host}: ")
    assert len(message) > len(f"Could not reach {host}: .")


def test_a_capped_long_page_reads_as_the_start_of_the_whole_text(web_server):
    paragraphs = "".join(f"<p>Paragraph {i}: {'text ' * 30}</p>\n  " for i in range(5000))
    body = f"<html><head><title>Long</title></head><body>{paragraphs}</body></html>"
    url = web_server.page("/long-article", html_response(body))

    whole = fetch(url, max_chars=10_000_000)
    capped = fetch(url, max_chars=1000)

    assert (whole.title, capped.title) == ("Long", "Long")
    assert (whole.truncated, capped.truncated) == (False, True)
    assert capped.text.startswith("Paragraph 0: text")
    assert whole.text.startswith(capped.text)
    assert len(capped.text) <= 1000


def test_a_redirect_to_an_unreachable_host_names_that_host(web_server):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = web_server.redirect("/away", f"http://127.0.0.1:{port}/page")

    assert refusal(url).startswith(f"Could not reach 127.0.0.1:{port}: ")
