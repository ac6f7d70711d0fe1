"""What 1-2 character queries match, and the text that indexes them.

The trigram index (`search.py`) cannot match fewer than three characters, and scanning
every message for them costs about 50 ms per 100,000 messages and grows with the
history. So migration step 3 adds a second FTS5 index, fed with `index_text(text)`:

- **Words**, for spaced scripts: the text with every gram character (below) and every
  space turned into a separator. A short query made of letters and digits matches the
  *start* of a word ("go" finds "Go" and "good", not "ago"), the way people expect a
  few typed letters to behave, and a prefix index (`prefix='1 2'`) answers it from the
  index alone.
- **Grams**, for characters where a word is the wrong unit: CJK ideographs and kana
  (no spaces between words, and one or two characters are whole words: "世界" must
  match inside "你好世界"), Hangul (syllables are as meaningful, and particles attach
  to words), punctuation and symbols ("%", "C#", "->", emoji). For each such
  character the index holds the character itself and the two-character strings it
  forms with its neighbours, so any 1-2 character string containing one matches as a
  substring, exactly. Grams carry a private-use prefix (`MARK`) so a word prefix can
  never match one. (Thai, Lao, Khmer and Myanmar also go without spaces but are left
  to words: there a short query finds the start of a run of letters.)

The index is FTS5 with `detail=none` (row ids only: no positions, none needed) and
`unicode61` without diacritic removal (as strict as the trigram index), with nearly
every character category made a token character: `index_text` has already decided
where tokens end, SQLite only splits on the spaces it leaves and folds case.

Frozen: triggers delete a row's old entries by computing `index_text` of the old text
again, so this module must give the same output for the same text forever, on every
Python. That is why it classifies characters with the fixed ranges below and never with
`unicodedata`, `str.isalnum` or `str.lower` (they follow the Unicode version of the
running Python). Changing anything here means a new migration step that rebuilds the
index under a new function name, keeping this one registered for step 3.
"""

from __future__ import annotations

import functools
import operator
import re
import sqlite3
from collections.abc import Iterable
from typing import Final

SQL_FUNCTION: Final = "parley_short_terms"  # spelled out in migration step 3
MARK: Final = "\ue000"  # begins every gram token; a gram character itself (private use)

# What SQLite's unicode61 splits on (Unicode spaces and control characters).
_SPACE_RANGES: Final = (
    (0x00, 0x20),
    (0x7F, 0xA0),
    (0x1680, 0x1680),
    (0x180E, 0x180E),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)
# Characters matched as substrings rather than as words. No space is in here.
_GRAM_RANGES: Final = (
    (0x21, 0x2F),  # ASCII punctuation and symbols
    (0x3A, 0x40),
    (0x5B, 0x60),
    (0x7B, 0x7E),
    (0xA1, 0xBF),  # Latin-1 punctuation and signs
    (0xD7, 0xD7),  # ×
    (0xF7, 0xF7),  # ÷
    (0x200B, 0x2027),  # general punctuation (minus the spaces), currency, letterlike,
    (0x202A, 0x202E),  # arrows, maths, technical, box drawing, shapes, dingbats, braille
    (0x2030, 0x205E),
    (0x2060, 0x2BFF),
    (0x2E00, 0x2FFF),  # supplemental punctuation, CJK radicals
    (0x3001, 0x9FFF),  # CJK punctuation, kana, bopomofo, CJK ideographs
    (0xA000, 0xA4CF),  # Yi
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xE000, 0xFAFF),  # private use (MARK), CJK compatibility ideographs
    (0xFE00, 0xFE1F),  # variation selectors (emoji presentation), vertical forms
    (0xFE30, 0xFE6F),  # CJK compatibility and small forms
    (0xFEFF, 0xFEFF),  # byte order mark
    (0xFF00, 0xFFFF),  # fullwidth and halfwidth forms, specials
    (0x1F000, 0x1FBFF),  # emoji and other pictographs
    (0x20000, 0x3FFFF),  # CJK ideographs beyond the BMP
    (0xE0000, 0xE01EF),  # tags (flag sequences), variation selectors supplement
)


def _char_class(ranges: Iterable[tuple[int, int]]) -> str:
    return "".join(
        re.escape(chr(low)) if low == high else f"{re.escape(chr(low))}-{re.escape(chr(high))}"
        for low, high in ranges
    )


_SPACE_CHARS: Final = frozenset(
    chr(code) for low, high in _SPACE_RANGES for code in range(low, high + 1)
)
_GRAM: Final = re.compile(f"[{_char_class(_GRAM_RANGES)}]")
_GRAM_RUN: Final = re.compile(f"[{_char_class(_GRAM_RANGES)}]+")
_WORD: Final = re.compile(f"[^{_char_class((*_SPACE_RANGES, *_GRAM_RANGES))}]+")
_SEPARATOR: Final = "\n"  # a space: no gram contains it

# --- the indexed text (frozen) -------------------------------------------------------


def index_text(text: object) -> str:
    """The words of `text`, then its grams (sorted, each prefixed with MARK).

    Called by SQLite (triggers, the migration's rebuild), so it never raises: anything
    but a string indexes as nothing.
    """
    if not isinstance(text, str):
        return ""
    runs: list[str] = []
    spans: list[str] = []  # each run with the non-space character either side
    end_of_text = len(text)
    for match in _GRAM_RUN.finditer(text):
        start, end = match.span()
        runs.append(match.group())
        if start > 0 and text[start - 1] not in _SPACE_CHARS:
            start -= 1
        if end < end_of_text and text[end] not in _SPACE_CHARS:
            end += 1
        spans.append(text[start:end])
    words = " ".join(_WORD.findall(text))
    if not runs:
        return words
    joined = _SEPARATOR.join(spans)
    pairs = set(map(operator.add, joined, joined[1:]))
    grams = set("".join(runs))
    grams.update(pair for pair in pairs if _SEPARATOR not in pair)
    return f"{words} {' '.join(sorted(MARK + gram for gram in grams))}".lstrip()


# Saving a streamed reply re-indexes it: the update trigger computes the terms of the
# old text, which the previous save computed as the new one. Half the work, for free.
_recent_index_text: Final = functools.lru_cache(maxsize=8)(index_text)


def register_sql_functions(dbapi_connection: sqlite3.Connection) -> None:
    """Make `index_text` callable from the schema (triggers and views) on this connection.

    A connection without it (the sqlite3 shell, say) can read everything, but writing a
    message or a title fails with "no such function" instead of leaving the index stale.
    `trusted_schema` must be on for a schema to call an application function; it is
    SQLite's default, set here for builds that change it. The function is pure, so a
    schema calling it can do no harm.
    """
    dbapi_connection.create_function(SQL_FUNCTION, 1, _recent_index_text, deterministic=True)
    dbapi_connection.execute("PRAGMA trusted_schema = ON")


# --- queries ------------------------------------------------------------------------


def is_word_query(term: str) -> bool:
    """True when `term` is matched as the start of a word rather than as a substring."""
    return not _GRAM.search(term) and not any(char in _SPACE_CHARS for char in term)


def query_token(term: str) -> str | None:
    """What the index holds for a 1-2 character term: the term itself (looked up as a
    word prefix, see `is_word_query`) or MARK + term (a gram, looked up exactly).

    None when the index cannot answer: the term contains a control character or an
    unusual space, rare enough to scan for.
    """
    if any(char in _SPACE_CHARS for char in term):
        return None
    return MARK + term if _GRAM.search(term) else term


def starts_word(text: str, index: int) -> bool:
    """Whether a word of the index starts at `text[index]` (for highlighting matches)."""
    if index == 0:
        return True
    before = text[index - 1]
    return before in _SPACE_CHARS or _GRAM.match(before) is not None
