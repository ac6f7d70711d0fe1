"""Soft breaks in long runs never split what a reader sees as one character.

A run made of one grapheme repeated (after a one-character prefix, so the breaks fall at
every offset inside it) may only be cut between two repeats: every piece is then the
prefix and whole graphemes, or whole graphemes.
"""

from __future__ import annotations

import pytest

from desktop.render import plain_text_html, render_markdown
from desktop.render.plain import LINE_BREAK, PRE_OPEN, SOFT_BREAK_HTML, break_html_runs, run_pieces

PREFIX = "\u00e9"  # one code point, not ASCII: shifts where the breaks fall
GRAPHEMES = {
    "family (zero-width joiners)": "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466",
    "flag (two regional indicators)": "\U0001f1eb\U0001f1f7",
    "thumbs up, skin tone": "\U0001f44d\U0001f3fd",
    "heart, variation selector": "\u2764\ufe0f",
    "keycap": "1\ufe0f\u20e3",
    "e and two combining accents": "e\u0301\u0301",
    "devanagari ksha (virama)": "\u0915\u094d\u0937",
    "hangul jamo syllable": "\u1100\u1161\u11a8",
    "scotland (tag characters)": "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074"
    "\U000e007f",
}


def _whole(pieces: list[str], grapheme: str) -> None:
    assert len(pieces) > 1  # the run did get soft breaks
    assert pieces[0].startswith(PREFIX)
    for piece in [pieces[0].removeprefix(PREFIX), *pieces[1:]]:
        assert piece and piece.replace(grapheme, "") == "", (len(piece), piece[:4], piece[-4:])


@pytest.mark.parametrize("grapheme", GRAPHEMES.values(), ids=GRAPHEMES.keys())
def test_a_run_is_cut_only_between_graphemes(grapheme: str) -> None:
    run = PREFIX + grapheme * (5_000 // len(grapheme))
    _whole(run_pieces(run), grapheme)
    html = break_html_runs(f"<p>{run}</p>")
    _whole(html.removeprefix("<p>").removesuffix("</p>").split(SOFT_BREAK_HTML), grapheme)


@pytest.mark.parametrize("grapheme", GRAPHEMES.values(), ids=GRAPHEMES.keys())
def test_markdown_and_plain_text_keep_graphemes_whole(grapheme: str) -> None:
    run = PREFIX + grapheme * (5_000 // len(grapheme))
    paragraph = render_markdown(run).removeprefix("<p>").removesuffix("</p>\n")
    _whole(paragraph.split(SOFT_BREAK_HTML), grapheme)
    plain = plain_text_html(run).removeprefix(f"{PRE_OPEN}\n").removesuffix("</pre>")
    _whole(plain.split(SOFT_BREAK_HTML), grapheme)


def test_flags_are_cut_between_pairs_however_the_run_starts() -> None:
    flags = "\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea"  # France, Germany
    for prefix in ("", PREFIX, PREFIX * 2):
        pieces = run_pieces(prefix + flags * 1_500)
        assert len(pieces) > 1
        for piece in pieces:
            indicators = len(piece.removeprefix(prefix))
            assert indicators % 2 == 0


def test_a_run_prefers_a_place_between_two_ascii_characters() -> None:
    # In a run mostly of emoji, an ASCII pair near where the break is due takes it.
    run = "\U0001f600" * 990 + "ab" + "\U0001f600" * 3_000
    pieces = run_pieces(run)
    assert pieces[0] == "\U0001f600" * 990 + "a"


def test_the_zero_width_spaces_of_the_text_itself_are_not_marked() -> None:
    text = "x\u200by " + "z" * 3_000
    html = plain_text_html(text)
    assert html.count("\u200b") == html.count(SOFT_BREAK_HTML) + 1
    assert html.startswith(f"{PRE_OPEN}\nx\u200by ")
    assert LINE_BREAK not in html
