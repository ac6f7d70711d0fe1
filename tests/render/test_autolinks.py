"""Bare URLs and e-mail addresses become links the way GitHub's autolink extension does.

Expected links follow the GFM spec's "Autolinks (extension)" examples where there is one.
"""

from __future__ import annotations

import re

import pytest

from desktop.render import StreamingRenderer, fallback_reason, render_markdown
from desktop.render.guard import normalize_source
from desktop.render.markdown import render_fragment

_LINK_RE = re.compile(r'<a href="([^"]*)">(.*?)</a>')


def links(text: str) -> list[tuple[str, str]]:
    """(href, text) of every link in the rendered HTML, entities left as rendered."""
    return _LINK_RE.findall(render_markdown(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # trailing punctuation is not part of the link, inner punctuation is
        (
            "see https://example.com/a_b?x=1.",
            [("https://example.com/a_b?x=1", "https://example.com/a_b?x=1")],
        ),
        ("Visit www.commonmark.org.", [("http://www.commonmark.org", "www.commonmark.org")]),
        (
            "Visit www.commonmark.org/a.b.",
            [("http://www.commonmark.org/a.b", "www.commonmark.org/a.b")],
        ),
        ("go to https://x.org/?!,:*_~'\" now", [("https://x.org/", "https://x.org/")]),
        # parentheses: balanced ones stay, unmatched closing ones go
        (
            "www.google.com/search?q=Markup+(business)",
            [
                (
                    "http://www.google.com/search?q=Markup+(business)",
                    "www.google.com/search?q=Markup+(business)",
                )
            ],
        ),
        (
            "www.google.com/search?q=Markup+(business)))",
            [
                (
                    "http://www.google.com/search?q=Markup+(business)",
                    "www.google.com/search?q=Markup+(business)",
                )
            ],
        ),
        (
            "(see https://en.wikipedia.org/wiki/Set_(mathematics)).",
            [
                (
                    "https://en.wikipedia.org/wiki/Set_(mathematics)",
                    "https://en.wikipedia.org/wiki/Set_(mathematics)",
                )
            ],
        ),
        (
            "www.google.com/search?q=(business))+ok",
            [
                (
                    "http://www.google.com/search?q=(business))+ok",
                    "www.google.com/search?q=(business))+ok",
                )
            ],
        ),
        ("[see https://example.com]", [("https://example.com", "https://example.com")]),
        # entity-like tails
        (
            "www.google.com/search?q=commonmark&hl=en",
            [
                (
                    "http://www.google.com/search?q=commonmark&amp;hl=en",
                    "www.google.com/search?q=commonmark&amp;hl=en",
                )
            ],
        ),
        (
            "www.google.com/search?q=commonmark&hl;",
            [
                (
                    "http://www.google.com/search?q=commonmark",
                    "www.google.com/search?q=commonmark",
                )
            ],
        ),
        # a link stops at "<" and at whitespace
        ("www.commonmark.org/he<lp", [("http://www.commonmark.org/he", "www.commonmark.org/he")]),
        # hosts: no dot needed after a scheme; underscores not in the last two labels
        ("http://localhost:8080/x", [("http://localhost:8080/x", "http://localhost:8080/x")]),
        ("www.a_b.com and www.x.a_b.org", []),
        ("www._a.b.com", [("http://www._a.b.com", "www._a.b.com")]),
        ("HTTPS://EXAMPLE.COM/", [("HTTPS://EXAMPLE.COM/", "HTTPS://EXAMPLE.COM/")]),
        # "www." only at a word start (or after *, _, ~, ( ); schemes not inside a word
        ("awww.x.com and xhttps://x.com", []),
        (
            "*www.x.com* ~~www.y.com~~",
            [("http://www.x.com", "www.x.com"), ("http://www.y.com", "www.y.com")],
        ),
        ("line\nwww.x.com", [("http://www.x.com", "www.x.com")]),
        ("- [ ] www.x.com", [("http://www.x.com", "www.x.com")]),
        ("www. and www.", []),
        # e-mail
        ("foo@bar.baz", [("mailto:foo@bar.baz", "foo@bar.baz")]),
        (
            "hello@mail+xyz.example isn't valid, but hello+xyz@mail.example is.",
            [("mailto:hello+xyz@mail.example", "hello+xyz@mail.example")],
        ),
        ("a.b-c_d@a.b.", [("mailto:a.b-c_d@a.b", "a.b-c_d@a.b")]),
        ("a.b-c_d@a.b- and a.b-c_d@a.b_ and x@y", []),
        ("mailto:foo@bar.baz", [("mailto:foo@bar.baz", "mailto:foo@bar.baz")]),
        ("a@b.c@d.e", [("mailto:b.c@d.e", "b.c@d.e")]),
        # only web and mail: other schemes stay text
        ("ftp://example.com and xmpp:me@x.org/home", [("mailto:me@x.org", "me@x.org")]),
        # non-ASCII is percent-encoded in the target, shown as written
        (
            "https://example.com/café",
            [("https://example.com/caf%C3%A9", "https://example.com/café")],
        ),
    ],
)
def test_bare_urls_are_linked_like_github(text: str, expected: list[tuple[str, str]]) -> None:
    assert links(text) == expected


def test_underscores_inside_a_url_do_not_make_emphasis() -> None:
    html = render_markdown("https://docs.python.org/3/x.html#object.__init__ and _y_")
    assert '<a href="https://docs.python.org/3/x.html#object.__init">' in html
    assert "<strong>" not in html
    assert "<em>y</em>" in html


def test_emphasis_around_a_url_stays_emphasis() -> None:
    html = render_markdown("**https://x.org** and _www.y.org_")
    assert '<strong><a href="https://x.org">https://x.org</a></strong>' in html
    assert '<em><a href="http://www.y.org">www.y.org</a></em>' in html


@pytest.mark.parametrize(
    "text",
    [
        "`https://x.org` and `www.x.org` and `me@x.org`",
        "```\nhttps://x.org www.x.org me@x.org\n```",
        "    https://x.org www.x.org",
        "$https://x.org$",
    ],
)
def test_nothing_is_linked_inside_code_or_math(text: str) -> None:
    html = render_markdown(text)
    assert "x.org" in html
    assert 'href="http' not in html
    assert 'href="mailto' not in html


@pytest.mark.parametrize(
    ("text", "href"),
    [
        ("[docs at https://x.org/a and www.y.org](https://z.org)", "https://z.org"),
        ("[mail me@x.org](https://z.org)", "https://z.org"),
        ("<https://x.org/a>", "https://x.org/a"),
        ("[text](https://x.org/a)", "https://x.org/a"),
    ],
)
def test_existing_links_are_not_linked_again(text: str, href: str) -> None:
    html = render_markdown(text)
    assert html.count("<a ") == 1
    assert f'<a href="{href}">' in html


def test_image_descriptions_are_not_linked() -> None:
    html = render_markdown("![see https://x.org/a](https://x.org/b.png)")
    assert html.count("<a ") == 1
    assert '<a href="https://x.org/b.png">🖼 see https://x.org/a</a>' in html


def test_link_targets_are_escaped() -> None:
    html = render_markdown('https://x.org/?a="b"&c=<d>')
    assert '<a href="https://x.org/?a=%22b%22&amp;c=">' in html
    assert "&lt;d&gt;" in html


def test_linked_text_streams_like_a_full_render() -> None:
    text = "First https://example.com/a_(b).\n\nThen www.python.org, me@x.org and `x.org`.\n"
    renderer = StreamingRenderer()
    for end in range(1, len(text) + 1):
        assert renderer.render(text[:end]) == render_markdown(text[:end]), text[:end]


# Inputs built to make a URL scanner rescan. Most are over the formatting budget, so the
# app shows them as plain text; rendered as markdown anyway (they are under every other
# guard limit) they go through the autolink rules. Asserting that they render proves
# termination; benchmarks/render_bench.py shows the rules take milliseconds on them.
HOSTILE = {
    "www. repeated": "www." * 35_000,
    "(www. repeated": "(www." * 28_000,
    "http:// repeated": "http://" * 20_000,
    "https: repeated": "https:" * 24_000,
    "unclosed parentheses after a URL": "http://x" + ")" * 140_000,
    "punctuation after a URL": "http://x" + ".)" * 70_000,
    "entity-like tails": "http://x" + "&a;" * 45_000,
    "@ repeated": "a@" * 70_000,
    "one long local part": "a" * 149_000 + "@",
    "underscore hosts": "http://a_" * 16_000,
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_link_candidates_still_render_as_markdown(text: str) -> None:
    assert fallback_reason(text) is None
    html = render_fragment(normalize_source(text), dark=False)
    assert html is not None and html.startswith("<p>")
    assert StreamingRenderer().render(text, final=True) == render_markdown(text)
