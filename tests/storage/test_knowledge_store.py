"""The knowledge index's write side on a real SQLite file: sources, chunks with their
word-index rows, vectors and the embedding cache, and what deleting takes with it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pytest
from sqlalchemy import Engine, text

from desktop.core.knowledge import SourceStatus
from desktop.storage.knowledge_index import words_for_index
from desktop.storage.knowledge_queries import library_fingerprint
from desktop.storage.knowledge_store import KnowledgeStore, ScannedSource, StoredVector

LIB = "notes"


@dataclass(frozen=True)
class Piece:
    ordinal: int
    text: str
    heading_path: str = ""
    page: int | None = None
    char_start: int = 0
    char_end: int = 0

    @property
    def text_sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()


@pytest.fixture
def engine(index: Engine) -> Engine:
    return index


@pytest.fixture
def store(engine: Engine) -> KnowledgeStore:
    return KnowledgeStore(engine)


def _count(engine: Engine, sql: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(sql)).scalar_one())


def _pending(store: KnowledgeStore, *paths: str) -> dict[str, int]:
    store.apply_scan(
        LIB, [ScannedSource(p, 10, 1000, SourceStatus.PENDING) for p in paths], gone=()
    )
    return {path: row.id for path, row in store.sources(LIB).items()}


def test_a_scan_records_new_files_with_their_status_and_reason(store):
    store.apply_scan(
        LIB,
        [
            ScannedSource("a.md", 10, 1, SourceStatus.PENDING),
            ScannedSource("big.txt", 99, 2, SourceStatus.FAILED, "larger than the limit"),
            ScannedSource("x.bin", 5, 3, SourceStatus.SKIPPED, "not a kind"),
        ],
        gone=(),
    )
    rows = store.sources(LIB)
    assert {p: r.status for p, r in rows.items()} == {
        "a.md": SourceStatus.PENDING,
        "big.txt": SourceStatus.FAILED,
        "x.bin": SourceStatus.SKIPPED,
    }
    assert rows["big.txt"].error == "larger than the limit"
    assert [r.path for r in store.pending(LIB)] == ["a.md"]
    assert store.status_counts(LIB) == {
        SourceStatus.PENDING: 1,
        SourceStatus.FAILED: 1,
        SourceStatus.SKIPPED: 1,
    }
    assert store.failures(LIB) == [("big.txt", "larger than the limit")]
    assert store.sources("other") == {}


def test_replacing_chunks_writes_their_words_and_indexes_the_source(store, engine):
    ids = _pending(store, "a.md")
    pieces = [Piece(0, "Tomatoes like sun"), Piece(1, "知识库检索", "Intro › 中文", 2, 5, 10)]
    assert store.replace_chunks(ids["a.md"], sha256="s1", size=11, mtime_ns=2, chunks=pieces)
    row = store.sources(LIB)["a.md"]
    assert (row.status, row.sha256, row.size, row.mtime_ns, row.chunks) == (
        SourceStatus.INDEXED,
        "s1",
        11,
        2,
        2,
    )
    assert row.indexed_at is not None
    with engine.connect() as conn:
        chunks = conn.execute(
            text("SELECT id, ordinal, text, heading_path, page, char_start, char_end FROM chunks")
        ).all()
        words = dict(conn.execute(text("SELECT rowid, words FROM chunks_fts")).all())
        match = conn.execute(
            text("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH :q"), {"q": '"检索"'}
        ).all()
    assert [(c.ordinal, c.text, c.heading_path, c.page) for c in chunks] == [
        (0, "Tomatoes like sun", "", None),
        (1, "知识库检索", "Intro › 中文", 2),
    ]
    assert words == {c.id: words_for_index(c.text) for c in chunks}
    assert [m[0] for m in match] == [chunks[1].id]  # CJK found by its character pairs


def test_replacing_again_leaves_no_old_chunk_word_or_vector(store, engine):
    ids = _pending(store, "a.md")
    store.replace_chunks(ids["a.md"], sha256="s1", size=1, mtime_ns=1, chunks=[Piece(0, "old")])
    old = store.chunks_missing_vectors(LIB, "m")
    store.store_vectors("m", [StoredVector(old[0].chunk_id, old[0].text_sha256, b"\0" * 8)])
    store.replace_chunks(
        ids["a.md"], sha256="s2", size=1, mtime_ns=1, chunks=[Piece(0, "new"), Piece(1, "two")]
    )
    assert _count(engine, "SELECT COUNT(*) FROM chunks") == 2
    assert _count(engine, "SELECT COUNT(*) FROM chunks_fts") == 2
    assert _count(engine, "SELECT COUNT(*) FROM vectors") == 0
    assert _count(engine, "SELECT COUNT(*) FROM embed_cache") == 1  # kept for its text
    assert store.cached_vectors("m", {Piece(0, "old").text_sha256}) == {
        Piece(0, "old").text_sha256: b"\0" * 8
    }


def test_vectors_missing_per_model_and_the_cache(store):
    ids = _pending(store, "a.md", "b.md")
    store.replace_chunks(
        ids["a.md"], sha256="a", size=1, mtime_ns=1, chunks=[Piece(0, "x"), Piece(1, "y")]
    )
    store.replace_chunks(ids["b.md"], sha256="b", size=1, mtime_ns=1, chunks=[Piece(0, "z")])
    missing = store.chunks_missing_vectors(LIB, "m1")
    assert [c.text for c in missing] == ["x", "y", "z"]
    assert [c.text for c in store.chunks_missing_vectors(LIB, "m1", source_id=ids["b.md"])] == ["z"]
    stored = store.store_vectors(
        "m1", [StoredVector(c.chunk_id, c.text_sha256, b"\1" * 8) for c in missing[:2]]
    )
    assert stored == 2
    assert [c.text for c in store.chunks_missing_vectors(LIB, "m1")] == ["z"]
    assert [c.text for c in store.chunks_missing_vectors(LIB, "m2")] == ["x", "y", "z"]
    assert store.vector_keys(LIB) == {"m1": 2}
    assert set(store.cached_vectors("m1", {c.text_sha256 for c in missing})) == {
        missing[0].text_sha256,
        missing[1].text_sha256,
    }
    assert store.cached_vectors("m2", {missing[0].text_sha256}) == {}


def test_a_vector_for_a_chunk_deleted_meanwhile_is_passed_over(store, engine):
    ids = _pending(store, "a.md")
    store.replace_chunks(ids["a.md"], sha256="a", size=1, mtime_ns=1, chunks=[Piece(0, "x")])
    chunk = store.chunks_missing_vectors(LIB, "m")[0]
    store.replace_chunks(ids["a.md"], sha256="b", size=1, mtime_ns=1, chunks=[Piece(0, "w")])
    assert store.store_vectors("m", [StoredVector(chunk.chunk_id, chunk.text_sha256, b"1")]) == 0
    assert _count(engine, "SELECT COUNT(*) FROM vectors") == 0


def test_other_model_vectors_are_deleted_only_for_this_library(store, engine):
    ids = _pending(store, "a.md")
    store.apply_scan("other", [ScannedSource("o.md", 1, 1, SourceStatus.PENDING)], gone=())
    other_id = store.sources("other")["o.md"].id
    store.replace_chunks(ids["a.md"], sha256="a", size=1, mtime_ns=1, chunks=[Piece(0, "x")])
    store.replace_chunks(other_id, sha256="o", size=1, mtime_ns=1, chunks=[Piece(0, "o")])
    for key in ("old", "new"):
        for library in (LIB, "other"):
            chunk = store.chunks_missing_vectors(library, key)[0]
            store.store_vectors(key, [StoredVector(chunk.chunk_id, chunk.text_sha256, b"v")])
    assert store.delete_other_vectors(LIB, "new") == 1
    assert store.vector_keys(LIB) == {"new": 1}
    assert store.vector_keys("other") == {"old": 1, "new": 1}
    assert store.delete_other_vectors(LIB, None) == 1
    assert store.vector_keys(LIB) == {}


def test_gone_files_take_their_chunks_words_and_vectors_with_them(store, engine):
    ids = _pending(store, "a.md", "b.md")
    for path in ids:
        store.replace_chunks(ids[path], sha256=path, size=1, mtime_ns=1, chunks=[Piece(0, path)])
    chunk = store.chunks_missing_vectors(LIB, "m", source_id=ids["a.md"])[0]
    store.store_vectors("m", [StoredVector(chunk.chunk_id, chunk.text_sha256, b"v")])
    store.apply_scan(LIB, [], gone=["a.md"])
    assert set(store.sources(LIB)) == {"b.md"}
    assert _count(engine, "SELECT COUNT(*) FROM chunks") == 1
    assert _count(engine, "SELECT COUNT(*) FROM chunks_fts") == 1
    assert _count(engine, "SELECT COUNT(*) FROM vectors") == 0


def test_a_changed_file_keeps_its_chunks_until_read_unless_it_is_now_refused(store, engine):
    ids = _pending(store, "a.md", "b.md")
    for path in ids:
        store.replace_chunks(ids[path], sha256=path, size=1, mtime_ns=1, chunks=[Piece(0, path)])
    store.apply_scan(
        LIB,
        [
            ScannedSource("a.md", 2, 2, SourceStatus.PENDING),
            ScannedSource("b.md", 2, 2, SourceStatus.FAILED, "too large"),
        ],
        gone=(),
    )
    rows = store.sources(LIB)
    assert (rows["a.md"].status, rows["a.md"].sha256, rows["a.md"].chunks) == (
        SourceStatus.PENDING,
        "a.md",
        1,
    )
    assert (rows["b.md"].status, rows["b.md"].sha256, rows["b.md"].chunks) == (
        SourceStatus.FAILED,
        "",
        0,
    )
    assert _count(engine, "SELECT COUNT(*) FROM chunks") == 1
    assert _count(engine, "SELECT COUNT(*) FROM chunks_fts") == 1


def test_touched_failed_deleted_and_forgotten_sources(store, engine):
    ids = _pending(store, "a.md", "b.md", "c.md")
    store.replace_chunks(ids["a.md"], sha256="a", size=1, mtime_ns=1, chunks=[Piece(0, "a")])
    before = store.sources(LIB)["a.md"]
    store.apply_scan(LIB, [ScannedSource("a.md", 1, 5, SourceStatus.PENDING)], gone=())
    store.mark_unchanged(ids["a.md"], size=1, mtime_ns=5)
    after = store.sources(LIB)["a.md"]
    assert (after.status, after.mtime_ns, after.chunks) == (SourceStatus.INDEXED, 5, 1)
    assert after.indexed_at == before.indexed_at  # not read again

    store.mark_failed(ids["b.md"], size=3, mtime_ns=3, reason="damaged")
    assert store.failures(LIB) == [("b.md", "damaged")]
    store.delete_source(ids["c.md"])
    assert set(store.sources(LIB)) == {"a.md", "b.md"}
    assert store.chunk_count(LIB) == 1

    assert store.forget(LIB) == 2
    assert store.sources(LIB) == {}
    assert _count(engine, "SELECT COUNT(*) FROM chunks_fts") == 0
    assert not store.replace_chunks(ids["a.md"], sha256="x", size=1, mtime_ns=1, chunks=[])


def _fingerprint(engine: Engine, library_id: str) -> object:
    with engine.connect() as conn:
        return library_fingerprint(conn, library_id)


def test_new_or_dropped_vectors_change_their_library_s_fingerprint_only(store, engine):
    ids = _pending(store, "a.md")
    store.replace_chunks(ids["a.md"], sha256="a", size=1, mtime_ns=1, chunks=[Piece(0, "a")])
    other = "other"
    store.apply_scan(other, [ScannedSource("b.md", 10, 1000, SourceStatus.PENDING)], gone=())
    b = store.sources(other)["b.md"].id
    store.replace_chunks(b, sha256="b", size=1, mtime_ns=1, chunks=[Piece(0, "b")])
    before, other_before = _fingerprint(engine, LIB), _fingerprint(engine, other)
    chunk = store.chunks_missing_vectors(LIB, "m", source_id=ids["a.md"])[0]
    store.store_vectors("m", [StoredVector(chunk.chunk_id, chunk.text_sha256, b"v")])
    after = _fingerprint(engine, LIB)
    assert after != before
    assert _fingerprint(engine, other) == other_before
    store.delete_other_vectors(LIB, "n")
    assert _fingerprint(engine, LIB) != after


def test_a_deleted_chunk_s_id_is_never_given_to_a_new_one(store):
    ids = _pending(store, "a.md")
    store.replace_chunks(ids["a.md"], sha256="1", size=1, mtime_ns=1, chunks=[Piece(0, "x")])
    first = store.chunks_missing_vectors(LIB, "m")[0].chunk_id
    store.replace_chunks(ids["a.md"], sha256="2", size=1, mtime_ns=2, chunks=[Piece(0, "y")])
    assert store.chunks_missing_vectors(LIB, "m")[0].chunk_id > first


def test_every_write_to_a_library_changes_its_fingerprint_and_no_other_s(store, engine):
    """Cached matrices are trusted while the fingerprint holds: a write that forgot to
    change it would leave searches on stale vectors."""
    store.apply_scan("other", [ScannedSource("z.md", 1, 1, SourceStatus.PENDING)], gone=())
    other = _fingerprint(engine, "other")
    seen = [_fingerprint(engine, LIB)]

    def changed() -> None:
        now = _fingerprint(engine, LIB)
        assert now not in seen
        seen.append(now)

    ids = _pending(store, "a.md", "b.md", "c.md")
    changed()
    store.replace_chunks(ids["a.md"], sha256="a", size=1, mtime_ns=1, chunks=[Piece(0, "a")])
    changed()
    store.mark_unchanged(ids["b.md"], size=2, mtime_ns=2)
    changed()
    store.mark_failed(ids["c.md"], size=3, mtime_ns=3, reason="damaged")
    changed()
    store.delete_source(ids["c.md"])
    changed()
    store.apply_scan(LIB, [], gone=["b.md"])
    changed()
    store.forget(LIB)
    changed()
    assert _fingerprint(engine, "other") == other
