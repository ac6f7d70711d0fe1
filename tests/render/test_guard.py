"""Hostile and huge inputs: what of them is formatted, shown as plain text, or not shown.

Asserts on the plan and the output, never on timing (benchmarks/render_bench.py has the
timings, measured against the cost model's predictions).
"""

from __future__ import annotations

import re

import pytest

from desktop.render import (
    MAX_SHOWN_CHARS,
    SOFT_BREAK,
    StreamingRenderer,
    code_blocks,
    fallback_reason,
    plain_text_html,
    render_markdown,
    render_message,
    shown_source,
)
from desktop.render.cost import text_cost
from desktop.render.guard import (
    FORMAT_BUDGET,
    MAX_BRACKET_DEPTH,
    MAX_INLINE_NESTING,
    MAX_LINE_NESTING,
    MAX_LINK_OPENERS,
    MAX_MATH_BLOCK_LINES,
    normalize_source,
)
from desktop.render.markdown import render_fragment
from desktop.render.plain import (
    LINE_BREAK,
    PRE_OPEN,
    SOFT_BREAK_HTML,
    break_html_runs,
    run_pieces,
)

# Inputs markdown-it (or a plugin) is superlinear on: never parsed, all plain text.
PATHOLOGICAL = {
    "50,000 nested brackets": "[" * 50_000 + "x" + "]" * 50_000,
    "100,000 open brackets": "[" * 100_000,
    "10,000-deep blockquote": "> " * 10_000 + "deep",
    "10,000-deep blockquote, no spaces": ">" * 10_000 + "deep",
    "10,000-deep bullet list": "- " * 10_000 + "deep",
    "10,000-deep ordered list": "1. " * 10_000 + "deep",
    "10,000-deep mixed": "> - " * 5_000 + "deep",
    "nested images": "![[]()" * 20_000,
    "unclosed image links": "![a](b" * (MAX_LINK_OPENERS + 1),
    "long link destinations": "![a](b" * 32 + "x" * 140_000,
    "indentation deeper than markdown-it keeps": "".join(
        "  " * level + f"- level {level}\n" for level in range(60)
    ),
    "17 nested markers on a line": "> " * (MAX_LINE_NESTING + 1) + "x",
}

# Inputs just under the old size limits that took 1-4 s to format and lay out.
TABLE_ROWS = "| a | b | c |\n|---|---|---|\n" + "| x | y | z |\n" * 5_000
MATH_ITEMS = "- $$ a\n" * 9_000
QUOTED_ITEMS = "> - [a](b) *c* `d`\n" * 3_000
NESTED_ITEMS = ("- " * 8 + "x\n") * 3_000
ONE_LINE = {
    "50,000 underscores around a letter": "_" * 50_000 + "a" + "_" * 50_000,
    "20,000 '*a **a' runs": "*a **a " * 20_000,
    "20,000 unclosed '<http://a'": "<http://a" * 20_000,
    "35,000 'www.'": "www." * 35_000,
}


def _plain_from(text: str, end: int) -> str:
    return plain_text_html(shown_source(text)[end:])


@pytest.mark.parametrize("text", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_pathological_input_is_shown_as_plain_text(text: str) -> None:
    rendered = render_message(text)
    assert rendered.plan.markdown_end == 0
    assert rendered.html.endswith(_plain_from(text, 0))
    assert "Shown as plain text" in rendered.html
    assert render_markdown(text, dark=True).endswith(_plain_from(text, 0))
    assert StreamingRenderer().render(text) == rendered.html
    assert code_blocks(text) == []


@pytest.mark.parametrize(
    "text",
    [TABLE_ROWS, MATH_ITEMS, QUOTED_ITEMS, NESTED_ITEMS],
    ids=["5,000 table rows", "9,000 '- $$ a'", "3,000 quoted list lines", "8-deep list lines"],
)
def test_costly_markdown_is_formatted_up_to_the_budget_then_plain(text: str) -> None:
    source = shown_source(text)
    rendered = render_message(text)
    end = rendered.plan.markdown_end
    assert 0 < end < len(source)
    assert source[end - 1] == "\n"  # whole lines
    next_line = source.index("\n", end) + 1
    assert text_cost(source[:end]) <= FORMAT_BUDGET < text_cost(source[:next_line])
    formatted = render_fragment(source[:end], dark=False)
    assert formatted is not None
    assert rendered.html.startswith(formatted)
    assert rendered.html.endswith(_plain_from(text, end))
    assert "The rest is shown as plain text" in rendered.html
    assert StreamingRenderer().render(text) == rendered.html


def test_a_long_table_keeps_its_first_rows_as_a_table() -> None:
    html = render_markdown(TABLE_ROWS)
    table, _, rest = html.partition("</table>")
    rows = table.count("<tr>") - 1
    assert 100 < rows < 5_000
    assert rest.count("| x | y | z |") == 5_000 - rows


@pytest.mark.parametrize("text", ONE_LINE.values(), ids=ONE_LINE.keys())
def test_one_line_over_the_budget_is_plain_text(text: str) -> None:
    rendered = render_message(text)
    assert rendered.plan.markdown_end == 0
    assert rendered.html.endswith(_plain_from(text, 0))
    assert StreamingRenderer().render(text) == rendered.html


def test_only_the_first_characters_of_a_huge_reply_are_shown() -> None:
    text = "x" * 10_000_000
    html = render_markdown(text)
    shown = html.replace(SOFT_BREAK, "")
    assert shown.count("x") == MAX_SHOWN_CHARS
    assert StreamingRenderer().render(text) == html


def test_a_long_reply_of_prose_is_formatted_up_to_the_shown_limit() -> None:
    text = "All work and *no* play " * 240_000
    rendered = render_message(text)
    assert rendered.plan.markdown_end == MAX_SHOWN_CHARS
    assert rendered.html.startswith("<p>All work and <em>no</em> play All")


def test_deep_emphasis_keeps_its_text_but_not_its_depth() -> None:
    text = "_" * 5_000 + "deep" + "_" * 5_000
    html = render_markdown(text)
    assert "deep" in html
    depth = deepest = 0
    for tag in re.findall(r"</?(?:em|strong|s)>", html):
        depth += -1 if tag.startswith("</") else 1
        deepest = max(deepest, depth)
    assert depth == 0
    assert deepest == MAX_INLINE_NESTING
    assert render_markdown("***both*** and ~~**struck bold**~~") == (
        "<p><em><strong>both</strong></em> and <s><strong>struck bold</strong></s></p>\n"
    )


def test_long_runs_get_soft_breaks_in_markdown_and_plain_text() -> None:
    run = "y" * 5_000
    for html in (render_markdown(f"a `{run}` b\n\n```\n{run}\n```\n"), plain_text_html(run)):
        pieces = re.split(rf"[\s{SOFT_BREAK}<>]+", html)
        assert max(len(piece) for piece in pieces) <= 1_000
        assert html.count(SOFT_BREAK) == html.count(SOFT_BREAK_HTML) > 0  # each one marked
        assert html.replace(SOFT_BREAK_HTML, "").count(run) == (1 if html.startswith("<pre") else 2)
    assert code_blocks(f"```\n{run}\n```") == [run]  # "Copy" copies the text as it came


def test_plain_text_keeps_every_character_escaped() -> None:
    text = "<script>x</script>\n" + "[" * (MAX_BRACKET_DEPTH + 1)
    html = plain_text_html(text)
    assert html.startswith(PRE_OPEN)
    assert f"&lt;script&gt;x&lt;/script&gt;{LINE_BREAK}[[[" in html  # one block per unit
    assert "<script" not in html


def test_deep_indentation_is_not_silently_truncated() -> None:
    text = "".join("  " * level + f"- level {level}\n" for level in range(60))
    html = render_markdown(text)
    assert "level 59" in html  # markdown-it would have dropped the deep levels


def test_reasons_are_reported() -> None:
    assert fallback_reason("plain *text*") is None
    assert "nested" in str(fallback_reason("> " * (MAX_LINE_NESTING + 1) + "x"))
    assert "brackets" in str(fallback_reason("[" * (MAX_BRACKET_DEPTH + 1)))


def test_limits_are_inclusive() -> None:
    assert fallback_reason("> " * MAX_LINE_NESTING + "x") is None
    assert fallback_reason("[" * MAX_BRACKET_DEPTH) is None


def test_bracket_depth_restarts_at_blank_lines() -> None:
    paragraph = "[" * (MAX_BRACKET_DEPTH - 1) + "\n"
    text = (paragraph + "\n") * 10
    assert fallback_reason(text) is None
    assert fallback_reason(paragraph * 2) is not None


def test_horizontal_rules_and_emphasis_are_not_nesting() -> None:
    assert fallback_reason("---\n***\n" * 100 + "**" * 200) is None


def test_ordinary_long_answer_is_rendered_as_markdown() -> None:
    text = ("## Section\n\nSome prose with a [link](https://example.com).\n\n- a\n- b\n\n") * 250
    rendered = render_message(text)
    assert rendered.plan.markdown_end == len(text)
    assert rendered.html.startswith("<h2>Section</h2>")
    assert "plain text" not in rendered.html


def test_math_block_must_close_within_the_bound() -> None:
    inside = "$$\n" + "x\n" * (MAX_MATH_BLOCK_LINES - 2) + "$$\n"
    too_long = "$$\n" + "x\n" * MAX_MATH_BLOCK_LINES + "$$\n"
    assert code_blocks(inside) == ["x\n" * (MAX_MATH_BLOCK_LINES - 3) + "x"]
    assert code_blocks(too_long) == []


def test_many_unclosed_math_openers_in_a_list_still_render() -> None:
    # Over the budget, so shown as plain text after the first items; as markdown anyway,
    # the bounded $$ scan keeps every item (unbounded, 30,000 of them took minutes).
    text = "- $$a\n" * 5_000
    assert fallback_reason(text) is None
    html = render_fragment(normalize_source(text), dark=False)
    assert html is not None and html.count("<li>$$a</li>") == 5_000


def test_soft_breaks_never_split_an_entity_or_a_character_from_its_marks() -> None:
    html = break_html_runs("<p>" + "a" * 998 + "&amp;" + "b" * 1_500 + "</p>")
    assert html.count(SOFT_BREAK_HTML) == 2
    assert html.replace(SOFT_BREAK_HTML, "") == "<p>" + "a" * 998 + "&amp;" + "b" * 1_500 + "</p>"
    for piece in html.split(SOFT_BREAK_HTML):
        assert piece.count("&") == piece.count(";")  # every entity whole on one side
    pieces = run_pieces("c" * 999 + "e\u0301\u0301" + "d" * 1_500)
    assert len(pieces) == 3 and any("e\u0301\u0301" in piece for piece in pieces)
