"""Citation markers: which ``[n]`` become links to a source, in which order, and that a
streamed answer shows them exactly as a full render does."""

from __future__ import annotations

import random

import pytest

from desktop.render import (
    StreamingRenderer,
    cite_href,
    cite_number,
    cited_in_html,
    cited_numbers,
    render_markdown,
)

KNOWN = frozenset({1, 2, 3})

# (text, the numbers linked in order of appearance, with repeats)
CASES = [
    ("one [1].", [1]),
    ("a run [1][2] of two", [1, 2]),
    ("spaced [1] [2]", [1, 2]),
    ("a list [1, 2] and [1,3]", [1, 2, 1, 3]),
    ("a list with an unknown [1, 9]", [1]),
    ("[2] at the start of a line", [2]),
    ("first\n[3] at the start of the second", [3]),
    ("repeated [1] and [1] again", [1, 1]),
    ("in **bold [1]** and *[2]*", [1, 2]),
    ("**[3]**", [3]),
    ("# A heading [2]", [2]),
    ("- an item [1]\n- another [3]", [1, 3]),
    ("1. numbered [2]", [2]),
    ("| a | b |\n|---|---|\n| cell [1] | [2] |", [1, 2]),
    ("> quoted [3]", [3]),
    ("unknown [9]", []),
    ("zero [0] and padded [01] and [1, 02]", []),
    ("code `[1]` span", []),
    ("```\nfenced [1]\n```", []),
    ("    indented code [1]", []),
    ("maths $x_[1]$ inline", []),
    ("display\n\n$$\n[1]\n$$", []),
    ("escaped \\[1] bracket", []),
    ("escaped \\[1\\] both (a formula)", []),
    ("half escaped [1\\]", []),
    ("a link [1](http://example.com)", []),
    ("link text [see [1]](http://example.com)", []),
    ("a URL https://example.com/[1] is a URL", []),
    ("an autolink <https://example.com/[1]>", []),
    ("www.example.com/[1]", []),
    ("an image ![chart [1]](http://example.com/c.png)", []),
    ("a reference [1]\n\n[1]: http://example.com", []),
    ("a run before a link [1][2](http://example.com)", [1]),
    ("spaces inside [ 1 ] or [1 2]", []),
    ("words [a] [x1] [1a]", []),
    ("a footnote[^1] and [2]\n\n[^1]: with [3] in it", [2, 3]),
    ("an e-mail me@example.com[1]", [1]),
]


def linked(html: str) -> list[int]:
    numbers = []
    for chunk in html.split('href="')[1:]:
        number = cite_number(chunk.split('"', 1)[0])
        if number is not None:
            numbers.append(number)
    return numbers


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_which_markers_become_citation_links(text: str, expected: list[int]) -> None:
    html = render_markdown(text, citations=KNOWN)
    assert linked(html) == expected
    first_seen = tuple(dict.fromkeys(expected))
    assert cited_in_html(html) == first_seen
    assert cited_numbers(text, KNOWN) == first_seen


@pytest.mark.parametrize(("text", "_expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_without_sources_nothing_changes(text: str, _expected: list[int]) -> None:
    assert render_markdown(text, citations=()) == render_markdown(text)
    assert cited_numbers(text, ()) == ()


def test_an_unknown_number_stays_text_as_written() -> None:
    html = render_markdown("see [9] and [1, 9]", citations=KNOWN)
    assert "see [9] and [" in html
    assert f'<a href="{cite_href(1)}" style="text-decoration: none;">1</a>, 9]' in html


def test_a_single_marker_is_one_link_with_its_brackets() -> None:
    html = render_markdown("fact [2].", citations=KNOWN)
    assert f'<p>fact <a href="{cite_href(2)}" style="text-decoration: none;">[2]</a>.</p>' in html


def test_the_cards_order_is_the_first_citation_order() -> None:
    text = "B is true [3]. A too [1][3]. And [2, 1]."
    assert cited_numbers(text, KNOWN) == (3, 1, 2)
    assert cited_in_html(render_markdown(text, citations=KNOWN)) == (3, 1, 2)
    assert cited_numbers(text, {1, 2}) == (1, 2)


def test_a_model_cannot_forge_a_citation_link() -> None:
    text = '[one](parley-cite:1) and `<a href="parley-cite:2">` and <a href="parley-cite:3">x</a>'
    html = render_markdown(text, citations=KNOWN)
    assert cited_in_html(html) == ()


@pytest.mark.parametrize(
    ("url", "number"),
    [
        ("parley-cite:1", 1),
        ("parley-cite:12", 12),
        ("parley-cite:01", None),
        ("parley-cite:", None),
        ("parley-cite:x", None),
        ("parley-copy:1", None),
        ("https://x/parley-cite:1", None),
    ],
)
def test_cite_links_read_back(url: str, number: int | None) -> None:
    assert cite_number(url) == number


ANSWER = (
    "# Findings [1]\n\nThe report says so [1][2]. Not `[3]` though, nor \\[3].\n\n"
    "- one [2, 3]\n- two [9]\n\n| k | v |\n|---|---|\n| x | [3] |\n\n"
    "```\n[1]\n```\n\nA closing line [3] with **bold [1]**.\n"
)


def test_a_streamed_answer_shows_its_citations_as_a_full_render_does() -> None:
    renderer = StreamingRenderer(citations=KNOWN)
    rng = random.Random(7)
    end = 0
    while end < len(ANSWER):
        end = min(len(ANSWER), end + rng.randint(1, 5))
        assert renderer.render(ANSWER[:end]) == render_markdown(ANSWER[:end], citations=KNOWN)
    assert renderer.render(ANSWER, final=True) == render_markdown(ANSWER, citations=KNOWN)


def test_a_new_set_of_sources_renders_the_cached_blocks_again() -> None:
    renderer = StreamingRenderer(citations={1})
    text = "First [1].\n\nSecond [2].\n\nThird"
    assert cited_in_html(renderer.render(text)) == (1,)
    renderer.citations = {1, 2}
    html = renderer.render(text)
    assert html == render_markdown(text, citations={1, 2})
    assert cited_in_html(html) == (1, 2)
