"""MemoryService over a real database file, with deterministic embeddings."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest

from desktop.core.errors import ProviderError, SettingsError
from desktop.core.knowledge import EmbeddingChoice, EmbeddingKind
from desktop.core.memory import (
    GLOBAL_SCOPE,
    MEMORY_RETRIEVE_LIMIT,
    InvalidMemory,
    Memory,
    MemoryDeleted,
    scope_for,
    scopes_for,
)
from desktop.engine.memory.embedding import MemoryEmbedder, embedder_from_choice
from desktop.engine.memory.service import MemoryService
from desktop.storage.database import Database
from desktop.storage.memory_vectors import load_vectors
from tests.support.hashed_vectors import hashed_vector
from tests.support.step_clock import StepClock
from tests.support.waiting import run_within

T = TypeVar("T")
WRITER = scope_for("writer")
CHOICE = EmbeddingChoice("local", "hashed")
CAR_FACTS = (
    "My car is a blue Volvo estate",
    "The car goes to the garage every May",
    "Parks the car behind the bakery",
    "The car insurance renews in October",
    "Washes the car on Sunday mornings",
    "The car radio only plays cassettes",
)


class Vectors:
    """An embedding model in the process: hashed bags of words ("automobile" is "car"),
    which can be made to fail or to never answer."""

    def __init__(self) -> None:
        self.failure: Exception | None = None
        self.silent = False
        self.texts: list[str] = []

    async def embed(self, texts: Sequence[str], kind: EmbeddingKind) -> list[list[float]]:
        if self.silent:
            await asyncio.Event().wait()
        if self.failure is not None:
            raise self.failure
        self.texts.extend(texts)
        return [hashed_vector(text) for text in texts]


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database.open(tmp_path / "parley.db")
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def vectors() -> Vectors:
    return Vectors()


@pytest.fixture
def service(db: Database, vectors: Vectors) -> MemoryService:
    return MemoryService(db, MemoryEmbedder(vectors, CHOICE.key), clock=StepClock())


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return run_within(coroutine)


def texts(memories: Iterable[Memory]) -> list[str]:
    return [memory.text for memory in memories]


def _other_facts(count: int) -> list[str]:
    """Sentences sharing no word (and no hashed bucket) with "automobile"/"car"."""
    car = {i for i, v in enumerate(hashed_vector("car")) if v}
    words = [
        word
        for word in [
            "tea",
            "coffee",
            "garden",
            "tomato",
            "basil",
            "piano",
            "violin",
            "novel",
            "poem",
            "river",
            "mountain",
            "lake",
            "forest",
            "bread",
            "cheese",
            "apple",
            "orange",
            "lemon",
            "museum",
            "painting",
            "sculpture",
            "train",
            "ferry",
            "bicycle",
            "chess",
            "football",
            "tennis",
            "swimming",
            "yoga",
            "recipe",
            "soup",
            "salad",
            "pasta",
            "rice",
            "winter",
            "summer",
            "autumn",
            "spring",
            "kitten",
            "puppy",
            "parrot",
            "turtle",
            "desk",
            "lamp",
            "chair",
            "window",
        ]
        if not {i for i, v in enumerate(hashed_vector(word)) if v} & car
    ]
    return [f"{words[i % len(words)]} {words[(i * 7 + 3) % len(words)]} {i}" for i in range(count)]


# --- saving, finding, changing ------------------------------------------------------


def test_a_saved_memory_is_found(service: MemoryService) -> None:
    async def scenario() -> None:
        outcome = await service.save(
            GLOBAL_SCOPE, "Prefers metric units", source_conversation_id="c1"
        )
        assert outcome.duplicate_of is None and outcome.words_only_reason is None
        assert not outcome.memory.words_only
        assert outcome.memory.source_conversation_id == "c1"
        found = await service.search([GLOBAL_SCOPE], "which units?")
        assert found.memories == (outcome.memory,)
        assert found.words_only_reason is None

    run(scenario())


def test_an_edit_is_embedded_again_and_found_by_its_new_meaning(service: MemoryService) -> None:
    async def scenario() -> None:
        saved = (await service.save(GLOBAL_SCOPE, "Rides a bicycle to work")).memory
        assert texts((await service.search([GLOBAL_SCOPE], "automobile")).memories) == []
        edited = await service.update(saved.id, "Drives a car to work")
        assert edited.text == "Drives a car to work" and not edited.words_only
        found = await service.search([GLOBAL_SCOPE], "automobile")  # by meaning only
        assert texts(found.memories) == ["Drives a car to work"]
        assert texts((await service.search([GLOBAL_SCOPE], "bicycle")).memories) == []

    run(scenario())


def test_a_deleted_memory_is_gone_until_undone(service: MemoryService) -> None:
    async def scenario() -> None:
        saved = (await service.save(GLOBAL_SCOPE, "Allergic to peanuts")).memory
        tombstone = await service.delete(saved.id)
        assert tombstone.deleted
        assert await service.list([GLOBAL_SCOPE]) == []
        assert (await service.search([GLOBAL_SCOPE], "peanuts")).memories == ()
        assert await service.all_in([GLOBAL_SCOPE]) == []
        restored = await service.undelete(saved.id)
        assert restored == saved
        assert await service.undelete(saved.id) is None  # nothing left to undo
        assert (await service.search([GLOBAL_SCOPE], "peanuts")).memories == (saved,)

    run(scenario())


def test_an_edit_never_brings_a_deleted_memory_back(service: MemoryService) -> None:
    async def scenario() -> None:
        saved = (await service.save(GLOBAL_SCOPE, "Works night shifts")).memory
        await service.delete(saved.id)
        with pytest.raises(MemoryDeleted, match="was deleted"):
            await service.update(saved.id, "Works day shifts")
        again = await service.get(saved.id)
        assert again is not None and again.deleted and again.text == "Works night shifts"
        assert await service.list() == []

    run(scenario())


def test_undo_after_a_restart_needs_the_deletion_it_undoes(tmp_path: Path) -> None:
    path = tmp_path / "parley.db"

    async def before() -> tuple[str, datetime]:
        with Database.open(path) as db:
            service = MemoryService(db)
            kept = (await service.save(GLOBAL_SCOPE, "Takes the 8:15 train")).memory
            gone = (await service.save(GLOBAL_SCOPE, "Takes the bus on Fridays")).memory
            tombstone = await service.delete(gone.id)
            assert kept.id != gone.id
            assert tombstone.deleted_at is not None
            return gone.id, tombstone.deleted_at

    gone_id, deleted_at = run(before())

    async def after() -> None:
        with Database.open(path) as db:
            service = MemoryService(db)
            assert texts(await service.list()) == ["Takes the 8:15 train"]
            assert texts((await service.search([GLOBAL_SCOPE], "bus")).memories) == []
            assert await service.undelete(gone_id) is None  # this service deleted nothing
            with pytest.raises(MemoryDeleted):
                await service.update(gone_id, "Takes the bus on Mondays")
            restored = await service.undelete(gone_id, deleted_at)
            assert restored is not None and restored.text == "Takes the bus on Fridays"

    run(after())


def test_an_invalid_memory_is_refused(service: MemoryService) -> None:
    with pytest.raises(InvalidMemory):
        run(service.save(GLOBAL_SCOPE, "   "))
    with pytest.raises(InvalidMemory):
        run(service.save("everyone", "Likes tea"))


# --- duplicates ---------------------------------------------------------------------


@pytest.mark.parametrize("again", ["i like TEA", "  I like   tea!! ", "I LIKE TEA…"])
def test_the_same_text_returns_the_memory_already_kept(
    service: MemoryService, vectors: Vectors, again: str
) -> None:
    async def scenario() -> None:
        first = (await service.save(GLOBAL_SCOPE, "I like tea.")).memory
        vectors.failure = ProviderError("down")  # the text alone decides
        outcome = await service.save(GLOBAL_SCOPE, again)
        assert outcome.duplicate_of == first and outcome.memory == first
        assert texts(await service.list()) == ["I like tea."]

    run(scenario())


def test_a_near_identical_meaning_returns_the_memory_already_kept(service: MemoryService) -> None:
    async def scenario() -> None:
        first = (await service.save(GLOBAL_SCOPE, "The car is red")).memory
        same = await service.save(GLOBAL_SCOPE, "Red is the automobile")  # cosine 1
        assert same.duplicate_of == first
        other = await service.save(GLOBAL_SCOPE, "The car is blue")  # cosine 0.75
        assert other.duplicate_of is None
        assert sorted(texts(await service.list())) == ["The car is blue", "The car is red"]

    run(scenario())


def test_two_saves_of_one_fact_at_once_keep_one_memory(service: MemoryService) -> None:
    async def scenario() -> None:
        first, second = await asyncio.gather(
            service.save(GLOBAL_SCOPE, "Likes tea"), service.save(GLOBAL_SCOPE, "likes tea.")
        )
        assert first.memory == second.memory
        assert [first.duplicate_of, second.duplicate_of].count(None) == 1
        assert texts(await service.list()) == ["Likes tea"]

    run(scenario())


def test_duplicates_are_looked_for_in_the_scopes_asked(service: MemoryService) -> None:
    async def scenario() -> None:
        shared = (await service.save(GLOBAL_SCOPE, "Lives in Porto")).memory
        own = await service.save(WRITER, "Lives in Porto")
        assert own.duplicate_of is None and own.memory.scope == WRITER
        both = await service.save(WRITER, "lives in porto", duplicate_scopes=[WRITER, GLOBAL_SCOPE])
        assert both.duplicate_of in (shared, own.memory)

    run(scenario())


def test_without_an_embedding_model_the_same_meaning_is_a_new_memory(db: Database) -> None:
    async def scenario() -> None:
        service = MemoryService(db)
        await service.save(GLOBAL_SCOPE, "The car is red")
        again = await service.save(GLOBAL_SCOPE, "Red is the car")
        assert again.duplicate_of is None and again.memory.words_only
        assert again.words_only_reason is None  # chosen, not failed

    run(scenario())


# --- retrieval ----------------------------------------------------------------------


def test_retrieval_picks_the_relevant_six_of_fifty(service: MemoryService) -> None:
    async def scenario() -> None:
        for index, fact in enumerate([*_other_facts(44), *CAR_FACTS]):
            scope = WRITER if index % 2 else GLOBAL_SCOPE
            await service.save(scope, fact)
        assert len(await service.list()) == 50
        found = await service.search(
            scopes_for("writer", include_global=True), "automobile", MEMORY_RETRIEVE_LIMIT
        )
        assert sorted(texts(found.memories)) == sorted(CAR_FACTS)
        assert found.words_only_reason is None
        again = await service.search([WRITER, GLOBAL_SCOPE], "automobile")
        assert again == found
        assert service.vectors.loads == 1  # read once, then kept and grown

    run(scenario())


def test_the_kept_vectors_follow_deletions_and_another_parley(
    service: MemoryService, db: Database, vectors: Vectors
) -> None:
    async def scenario() -> None:
        first = (await service.save(GLOBAL_SCOPE, "My car is red")).memory
        second = (await service.save(GLOBAL_SCOPE, "The car needs tyres")).memory
        assert len((await service.search([GLOBAL_SCOPE], "automobile")).memories) == 2
        loads = service.vectors.loads
        await service.delete(first.id)
        assert (await service.search([GLOBAL_SCOPE], "automobile")).memories == (second,)
        assert service.vectors.loads == loads  # the row was dropped, nothing read again

        other = MemoryService(db, MemoryEmbedder(vectors, CHOICE.key))  # another window
        third = (await other.save(GLOBAL_SCOPE, "Sold the old car")).memory
        found = await service.search([GLOBAL_SCOPE], "automobile")
        assert {m.id for m in found.memories} == {second.id, third.id}
        await other.delete(second.id)
        assert {m.id for m in (await service.search([GLOBAL_SCOPE], "automobile")).memories} == {
            third.id
        }

    run(scenario())


def test_words_and_meaning_are_fused(service: MemoryService) -> None:
    async def scenario() -> None:
        for fact in _other_facts(20):
            await service.save(GLOBAL_SCOPE, fact)
        insurance = (await service.save(GLOBAL_SCOPE, "The car insurance is with Allianz")).memory
        radio = (await service.save(GLOBAL_SCOPE, "The car radio is broken")).memory
        found = await service.search([GLOBAL_SCOPE], "automobile insurance")
        assert found.memories[:2] == (insurance, radio)

    run(scenario())


def test_an_embedder_that_is_down_means_words_and_a_reason(
    service: MemoryService, vectors: Vectors
) -> None:
    async def scenario() -> None:
        vectors.failure = ProviderError("HTTP 503: the model is loading")
        outcome = await service.save(GLOBAL_SCOPE, "The car is a blue Volvo")
        assert outcome.memory.words_only and outcome.duplicate_of is None
        assert outcome.words_only_reason == (
            "the embedding server reported an error: HTTP 503: the model is loading"
        )
        assert texts(await service.list()) == ["The car is a blue Volvo"]  # never lost
        found = await service.search([GLOBAL_SCOPE], "Volvo")
        assert texts(found.memories) == ["The car is a blue Volvo"]
        assert found.words_only_reason is not None and "HTTP 503" in found.words_only_reason

        vectors.failure = None  # back: the memory is embedded, then found by meaning
        assert (await service.search([GLOBAL_SCOPE], "automobile")).memories == ()
        assert await service.embed_missing() == 1
        assert await service.embed_missing() == 0
        found = await service.search([GLOBAL_SCOPE], "automobile")
        assert texts(found.memories) == ["The car is a blue Volvo"]
        assert not found.memories[0].words_only

    run(scenario())


def test_an_edit_while_the_embedder_is_down_keeps_the_text(
    service: MemoryService, vectors: Vectors
) -> None:
    async def scenario() -> None:
        saved = (await service.save(GLOBAL_SCOPE, "Drives a car")).memory
        vectors.failure = ConnectionResetError("reset by peer")
        edited = await service.update(saved.id, "Drives an old car")
        assert edited.words_only and edited.text == "Drives an old car"
        assert texts(await service.list()) == ["Drives an old car"]
        found = await service.search([GLOBAL_SCOPE], "old")
        assert texts(found.memories) == ["Drives an old car"]
        assert found.words_only_reason == "the text could not be embedded"

    run(scenario())


def test_an_embedder_that_never_answers_is_given_up_on(db: Database, vectors: Vectors) -> None:
    async def scenario() -> None:
        service = MemoryService(db, MemoryEmbedder(vectors, CHOICE.key), embed_timeout_s=0.05)
        vectors.silent = True
        saved = await service.save(GLOBAL_SCOPE, "Keeps bees")
        assert saved.memory.words_only
        found = await service.search([GLOBAL_SCOPE], "bees")
        assert texts(found.memories) == ["Keeps bees"]
        assert found.words_only_reason == "the embedding server did not answer"

    run(scenario())


def test_a_missing_embedding_provider_is_a_reason(db: Database, vectors: Vectors) -> None:
    def removed(choice: EmbeddingChoice) -> Vectors:
        raise SettingsError("embedding", "the provider 'local' no longer exists")

    async def scenario() -> None:
        service = MemoryService(db, embedder_from_choice(lambda: CHOICE, removed))
        await service.save(GLOBAL_SCOPE, "Keeps bees")
        found = await service.search([GLOBAL_SCOPE], "bees")
        assert texts(found.memories) == ["Keeps bees"]
        assert found.words_only_reason is not None
        assert "no longer exists" in found.words_only_reason

    run(scenario())


def test_the_model_in_the_settings_is_used_at_each_call(db: Database, vectors: Vectors) -> None:
    chosen: list[EmbeddingChoice | None] = [None]

    async def scenario() -> None:
        service = MemoryService(db, embedder_from_choice(lambda: chosen[0], lambda c: vectors))
        await service.save(GLOBAL_SCOPE, "My car is red")
        assert (await service.search([GLOBAL_SCOPE], "automobile")).memories == ()
        chosen[0] = CHOICE
        found = await service.search([GLOBAL_SCOPE], "automobile")
        assert found.words_only_reason == "no memory has been embedded with this model yet"
        assert await service.embed_missing() == 1
        assert len(load_vectors(db, CHOICE.key)) == 1
        assert texts((await service.search([GLOBAL_SCOPE], "automobile")).memories) == [
            "My car is red"
        ]

    run(scenario())


def test_cjk_memories_are_found_by_two_characters(service: MemoryService, db: Database) -> None:
    async def scenario() -> None:
        await service.save(GLOBAL_SCOPE, "我周末去爬山")
        await service.save(GLOBAL_SCOPE, "平时在家写代码")
        assert texts((await service.search([GLOBAL_SCOPE], "周末")).memories)[0] == "我周末去爬山"
        words_only = MemoryService(db)
        assert texts((await words_only.search([GLOBAL_SCOPE], "周末")).memories) == ["我周末去爬山"]

    run(scenario())


# --- scopes -------------------------------------------------------------------------


def test_an_assistant_sees_global_memories_only_when_it_opts_in(service: MemoryService) -> None:
    async def scenario() -> None:
        await service.save(GLOBAL_SCOPE, "Lives in Porto and likes tea")
        await service.save(WRITER, "Writes in British English, likes tea")
        await service.save(scope_for("coder"), "Uses tabs, likes tea")

        alone = scopes_for("writer", include_global=False)
        assert alone == (WRITER,)
        assert texts((await service.search(alone, "tea")).memories) == [
            "Writes in British English, likes tea"
        ]
        assert texts(await service.all_in(alone)) == ["Writes in British English, likes tea"]

        both = scopes_for("writer", include_global=True)
        assert set(both) == {WRITER, GLOBAL_SCOPE}
        assert sorted(texts((await service.search(both, "tea")).memories)) == [
            "Lives in Porto and likes tea",
            "Writes in British English, likes tea",
        ]
        assert len(await service.all_in(both)) == 2
        assert scopes_for(None, include_global=False) == (GLOBAL_SCOPE,)

    run(scenario())


def test_all_in_is_newest_first(service: MemoryService) -> None:
    async def scenario() -> None:
        for number in range(5):
            await service.save(GLOBAL_SCOPE, f"fact number {number}")
        older = (await service.list())[-1]
        await service.update(older.id, "fact number 0, edited")
        assert texts(await service.all_in([GLOBAL_SCOPE])) == [
            "fact number 0, edited",
            "fact number 4",
            "fact number 3",
            "fact number 2",
            "fact number 1",
        ]

    run(scenario())
