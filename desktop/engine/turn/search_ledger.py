"""The sources one answer finds by searching the person's documents on demand.

A model that can call tools is not made to wait for a search before its first token:
it is offered `knowledge_search` and calls it when it needs to, in rounds (a model
step whose calls search). The ledger keeps that answer's sources:

- numbered in the order they were first found, across every call, and kept on the
  answer (`CitationPart`s, written as each result arrives), so the model's `[n]` and
  the cards point at the same passages; a passage found again keeps its number;
- at most `MAX_SOURCE_CHARS` characters of source text in all, so rounds of searching
  cannot crowd the question out of the model's context;
- at most `MAX_ROUNDS` rounds of at most `MAX_CALLS_PER_ROUND` searches; after that
  (or once the text budget is spent) the tool is withdrawn and the model asked to
  answer with what it has; a search asked for anyway is refused as over the limit.

Every search covers the assistant's libraries (the filter the first search had, kept
by the follow-ups; only the words change). What the model reads of a source is its
number, its library-relative file, its page or headings and its text: no ids, hashes
or absolute paths. A failed search is a failed tool result, never an empty one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Final

from desktop.core.errors import ParleyError
from desktop.core.i18n import tr
from desktop.core.knowledge import MAX_PASSAGES, Passage, SearchOutcome
from desktop.core.models import CallState, CitationPart, SourceKind, ToolCallPart
from desktop.engine.knowledge.context import citation_for, location
from desktop.engine.tools.builtin.knowledge import KNOWLEDGE_SEARCH
from desktop.engine.tools.calls import refusal
from desktop.engine.tools.registry import ToolFailure
from desktop.engine.turn.answer_sources import AnswerSources, MakeCitation, SourceKey
from desktop.engine.turn.ports import KnowledgeRetriever

log = logging.getLogger(__name__)

MAX_ROUNDS: Final = 3
MAX_CALLS_PER_ROUND: Final = 6
SEARCH_TIMEOUT_S: Final = 30.0
MAX_SOURCE_CHARS: Final = 36_000

LIMIT_REACHED: Final = (
    "The document search limit of this answer is reached. Do not search again: answer "
    "now with the sources already found."
)


class SearchLedger:
    """One answer's on-demand searches, numbered with the answer's other sources
    (`sources`); `words_only` hears of the first search that could not use vectors,
    with why (the answer says so once)."""

    def __init__(
        self,
        knowledge: KnowledgeRetriever,
        library_ids: Sequence[str],
        sources: AnswerSources,
        *,
        words_only: Callable[[str], None] = lambda _reason: None,
        timeout_s: float = SEARCH_TIMEOUT_S,
    ) -> None:
        self._knowledge = knowledge
        self._library_ids = tuple(library_ids)
        self._sources = sources
        documents = (c for c in sources.given if c.kind is SourceKind.DOCUMENT)
        self._chars = sum(len(c.excerpt) for c in documents)
        self._words_only = words_only
        self._said_words_only = False
        self._timeout_s = timeout_s
        self.rounds = 0  # a continued answer: `count_rounds` of what it has done

    @property
    def withdrawn(self) -> bool:
        """Whether the tool is no longer offered: every round used, or the text budget."""
        return self.rounds >= MAX_ROUNDS or self._chars >= MAX_SOURCE_CHARS

    def admit(self, calls: Sequence[ToolCallPart]) -> tuple[list[ToolCallPart], list[ToolCallPart]]:
        """One model step's calls: those that may go on, and the searches refused as
        over the limit (recorded as such). A step that searches at all uses up one
        round."""
        searches = [c for c in calls if c.name == KNOWLEDGE_SEARCH]
        if not searches:
            return list(calls), []
        if self.withdrawn:
            refused = searches
        else:
            self.rounds += 1
            refused = searches[MAX_CALLS_PER_ROUND:]
        ids = {c.call_id for c in refused}
        over = [refusal(c, CallState.ERROR, "limit_reached", LIMIT_REACHED) for c in refused]
        return [c for c in calls if c.call_id not in ids], over

    async def search(self, query: str, limit: int) -> str:
        """The tool's answer to the model (JSON) for one search; raises `ToolFailure`
        when the documents cannot be searched, said in the person's words.

        Searches of one step run together, but their sources are numbered in the
        order the model made the calls, never in the order the searches finish: the
        same answer always numbers the same way."""
        place = self._sources.line_up()
        try:
            started = time.monotonic()
            outcome = await self._retrieve(query, max(1, min(MAX_PASSAGES, limit)))
            await place.reached()
            return self._answer(outcome, started)
        finally:
            place.leave()

    async def _retrieve(self, query: str, limit: int) -> SearchOutcome:
        try:
            async with asyncio.timeout(self._timeout_s):
                return await self._knowledge.retrieve(self._library_ids, query, limit=limit)
        except TimeoutError:
            log.warning("knowledge search round %d timed out", self.rounds)
            raise ToolFailure(
                f"The search took longer than {self._timeout_s:g} seconds and was stopped."
            ) from None
        except ParleyError as error:
            log.warning("knowledge search round %d failed: %s", self.rounds, type(error).__name__)
            raise ToolFailure(f"The person's documents could not be searched: {error}") from None

    def _answer(self, outcome: SearchOutcome, started: float) -> str:
        if outcome.words_only_reason and not self._said_words_only:
            self._said_words_only = True
            self._words_only(outcome.words_only_reason)
        results, new = self._numbered(outcome.passages)
        log.info(
            "knowledge search round %d: %d hits, %d new, in %d ms",
            self.rounds,
            len(outcome.passages),
            len(new),
            round((time.monotonic() - started) * 1000),
        )
        answer: dict[str, object] = {"results": results}
        if not outcome.passages:
            answer["note"] = "Nothing in the person's documents matched these words."
        if self.withdrawn:
            answer["note"] = LIMIT_REACHED
        return json.dumps(answer, ensure_ascii=False)

    def _numbered(
        self, passages: Sequence[Passage]
    ) -> tuple[list[dict[str, object]], list[CitationPart]]:
        """What the model reads of each passage, and the sources new to this answer."""
        results: list[dict[str, object]] = []
        fitting: list[tuple[SourceKey, MakeCitation]] = []
        for passage in passages:
            key: SourceKey = (SourceKind.DOCUMENT, str(passage.chunk_id))
            number = self._sources.number_of(key)
            if number is not None:
                results.append({"number": number, "already_found": True})
                continue
            if self._chars + len(passage.text) > MAX_SOURCE_CHARS:
                self._chars = MAX_SOURCE_CHARS  # spent: the rest would not fit either
                break
            self._chars += len(passage.text)
            fitting.append((key, partial(citation_for, passage)))
            results.append({})  # filled in once numbered
        new = iter(self._sources.add(fitting))
        shown = [result or _shown(next(new)) for result in results]
        return shown, [*new]


def _shown(citation: CitationPart) -> dict[str, object]:
    """A source as the model reads it: nothing that identifies it on this computer."""
    shown: dict[str, object] = {"number": citation.number, "file": citation.relative_path}
    place = location(citation)
    if place:
        shown["location"] = place
    shown["content"] = citation.excerpt
    return shown


def count_rounds(parts: Sequence[object]) -> int:
    """The search rounds an answer has used (continuing one must not start afresh):
    each run of tool calls, one model step's, that searched counts once."""
    rounds, searched, in_calls = 0, False, False
    for part in (*parts, None):
        if isinstance(part, ToolCallPart):
            in_calls = True
            searched = searched or part.name == KNOWLEDGE_SEARCH
            continue
        if in_calls and searched:
            rounds += 1
        in_calls = searched = False
    return rounds


def used_up_notice() -> str:
    return tr(
        "Parley ended this answer: the model kept asking to search your documents after "
        "this answer's searches were used up."
    )
