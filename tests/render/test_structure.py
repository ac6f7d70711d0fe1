from __future__ import annotations

from desktop.render import render_markdown
from tests.support.markdown_corpus import WITH_FOOTNOTE


def test_headings() -> None:
    html = render_markdown("# One\n\n## Two\n\nThree\n-----\n")
    assert "<h1>One</h1>" in html
    assert "<h2>Two</h2>" in html
    assert "<h2>Three</h2>" in html


def test_emphasis_and_strikethrough() -> None:
    html = render_markdown("**bold** *italic* ~~gone~~")
    assert "<strong>bold</strong>" in html
    assert "<em>italic</em>" in html
    assert "<s>gone</s>" in html


def test_lists() -> None:
    html = render_markdown("- a\n- b\n  1. one\n  2. two\n\n3. three\n4. four\n")
    assert "<ul>" in html
    assert "<ol>" in html
    assert '<ol start="3">' in html
    assert "<li>a</li>" in html


def test_task_list_items_are_characters_not_inputs() -> None:
    html = render_markdown("- [ ] todo\n- [x] done\n- [X] also done\n- plain\n")
    assert "<input" not in html
    assert "☐ todo" in html
    assert "☑ done" in html
    assert "☑ also done" in html
    assert "<li>plain</li>" in html
    assert '<ul style="list-style-type: none;">' in html


def test_task_marker_needs_a_list_item_and_a_space() -> None:
    assert "☐" not in render_markdown("[ ] not in a list")
    assert "☐" not in render_markdown("- [ ]")
    assert "☐" not in render_markdown("- \\[ ] escaped")


def test_nested_task_list_marks_the_inner_list() -> None:
    html = render_markdown("- parent\n  - [x] child\n")
    assert html.startswith("<ul>\n")
    assert '<ul style="list-style-type: none;">' in html


def test_table_has_borders_padding_and_alignment() -> None:
    html = render_markdown("| L | R | C |\n|:--|--:|:-:|\n| 1 | 2 | 3 |\n")
    assert '<table border="1" cellspacing="0" cellpadding="6"' in html
    assert "border-collapse: collapse" in html
    assert '<th align="left"' in html
    assert '<td align="right">2</td>' in html
    assert '<td align="center">3</td>' in html
    assert "text-align" not in html


def test_blockquote_is_a_cell_with_a_bar() -> None:
    html = render_markdown("> quoted *text*\n")
    assert "border-left-width: 3px" in html
    assert "<em>text</em>" in html
    assert "<blockquote" not in html


def test_hr() -> None:
    assert "<hr />" in render_markdown("a\n\n---\n\nb")


def test_inline_code_has_a_background() -> None:
    html = render_markdown("use `x < y` here")
    assert '<code style="background-color: #eff1f3;">x &lt; y</code>' in html


def test_dark_theme_changes_inline_colours() -> None:
    assert "#eff1f3" not in render_markdown("`x`", dark=True)


def test_footnotes_are_numbered_and_collected_at_the_end() -> None:
    html = render_markdown(WITH_FOOTNOTE)
    assert '<sup><a href="#fn1" name="fnref1">[1]</a></sup>' in html
    assert '<li><a name="fn1"></a>' in html
    assert html.index("Another paragraph") < html.index("The source of the claim")
    assert "<section" not in html


def test_reference_links_resolve() -> None:
    html = render_markdown("[docs][d]\n\n[d]: https://example.com\n")
    assert '<a href="https://example.com">docs</a>' in html


def test_inline_math_keeps_its_source_and_money_is_not_math() -> None:
    html = render_markdown("area $\\pi r^2$ for $5 and $10")
    assert "$\\pi r^2$</code>" in html
    assert "$5 and $10" in html


def test_empty_input() -> None:
    assert render_markdown("") == ""


def test_windows_line_endings_render_like_unix_ones() -> None:
    assert render_markdown("a\r\n\r\n- b\r\n") == render_markdown("a\n\n- b\n")
