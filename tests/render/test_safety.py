from __future__ import annotations

import re

import pytest

from desktop.render import StreamingRenderer, is_safe_link, render_markdown

_OTHER_IMG_RE = re.compile(r'<img(?! src="parley-icon:copy\?)')


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        "before <img src=x onerror=alert(1)> after",
        "<div onclick='x()'>\nblock html\n</div>",
        "<a href='javascript:alert(1)'>x</a>",
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "- [ ] <b>task</b>",
        "```\n</pre><script>x</script>\n```",
        "`<script>`",
        "$<script>$",
        "| <img src=x> |\n|---|\n| <script> |",
        "![<script>](https://x.org/a.png)",
        '[x](https://x.org "<script>")',
    ],
)
def test_raw_html_is_escaped_never_emitted(text: str) -> None:
    for html in (render_markdown(text), StreamingRenderer().render(text)):
        assert "<script" not in html
        assert _OTHER_IMG_RE.search(html) is None  # only the renderer's own icons
        assert "<div" not in html
        assert "onerror=alert" not in html or "&lt;img" in html
        assert "<b>" not in html


def test_script_tag_text_is_visible_escaped() -> None:
    html = render_markdown("<script>alert(1)</script> and <img src=x onerror=alert(1)>")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_images_become_labelled_links_never_img() -> None:
    html = render_markdown('![a chart](https://example.com/c.png "Sales")')
    assert "<img" not in html
    assert '<a href="https://example.com/c.png" title="Sales">🖼 a chart</a>' in html


def test_image_without_alt_gets_a_generic_label() -> None:
    assert "🖼 image</a>" in render_markdown("![](https://example.com/c.png)")


@pytest.mark.parametrize(
    "source",
    ["![x](file:///etc/passwd)", "![x](/local/path.png)", "![x](data:image/png;base64,AAAA)"],
)
def test_images_with_unsafe_targets_are_text_only(source: str) -> None:
    html = render_markdown(source)
    assert "<a " not in html
    assert "🖼 x" in html


def test_image_inside_a_link_does_not_nest_links() -> None:
    html = render_markdown("[![badge](https://x.org/b.svg)](https://x.org)")
    assert html.count("<a ") == 1
    assert '<a href="https://x.org">🖼 badge</a>' in html


@pytest.mark.parametrize(
    "source",
    [
        "[click](javascript:alert(1))",
        "[click](JAVASCRIPT:alert(1))",
        "[click](<java\tscript:alert(1)>)",
        "[click](vbscript:msgbox)",
        "[click](file:///etc/passwd)",
        "[click](data:text/html;base64,PHNjcmlwdD4=)",
        "[click](/relative/path)",
        "[click](ftp://example.com/)",
        "[click](parley-copy:0)",
        "[click][r]\n\n[r]: javascript:alert(1)",
    ],
)
def test_unsafe_markdown_links_lose_their_href(source: str) -> None:
    html = render_markdown(source)
    assert "<a " not in html
    assert "click" in html
    assert "href" not in html


def test_unsafe_autolink_is_plain_text() -> None:
    html = render_markdown("<javascript:alert(1)>")
    assert "<a " not in html


def test_safe_links_keep_their_href() -> None:
    html = render_markdown("[site](https://example.com/a?b=1&c=2) <mailto:me@example.com>")
    assert '<a href="https://example.com/a?b=1&amp;c=2">site</a>' in html
    assert '<a href="mailto:me@example.com">mailto:me@example.com</a>' in html


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://example.com", True),
        ("http://example.com/path?q=1#frag", True),
        ("HTTPS://EXAMPLE.COM/", True),
        ("  https://example.com\n", True),
        ("http://[::1]:8080/", True),
        ("mailto:someone@example.com", True),
        ("MailTo:someone@example.com", True),
        ("javascript:alert(1)", False),
        ("JavaScript:alert(1)", False),
        (" javascript:alert(1)", False),
        ("\x01javascript:alert(1)", False),
        ("\x00https://example.com", False),
        ("java\tscript:alert(1)", False),
        ("java\nscript:alert(1)", False),
        ("jav&#x09;ascript:alert(1)", False),
        ("https://exa\tmple.com", False),
        ("https://exa mple.com", False),
        ("https://example.com\u200b", False),
        ("\u202ehttps://example.com", False),
        ("data:text/html,<script>alert(1)</script>", False),
        ("data:image/png;base64,AAAA", False),
        ("file:///etc/passwd", False),
        ("vbscript:msgbox(1)", False),
        ("parley-copy:0", False),
        ("ftp://example.com", False),
        ("myapp://open", False),
        ("/relative/path", False),
        ("relative.html", False),
        ("#fragment", False),
        ("//example.com", False),
        ("", False),
        ("   ", False),
        ("https://", False),
        ("http:example.com", False),
        ("https:\\\\evil.example", False),
        ("mailto:", False),
        ("http://[::1", False),
    ],
)
def test_is_safe_link(url: str, safe: bool) -> None:
    assert is_safe_link(url) is safe


def test_is_safe_link_rejects_non_strings() -> None:
    assert is_safe_link(None) is False  # type: ignore[arg-type]
