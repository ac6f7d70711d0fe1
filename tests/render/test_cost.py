"""The cost model's choices for inputs it used to under-predict by seconds.

Each test asserts what is formatted (via the plan), from floors measured by
benchmarks/render_bench.py: a code frame costs Qt about 0.4 ms however little it holds,
a heading about 0.05-0.1 ms, loading a lexer pygments has not loaded yet 18-27 ms. No
test measures time.
"""

from __future__ import annotations

import pygments.lexers
import pytest
from pygments.lexers._mapping import LEXERS

from desktop.render import code_blocks, render_markdown, render_message, shown_source
from desktop.render.cost import text_cost
from desktop.render.guard import FORMAT_BUDGET
from desktop.render.markdown import parser
from desktop.render.rules import COPYABLE_TYPES

FRAME_FLOOR = 400.0  # us: what Qt spends on a code frame, at least
HEADING_FLOOR = 90.0  # us: a heading, with every core busy
LEXER_FLOOR = 18_000.0  # us: loading a lexer module

FRAMED = {
    "6,000 empty fences": "```\nx\n```\n" * 6_000,
    "6,000 mermaid fences": "```mermaid\nx\n```\n" * 6_000,
    "4,500 fences, each a new name": "".join(f"```l{n}\nx\n```\n" for n in range(4_500)),
    "6,000 indented code blocks": "    x\n\nb\n\n" * 6_000,
    "6,000 $$ blocks": "$$\nx\n$$\n\n" * 6_000,
}


def _formatted(text: str) -> str:
    return shown_source(text)[: render_message(text).plan.markdown_end]


def _frames(source: str) -> int:
    return sum(token.type in COPYABLE_TYPES for token in parser().parse(source))


@pytest.mark.parametrize("text", FRAMED.values(), ids=FRAMED.keys())
def test_small_code_blocks_are_costed_as_the_frames_they_are(text: str) -> None:
    formatted = _formatted(text)
    frames = _frames(formatted)
    assert frames > 100  # some are formatted...
    assert frames * FRAME_FLOOR <= FORMAT_BUDGET  # ...no more than the budget can pay for
    assert text_cost(formatted) <= FORMAT_BUDGET


def test_headings_are_costed_as_blocks_of_their_own() -> None:
    text = "# a\n" * 20_000
    headings = _formatted(text).count("#")
    assert 1_000 < headings <= FORMAT_BUDGET / HEADING_FLOOR
    assert render_markdown(text).count("<h1>") == headings


def test_each_language_costs_its_lexer_the_first_time() -> None:
    aliases = sorted({entry[2][0] for entry in LEXERS.values() if entry[2]})
    text = "".join(f"```{alias}\nx = 1\n```\n" for alias in aliases)
    formatted = _formatted(text)
    loaded = _frames(formatted)
    assert loaded * LEXER_FLOOR <= FORMAT_BUDGET
    again = "".join(f"```{alias}\nx = 1\n```\n" for alias in aliases[:10]) * 50
    assert text_cost(again) < text_cost(again[: len(again) // 50]) * 50  # loaded once


def test_names_pygments_does_not_know_are_not_looked_up_one_by_one(monkeypatch) -> None:
    searches: list[None] = []
    lookup_globals = pygments.lexers.get_lexer_by_name.__globals__
    real = lookup_globals["find_plugin_lexers"]

    def counted():  # pygments' search of installed plugins, 0.35 ms a name
        searches.append(None)
        return real()

    monkeypatch.setitem(lookup_globals, "find_plugin_lexers", counted)
    text = "".join(f"```made-up-{n}\nx\n```\n\n" for n in range(300))
    assert len(code_blocks(text)) == 300
    assert "<small>made-up-299</small>" in render_markdown(text)
    assert searches == []
