"""Hostile and huge inputs are shown as plain text. Asserts on output, never on timing
(benchmarks/render_bench.py has the timings)."""

from __future__ import annotations

import pytest

from desktop.render import (
    StreamingRenderer,
    code_blocks,
    fallback_reason,
    plain_text_html,
    render_markdown,
)
from desktop.render.guard import (
    MAX_BRACKET_DEPTH,
    MAX_LINE_NESTING,
    MAX_LINK_OPENERS,
    MAX_MARKDOWN_CHARS,
    MAX_MARKDOWN_LINES,
    MAX_MATH_BLOCK_LINES,
)

HOSTILE = {
    "50,000 nested brackets": "[" * 50_000 + "x" + "]" * 50_000,
    "100,000 open brackets": "[" * 100_000,
    "10,000-deep blockquote": "> " * 10_000 + "deep",
    "10,000-deep blockquote, no spaces": ">" * 10_000 + "deep",
    "10,000-deep bullet list": "- " * 10_000 + "deep",
    "10,000-deep ordered list": "1. " * 10_000 + "deep",
    "10,000-deep mixed": "> - " * 5_000 + "deep",
    "5 MB reply": "All work and no play. " * 240_000,
    "too many lines": "x\n" * MAX_MARKDOWN_LINES,
    "one huge line": "a" * (MAX_MARKDOWN_CHARS + 1),
    "nested images": "![[]()" * 20_000,
    "unclosed image links": "![a](b" * (MAX_LINK_OPENERS + 1),
    "long link destinations": "![a](b" * 32 + "x" * 140_000,
    "many nested list lines": ("- " * 8 + "x\n") * 3_000,
    "indentation deeper than markdown-it keeps": "".join(
        "  " * level + f"- level {level}\n" for level in range(60)
    ),
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_input_falls_back_to_plain_text(text: str) -> None:
    expected = plain_text_html(text)
    assert render_markdown(text) == expected
    assert render_markdown(text, dark=True) == expected
    assert StreamingRenderer().render(text) == expected
    assert code_blocks(text) == []


def test_fallback_keeps_every_character_escaped() -> None:
    text = "<script>x</script>\n" + "[" * (MAX_BRACKET_DEPTH + 1)
    html = plain_text_html(text)
    assert html.startswith('<pre style="white-space: pre-wrap;">')
    assert "&lt;script&gt;x&lt;/script&gt;\n[[[" in html
    assert "<script" not in html


def test_deep_indentation_is_not_silently_truncated() -> None:
    text = "".join("  " * level + f"- level {level}\n" for level in range(60))
    html = render_markdown(text)
    assert "level 59" in html  # markdown-it would have dropped the deep levels


def test_reasons_are_reported() -> None:
    assert fallback_reason("plain *text*") is None
    assert "characters" in str(fallback_reason("a" * (MAX_MARKDOWN_CHARS + 1)))
    assert "lines" in str(fallback_reason("\n" * MAX_MARKDOWN_LINES))
    assert "nested" in str(fallback_reason("> " * (MAX_LINE_NESTING + 1) + "x"))
    assert "brackets" in str(fallback_reason("[" * (MAX_BRACKET_DEPTH + 1)))


def test_limits_are_inclusive() -> None:
    assert fallback_reason("a" * MAX_MARKDOWN_CHARS) is None
    assert fallback_reason("x\n" * (MAX_MARKDOWN_LINES - 1)) is None
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
    text = ("## Section\n\nSome prose with a [link](https://example.com).\n\n- a\n- b\n\n") * 500
    assert fallback_reason(text) is None
    assert render_markdown(text).startswith("<h2>Section</h2>")


def test_math_block_must_close_within_the_bound() -> None:
    inside = "$$\n" + "x\n" * (MAX_MATH_BLOCK_LINES - 2) + "$$\n"
    too_long = "$$\n" + "x\n" * MAX_MATH_BLOCK_LINES + "$$\n"
    assert code_blocks(inside) == ["x\n" * (MAX_MATH_BLOCK_LINES - 3) + "x"]
    assert code_blocks(too_long) == []


def test_many_unclosed_math_openers_in_a_list_still_render() -> None:
    text = "- $$a\n" * 5_000
    assert fallback_reason(text) is None
    html = render_markdown(text)
    assert html.count("<li>$$a</li>") == 5_000
