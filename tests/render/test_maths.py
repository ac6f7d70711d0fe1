"""Formulas through the real parser and renderer: what is maths, what each state shows."""

from __future__ import annotations

import random
import time

import pytest

from desktop.render import StreamingRenderer, code_blocks, render_markdown
from desktop.render.guard import MAX_FORMULA_BRACES
from desktop.render.maths import (
    FAILED,
    PENDING,
    READY,
    Formula,
    formula_problem,
    pending_maths,
)


class Recorder:
    """A MathSource that answers from a table and records what it was asked."""

    def __init__(self, state: str = PENDING) -> None:
        self.state = state
        self.asked: list[tuple[str, bool]] = []
        self.ready: set[str] = set()

    def key(self, tex: str) -> str:
        return format(abs(hash(tex)), "x")

    def formula(self, tex: str, display: bool) -> Formula:
        self.asked.append((tex, display))
        key = self.key(tex)
        if key in self.ready:
            return Formula(READY, key=key, name=f"parley-math:{key}", width=40, height=16)
        if self.state == FAILED:
            return Formula(FAILED, key=key, reason="not valid TeX")
        return Formula(self.state, key=key, name=f"parley-math:{key}", width=40, height=16)

    def waiting(self, key: str) -> bool:
        return key not in self.ready

    def known(self, key: str) -> Formula | None:
        asked = {self.key(tex): (tex, display) for tex, display in self.asked}
        if key not in asked:
            return None
        return self.formula(*asked[key])


def test_every_delimiter_is_a_formula_in_paragraphs_lists_and_tables():
    source = Recorder()
    text = (
        "Runs in $O(\\log n)$ or \\(n^2\\).\n\n"
        "$$\n\\int_0^1 x\\,dx\n$$\n\n"
        "\\[\nE = mc^2\n\\]\n\n"
        "- item $a_i$\n- item \\(b\\)\n\n"
        "| x | y |\n|---|---|\n| $c^2$ | \\(d\\) |\n"
    )
    render_markdown(text, maths=source)
    assert source.asked == [
        ("O(\\log n)", False),
        ("n^2", False),
        ("\\int_0^1 x\\,dx", True),
        ("E = mc^2", True),
        ("a_i", False),
        ("b", False),
        ("c^2", False),
        ("d", False),
    ]


def test_double_dollars_inside_a_sentence_are_one_display_formula():
    source = Recorder(READY)
    html = render_markdown("A normal one: $$\\int_0^1 x\\,dx$$ and no more.", maths=source)
    assert source.asked == [("\\int_0^1 x\\,dx", True)]
    assert "$" not in html.replace('title="$$\\int_0^1 x\\,dx$$"', "")  # no stray dollars


def test_prices_are_not_formulas_in_text_lists_and_tables():
    source = Recorder()
    text = (
        "It costs $5 and $10 today.\n\n"
        "- from $5 to $10\n- $3.50 or $4\n\n"
        "| item | price |\n|---|---|\n| tea | $5 |\n| cake | $10 and $12 |\n"
    )
    html = render_markdown(text, maths=source)
    assert source.asked == []
    assert "$5 and $10 today" in html and "$10 and $12" in html


def test_a_ready_formula_is_an_image_sized_by_the_view():
    source = Recorder(READY)
    html = render_markdown("A $x^2$ here", maths=source)
    assert '<img src="parley-math:' in html and "width=" not in html and "height=" not in html
    assert "vertical-align: middle" in html
    # the image replaces the source, which stays only as its tooltip (and what a copy holds)
    assert html.count("x^2") == 1 and 'title="$x^2$"' in html


def test_a_pending_formula_shows_its_source_muted_and_marked():
    source = Recorder(PENDING)
    html = render_markdown("A $x^2$ and \\(y\\)", maths=source)
    assert "$x^2$" in html and "\\(y\\)" in html
    assert pending_maths(html) == [source.key("x^2"), source.key("y")]


def test_a_failed_formula_stays_source_with_the_reason_as_tooltip():
    source = Recorder(FAILED)
    html = render_markdown("Broken $\\frac{1}{$ here\n\n$$\n\\left( x\n$$\n", maths=source)
    assert "$\\frac{1}{$" in html
    assert 'title="Formula not typeset: not valid TeX"' in html
    assert "Math — not typeset" in html and "\\left( x" in html  # the display one's frame
    assert pending_maths(html) == []


def test_the_formula_text_is_escaped_like_all_message_text():
    source = Recorder(PENDING)
    html = render_markdown('$a<b>"c"$ and \\(<img src=x>\\)', maths=source)
    assert "<b>" not in html and "<img src=x>" not in html
    assert "&lt;b&gt;" in html and "&lt;img src=x&gt;" in html
    # and a message cannot write the marker the renderer uses for pending formulas
    assert pending_maths(render_markdown('<code class="math-wait abc">x</code>')) == []


def test_copy_keeps_the_tex_of_display_formulas():
    text = "Look:\n\n$$\n\\int_0^1 x\\,dx\n$$\n\n\\[\nE = mc^2\n\\]\n\n```py\nx = 1\n```\n"
    assert code_blocks(text) == ["\\int_0^1 x\\,dx", "E = mc^2", "x = 1"]
    html = render_markdown(text, maths=Recorder(READY))
    assert html.count('href="parley-copy:') == 3
    assert 'href="parley-copy:1"' in html and 'href="parley-copy:2"' in html


def test_streaming_an_unclosed_display_formula_stays_source_until_closed():
    source = Recorder(PENDING)
    renderer = StreamingRenderer(maths=source)
    start = "Here:\n\n$$\n\\int_0^1 x\\,dx\n"
    html = renderer.render(start)
    assert source.asked == []  # no display formula while $$ is not closed
    assert "\\int_0^1 x\\,dx" in html
    renderer.render(start + "$$\n\nAfter.")
    assert source.asked[-1] == ("\\int_0^1 x\\,dx", True)


def test_only_the_block_showing_a_formula_is_rendered_again_once_ready():
    source = Recorder(PENDING)
    renderer = StreamingRenderer(maths=source)
    text = "First paragraph.\n\nSecond with $x^2$.\n\nThird paragraph.\n\nFourth.\n"
    html = renderer.render(text)
    assert source.key("x^2") in pending_maths(html)
    before = renderer.block_renders
    assert renderer.render(text) == html  # nothing changed: nothing rendered
    source.ready.add(source.key("x^2"))
    html = renderer.render(text)
    assert '<img src="parley-math:' in html and pending_maths(html) == []
    assert renderer.block_renders == before  # the image took the source's place
    # the final render equals a full one
    assert renderer.render(text, final=True) == render_markdown(text, maths=source)


class Settling(Recorder):
    """Formulas become ready (or fail) at random, a few each time they are looked at."""

    def __init__(self, seed: int) -> None:
        super().__init__(PENDING)
        self.rng = random.Random(seed)
        self.failed: set[str] = set()

    def settle(self) -> None:
        for tex, _display in self.asked:
            key = self.key(tex)
            if key not in self.ready and key not in self.failed and self.rng.random() < 0.3:
                (self.failed if self.rng.random() < 0.2 else self.ready).add(key)

    def formula(self, tex: str, display: bool) -> Formula:
        key = self.key(tex)
        if key in self.failed:
            self.asked.append((tex, display))
            return Formula(FAILED, key=key, reason="not valid TeX")
        return super().formula(tex, display)

    def waiting(self, key: str) -> bool:
        return key not in self.ready and key not in self.failed


def test_a_block_whose_formula_failed_is_rendered_again():
    source = Settling(seed=0)
    renderer = StreamingRenderer(maths=source)
    text = "Intro.\n\n$$\n\\frac{a}{b}\n$$\n\nAfter.\n"
    renderer.render(text)
    before = renderer.block_renders
    source.failed.add(source.key("\\frac{a}{b}"))  # shown as a code frame instead
    html = renderer.render(text)
    assert renderer.block_renders == before + 1
    assert html == render_markdown(text, maths=source)


@pytest.mark.parametrize("seed", range(4))
def test_formulas_settling_while_streaming_match_a_full_render(seed: int):
    blocks = [
        f"Step {n}: $a_{{{n}}}$ and \\(b^{{{n}}}\\) cost $5 and $10.\n\n"
        + (f"$$\nx_{{{n}}} = \\frac{{{n}}}{{2}}\n$$\n\n" if n % 2 else "")
        + (f"- item $c_{{{n}}}$\n- $d$ too\n\n" if n % 3 == 0 else "")
        + (f"| x | y |\n|---|---|\n| $e_{{{n}}}$ | f |\n\n" if n % 4 == 1 else "")
        for n in range(12)
    ]
    source = Settling(seed)
    renderer = StreamingRenderer(maths=source)
    text = ""
    for block in blocks:
        text += block
        source.settle()
        html = renderer.render(text)
        assert html == render_markdown(text, maths=source), text
    assert renderer.render(text, final=True) == render_markdown(text, maths=source)


def test_what_is_never_typeset():
    assert formula_problem("x^2") is None
    assert "characters" in (formula_problem("x" * 200_000) or "")
    nested = "{" * (MAX_FORMULA_BRACES + 1) + "x" + "}" * (MAX_FORMULA_BRACES + 1)
    assert "nested" in (formula_problem(nested) or "")
    assert formula_problem("{" * MAX_FORMULA_BRACES + "x" + "}" * MAX_FORMULA_BRACES) is None


def test_thousands_of_unclosed_openers_parse_in_linear_time():
    """Each unclosed \\( looks for its closer by bisection, not by a scan to the end."""
    source = Recorder(PENDING)
    started = time.perf_counter()
    render_markdown("\\( a " * 15_000, maths=source)
    render_markdown("\\[ a\n\n" * 5_000, maths=source)
    assert time.perf_counter() - started < 20  # quadratic, this took minutes
    assert source.asked == []
