"""Text for Qt's layout engine: no unbreakable run too long, plain text in bounded units.

Qt lays out a run of text with no break opportunity in it (a hash, base64 without
``+``/``/``, a line of digits, ``aaaa…``) in time quadratic in the run's length: a
30,000-character run took 57 ms of GUI-thread CPU, 100,000 took 0.5 s and 300,000 took
4.4 s (6-10 s with every core busy), where prose that long takes 30-90 ms. Qt's
`QTextOption.WrapAnywhere` lays such a run out in linear time (300,000 characters: 41
ms), but Qt takes the wrap mode from the whole document, never from a block or a run,
and in prose it breaks words at any letter. So a zero-width space (a break opportunity
that draws nothing) goes into every run of non-space characters longer than
`SOFT_BREAK_RUN`, about every `SOFT_BREAK_RUN` characters: layout then costs about 0.5
us per character whatever the text.

Each inserted break is marked as Parley's (HTML: inside ``<a name="parley-soft-break">``,
which Qt keeps as the character's anchor name and draws as nothing), so what a selection
copies leaves out exactly these and keeps any zero-width space that was in the text (see
``ui/views/soft_breaks.py``). The stored message, "Copy", "Copy all", "Save as file"
and export never had them.

A break goes where it splits nothing a reader sees as one character: preferably
between two ASCII characters near the mark, else at a grapheme boundary (never after a
zero-width joiner or a virama, never before a combining mark, a variation selector, an
emoji modifier or a tag character, never between the two halves of a flag), never
inside an HTML entity.

Plain text is cut into units of about `UNIT_CHARS` characters at line ends, each its
own ``<pre>``: a long plain-text reply that streams in then re-imports only its last
unit on each update (see ``ui/views/document_tail.py``), not the whole reply.
"""

from __future__ import annotations

import re
import unicodedata

from markdown_it.common.utils import escapeHtml

SOFT_BREAK = "\u200b"
SOFT_BREAK_NAME = "parley-soft-break"
SOFT_BREAK_HTML = f'<a name="{SOFT_BREAK_NAME}">{SOFT_BREAK}</a>'
SOFT_BREAK_RUN = 1_000
UNIT_CHARS = 4_000
LINE_BREAK = "\u2028"  # a line break inside a unit's one block (copied as a newline)

PRE_OPEN = '<pre style="white-space: pre-wrap;">'
_MAX_ENTITY = 12  # "&#x10ffff;" and the longest named entities markdown-it writes
_WINDOW = 32  # how far from the mark a break may move to find a safe place

# A run starts where no non-space character precedes it, so the regex never re-scans
# the inside of a run: linear whatever the input.
_LONG_RUN = re.compile(rf"(?<!\S)\S{{{SOFT_BREAK_RUN + 1},}}")
_LONG_HTML_RUN = re.compile(rf"(?<![^\s<>])[^\s<>]{{{SOFT_BREAK_RUN + 1},}}")
_TAG_OR_TEXT = re.compile(r"<[^>]*>|[^<]+")

_ZWJ = "\u200d"
_VIRAMA = 9  # the combining class of a virama or coeng, which joins the next consonant to it
_JOINS_NEXT_RANGES = (  # nothing may be cut off after these (prepended or leading jamo)
    (0x0600, 0x0605),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x0D4E, 0x0D4E),
    (0x1100, 0x115F),  # Hangul leading consonants
    (0xA960, 0xA97F),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x111C2, 0x111C3),
    (0x1193F, 0x1193F),
    (0x11941, 0x11941),
    (0x11A3A, 0x11A3A),
    (0x11A84, 0x11A89),
    (0x11D46, 0x11D46),
)
_JOINS_PREVIOUS_RANGES = (  # nothing may be cut off before these (besides marks)
    (0x0E33, 0x0E33),  # Thai and Lao SARA AM: spacing marks though letters
    (0x0EB3, 0x0EB3),
    (0x1160, 0x11FF),  # Hangul vowels and trailing consonants
    (0xD7B0, 0xD7FF),
    (0x200C, 0x200D),  # zero-width non-joiner and joiner
    (0x1F3FB, 0x1F3FF),  # emoji skin-tone modifiers
    (0xE0020, 0xE007F),  # tag characters (subdivision flags)
)
_REGIONAL_INDICATORS = (0x1F1E6, 0x1F1FF)


def run_pieces(text: str) -> list[str]:
    """`text` cut where it gets soft breaks: no piece has a run of more than about
    `SOFT_BREAK_RUN` non-space characters. One piece when it needs none."""
    if len(text) <= SOFT_BREAK_RUN:
        return [text]
    pieces: list[str] = []
    start = 0
    for match in _LONG_RUN.finditer(text):
        for cut in _cuts(match.group(), html=False):
            pieces.append(text[start : match.start() + cut])
            start = match.start() + cut
    pieces.append(text[start:])
    return pieces


def escaped_with_breaks(text: str) -> str:
    """`text` escaped for HTML, with marked soft breaks in its long runs."""
    return SOFT_BREAK_HTML.join(escapeHtml(piece) for piece in run_pieces(text))


def break_html_runs(html: str) -> str:
    """Marked soft breaks in the text of `html`: never inside a tag, an entity or a
    character (see the module's docstring)."""
    if _LONG_HTML_RUN.search(html) is None:
        return html  # the usual case: one pass in C
    return _TAG_OR_TEXT.sub(_break_text_node, html)


def _break_text_node(match: re.Match[str]) -> str:
    node = match.group()
    return node if node.startswith("<") else _LONG_RUN.sub(_break_html_match, node)


def _break_html_match(match: re.Match[str]) -> str:
    run = match.group()
    pieces, start = [], 0
    for cut in _cuts(run, html=True):
        pieces.append(run[start:cut])
        start = cut
    pieces.append(run[start:])
    return SOFT_BREAK_HTML.join(pieces)


def _cuts(run: str, *, html: bool) -> list[int]:
    """Where `run` gets its soft breaks."""
    cuts: list[int] = []
    last = 0
    while len(run) - last > SOFT_BREAK_RUN:
        cut = _break_point(run, last + SOFT_BREAK_RUN, last, html=html)
        if not last < cut < len(run):
            break
        cuts.append(cut)
        last = cut
    return cuts


def _break_point(run: str, mark: int, last: int, *, html: bool) -> int:
    """A safe place for a break near `mark`, after the previous break at `last`: between
    two ASCII characters if there is one in the window, else at a grapheme boundary,
    else (a base character with hundreds of marks: no one's text) `mark` itself."""
    backward = range(mark, max(last + 1, mark - _WINDOW) - 1, -1)
    forward = range(mark + 1, min(len(run) - 1, mark + _WINDOW) + 1)
    window: list[int] = [*backward, *forward]
    for place in window:
        ascii_pair = run[place - 1].isascii() and run[place].isascii()
        if ascii_pair and not (html and _inside_entity(run, place)):
            return place
    for place in window:
        if _is_boundary(run, place, last) and not (html and _inside_entity(run, place)):
            return place
    if html:
        while mark < len(run) and _inside_entity(run, mark):
            mark += 1
    return mark


def _inside_entity(run: str, place: int) -> bool:
    amp = run.rfind("&", max(0, place - _MAX_ENTITY), place)
    if amp == -1:
        return False
    semi = run.find(";", amp, amp + _MAX_ENTITY)
    return semi >= place


def _is_boundary(run: str, place: int, last: int) -> bool:
    """Whether `run` may be cut before `place` without splitting a character as read
    (a conservative subset of Unicode's grapheme cluster boundaries)."""
    before, after = run[place - 1], run[place]
    if unicodedata.category(after) in ("Mn", "Mc", "Me") or _in(after, _JOINS_PREVIOUS_RANGES):
        return False
    if (
        before == _ZWJ
        or unicodedata.combining(before) == _VIRAMA
        or _in(before, _JOINS_NEXT_RANGES)
    ):
        return False
    if _in(before, (_REGIONAL_INDICATORS,)) and _in(after, (_REGIONAL_INDICATORS,)):
        pairs = 0  # flags are pairs of indicators: cut only after an even number
        for char in reversed(run[last:place]):
            if not _in(char, (_REGIONAL_INDICATORS,)):
                break
            pairs += 1
        return pairs % 2 == 0
    return True


def _in(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in ranges)


def text_units(text: str) -> list[str]:
    """`text` cut at line ends into pieces of about `UNIT_CHARS` (the newline cut at is
    dropped: each piece becomes a block of its own). Pieces before the last stay the same
    as the text grows, so a streaming reply changes only its last piece."""
    units: list[str] = []
    start = 0
    while True:
        end = text.find("\n", start + UNIT_CHARS)
        if end == -1:
            units.append(text[start:])
            return units
        units.append(text[start:end])
        start = end + 1


def units_html(text: str, open_tag: str, close_tag: str) -> str:
    """`text` as escaped units between `open_tag` and `close_tag`, runs broken for Qt.

    The tags must keep white space (``white-space: pre-wrap``). A newline follows each
    opening tag and ends a unit whose text ends in one, because Qt's importer drops a
    newline just inside either end of such an element.
    """
    if not text:
        return ""
    parts = []
    for unit in text_units(text):
        tail = "\n" if unit.endswith("\n") else ""
        lines = escaped_with_breaks(unit).replace("\n", LINE_BREAK)
        parts.append(f"{open_tag}\n{lines}{tail}{close_tag}")
    return "\n".join(parts)


def plain_text_html(text: str) -> str:
    """Text shown as it is: escaped, line breaks kept, long lines wrapped."""
    return units_html(text, PRE_OPEN, "</pre>")
