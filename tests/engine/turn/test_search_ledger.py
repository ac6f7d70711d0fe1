"""One answer's searches on demand against the real knowledge service over real files:
the source-text budget, numbering on from a continued answer's sources, and the
limit on rounds."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from desktop.core.dispatch import EventBus
from desktop.core.events import EngineEvent
from desktop.core.knowledge import LibrarySettings, SourceStatus
from desktop.core.models import CallState, CitationPart, TextPart, ToolCallPart
from desktop.core.settings import Settings
from desktop.engine.knowledge.service import KnowledgeService
from desktop.engine.turn.answer_sources import AnswerSources
from desktop.engine.turn.search_ledger import (
    LIMIT_REACHED,
    MAX_CALLS_PER_ROUND,
    MAX_ROUNDS,
    MAX_SOURCE_CHARS,
    SearchLedger,
    count_rounds,
)
from tests.support.knowledge import write_many
from tests.support.waiting import run_within, wait_for

FILES = 40


async def _service(tmp_path: Path) -> KnowledgeService:
    folder = write_many(tmp_path / "many", FILES)
    settings = Settings(libraries=(LibrarySettings("lib", "Lib", (str(folder),)),))
    events: EventBus[EngineEvent] = EventBus()
    service = KnowledgeService(tmp_path / "data", lambda: settings, _no_embedder, events)
    service.rescan("lib")
    await wait_for(
        lambda: (
            not service.indexing(["lib"])
            and service.store.status_counts("lib").get(SourceStatus.INDEXED) == FILES
        )
    )
    return service


def _no_embedder(_choice: object) -> object:
    raise AssertionError("a library without an embedding model embeds nothing")


def test_sources_stop_at_the_text_budget_and_the_tool_is_withdrawn(tmp_path):
    async def main() -> None:
        service = await _service(tmp_path)
        found: list[CitationPart] = []
        ledger = SearchLedger(service, ["lib"], AnswerSources(found=found.extend))
        try:
            answers = []
            for number in range(FILES):
                if ledger.withdrawn:
                    break
                query = " ".join(f"topic{number}x{part}" for part in range(3))
                answers.append(json.loads(await ledger.search(query, 6)))
        finally:
            await service.close()
        assert ledger.withdrawn
        assert sum(len(c.excerpt) for c in found) <= MAX_SOURCE_CHARS
        assert sum(len(c.excerpt) for c in found) > MAX_SOURCE_CHARS - 2_000
        assert [c.number for c in found] == list(range(1, len(found) + 1))
        assert answers[-1]["note"] == LIMIT_REACHED
        shown = [r for a in answers for r in a["results"] if "content" in r]
        assert len(shown) == len(found)
        assert all(set(r) <= {"number", "file", "location", "content"} for r in shown)

    run_within(main())


def test_a_continued_answer_numbers_on_from_its_sources(tmp_path):
    async def main() -> None:
        service = await _service(tmp_path)
        try:
            first: list[CitationPart] = []
            await SearchLedger(service, ["lib"], AnswerSources(found=first.extend)).search(
                "topic3x1", 2
            )
            later: list[CitationPart] = []
            ledger = SearchLedger(service, ["lib"], AnswerSources(first, later.extend))
            answer = json.loads(await ledger.search("topic3x1 topic7x2", 6))
        finally:
            await service.close()
        numbers = {r["number"] for r in answer["results"]}
        assert {c.number for c in first} <= numbers  # found again: the same numbers
        assert [c.number for c in later] == list(range(len(first) + 1, len(first) + 1 + len(later)))
        assert later and not {c.chunk_id for c in later} & {c.chunk_id for c in first}

    run_within(main())


def _calls(count: int, name: str = "knowledge_search") -> list[ToolCallPart]:
    return [ToolCallPart(f"{name}-{n}", name, "{}") for n in range(count)]


def test_rounds_are_counted_per_step_and_extra_calls_refused(tmp_path):
    async def main() -> None:
        events: EventBus[EngineEvent] = EventBus()
        service = KnowledgeService(tmp_path, Settings, _no_embedder, events)
        await service.close()
        ledger = SearchLedger(service, ["lib"], AnswerSources())
        other = _calls(1, "current_time")
        assert ledger.admit(other) == (other, []) and ledger.rounds == 0
        for _ in range(MAX_ROUNDS):
            admitted, refused = ledger.admit(_calls(MAX_CALLS_PER_ROUND + 2))
            assert len(admitted) == MAX_CALLS_PER_ROUND and len(refused) == 2
        assert ledger.withdrawn
        admitted, refused = ledger.admit([*_calls(2), *other])
        assert admitted == other and len(refused) == 2
        assert all(c.state is CallState.ERROR and "limit" in (c.result or "") for c in refused)

    run_within(main())


def test_searches_run_together_are_numbered_in_the_order_they_were_called(tmp_path):
    async def main() -> None:
        service = await _service(tmp_path)
        try:
            for _attempt in range(20):
                found: list[CitationPart] = []
                ledger = SearchLedger(service, ["lib"], AnswerSources(found=found.extend))
                first, second = await asyncio.gather(
                    ledger.search("topic1x0 topic1x1 topic1x2 topic2x0", 6),
                    ledger.search("topic9x0", 1),
                )
                numbers = [r["number"] for r in json.loads(first)["results"]]
                assert numbers == list(range(1, len(numbers) + 1))
                assert json.loads(second)["results"][0]["number"] == len(numbers) + 1
        finally:
            await service.close()

    run_within(main())


def test_a_continued_answer_counts_the_rounds_it_already_searched():
    search, other = _calls(1)[0], _calls(1, "current_time")[0]
    text = TextPart("Let me look.")
    parts = [search, search, text, other, text, search, other, text, search]
    assert count_rounds(parts) == 3  # the run with only current_time is not a round
    assert count_rounds([text]) == 0
