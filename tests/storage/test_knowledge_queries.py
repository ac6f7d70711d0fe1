"""The knowledge index's read side against a real index file filled with rows."""

from __future__ import annotations

import numpy as np
import pytest
from sqlalchemy import Engine, text

from desktop.core.knowledge import SourceStatus
from desktop.storage.knowledge_index import open_index, words_for_index
from desktop.storage.knowledge_queries import (
    WORD_HITS,
    fetch_passages,
    library_fingerprint,
    load_vectors,
    mark_library_changed,
    word_search,
)
from desktop.storage.knowledge_store import KnowledgeStore
from desktop.storage.knowledge_terms import PRUNE_FLOOR, TermFrequencies, choose_terms, query_terms
from desktop.storage.sqlite_engine import read_transaction, write_transaction
from tests.support.hashed_vectors import hashed_vector
from tests.support.knowledge_rows import Chunk, add_source, set_status

MODEL = "local/hashed"


def _search(engine: Engine, query: str, libraries: tuple[str, ...] = ("lib",)) -> list[int]:
    with read_transaction(engine) as connection:
        return word_search(connection, list(libraries), query)


def _filler(engine: Engine, count: int, words: str = "the report about the") -> None:
    add_source(engine, "lib", "filler.md", [f"{words} week number {n}" for n in range(count)])


@pytest.mark.parametrize(
    "query",
    ['"ERR_7734', "ERR_7734*", "ERR_7734 AND", "NEAR(ERR_7734", "-ERR_7734", "ERR_7734 OR )"],
)
def test_fts_syntax_in_a_query_is_harmless(index, query):
    [code] = add_source(index, "lib", "codes.md", ["The server logged ERR_7734 at noon."])
    add_source(index, "lib", "other.md", ["Nothing to see here."])
    assert _search(index, query) == [code]


def test_finds_by_rare_words_best_first_within_the_libraries_asked(index):
    both, one = add_source(index, "lib", "a.md", ["zebra quagga stripes", "zebra in the zoo"])
    add_source(index, "lib", "b.md", ["a giraffe"])
    [elsewhere] = add_source(index, "other", "c.md", ["zebra quagga again"])
    assert _search(index, "quagga zebra") == [both, one]
    assert _search(index, "quagga zebra", ("lib", "other")) in (
        [both, elsewhere, one],
        [elsewhere, both, one],
    )
    assert _search(index, "quagga", ()) == []
    assert _search(index, "unicorn") == []


def test_cjk_query_finds_the_cjk_passage(index):
    [tokyo] = add_source(index, "lib", "jp.md", ["東京タワーは高いです。"])
    add_source(index, "lib", "cn.md", ["北京的天气很好。"])
    assert _search(index, "東京タワー") == [tokyo]
    assert words_for_index("東京") == " 東京 "


def test_common_terms_are_dropped_and_the_rarest_kept(index):
    # Enough chunks for the 20 % rule to apply (below PRUNE_FLOOR nothing is dropped).
    _filler(index, PRUNE_FLOOR * 6)
    [rare] = add_source(index, "lib", "rare.md", ["the report about the zebra"])
    frequencies = TermFrequencies()
    with read_transaction(index) as connection:
        choice = choose_terms(connection, query_terms("the report zebra week"), frequencies)
        all_common = choose_terms(
            connection, query_terms("the report about week number"), frequencies
        )
        unknown = choose_terms(connection, query_terms("unicorn"), frequencies)
    assert choice.kept == ("zebra",)
    assert set(choice.dropped) == {"the", "report", "week"}
    # Every term common: all still searched, all required.
    assert set(all_common.kept) == {"the", "report", "about", "week", "number"}
    assert all_common.all_required and all_common.expression.count(" AND ") == 4
    assert unknown.kept == ()
    assert _search(index, "the report zebra") == [rare]
    # ...and BM25 ranks a sample of their matches: still a full list, each match real.
    hits = _search(index, "the report about week number")
    assert len(hits) == WORD_HITS
    with read_transaction(index) as connection:
        texts = fetch_passages(connection, hits)
    assert all({"report", "week", "number"} <= set(p.text.split()) for p in texts)


def test_a_term_in_every_chunk_does_not_swamp_a_rare_one(index):
    _filler(index, PRUNE_FLOOR * 6, words="the status line")
    [code] = add_source(index, "lib", "codes.md", ["The status line read ERR_7734."])
    assert _search(index, "the status ERR_7734")[0] == code


def test_sources_not_indexed_are_never_returned(index):
    [good] = add_source(index, "lib", "good.md", ["zebra good"], vectors={MODEL: hashed_vector})
    for status in (SourceStatus.FAILED, SourceStatus.PENDING, SourceStatus.SKIPPED):
        add_source(
            index,
            "lib",
            f"{status}.md",
            [f"zebra {status}"],
            status=status,
            vectors={MODEL: hashed_vector},
        )
    assert _search(index, "zebra") == [good]
    with read_transaction(index) as connection:
        vectors = load_vectors(connection, "lib", MODEL)
        everything = list(connection.execute(text("SELECT id FROM chunks")).scalars())
        passages = fetch_passages(connection, everything)
    assert vectors.chunk_ids.tolist() == [good]
    assert [p.chunk_id for p in passages] == [good]


def test_vectors_load_as_one_float32_matrix_for_one_model(index):
    texts = ["the car is red", "a bicycle", "tea with milk"]
    ids = add_source(index, "lib", "a.md", texts, vectors={MODEL: hashed_vector})
    add_source(index, "lib", "b.md", ["other model"], vectors={"other/model": hashed_vector})
    add_source(index, "other", "c.md", ["other library"], vectors={MODEL: hashed_vector})
    with read_transaction(index) as connection:
        vectors = load_vectors(connection, "lib", MODEL)
        none = load_vectors(connection, "lib", "missing/model")
    assert vectors.matrix.dtype == np.float32
    assert vectors.matrix.flags.c_contiguous and vectors.matrix.flags.owndata
    assert vectors.matrix.shape == (3, 256)
    assert sorted(vectors.chunk_ids.tolist()) == ids
    for row, chunk_id in enumerate(vectors.chunk_ids.tolist()):
        expected = np.asarray(hashed_vector(texts[ids.index(chunk_id)]), dtype=np.float32)
        np.testing.assert_allclose(vectors.matrix[row], expected, rtol=1e-6)
        assert abs(float(np.linalg.norm(vectors.matrix[row])) - 1.0) < 1e-5
    assert len(none) == 0
    assert vectors.nbytes == 3 * 256 * 4 + 3 * 8


def test_a_damaged_vector_row_is_left_out(index):
    ids = add_source(index, "lib", "a.md", ["one", "two"], vectors={MODEL: hashed_vector})
    with write_transaction(index) as connection:
        connection.execute(
            text("UPDATE vectors SET vector = x'00000000' WHERE chunk_id = :id"), {"id": ids[0]}
        )
    with read_transaction(index) as connection:
        vectors = load_vectors(connection, "lib", MODEL)
    assert vectors.chunk_ids.tolist() == [ids[1]]
    assert vectors.matrix.shape == (1, 256)


def test_fingerprint_moves_with_the_library_and_only_with_it(index):
    def fingerprint(library: str = "lib") -> object:
        with read_transaction(index) as connection:
            return library_fingerprint(connection, library)

    add_source(index, "lib", "a.md", ["one"])
    first, other = fingerprint(), fingerprint("other")
    assert fingerprint() == first
    add_source(index, "lib", "b.md", ["two"])
    second = fingerprint()
    assert second != first
    set_status(index, "lib", "b.md", SourceStatus.FAILED)
    third = fingerprint()
    assert third != second  # (as it was before b.md: the same passages are searchable)
    with write_transaction(index) as connection:
        mark_library_changed(connection, "lib")
    fourth = fingerprint()
    assert fourth != third
    with write_transaction(index) as connection:
        mark_library_changed(connection, "lib")
    assert fingerprint() != fourth
    assert fingerprint("other") == other


def test_passages_come_in_the_order_asked_with_their_places(index):
    ids = add_source(
        index,
        "lib",
        "guide/setup.md",
        [Chunk("Install it.", "Setup > Install", None), Chunk("Page two.", "", 2)],
    )
    with read_transaction(index) as connection:
        passages = fetch_passages(connection, [ids[1], 999, ids[0]])
        sha = connection.execute(text("SELECT sha256 FROM sources")).scalar_one()
    assert [p.chunk_id for p in passages] == [ids[1], ids[0]]
    second, first = passages
    assert (first.library_id, first.path, first.text) == ("lib", "guide/setup.md", "Install it.")
    assert (first.heading_path, first.page, first.char_start, first.char_end) == (
        "Setup > Install",
        None,
        0,
        11,
    )
    assert (second.page, second.char_start, second.source_sha256) == (2, 13, sha)


def test_best_matches_elsewhere_do_not_hide_the_library_asked(index):
    # The 150 best "zebra" chunks are in another library: the one of this library is
    # below them in the ranking, and still found.
    add_source(index, "other", "zoo.md", [f"zebra zebra zebra {n}" for n in range(150)])
    add_source(index, "lib", "failed.md", ["zebra zebra"], status=SourceStatus.FAILED)
    [mine] = add_source(index, "lib", "mine.md", ["a long passage that mentions a zebra once"])
    assert _search(index, "zebra") == [mine]


def test_word_search_returns_at_most_the_limit_best_first(index):
    ids = add_source(index, "lib", "a.md", [("zebra " * (n + 1)).strip() for n in range(80)])
    with read_transaction(index) as connection:
        hits = word_search(connection, ["lib"], "zebra", limit=10)
    assert hits == list(reversed(ids))[:10]
    assert len(_search(index, "zebra")) == WORD_HITS


def test_an_index_made_before_the_chunk_source_index_gets_it_when_opened(tmp_path):
    engine = open_index(tmp_path)
    zebra, _ = add_source(engine, "lib", "a.md", ["the zebra", "the report"])
    with write_transaction(engine) as connection:  # the index file as it was made before
        connection.execute(text("DROP INDEX chunks_sources"))
    engine.dispose()
    engine = open_index(tmp_path)
    try:
        with read_transaction(engine) as connection:
            names = connection.execute(text("SELECT name FROM sqlite_master")).scalars().all()
        assert "chunks_sources" in names
        assert _search(engine, "zebra") == [zebra]
    finally:
        engine.dispose()


@pytest.mark.parametrize("replacement", ["b", "a"])
def test_a_remembered_count_of_a_word_now_in_no_chunk_does_not_empty_the_search(index, replacement):
    # A library replaced by another of the same size ("b": the census is taken again)
    # or re-indexed with other words ("a": the census is kept; "report", remembered as
    # common, must not be required of every passage while it is in none).
    _filler(index, PRUNE_FLOOR, words="filler")
    add_source(index, "a", "a.md", [f"alpha report {n}" for n in range(PRUNE_FLOOR + 1000)])
    frequencies = TermFrequencies()
    with read_transaction(index) as connection:
        assert word_search(connection, ["a"], "alpha report", WORD_HITS, frequencies)
    KnowledgeStore(index).forget("a")
    zebras = add_source(
        index, replacement, "z.md", [f"zebra {n}" for n in range(PRUNE_FLOOR + 1000)]
    )
    with read_transaction(index) as connection:
        hits = word_search(connection, [replacement], "zebra report", WORD_HITS, frequencies)
    assert len(hits) == WORD_HITS and set(hits) <= set(zebras)
