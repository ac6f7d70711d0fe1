"""Model-written text made safe to judge: every hidden character drawn, every length capped.

A call's arguments are written by the model, so they are hostile input. A right-to-left
override makes `rm -rf ~ #` read as something harmless, a zero-width or tag character
smuggles text nobody sees, a carriage return or a line separator moves what follows
out of sight, and a megabyte-long line freezes a layout. Before such text is shown for
a yes or no, `visible` replaces each character a person cannot see with a mark they can
(⟨ESC⟩ for an escape, ⟨RLO⟩ for an override, ⟨U+2064⟩ for one without a short name: the
marks need no special glyph), and the capping helpers keep what is laid out small while
saying how much is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from desktop.core.i18n import tr
from desktop.ui.viewmodels.long_text import ends, gap_note

# C0 controls but tab and newline, DEL and the C1 controls, and the characters that
# draw nothing or change the direction of what follows: soft hyphen, combining grapheme
# joiner, Arabic letter mark, fillers, Mongolian vowel separator, zero-width space /
# joiners, direction marks, line and paragraph separators, embeddings and overrides,
# invisible operators, isolates, byte order mark, interlinear annotations, lone
# surrogates, and the tag and variation-selector blocks used to hide ASCII in text.
_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\ud800-\udfff\U000e0000-\U000e0fff]"
)
_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "BS", 0x0B: "VT", 0x0C: "FF", 0x0D: "CR"}
_NAMES |= {0x1B: "ESC", 0x7F: "DEL", 0x200B: "ZWSP", 0x200E: "LRM", 0x200F: "RLM"}
_NAMES |= {0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO", 0x202E: "RLO"}
_NAMES |= {0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI", 0xFEFF: "BOM"}
NEWLINE_MARK = "↵"  # a newline on a one-line label
_BREAK_EVERY = 40  # characters without a break opportunity before one is added
_BREAK_AFTER = re.compile(r"([/\\])(?=\S)")
_LONG_RUN = re.compile(rf"\S{{{_BREAK_EVERY}}}(?=\S)")
_ZERO_WIDTH_SPACE = "\u200b"


def _mark(match: re.Match[str]) -> str:
    code = ord(match.group())
    name = _NAMES.get(code)
    return f"⟨{name}⟩" if name else f"⟨U+{code:04X}⟩"


def visible(text: str) -> str:
    """`text` with every hidden character shown as a mark; newlines (a Windows CR LF
    too) and tabs kept. Run it on text already capped: a mark is longer than what it
    stands for."""
    return _HIDDEN.sub(_mark, text.replace("\r\n", "\n"))


def one_line(text: str, limit: int) -> str:
    """`text` for a one-line label: its start and end when longer than `limit`,
    newlines and hidden characters as marks."""
    shown = ends(text, limit)
    if not shown.hidden:
        return visible(text).replace("\n", NEWLINE_MARK)
    return (visible(shown.head) + " … " + visible(shown.tail)).replace("\n", NEWLINE_MARK)


def breakable(text: str) -> str:
    """`text` for a word-wrapped label, which breaks lines only at spaces: an invisible
    break opportunity after each slash and in every long run, so a long path wraps
    instead of widening the window."""
    text = _BREAK_AFTER.sub(rf"\1{_ZERO_WIDTH_SPACE}", text)
    return _LONG_RUN.sub(lambda m: m.group() + _ZERO_WIDTH_SPACE, text)


@dataclass(frozen=True, slots=True)
class Capped:
    """What a preview box shows of a text, and how much of it is left out."""

    text: str  # marked with `visible`; our own "…" lines where something is left out
    hidden_lines: int = 0  # whole lines after the shown ones (a file's rest)


def first_lines(text: str, max_lines: int, max_chars: int) -> Capped:
    """The first `max_lines` lines of `text`, at most `max_chars` of them (their start
    and end, with a line saying how much is between, when one line is that long)."""
    lines = text.replace("\r\n", "\n").split("\n")
    if len(lines) > 1 and not lines[-1]:  # a last line end starts no new line
        lines.pop()
    shown = "\n".join(lines[:max_lines])
    return Capped(_within(shown, max_chars), max(0, len(lines) - max_lines))


def both_ends(text: str, max_lines: int, max_chars: int) -> Capped:
    """`text` whole when short; else its first and last lines (and characters) with a
    line saying how many are not shown, so nothing can hide behind a long start."""
    lines = text.replace("\r\n", "\n").split("\n")
    if len(lines) > max_lines:
        half = max_lines // 2
        hidden = len(lines) - 2 * half
        head = _within("\n".join(lines[:half]), max_chars // 2)
        tail = _within("\n".join(lines[-half:]), max_chars // 2)
        note = tr("… %Ln line(s) not shown …", "", hidden)
        return Capped(f"{head}\n{note}\n{tail}")
    return Capped(_within("\n".join(lines), max_chars))


def _within(text: str, max_chars: int) -> str:
    shown = ends(text, max_chars)
    if not shown.hidden:
        return visible(text)
    return f"{visible(shown.head)}\n{gap_note(shown.hidden)}\n{visible(shown.tail)}"
