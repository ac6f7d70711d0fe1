"""Where the formatted part of an over-budget answer ends, and what the rest shows.

The formatting budget may run out at any line; the formatted part still ends between
top-level blocks, so a code block is never drawn (or copied) in part. Asserts on the
plan and the output, never on timing.
"""

from __future__ import annotations

import re

import pytest

from desktop.render import (
    StreamingRenderer,
    code_blocks,
    guard,
    plan,
    render_markdown,
    render_message,
    shown_source,
)
from desktop.render.cost import text_cost
from desktop.render.guard import FORMAT_BUDGET
from desktop.render.markdown import render_fragment

_COPY_RE = re.compile(
    r'<a href="parley-copy:(\d+)" style="[^"]*">'
    r'<img src="parley-icon:copy\?[^"]*"[^>]*/>&nbsp;Copy</a>'
)


def _python_file(lines: int) -> str:
    return "".join(
        f"def handle_{n}(request: dict[str, int]) -> list[str]:  # {n}\n" for n in range(lines)
    )


SOURCE = _python_file(1_300)  # a file a model prints whole: about 70 KB
ANSWER = f"Here it is:\n\n```python\n{SOURCE}```\n\nDone.\n"


def _copies(html: str) -> list[int]:
    return [int(number) for number in _COPY_RE.findall(html)]


def test_a_fence_crossing_the_budget_is_copied_whole() -> None:
    assert text_cost(ANSWER) > FORMAT_BUDGET  # the budget runs out inside the fence
    assert code_blocks(ANSWER) == [SOURCE.removesuffix("\n")]
    html = render_markdown(ANSWER)
    assert _copies(html) == [0]
    assert "```" not in html  # no fence marker shown as text


def test_a_fence_crossing_the_budget_is_drawn_whole_in_its_frame() -> None:
    rendered = render_message(ANSWER)
    assert rendered.plan.markdown_end == len("Here it is:\n\n")  # ends before the fence
    html = rendered.html
    assert html.startswith("<p>Here it is:</p>")
    assert "<small>python</small>" in html
    assert '<span style="color' not in html  # too costly to highlight: escaped text
    last = SOURCE.splitlines()[-1].replace(">", "&gt;")
    assert last in html and html.index(last) < html.index("Done.")
    assert "The rest is shown as plain text" in html
    assert html.index("</table>") < html.index("The rest is shown as plain text")


def test_only_whole_blocks_are_formatted() -> None:
    paragraphs = "".join(
        f"Paragraph {n} has *some* words and a `code` span.\n\n" for n in range(300)
    )
    text = paragraphs + f"```python\n{SOURCE}```\n" + paragraphs
    source = shown_source(text)
    end = render_message(text).plan.markdown_end
    assert end == len(paragraphs)
    assert text_cost(source[:end]) <= FORMAT_BUDGET
    assert plan(source).markdown_end == end
    assert code_blocks(text) == [SOURCE.removesuffix("\n")]


def test_a_block_the_budget_runs_out_in_is_left_whole_to_the_rest() -> None:
    intro = "Intro with a [link](https://example.com).\n\n"
    table = "| a | b | c |\n|---|---|---|\n" + "| x | y | z |\n" * 5_000
    rendered = render_message(intro + table)
    assert rendered.plan.markdown_end == len(intro)
    assert "<table" not in rendered.html
    assert rendered.html.count("| x | y | z |") == 5_000


def test_a_first_block_over_the_budget_keeps_its_lines_that_fit() -> None:
    table = "| a | b | c |\n|---|---|---|\n" + "| x | y | z |\n" * 5_000
    rendered = render_message(table)
    assert 0 < rendered.plan.markdown_end < len(table)
    rows = rendered.html.partition("</table>")[0].count("<tr>") - 1
    assert 100 < rows < 5_000
    assert rendered.html.count("| x | y | z |") == 5_000 - rows


def test_a_first_block_over_the_budget_is_not_cut_inside_its_code() -> None:
    items = "".join(f"- step {n}: *run* `it` [now](https://example.com/{n})\n" for n in range(100))
    code = "".join(f"  x = compute({n}, [a, b])\n" for n in range(3_000))
    text = f"{items}- and then:\n\n  ```python\n{code}  ```\n"
    rendered = render_message(text)
    end = rendered.plan.markdown_end
    assert text_cost(text[: text.index("  ```python")]) < FORMAT_BUDGET < text_cost(text)
    assert end == text.index("  ```python")  # the list's items, not the start of its code
    assert code_blocks(text) == [code.removesuffix("\n").replace("\n  ", "\n")[2:]]
    assert rendered.html.count("parley-copy:") == 1


def test_copy_links_and_code_blocks_agree_past_the_budget() -> None:
    fences = "".join(f"```\nblock {n}\n```\n\ntext {n}\n\n" for n in range(3_000))
    html = render_markdown(fences)
    blocks = code_blocks(fences)
    copies = _copies(html)
    assert copies == list(range(len(blocks)))
    source = shown_source(fences)
    formatted = render_fragment(source[: plan(source).markdown_end], dark=False)
    assert formatted is not None
    framed = len(_copies(formatted))
    assert len(blocks) == framed + guard.MAX_UNFORMATTED_FRAMES  # then fences stay text
    assert blocks[framed] == f"block {framed}"
    first_as_text = framed + guard.MAX_UNFORMATTED_FRAMES
    shown = html.replace("\u2028", "\n")  # a line break inside plain text
    assert f"```\nblock {first_as_text}\n```" in shown  # whole, with both of its markers


@pytest.mark.parametrize("text", [ANSWER, "```\n" + "[" * 70_000 + "\n```\n"])
def test_streaming_past_the_budget_ends_as_a_full_render(text: str) -> None:
    renderer = StreamingRenderer()
    step = len(text) // 40
    for end in range(step, len(text), step):
        html = renderer.render(text[:end])
        assert "```" not in html.replace("[", "")  # the open fence is drawn as a frame
    assert renderer.render(text, final=True) == render_markdown(text)
