"""Hybrid knowledge search over a real index file, with deterministic embeddings."""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref
from collections.abc import Sequence

import numpy as np
import pytest
from sqlalchemy import Engine

from desktop.core.errors import ProviderError
from desktop.core.knowledge import EmbeddingChoice, LibrarySettings, SourceStatus
from desktop.engine.knowledge.ranking import fuse, nearest, query_vector
from desktop.engine.knowledge.search import KnowledgeSearch
from desktop.engine.knowledge.vector_matrices import VectorMatrices
from desktop.storage.knowledge_queries import VectorMatrix, mark_library_changed
from desktop.storage.sqlite_engine import write_transaction
from tests.support.hashed_vectors import hashed_vector
from tests.support.knowledge_rows import Chunk, add_source, add_vectors, set_status
from tests.support.waiting import run_within, wait_for

HASHED = EmbeddingChoice("local", "hashed")
SMALL = EmbeddingChoice("other", "small", 64)
NOTES = LibrarySettings("notes", "Notes", ("/home/me/notes",), embedding=HASHED)
BOOKS = LibrarySettings("books", "Books", ("/home/me/books",), embedding=SMALL)

GARAGE = "The car needs new tyres before the winter comes."
JOBS = "The nightly job stopped with ERR_7734 after the disk filled up."
OTHERS = (
    "Tea should steep for three minutes in hot water.",
    "The bicycle chain needs oil every month.",
    "Paint the fence white before the summer.",
)


def locate(library: LibrarySettings, path: str) -> str:
    return f"{library.paths[0]}/{path}"


async def embed(text: str) -> list[float]:
    return hashed_vector(text)


async def embed_small(text: str) -> list[float]:
    return hashed_vector(text, 64)


async def refuse(_text: str) -> list[float]:
    raise ProviderError("HTTP 503: the model is loading")


async def crash(_text: str) -> list[float]:
    raise ConnectionResetError("reset by peer")


async def silent(_text: str) -> list[float]:
    await asyncio.Event().wait()
    raise AssertionError("never answered")


async def empty(_text: str) -> list[float]:
    return [0.0] * 256


def _notes(index: Engine) -> dict[str, int]:
    vectors = {HASHED.key: hashed_vector}
    [car] = add_source(index, "notes", "garage.md", [GARAGE], vectors=vectors)
    [job] = add_source(index, "notes", "logs/jobs.md", [JOBS], vectors=vectors)
    others = add_source(index, "notes", "misc.md", list(OTHERS), vectors=vectors)
    return {"car": car, "job": job, "tea": others[0], "bicycle": others[1]}


def _search(
    searcher: KnowledgeSearch,
    query: str,
    libraries: Sequence[LibrarySettings] = (NOTES,),
    embedders: dict | None = None,
    limit: int = 6,
):
    chosen = {HASHED.key: embed} if embedders is None else embedders
    return run_within(
        searcher.search(libraries, query, embedders=chosen, locate=locate, limit=limit)
    )


def _ids(outcome) -> list[int]:
    return [passage.chunk_id for passage in outcome.passages]


def test_automobile_finds_the_car_only_by_meaning(index):
    ids = _notes(index)
    searcher = KnowledgeSearch(index)
    outcome = _search(searcher, "automobile")
    assert _ids(outcome)[0] == ids["car"]
    assert outcome.words_only_reason == ""
    car = outcome.passages[0]
    assert (car.path, car.relative_path, car.library_id) == (
        "/home/me/notes/garage.md",
        "garage.md",
        "notes",
    )
    assert car.text == GARAGE and car.score > 0

    words_only = _search(searcher, "automobile", embedders={})
    assert ids["car"] not in _ids(words_only)
    assert words_only.words_only_reason == "the embedding model's provider is not available"


@pytest.mark.parametrize(
    ("embedder", "reason"),
    [
        (refuse, "the embedding server reported an error: HTTP 503: the model is loading"),
        (crash, "the question could not be embedded"),
        (empty, "the embedding model returned an empty vector"),
    ],
)
def test_a_rare_code_is_found_by_words_when_the_embedder_fails(index, embedder, reason):
    ids = _notes(index)
    outcome = _search(
        KnowledgeSearch(index), "what does ERR_7734 mean", embedders={HASHED.key: embedder}
    )
    assert _ids(outcome) == [ids["job"]]
    assert outcome.words_only_reason == reason


def test_an_embedder_that_does_not_answer_is_given_up_on(index):
    ids = _notes(index)
    searcher = KnowledgeSearch(index, embed_timeout_s=0.2)
    outcome = _search(searcher, "ERR_7734", embedders={HASHED.key: silent})
    assert _ids(outcome) == [ids["job"]]
    assert outcome.words_only_reason == "the embedding server did not answer"


def test_a_library_without_an_embedding_model_is_searched_by_words_as_chosen(index):
    ids = _notes(index)
    plain = LibrarySettings("notes", "Notes", ("/home/me/notes",))
    outcome = _search(KnowledgeSearch(index), "ERR_7734 automobile", libraries=[plain])
    assert _ids(outcome) == [ids["job"]]
    assert outcome.words_only_reason == ""  # the person chose it: no notice on every answer


def test_no_vectors_yet_for_the_model_means_words_only(index):
    add_source(index, "notes", "jobs.md", [JOBS], vectors={"old/model": hashed_vector})
    outcome = _search(KnowledgeSearch(index), "ERR_7734")
    assert len(outcome.passages) == 1
    assert outcome.words_only_reason == "the library has no vectors for this embedding model yet"


def test_vectors_of_another_size_mean_words_only(index):
    ids = _notes(index)
    outcome = _search(KnowledgeSearch(index), "ERR_7734", embedders={HASHED.key: embed_small})
    assert _ids(outcome) == [ids["job"]]
    assert outcome.words_only_reason == (
        "the embedding model returns vectors of another size than the library's index"
    )


@pytest.mark.parametrize(
    "query", ['"ERR_7734', "ERR_7734*", "ERR_7734 AND", "NEAR(ERR_7734", "-ERR_7734 OR )"]
)
def test_fts_syntax_in_the_question_is_harmless(index, query):
    ids = _notes(index)
    outcome = _search(KnowledgeSearch(index), query, embedders={})
    assert _ids(outcome) == [ids["job"]]


def test_a_cjk_question_finds_the_cjk_passage(index):
    _notes(index)
    vectors = {HASHED.key: hashed_vector}
    [tokyo] = add_source(index, "notes", "jp.md", ["東京タワーは高いです。"], vectors=vectors)
    add_source(index, "notes", "cn.md", ["北京的天气很好。"], vectors=vectors)
    assert _ids(_search(KnowledgeSearch(index), "東京タワー", embedders={}))[0] == tokyo
    assert _ids(_search(KnowledgeSearch(index), "東京タワー"))[0] == tokyo


def test_sources_not_indexed_are_never_returned(index):
    ids = _notes(index)
    vectors = {HASHED.key: hashed_vector}
    for status in (SourceStatus.FAILED, SourceStatus.PENDING, SourceStatus.SKIPPED):
        add_source(
            index, "notes", f"{status}.md", [f"{GARAGE} ({status})"], status=status, vectors=vectors
        )
    outcome = _search(KnowledgeSearch(index), "car automobile tyres")
    assert ids["car"] in _ids(outcome)
    assert {p.relative_path for p in outcome.passages} <= {"garage.md", "logs/jobs.md", "misc.md"}
    # A file that fails after its matrix was read is left out as well.
    set_status(index, "notes", "garage.md", SourceStatus.FAILED)
    assert ids["car"] not in _ids(_search(KnowledgeSearch(index), "car automobile tyres"))


def test_the_limit_is_respected_and_capped_at_six(index):
    add_source(
        index,
        "notes",
        "cars.md",
        [f"car number {n} in the car park" for n in range(12)],
        vectors={HASHED.key: hashed_vector},
    )
    searcher = KnowledgeSearch(index)
    assert len(_search(searcher, "car", limit=3).passages) == 3
    assert len(_search(searcher, "car", limit=50).passages) == 6
    assert _search(searcher, "car", limit=0).passages == ()
    assert _search(searcher, "   ").passages == ()


def test_the_same_text_in_two_files_is_one_passage(index):
    vectors = {HASHED.key: hashed_vector}
    add_source(index, "notes", "a/garage.md", [GARAGE], vectors=vectors)
    add_source(index, "notes", "copy of garage.md", [GARAGE], vectors=vectors)
    add_source(index, "notes", "misc.md", list(OTHERS), vectors=vectors)
    outcome = _search(KnowledgeSearch(index), "car tyres")
    assert [p.text for p in outcome.passages].count(GARAGE) == 1
    assert outcome.passages[0].relative_path == "a/garage.md"


def test_passages_keep_their_place_in_the_file(index):
    add_source(
        index,
        "notes",
        "manual.pdf",
        [
            Chunk("Introduction text.", "Manual", 1),
            Chunk("The car jack sits under the seat.", "Manual > Tools", 4),
        ],
        vectors={HASHED.key: hashed_vector},
    )
    [jack] = _search(KnowledgeSearch(index), "jack", embedders={}).passages
    assert (jack.heading_path, jack.page, jack.char_start) == ("Manual > Tools", 4, 20)
    assert len(jack.source_sha256) == 64


def test_disabled_libraries_are_not_searched(index):
    _notes(index)
    off = LibrarySettings("notes", "Notes", ("/home/me/notes",), embedding=HASHED, enabled=False)
    assert _search(KnowledgeSearch(index), "ERR_7734", libraries=[off]).passages == ()


def test_libraries_of_different_models_each_use_their_own(index):
    ids = _notes(index)
    [book] = add_source(
        index,
        "books",
        "cars.md",
        ["A history of the automobile industry."],
        vectors={SMALL.key: lambda text: hashed_vector(text, 64)},
    )
    asked: list[str] = []

    def counted(function, key):
        async def embedder(text: str) -> list[float]:
            asked.append(key)
            return await function(text)

        return embedder

    embedders = {HASHED.key: counted(embed, HASHED.key), SMALL.key: counted(embed_small, SMALL.key)}
    outcome = _search(KnowledgeSearch(index), "car", libraries=[NOTES, BOOKS], embedders=embedders)
    assert {ids["car"], book} <= set(_ids(outcome))
    assert sorted(asked) == sorted([HASHED.key, SMALL.key])
    assert outcome.words_only_reason == ""

    # One model failing: its library by words, named in the reason; the other by both.
    embedders[SMALL.key] = refuse
    outcome = _search(KnowledgeSearch(index), "car", libraries=[NOTES, BOOKS], embedders=embedders)
    assert ids["car"] in _ids(outcome)
    assert book not in _ids(outcome)  # "car" is not a word of the book's passage
    assert outcome.words_only_reason == (
        "Books: the embedding server reported an error: HTTP 503: the model is loading"
    )


def test_libraries_sharing_a_model_embed_the_question_once(index):
    _notes(index)
    add_source(
        index,
        "work",
        "cars.md",
        ["Fleet automobiles are serviced in May."],
        vectors={HASHED.key: hashed_vector},
    )
    work = LibrarySettings("work", "Work", ("/srv/work",), embedding=HASHED)
    asked: list[str] = []

    async def once(text: str) -> list[float]:
        asked.append(text)
        return hashed_vector(text)

    outcome = _search(
        KnowledgeSearch(index), "automobile", libraries=[NOTES, work], embedders={HASHED.key: once}
    )
    assert asked == ["automobile"]
    assert {p.library_id for p in outcome.passages[:2]} == {"notes", "work"}
    assert outcome.passages[0].path.startswith(("/home/me/notes/", "/srv/work/"))


def test_the_same_question_finds_the_same_however_fast_the_vectors_come(index):
    # With the vectors back in time and the matrices held current, the word search's
    # thread finishes the search; else the event loop reads what is missing first.
    # Either way: the same passages, scores and reasons.
    _notes(index)
    add_source(
        index,
        "books",
        "cars.md",
        ["A history of the automobile industry.", "Tea came to Europe by sea."],
        vectors={SMALL.key: lambda text: hashed_vector(text, 64)},
    )
    add_source(index, "plain", "list.md", ["Buy tea, oil and new tyres."])
    plain = LibrarySettings("plain", "Plain", ("/srv/plain",))
    libraries = [NOTES, BOOKS, plain]
    questions = ["automobile", "tea", "ERR_7734 disk", "car tyres winter"]

    words_done = threading.Event()  # the word search's thread has returned
    handed_back: list[bool] = []  # per search: did it leave the rest to the event loop?

    class Watched(KnowledgeSearch):
        def _words(self, *args):
            try:
                words = super()._words(*args)
                handed_back.append(words.finished is None)
                return words
            finally:
                words_done.set()

    def later(function):
        async def embedder(text: str) -> list[float]:
            # Answers only once the word search's thread gave up waiting for it.
            assert await asyncio.to_thread(words_done.wait, 30)
            return await function(text)

        return embedder

    fast = {HASHED.key: embed, SMALL.key: embed_small}
    slow = {HASHED.key: later(embed), SMALL.key: later(embed_small)}
    failing = {HASHED.key: embed, SMALL.key: refuse}

    def answers(searcher: KnowledgeSearch, embedders: dict) -> list:
        found = []
        for question in questions:
            words_done.clear()
            found.append(_search(searcher, question, libraries=libraries, embedders=embedders))
        return found

    searcher = Watched(index)
    first = answers(searcher, fast)  # the first question reads the matrices
    assert all(outcome.passages and not outcome.words_only_reason for outcome in first)
    assert answers(searcher, fast) == first
    handed_back.clear()
    assert answers(searcher, slow) == first
    assert answers(Watched(index), slow) == first
    assert handed_back == [True] * 2 * len(questions)
    refused = answers(searcher, failing)
    assert all(outcome.words_only_reason.startswith("Books: ") for outcome in refused)
    assert answers(Watched(index), failing) == refused


def test_fusion_puts_a_chunk_high_in_both_lists_first():
    # 3: third by words, first by vectors; 1: first by words only; 2 and 9: second in
    # one list each (a tie: the lower id first).
    fused = fuse([[1, 2, 3], [3, 9]])
    assert [chunk for chunk, _ in fused] == [3, 1, 2, 9]
    scores = dict(fused)
    assert scores[3] == pytest.approx(1 / 63 + 1 / 61)
    assert scores[1] == pytest.approx(1 / 61)
    # Equal scores: the better single rank first, then the lower id.
    assert [chunk for chunk, _ in fuse([[5, 6], [6, 5]])] == [5, 6]
    assert fuse([]) == []


def test_a_passage_found_by_words_and_meaning_beats_one_found_by_either(index):
    vectors = {HASHED.key: hashed_vector}
    [both] = add_source(index, "notes", "a.md", ["car tyres for the winter"], vectors=vectors)
    [words] = add_source(
        index, "notes", "b.md", ["winter tyres winter tyres stock list"], vectors=vectors
    )
    [meaning] = add_source(index, "notes", "c.md", ["automobile automobile"], vectors=vectors)
    outcome = _search(KnowledgeSearch(index), "car tyres")
    assert _ids(outcome)[0] == both
    assert set(_ids(outcome)[1:]) == {words, meaning}


def test_nearest_merges_matrices_by_similarity():
    first = VectorMatrix(
        np.array([10, 11], dtype=np.int64), np.array([[1, 0], [0, 1]], dtype=np.float32)
    )
    second = VectorMatrix(np.array([20], dtype=np.int64), np.array([[0.8, 0.6]], dtype=np.float32))
    q = query_vector([1.0, 0.1])
    assert q is not None and q.dtype == np.float32
    assert nearest([first, second], q, 2) == [10, 20]
    assert nearest([first, second], q, 10) == [10, 20, 11]
    assert query_vector([]) is None and query_vector([float("nan"), 1.0]) is None


def test_matrices_are_reused_and_reloaded_when_the_library_changes(index):
    _notes(index)
    matrices = VectorMatrices(index)
    searcher = KnowledgeSearch(index, matrices)

    async def body() -> None:
        async def ask(query: str = "automobile"):
            return await searcher.search(
                [NOTES], query, embedders={HASHED.key: embed}, locate=locate
            )

        await ask()
        first = await matrices.get("notes", HASHED.key)
        await ask("tea")
        assert matrices.loads == 1
        assert await matrices.get("notes", HASHED.key) is first  # the same array, not a copy
        assert matrices.resident_bytes == first.matrix.nbytes + first.chunk_ids.nbytes

        # A new file: reloaded, and found by meaning.
        [van] = add_source(
            index,
            "notes",
            "van.md",
            ["The van is a vehicle too."],
            vectors={HASHED.key: hashed_vector},
        )
        outcome = await ask("vehicle automobile")
        assert matrices.loads == 2
        assert van in _ids(outcome)

        # The indexer's mark (vectors changed, no file did): reloaded.
        with write_transaction(index) as connection:
            mark_library_changed(connection, "notes")
        await ask()
        assert matrices.loads == 3

        # Another library's change: not reloaded.
        add_source(index, "other", "x.md", ["unrelated"], vectors={HASHED.key: hashed_vector})
        await ask()
        assert matrices.loads == 3

    run_within(body())


def test_a_changed_librarys_old_matrix_is_let_go_before_the_new_one_is_read(index):
    _notes(index)
    alive: list[bool] = []
    old: list[weakref.ref] = []

    class Watched(VectorMatrices):
        def _load(self, library_id: str, model_key: str):
            gc.collect()
            alive.extend(ref() is not None for ref in old)
            return super()._load(library_id, model_key)

    searcher = KnowledgeSearch(index, Watched(index))
    _search(searcher, "tea")
    old.append(weakref.ref(run_within(searcher.matrices.get("notes", HASHED.key)).matrix))
    add_source(index, "notes", "van.md", ["The van."], vectors={HASHED.key: hashed_vector})
    _search(searcher, "tea")
    assert searcher.matrices.loads == 2
    assert alive == [False]  # never two of them at once


def test_the_matrices_handed_to_the_word_search_thread_are_let_go_after_it(index):
    """The thread pool keeps a call's arguments until its thread runs again, which on a
    busy machine can be after the search has gone on to read a changed library."""
    _notes(index)
    handed: list[dict] = []

    class Keeping(KnowledgeSearch):
        def _words(self, library_ids, query, job, held):
            handed.append(held)  # kept, as a thread pool's work item may keep it
            return super()._words(library_ids, query, job, held)

    searcher = Keeping(index, VectorMatrices(index))
    _search(searcher, "tea")
    _search(searcher, "tea")
    assert len(handed) == 2
    assert handed == [{}, {}]  # emptied once the thread returned


def test_a_model_switched_in_place_is_picked_up(index):
    texts = [GARAGE, *OTHERS]
    ids = add_source(index, "notes", "a.md", texts, vectors={"old/model": hashed_vector})
    searcher = KnowledgeSearch(index)
    assert _search(searcher, "automobile").words_only_reason  # no vectors for HASHED yet
    add_vectors(index, ids, HASHED.key, texts, hashed_vector)
    with write_transaction(index) as connection:
        mark_library_changed(connection, "notes")
    outcome = _search(searcher, "automobile")
    assert outcome.words_only_reason == ""
    assert _ids(outcome)[0] == ids[0]


def test_matrices_unused_for_ten_minutes_are_dropped(index):
    _notes(index)
    now = [1000.0]
    matrices = VectorMatrices(index, clock=lambda: now[0])

    async def body() -> None:
        await matrices.get("notes", HASHED.key)
        now[0] += 599
        matrices.drop_idle()
        assert matrices.cached() == {("notes", HASHED.key)}
        now[0] += 2
        matrices.drop_idle()
        assert matrices.cached() == set() and matrices.resident_bytes == 0
        await matrices.get("notes", HASHED.key)
        assert matrices.loads == 2
        matrices.clear()

    run_within(body())


def test_the_idle_timer_drops_matrices_by_itself(index):
    _notes(index)
    matrices = VectorMatrices(index, idle_s=0.05)

    async def body() -> None:
        await matrices.get("notes", HASHED.key)
        assert matrices.cached()
        await wait_for(lambda: not matrices.cached())
        assert matrices.resident_bytes == 0

    run_within(body())


def test_a_cancelled_search_cancels_the_embedding(index):
    _notes(index)
    started = asyncio.Event()
    cancelled: list[bool] = []

    async def waits(_text: str) -> list[float]:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return []

    async def body() -> None:
        searcher = KnowledgeSearch(index)
        task = asyncio.ensure_future(
            searcher.search([NOTES], "car", embedders={HASHED.key: waits}, locate=locate)
        )
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await wait_for(lambda: cancelled == [True])

    run_within(body())
