"""The streaming checks for hostile markdown (`GrowingGuard`) answer exactly what
`fallback_reason` answers for the whole text, whatever was checked before."""

from __future__ import annotations

import random

from desktop.render.guard import (
    MAX_BRACKET_DEPTH,
    MAX_LINE_NESTING,
    MAX_LINK_OPENERS,
    MAX_LINK_SCAN,
    GrowingGuard,
    fallback_reason,
)

# Pieces that move every check: brackets and blank lines (with spaces and tabs in them),
# markers at line starts, link openers with and without an end to their destination.
_PIECES = ["[", "[" * 16, "]", "\n", "\n\n", "\n \t\n", " ", "a", "> > > > ", "- - ", "1. ", "-"]
_PIECES += ["](x", "](", "\t", "\n" + "> " * 9]


def _text(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(length))


def _streamed(text: str, rng: random.Random) -> list[str]:
    """The text as a stream shows it: growing prefixes, cut anywhere."""
    cuts = sorted({rng.randrange(len(text) + 1) for _ in range(40)} | {len(text)})
    return [text[:cut] for cut in cuts]


def test_every_prefix_of_random_streams_gets_the_whole_text_answer() -> None:
    rng = random.Random(15)
    reasons = set()
    for _ in range(300):
        text = _text(rng, rng.randrange(1, 400))
        guard = GrowingGuard()
        for prefix in _streamed(text, rng):
            expected = fallback_reason(prefix)
            assert guard.reason(prefix) == expected, repr(prefix)
            reasons.add(expected)
    # the streams crossed the limits, so the kept state was put to the test both ways
    assert None in reasons and any(r and "brackets" in r for r in reasons)
    assert any(r and "nested" in r for r in reasons)


def test_a_text_that_is_not_the_last_one_grown_is_checked_whole() -> None:
    rng = random.Random(16)
    guard = GrowingGuard()
    for _ in range(400):  # unrelated texts, edits and shrinks, one guard for all
        text = _text(rng, rng.randrange(0, 300))
        assert guard.reason(text) == fallback_reason(text), repr(text)


def test_brackets_left_open_across_updates_count_until_a_blank_line() -> None:
    guard = GrowingGuard()
    half = "[" * (MAX_BRACKET_DEPTH // 2 + 1)
    assert guard.reason(half + "\n") is None
    assert guard.reason(half + "\n" + half) is not None  # one paragraph, over the limit
    guard = GrowingGuard()
    assert guard.reason(half + "\n \n") is None
    assert guard.reason(half + "\n \n" + half) is None  # the blank line ended it
    # a line of spaces is blank only once its line break has come
    guard = GrowingGuard()
    assert guard.reason(half + "\n  ") is None
    assert guard.reason(half + "\n  x" + half) is not None


def test_a_markers_line_is_judged_as_it_grows() -> None:
    guard = GrowingGuard()
    text = "intro\n" + "- " * MAX_LINE_NESTING
    assert guard.reason(text) is None
    assert guard.reason(text + "-") is not None  # a bullet at the very end is a marker
    assert guard.reason(text + "-x") is None  # and no longer one once a letter follows
    assert guard.reason(text + "- x") is not None


def test_link_limits_are_reached_across_updates() -> None:
    guard = GrowingGuard()
    openers = "[a](b)\n" * MAX_LINK_OPENERS
    assert guard.reason(openers) is None
    assert guard.reason(openers + "[a](b") is not None
    # one destination without an end: its scan grows with the text after it
    guard = GrowingGuard()
    head = "see ](" + "x" * (MAX_LINK_SCAN // 2)
    assert guard.reason(head) is None
    assert guard.reason(head + "x" * MAX_LINK_SCAN) is not None
    assert fallback_reason(head + "x" * MAX_LINK_SCAN) is not None


def test_a_line_break_taken_back_is_not_trusted() -> None:
    # The state kept at a line break counted a blank line that the break closed; a text
    # where that break became a letter has no blank line there.
    guard = GrowingGuard()
    brackets = "[" * (MAX_BRACKET_DEPTH // 2 + 1)
    assert guard.reason(brackets + "\n  \n") is None
    edited = brackets + "\n  y" + brackets
    assert guard.reason(edited) == fallback_reason(edited) is not None
