"""Full-text search over conversation titles and message text.

Two indexes, both FTS5 tables fed by SQLite triggers from `conversations.title` and
`messages.search_text`: the trigram index (migration step 2) answers terms of three or
more characters, the short-query index (step 3, `short_index.py`) terms of one or two.

Why trigram. People search CJK text, which has no spaces: `unicode61` (word tokens)
sees "你好世界" as one word, so "世界" would never match it. `trigram` indexes every
three-character sequence, so any substring of three or more characters matches in any
script, case-insensitively (Unicode case folding), across word boundaries ("board" in
"Skateboard" too). What it cannot do, and what we do about it:
- Fewer than three characters produce no trigram and match nothing. A `LIKE` scan
  instead cost about 50 ms per 100,000 messages for a rare string, growing with the
  history, so short terms go to the short-query index: letters and digits match the
  start of a word ("go" finds "Go" and "going", not "ago"; this is what typing the first
  letters of a word means), CJK, kana, Hangul, punctuation and symbols match as
  substrings ("世界" inside "你好世界", "%", "C#"). A rare one costs a few milliseconds,
  a common one what a common trigram term costs (see the plans below). A term with a
  control character is the one thing it cannot answer: `LIKE` scans for it.
- No accent folding: `remove_diacritics` needs SQLite 3.45 and we target 3.40, so
  "CAFÉ" finds "café" but "cafe" does not (the short-query index does the same).
  (Changing it later is a new migration step that recreates the FTS tables.)
- Size: the trigram index takes about 2.7 bytes per indexed character (detail=full;
  measured by benchmarks/search_bench.py). detail=none/column would be smaller but
  cannot match a phrase longer than one trigram. The short-query index adds about
  0.5 bytes per character (detail=none: row ids only).

Safety: the query is split into terms (whitespace, or "double quoted phrases"), and
each term is passed to MATCH as a quoted FTS5 string with its double quotes doubled, so
`"`, `*`, `AND`, `NEAR(` are just text; LIKE patterns escape `%`, `_` and `\\`. Only
this module's fixed SQL fragments are ever concatenated, never the person's input.

Snippets and highlights are cut in Python rather than with FTS5's snippet(): with
trigram tokens its size limit counts trigrams (about one character each), and the
short-query index keeps no positions. Hits are few (`limit`), so this is cheap. A short
word term is highlighted only where a word starts, as it matched.

Ordering (titles first, then messages; newest conversations first) is exact. A common
term can match most of the history, and joining every match to its conversation to
sort them costs tens of milliseconds at 100,000 messages, so for many matches the
query walks conversations newest first (index `ix_conversations_recent`) and checks
membership in the match sets, stopping at `limit`; for few matches it starts from the
index with the fewest. Bounded counts pick the plan.

Index rows use the tables' rowids. VACUUM keeps rowids in the SQLite versions we
support; should an index and the text ever disagree, `rebuild_search_index` fixes it
and `search_index_is_consistent` tells.
Never write `INSERT OR REPLACE` into messages or conversations: rows REPLACE deletes do
not fire delete triggers (unless recursive_triggers is on) and would corrupt the index.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final, Literal

from sqlalchemy import Connection, text
from sqlalchemy.exc import DatabaseError

from desktop.core.plain_markdown import plain_from_markdown
from desktop.core.search import EVERYWHERE, SearchHit, SearchScope
from desktop.storage import short_index
from desktop.storage.database import Database
from desktop.storage.mapping import from_epoch_ms, to_epoch_ms
from desktop.storage.tables import (
    CONVERSATIONS_FTS,
    CONVERSATIONS_SHORT_FTS,
    MESSAGES_FTS,
    MESSAGES_SHORT_FTS,
)

MIN_TRIGRAM_TERM: Final = 3  # shorter terms have no trigram: the short-query index
MAX_TERMS: Final = 8
MAX_TERM_CHARS: Final = 200
# Up to this many FTS matches, start from the index; beyond it, walk conversations.
DIRECT_PLAN_MAX: Final = 2000

SNIPPET_WORDS_BEFORE: Final = 4
SNIPPET_WORDS_AFTER: Final = 8  # counting the rest of the word the match ends in
SNIPPET_CHARS_BEFORE: Final = 30  # caps for text without spaces (CJK) or long words
SNIPPET_CHARS_AFTER: Final = 60
ELLIPSIS: Final = "…"


# --- query parsing ------------------------------------------------------------------

_TERM = re.compile(r'"([^"]*)"|(\S+)')


def parse_terms(query: str) -> tuple[str, ...]:
    """Whitespace-separated terms; a "double quoted" run is one term (a phrase).

    Case-insensitive duplicates are dropped; at most MAX_TERMS terms of at most
    MAX_TERM_CHARS characters each, so a pasted page cannot make a slow query. NUL is
    removed: SQLite's LIKE reads patterns as C strings, so one with NUL in it would
    match anything.
    """
    terms: list[str] = []
    seen: set[str] = set()
    for match in _TERM.finditer(query.replace("\0", "")):
        term = (match.group(1) if match.group(1) is not None else match.group(2)).strip()
        term = term[:MAX_TERM_CHARS]
        key = _fold(term)
        if term and key not in seen:
            seen.add(key)
            terms.append(term)
        if len(terms) == MAX_TERMS:
            break
    return tuple(terms)


def fts_phrase(term: str) -> str:
    """An FTS5 string literal: the whole term is one phrase, operators included."""
    return '"' + term.replace('"', '""') + '"'


def like_pattern(term: str) -> str:
    """`%term%` for `LIKE ... ESCAPE '\\'`, with the wildcards in `term` escaped."""
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


_Side = Literal["messages", "conversations"]


@dataclass(frozen=True, slots=True)
class _Index:
    """One full-text index: an FTS5 table over messages and one over titles."""

    messages: str
    conversations: str

    def table(self, side: _Side) -> str:
        return self.messages if side == "messages" else self.conversations


_TRIGRAM: Final = _Index(MESSAGES_FTS, CONVERSATIONS_FTS)
_SHORT: Final = _Index(MESSAGES_SHORT_FTS, CONVERSATIONS_SHORT_FTS)


def _is_word_term(term: str) -> bool:
    """Matched only at the start of a word (a short term of letters and digits)."""
    return len(term) < MIN_TRIGRAM_TERM and short_index.is_word_query(term)


@dataclass(frozen=True, slots=True)
class _Plan:
    """Bound parameters and the fixed SQL fragments that use them."""

    matches: tuple[tuple[_Index, str], ...]  # an FTS5 expression per index used
    likes: tuple[str, ...]  # LIKE patterns for the terms no index can answer
    scope: SearchScope = EVERYWHERE

    @classmethod
    def of(cls, terms: tuple[str, ...], scope: SearchScope = EVERYWHERE) -> _Plan:
        long: list[str] = []
        short: list[str] = []
        likes: list[str] = []
        for term in terms:
            if len(term) >= MIN_TRIGRAM_TERM:
                long.append(fts_phrase(term))
            elif (token := short_index.query_token(term)) is None:
                likes.append(like_pattern(term))
            else:
                short.append(fts_phrase(token) + ("*" if _is_word_term(term) else ""))
        matches = tuple(
            (index, " AND ".join(phrases))
            for index, phrases in ((_TRIGRAM, long), (_SHORT, short))
            if phrases
        )
        return cls(matches, tuple(likes), scope)

    def params(self, limit: int) -> dict[str, Any]:
        params: dict[str, Any] = {"limit": limit}
        scope = self.scope
        if scope.since is not None:
            params["since"] = to_epoch_ms(scope.since)
        if scope.until is not None:
            params["until"] = to_epoch_ms(scope.until)
        if scope.exclude_conversation_id is not None:
            params["exclude"] = scope.exclude_conversation_id
        params.update({f"match{i}": match for i, (_, match) in enumerate(self.matches)})
        params.update({f"like{i}": pattern for i, pattern in enumerate(self.likes)})
        return params

    def in_sql(self, rowid: str, side: _Side, skip: int = -1) -> str:
        """`rowid` must be in each index's matches (but the one at position `skip`)."""
        return "".join(
            f" AND {rowid} IN (SELECT rowid FROM {table} WHERE {table} MATCH :match{i})"
            for i, table in enumerate(index.table(side) for index, _ in self.matches)
            if i != skip
        )

    def like_sql(self, column: str) -> str:
        return "".join(f" AND {column} LIKE :like{i} ESCAPE '\\'" for i in range(len(self.likes)))

    def scope_sql(self, dated: str) -> str:
        """The scope's bounds on the `dated` column, and the conversation (`c`) left out."""
        scope = self.scope
        return (
            (f" AND {dated} >= :since" if scope.since is not None else "")
            + (f" AND {dated} <= :until" if scope.until is not None else "")
            + (" AND c.id <> :exclude" if scope.exclude_conversation_id is not None else "")
        )


# --- search -------------------------------------------------------------------------


def search(
    db: Database, query: str, limit: int = 50, scope: SearchScope = EVERYWHERE
) -> list[SearchHit]:
    """Titles first, then messages; newest conversations first; archived ones skipped.

    Several hits in one conversation come in reading order. At most one hit per
    message; every term must occur in the same title or message. `scope` bounds the
    dates (a title by its conversation's last change, a message by its own) and may
    leave one conversation out. An empty or whitespace-only query returns [].
    """
    terms = parse_terms(query)
    if not terms or limit <= 0:
        return []
    plan = _Plan.of(terms, scope)
    with db.read() as conn:
        titles = _title_rows(conn, plan, limit)
        messages = _message_rows(conn, plan, limit - len(titles)) if len(titles) < limit else []
    hits = [_hit(row.id, row.title, None, row.title, row.updated_at, terms) for row in titles]
    hits.extend(
        _hit(
            row.conversation_id,
            row.title,
            row.id,
            row.search_text,
            row.updated_at,
            terms,
            row.created_at,
        )
        for row in messages
    )
    return hits


def _hit(
    conversation_id: str,
    title: str,
    message_id: str | None,
    body: str,
    updated_at_ms: int,
    terms: tuple[str, ...],
    written_at_ms: int | None = None,
) -> SearchHit:
    # A title is shown as written; a message is markdown: shown as a reader sees it.
    snippet, highlights = (
        make_snippet(body, terms) if message_id is None else _readable_snippet(body, terms)
    )
    return SearchHit(
        conversation_id=conversation_id,
        conversation_title=title,
        message_id=message_id,
        snippet=snippet,
        highlights=highlights,
        updated_at=from_epoch_ms(updated_at_ms),
        written_at=from_epoch_ms(written_at_ms) if written_at_ms is not None else None,
    )


def _title_rows(conn: Connection, plan: _Plan, limit: int) -> list[Any]:
    # At most 10,000-ish conversations: checking each against the (materialised)
    # match sets in recency order is cheap and stops at `limit`.
    sql = (
        "SELECT c.id, c.title, c.updated_at FROM conversations AS c"
        f" WHERE c.archived = 0{plan.in_sql('c.rowid', 'conversations')}"
        f"{plan.like_sql('c.title')}{plan.scope_sql('c.updated_at')}"
        " ORDER BY c.updated_at DESC, c.rowid DESC LIMIT :limit"
    )
    return list(conn.execute(text(sql), plan.params(limit)))


_MESSAGE_COLUMNS: Final = (
    "m.id, m.conversation_id, m.search_text, m.created_at, c.title, c.updated_at"
)
# Within a conversation, hits read top to bottom (also: walking the messages index
# forwards is measurably faster than backwards).
_MESSAGE_ORDER: Final = (
    " ORDER BY c.updated_at DESC, c.rowid DESC, m.created_at, m.rowid LIMIT :limit"
)


def _message_rows(conn: Connection, plan: _Plan, limit: int) -> list[Any]:
    likes = plan.like_sql("m.search_text") + plan.scope_sql("m.created_at")
    start = _fewest_matches(conn, plan)
    if start is not None:
        # Few matches: start from that index, join each to its conversation, sort.
        fts = plan.matches[start][0].messages
        others = plan.in_sql("m.rowid", "messages", skip=start)
        sql = (
            f"SELECT {_MESSAGE_COLUMNS} FROM {fts}"
            f" CROSS JOIN messages AS m ON m.rowid = {fts}.rowid"
            " JOIN conversations AS c ON c.id = m.conversation_id"
            f" WHERE {fts} MATCH :match{start} AND c.archived = 0{others}{likes}"
            f"{_MESSAGE_ORDER}"
        )
    else:
        # Many matches (or only terms no index answers): walk conversations newest
        # first (and their messages in order) and stop once `limit` rows qualify.
        sql = (
            f"SELECT {_MESSAGE_COLUMNS} FROM conversations AS c"
            " CROSS JOIN messages AS m ON m.conversation_id = c.id"
            f" WHERE c.archived = 0{plan.in_sql('m.rowid', 'messages')}{likes}"
            f"{_MESSAGE_ORDER}"
        )
    return list(conn.execute(text(sql), plan.params(limit)))


def _fewest_matches(conn: Connection, plan: _Plan) -> int | None:
    """The position in `plan.matches` of the index with the fewest message matches, if
    that is at most DIRECT_PLAN_MAX. Counting stops at DIRECT_PLAN_MAX + 1, so a common
    term costs no full count."""
    counts = []
    for position, (index, match) in enumerate(plan.matches):
        count = conn.execute(
            text(
                f"SELECT count(*) FROM (SELECT 1 FROM {index.messages}"
                f" WHERE {index.messages} MATCH :match LIMIT :cap)"
            ),
            {"match": match, "cap": DIRECT_PLAN_MAX + 1},
        ).scalar_one()
        counts.append((int(count), position))
    if not counts or min(counts)[0] > DIRECT_PLAN_MAX:
        return None
    return min(counts)[1]


# --- snippets -----------------------------------------------------------------------

_WORD_START = re.compile(r"(?<!\S)\S")
_WORD_END = re.compile(r"\S(?!\S)")
_SPACES = re.compile(r"\s+")


def _fold(value: str) -> str:
    """Lower-case with one character out for each character in, so indices line up.

    The rare characters whose lower case is longer (e.g. "İ") are left as they are.
    """
    lowered = value.lower()
    if len(lowered) == len(value):
        return lowered
    return "".join(c if len(low := c.lower()) != 1 else low for c in value)


def _occurrences(folded: str, term: str) -> Iterator[tuple[int, int]]:
    """Non-overlapping (start, end) ranges of `term` in `folded` (already folded), where
    the index matched it: anywhere, or for a short word term at the start of a word."""
    needle = _fold(term)
    if not needle:
        return
    at_word_start = _is_word_term(term)
    start = folded.find(needle)
    while start != -1:
        if at_word_start and not short_index.starts_word(folded, start):
            start = folded.find(needle, start + 1)
            continue
        yield start, start + len(needle)
        start = folded.find(needle, start + len(needle))


def _find_all(haystack: str, terms: tuple[str, ...], before: str = "") -> list[tuple[int, int]]:
    """Sorted, merged (start, end) ranges of every case-insensitive term occurrence.

    `before` is the text just before `haystack` (a snippet cut from a longer text): it
    decides whether the haystack starts at the start of a word.
    """
    folded = _fold(before + haystack)
    ranges = sorted(
        (start - len(before), end - len(before))
        for term in terms
        for start, end in _occurrences(folded, term)
        if start >= len(before)
    )
    merged: list[tuple[int, int]] = []
    for start, end in ranges:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _first_match(body: str, terms: tuple[str, ...]) -> tuple[int, int]:
    folded = _fold(body)
    found = [first for t in terms if (first := next(_occurrences(folded, t), None)) is not None]
    return min(found) if found else (0, 0)


def _window(body: str, start: int, end: int) -> tuple[int, int]:
    """About SNIPPET_WORDS_BEFORE words before the match and SNIPPET_WORDS_AFTER after,
    cut at word boundaries; text without spaces within the caps is cut where they end."""
    lo = max(0, start - SNIPPET_CHARS_BEFORE)
    before = body[lo:start]
    starts = [m.start() for m in _WORD_START.finditer(before)]
    if starts and starts[0] == 0 and lo > 0 and not body[lo - 1].isspace():
        starts.pop(0)  # the cap cut this word: it does not start there
    left = lo if before.strip() else start  # no word start: cut mid-text, or none
    if starts:
        left = lo + starts[-SNIPPET_WORDS_BEFORE:][0]

    hi = min(len(body), end + SNIPPET_CHARS_AFTER)
    after = body[end:hi]
    ends = [m.end() for m in _WORD_END.finditer(after)]
    if ends and ends[-1] == len(after) and hi < len(body) and not body[hi].isspace():
        ends.pop()  # the cap cut this word: it does not end there
    right = hi if after.strip() else end
    if ends:
        right = end + ends[:SNIPPET_WORDS_AFTER][-1]
    return left, right


def _readable_snippet(body: str, terms: tuple[str, ...]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """`make_snippet` of the words a reader sees, not of markdown source
    (`plain_from_markdown`), from a window about the first match: a message can be
    megabytes long. Where the window cut the message, the snippet says so ("…")."""
    start, end = _first_match(body, terms)
    lo = max(0, start - READABLE_MARGIN)
    hi = min(len(body), end + READABLE_MARGIN)
    if lo > 0:  # from a line's start, so a heading or list mark there is recognised
        line = body.rfind("\n", max(0, lo - READABLE_MARGIN // 4), lo)
        lo = line + 1 if line != -1 else lo
    snippet, highlights = make_snippet(plain_from_markdown(body[lo:hi]), terms)
    if lo > 0 and not snippet.startswith(ELLIPSIS):
        snippet = ELLIPSIS + snippet
        highlights = tuple((s + len(ELLIPSIS), e + len(ELLIPSIS)) for s, e in highlights)
    if hi < len(body) and not snippet.endswith(ELLIPSIS):
        snippet += ELLIPSIS
    return snippet, highlights


READABLE_MARGIN = 600


def make_snippet(body: str, terms: tuple[str, ...]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Plain text around the first match, whitespace collapsed to single spaces, with
    "…" where text was cut, and the ranges of every term occurrence inside it."""
    start, end = _first_match(body, terms)
    left, right = _window(body, start, end)
    core = _SPACES.sub(" ", body[left:right]).strip()
    prefix = ELLIPSIS if body[:left].strip() else ""
    suffix = ELLIPSIS if body[right:].strip() else ""
    snippet = prefix + core + suffix
    offset = len(prefix)
    first = left + len(body[left:right]) - len(body[left:right].lstrip())  # core[0]
    before = body[first - 1] if first > 0 else ""  # does core start mid-word?
    highlights = tuple((s + offset, e + offset) for s, e in _find_all(core, terms, before))
    return snippet, highlights


# --- maintenance --------------------------------------------------------------------

_ALL_TABLES: Final = (MESSAGES_FTS, CONVERSATIONS_FTS, MESSAGES_SHORT_FTS, CONVERSATIONS_SHORT_FTS)


def search_index_is_consistent(db: Database) -> bool:
    """FTS5's integrity check against the text tables (rank 1 = compare with content)."""
    with db.write() as conn:
        for table in _ALL_TABLES:
            try:
                conn.execute(
                    text(f"INSERT INTO {table} ({table}, rank) VALUES ('integrity-check', 1)")
                )
            except DatabaseError:  # SQLITE_CORRUPT_VTAB: the index disagrees
                return False
    return True


def rebuild_search_index(db: Database) -> None:
    """Re-index every title and message from the tables (a repair, never needed in
    normal use: the triggers keep the index current)."""
    with db.write() as conn:
        for table in _ALL_TABLES:
            conn.execute(text(f"INSERT INTO {table} ({table}) VALUES ('rebuild')"))
