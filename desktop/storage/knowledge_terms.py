"""Which words of a question the knowledge index's word search looks for.

Splitting. A query is split exactly as the index was: `words_for_index` (CJK runs as
character pairs), then SQLite's own `unicode61 remove_diacritics 2` tokenizer, run on a
private in-memory table, so "Café", "CAFE" and "café" are the term the index holds and
its document frequency can be looked up in ``chunks_vocab``. Each kept term goes to
MATCH as a quoted FTS5 string with its double quotes doubled, so `"`, `*`, `AND`,
`NEAR(`, `-` in a query are text, never syntax.

Which terms are kept. BM25 costs about a microsecond per posting of every term searched
(measured at 100,000 chunks: a term in 17 % of them costs 25 ms, one in every chunk
100-240 ms, a rare one under 1 ms), while a common term adds almost nothing to the
ranking (its IDF is near zero). So, by document frequency:
- a term in more than 20 % of the chunks is dropped;
- the rarest terms are kept, at most 8, while together they match at most 10 % of the
  chunks (`POSTINGS_SHARE`; the rarest one is always kept): a question of several
  middling words then costs what one middling word costs, not eight of them;
- when every term is common, all of them (at most 8) are kept and all required (AND),
  so a query is never emptied for nothing; as their chunks may still be tens of
  thousands, BM25 then ranks an even sample of at most `RANK_SAMPLE` of them (every
  n-th row id; `knowledge_queries`), 5-9 ms instead of 25-180 ms: the words of such a
  question tell little anyway, and its meaning is the vectors' part;
- a term in no chunk is dropped (it can match nothing).
The limits never go below `PRUNE_FLOOR` chunks: in a small library the cost is nil and
"20 %" is a handful of passages worth finding. Document frequencies come from FTS5's
vocabulary (`TermFrequencies`). Reading one costs time in proportion to it (a term in
every chunk of 100,000: 13 ms; one in 150: 0.03 ms), so the frequent terms, those in
more than `CENSUS_FLOOR` chunks, are read all at once in one pass over the vocabulary
(0.2 s at 100,000 chunks) and kept while the same libraries are indexed and the index's
size stays within 10 % of what it was; every other term is read alone, cheaply, as it
is asked. Before, each new common word of a question cost 2-4 ms to count, and counting
the chunks 1 ms every question.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Connection

from desktop.storage.knowledge_index import CHANGED_KEY, words_for_index
from desktop.storage.sqlite_engine import driver_rows

COMMON_SHARE: Final = 0.20  # a term in more of the chunks than this is dropped
POSTINGS_SHARE: Final = 0.10  # the kept terms together match at most this share
PRUNE_FLOOR: Final = 2_000  # ...but the limits are never below this many chunks
MAX_TERMS: Final = 8  # rarest terms kept
CENSUS_FLOOR: Final = 256  # terms in more chunks than this are read all at once
_FREQUENCIES_DRIFT: Final = 0.10  # ...and kept while the number of chunks moves less
_CHANGED_RANGE: Final = {"low": CHANGED_KEY, "high": CHANGED_KEY[:-1] + chr(ord(":") + 1)}


class _Tokenizer:
    """SQLite's unicode61 tokenizer with the index's options, on a private in-memory
    database: the one way to split a query exactly as the index split the chunks (its
    case folding and diacritic table differ from Python's in places, e.g. Greek)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def terms(self, query: str) -> list[str]:
        with self._lock:
            if self._db is None:
                db = sqlite3.connect(":memory:", check_same_thread=False)
                db.execute(
                    "CREATE VIRTUAL TABLE q USING fts5 "
                    "(words, tokenize = 'unicode61 remove_diacritics 2')"
                )
                db.execute("CREATE VIRTUAL TABLE q_terms USING fts5vocab (q, 'instance')")
                self._db = db
            db = self._db
            db.execute("INSERT INTO q (rowid, words) VALUES (1, ?)", (query,))
            try:
                rows = db.execute("SELECT term FROM q_terms ORDER BY offset").fetchall()
            finally:
                db.execute("DELETE FROM q")
        return list(dict.fromkeys(str(row[0]) for row in rows))


_tokenizer = _Tokenizer()


def query_terms(query: str) -> list[str]:
    """The distinct index terms of `query`, in the order they appear."""
    prepared = words_for_index(query)
    return _tokenizer.terms(prepared) if prepared.strip() else []


def match_expression(terms: Iterable[str], *, all_required: bool = False) -> str:
    """An FTS5 query matching any (or all) of `terms`, each a quoted string."""
    joiner = " AND " if all_required else " OR "
    return joiner.join('"' + term.replace('"', '""') + '"' for term in terms)


_CHUNK_COUNT = "SELECT count(*) FROM chunks"
# Every library's change counter (`mark_library_changed`): the chunks are counted again
# only when one of them moved.
_COUNTERS = "SELECT key, value FROM meta WHERE key >= :low AND key < :high ORDER BY key"
_CENSUS = "SELECT term, doc FROM chunks_vocab WHERE doc > :floor"
_FREQUENCY = "SELECT doc FROM chunks_vocab WHERE term = :term"
_ANY = "SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH :match LIMIT 1"


def common_line(total: int) -> float:
    """A term in more chunks than this (of `total`) is too common to search for."""
    return max(COMMON_SHARE * total, PRUNE_FLOOR)


class TermFrequencies:
    """Document frequencies (chunks holding a term): the frequent terms from a census
    kept while the same libraries are indexed and the number of chunks stays within
    10 % of what it was when it was taken (they only decide which terms are worth
    searching, so a slightly old count does no harm, and a library being indexed does
    not make every question take it again), the others read as they are asked.
    Thread-safe."""

    def __init__(self, census_floor: int = CENSUS_FLOOR) -> None:
        self._floor = census_floor
        self._lock = threading.Lock()
        self._counters: list[tuple[str, str]] | None = None  # when `_total` was counted
        self._total = 0
        self._census_total = -1  # chunks when the census was taken
        self._census_libraries: set[str] | None = None  # ...and the libraries indexed
        self._census: dict[str, int] = {}

    def read(self, connection: Connection, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """The number of chunks, and each term's document frequency."""
        with self._lock:  # one census at a time: a second reader waits for the first
            counters = [
                (str(k), str(v)) for k, v in driver_rows(connection, _COUNTERS, _CHANGED_RANGE)
            ]
            if counters != self._counters:
                self._total = _chunk_count(connection)
                self._counters = counters
            total = self._total
            libraries = {key for key, _ in counters}  # a library added or forgotten
            if (
                libraries != self._census_libraries
                or abs(total - self._census_total) > _FREQUENCIES_DRIFT * self._census_total
            ):
                rows = driver_rows(connection, _CENSUS, {"floor": self._floor})
                self._census = {str(term): int(doc) for term, doc in rows}
                self._census_total, self._census_libraries = total, libraries
            census = self._census
        return total, {term: census.get(term) or _frequency(connection, term) for term in terms}


def _match(term: str) -> dict[str, object]:
    return {"match": match_expression([term])}


def _chunk_count(connection: Connection) -> int:
    return int(driver_rows(connection, _CHUNK_COUNT)[0][0])


def _frequency(connection: Connection, term: str) -> int:
    rows = driver_rows(connection, _FREQUENCY, {"term": term})
    return int(rows[0][0]) if rows else 0


@dataclass(frozen=True, slots=True)
class TermChoice:
    kept: tuple[str, ...]  # rarest first
    dropped: tuple[str, ...]  # too common, over the budget, or in no chunk
    all_required: bool = False  # every term was common: the kept ones are AND-ed

    @property
    def expression(self) -> str:
        return match_expression(self.kept, all_required=self.all_required)


def pick_terms(terms: Sequence[str], frequency: Mapping[str, int], total: int) -> TermChoice:
    """Which of `terms` to search for, given their document frequencies among `total`
    chunks (see the module's docstring)."""
    present = sorted((t for t in terms if frequency.get(t, 0) > 0), key=lambda t: frequency[t])
    common = common_line(total)
    budget = max(POSTINGS_SHARE * total, PRUNE_FLOOR)
    kept: list[str] = []
    postings = 0
    for term in present:
        df = frequency[term]
        if df > common or len(kept) == MAX_TERMS or (kept and postings + df > budget):
            break
        kept.append(term)
        postings += df
    all_required = not kept and len(present) > 1
    if not kept:
        kept = present[:MAX_TERMS]
    return TermChoice(tuple(kept), tuple(t for t in terms if t not in kept), all_required)


def choose_terms(
    connection: Connection, terms: Sequence[str], frequencies: TermFrequencies | None = None
) -> TermChoice:
    """`pick_terms` with the frequencies read from the index: through `frequencies`,
    which keeps the frequent ones, when given (a search keeps one); else each term
    alone, for a single question, where a census would cost more than it saves."""
    if not terms:
        return TermChoice((), ())
    if frequencies is None:
        total = _chunk_count(connection)
        frequency = {term: _frequency(connection, term) for term in terms}
        return pick_terms(terms, frequency, total)
    total, frequency = frequencies.read(connection, terms)
    choice = pick_terms(terms, frequency, total)
    if not choice.all_required:
        return choice
    # Every term must match: one a remembered count calls common but now in no chunk
    # (its library's files changed since) would leave nothing at all.
    kept = tuple(term for term in choice.kept if driver_rows(connection, _ANY, _match(term)))
    gone = tuple(term for term in choice.kept if term not in kept)
    return TermChoice(kept, choice.dropped + gone, len(kept) > 1)


# `rowid % :step = 0`: the sample BM25 ranks (step 1: every match).
