from __future__ import annotations

import html as html_lib
import re
import sys
import threading

from desktop.render import code_blocks, copy_href, copy_index, render_markdown
from tests.support.markdown_corpus import MIXED

_COPY_LINK_RE = re.compile(
    r'<a href="parley-copy:(\d+)" style="[^"]*">'
    r'<img src="parley-icon:copy\?[^"]*"[^>]*/>&nbsp;Copy</a>'
)
_PRE_RE = re.compile(r'<pre style="margin: 0px;">(.*?)</pre>', re.DOTALL)
_TAG_RE = re.compile(r"<[^>]+>")


def _copy_indices(html: str) -> list[int]:
    return [int(number) for number in _COPY_LINK_RE.findall(html)]


def test_python_fence_is_highlighted_with_inline_colours_and_labelled() -> None:
    html = render_markdown("```python\ndef f(x):\n    return x\n```\n")
    assert '<span style="color: #' in html
    assert "<small>python</small>" in html
    assert 'class="' not in html
    assert _copy_indices(html) == [0]


def test_the_copy_link_is_a_muted_icon_and_word_not_an_underlined_link() -> None:
    source = "```python\nx = 1\n```\n"
    for dark, muted in ((False, "57606a"), (True, "8b949e")):
        html = render_markdown(source, dark=dark)
        link = re.search(r'<a href="parley-copy:0"[^>]*>(.*?)</a>', html)
        assert link is not None
        assert f'style="color: #{muted}; text-decoration: none;"' in link.group(0)
        # The icon in the same muted colour (the view draws it), then the word.
        icon = f'<img src="parley-icon:copy?color={muted}&amp;size=14" width="14" height="14"'
        assert link.group(1).startswith(icon)
        assert link.group(1).endswith("/>&nbsp;Copy")


def test_dark_and_light_highlighting_differ() -> None:
    source = "```python\ndef f(x):\n    return x\n```\n"
    light, dark = render_markdown(source), render_markdown(source, dark=True)
    assert light != dark
    assert "#161b22" in dark  # dark code background


def test_unknown_or_missing_language_is_plain_escaped_text() -> None:
    html = render_markdown("```nosuchlang\na <b> & c\n```\n")
    body = _PRE_RE.search(html)
    assert body is not None
    assert body.group(1) == "a &lt;b&gt; &amp; c"
    assert "<small>nosuchlang</small>" in html

    html = render_markdown("```\nplain\n```\n")
    assert "<small>Code</small>" in html
    assert "<span" not in html


def test_mermaid_and_math_blocks_are_labelled_copyable_source() -> None:
    html = render_markdown("```mermaid\ngraph TD; A-->B\n```\n\n$$\nx^2\n$$\n\n$$y$$ (eq1)\n")
    assert "<small>Mermaid</small>" in html
    assert "graph TD; A--&gt;B" in html
    assert "<small>Math</small>" in html
    assert "<small>Math (eq1)</small>" in html
    assert _copy_indices(html) == [0, 1, 2]
    assert code_blocks("```mermaid\ngraph TD; A-->B\n```\n\n$$\nx^2\n$$\n\n$$y$$ (eq1)\n") == [
        "graph TD; A-->B",
        "x^2",
        "y",
    ]


def test_copy_links_and_code_blocks_agree() -> None:
    html = render_markdown(MIXED)
    blocks = code_blocks(MIXED)
    assert _copy_indices(html) == list(range(len(blocks)))
    assert blocks == [
        "pip install parley",
        'def greet(name: str) -> str:\n    return f"Hello, {name}!"',
        "indented code block",
        "E = mc^2",
        "graph TD; A-->B",
    ]
    shown = [html_lib.unescape(_TAG_RE.sub("", body)) for body in _PRE_RE.findall(html)]
    assert shown == blocks


def test_code_blocks_in_containers_keep_document_order() -> None:
    text = "> ```\n> quoted\n> ```\n\n- item\n\n      indented in list\n\nlast:\n\n```\nend\n```\n"
    assert code_blocks(text) == ["quoted", "indented in list", "end"]
    assert _copy_indices(render_markdown(text)) == [0, 1, 2]


def test_code_blocks_of_text_without_code() -> None:
    assert code_blocks("just *text*") == []


def test_leading_and_trailing_blank_lines_in_code_are_kept() -> None:
    assert code_blocks("```python\n\nx = 1\n\n```\n") == ["\nx = 1\n"]


def test_copy_href_round_trip() -> None:
    assert copy_href(7) == "parley-copy:7"
    assert copy_index("parley-copy:7") == 7
    for other in ("parley-copy:", "parley-copy:-1", "parley-copy:1x", "https://x", "parley-copy:١"):
        assert copy_index(other) is None


def test_warming_up_loads_the_lexer_and_both_styles_ahead() -> None:
    from desktop.render import highlight

    loaded = highlight._per_thread  # this thread's lexers and formatters
    loaded.lexers.clear()
    loaded.formatters.clear()
    highlight.warm_up("python")
    assert list(loaded.lexers) == ["python"] and sorted(loaded.formatters) == [False, True]
    lexer = loaded.lexers["python"]
    highlight.highlight_code("print(1)", "python", dark=True)
    assert loaded.lexers == {"python": lexer}  # the answer's fence found it loaded


def test_two_threads_highlighting_at_once_get_what_each_would_alone() -> None:
    """The GUI thread and the worker that renders ahead highlight fences at the same time;
    some lexers keep what they are in the middle of on the object (PostgreSQL's lexer, the
    language of a function body)."""
    from desktop.render import highlight

    fences = {
        "sql": "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql;\n" * 60,
        "python": "CREATE FUNCTION g() RETURNS int AS $b$ return 1 $b$ LANGUAGE plpython3u;\n" * 60,
    }
    alone = {
        name: highlight.highlight_code(code, "postgresql", dark=False)
        for name, code in fences.items()
    }
    results: dict[str, list[str | None]] = {}

    def highlight_often(name: str) -> None:
        code = fences[name]
        results[name] = [
            highlight.highlight_code(code, "postgresql", dark=False) for _round in range(15)
        ]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads far more often than usual
    try:
        threads = [threading.Thread(target=highlight_often, args=(name,)) for name in fences]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert results == {name: [html] * 15 for name, html in alone.items()}
