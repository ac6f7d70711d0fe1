"""Indexing passes over real files (Markdown, Word, PowerPoint, PDF, CJK text, damaged and
oversized files) into a real index, with an in-process embedding model that counts
what it is sent."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import Engine, text

from desktop.core.knowledge import (
    EmbeddingChoice,
    EmbeddingKind,
    IndexProgress,
    LibrarySettings,
    LibraryState,
    SourceStatus,
)
from desktop.core.limits import MAX_LIBRARY_DOCUMENT_CHARS
from desktop.engine.knowledge.chunking import Layout, split_into_chunks
from desktop.engine.knowledge.embed_batches import EMBED_IN_FLIGHT
from desktop.engine.knowledge.embedding import EMBED_BATCH, unpack
from desktop.engine.knowledge.indexer import IndexPass, PassSummary
from desktop.storage.knowledge_index import open_index
from desktop.storage.knowledge_queries import word_search
from desktop.storage.knowledge_store import KnowledgeStore
from tests.support.knowledge import (
    MARKDOWN,
    HashingEmbedder,
    assert_consistent,
    write_library,
    write_many,
)
from tests.support.paths import ROOT
from tests.support.waiting import CEILING_S, run_within, wait_for, wait_until

MODEL = EmbeddingChoice("local", "embed-small")
OTHER_MODEL = EmbeddingChoice("local", "embed-large", dimensions=32)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    engine = open_index(tmp_path / "data")
    try:
        yield engine
    finally:
        engine.dispose()


@pytest.fixture
def store(engine: Engine) -> KnowledgeStore:
    return KnowledgeStore(engine)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return write_library(tmp_path / "library")


def _library(folder: Path, embedding: EmbeddingChoice | None = MODEL) -> LibrarySettings:
    return LibrarySettings("lib", "Library", (str(folder),), embedding=embedding)


def index(
    store: KnowledgeStore, library: LibrarySettings, embedder: HashingEmbedder | None
) -> tuple[PassSummary, list[IndexProgress]]:
    events: list[IndexProgress] = []

    async def run() -> PassSummary:
        return await IndexPass(store, library, embedder, events.append).run()

    return run_within(run()), events


def _scalar(engine: Engine, sql: str, **params: object) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(sql), params).scalar_one())


def _chunks(engine: Engine, path: str) -> list[tuple]:
    with engine.connect() as conn:
        return conn.execute(
            text(
                """SELECT c.id, c.text, c.heading_path, c.page, c.text_sha256 FROM chunks c
                JOIN sources s ON s.id = c.source_id WHERE s.path = :p ORDER BY c.ordinal"""
            ),
            {"p": path},
        ).all()


def _vectors(engine: Engine, key: str) -> int:
    return _scalar(engine, "SELECT COUNT(*) FROM vectors WHERE model_key = :k", k=key)


def test_a_folder_of_real_files(store, engine, folder):
    embedder = HashingEmbedder()
    summary, events = index(store, _library(folder), embedder)

    rows = store.sources("lib")
    assert {p: r.status for p, r in rows.items()} == {
        "garden.md": SourceStatus.INDEXED,
        "report.docx": SourceStatus.INDEXED,
        "slides.pptx": SourceStatus.INDEXED,
        "travel.pdf": SourceStatus.INDEXED,
        "notes-zh.txt": SourceStatus.INDEXED,
        "broken.docx": SourceStatus.FAILED,
        "scan.pdf": SourceStatus.FAILED,
        "huge.txt": SourceStatus.FAILED,
        "photo.bmp": SourceStatus.SKIPPED,
    }
    reasons = dict(store.failures("lib"))
    assert "damaged" in reasons["broken.docx"]
    assert "no text layer" in reasons["scan.pdf"]
    assert reasons["huge.txt"].startswith("larger than the 25 MiB limit")
    assert summary.files_read == 5  # the oversized file was never opened
    assert summary.files_failed == 2

    assert [(c.page, c.text.split()[1]) for c in map(_Row, _chunks(engine, "travel.pdf"))] == [
        (1, "first"),
        (2, "second"),
        (3, "third"),
    ]
    assert {r.heading for r in map(_Row, _chunks(engine, "slides.pptx"))} == {
        "Slide 1 › Title 1",
        "Slide 2 › Title 2",
        "Slide 3 › Title 3",
    }
    assert [r.heading for r in map(_Row, _chunks(engine, "garden.md"))] == [
        "Garden notes",
        "Garden notes › Soil",
        "Garden notes › Pests",
    ]
    assert len(_chunks(engine, "notes-zh.txt")) > 1
    with engine.connect() as conn:
        found = conn.execute(
            text(
                """SELECT s.path FROM chunks_fts f JOIN chunks c ON c.id = f.rowid
                JOIN sources s ON s.id = c.source_id WHERE chunks_fts MATCH :q"""
            ),
            {"q": '"向量"'},
        ).all()
    assert {row[0] for row in found} == {"notes-zh.txt"}

    chunks = _scalar(engine, "SELECT COUNT(*) FROM chunks")
    assert _vectors(engine, MODEL.key) == chunks
    with engine.connect() as conn:
        blobs = [row[0] for row in conn.execute(text("SELECT vector FROM vectors")).all()]
    assert all(abs(float(np.linalg.norm(unpack(b))) - 1.0) < 1e-5 for b in blobs)
    assert max(embedder.batch_sizes) <= EMBED_BATCH
    assert embedder.kinds == {EmbeddingKind.DOCUMENT}
    assert len(embedder.texts) == len(set(embedder.texts))  # a repeated text is sent once
    assert_consistent(engine)

    states = [e.state for e in events]
    assert states[0] is LibraryState.SCANNING
    assert LibraryState.INDEXING in states
    final = events[-1]
    assert final.state is LibraryState.IDLE and final.error == ""
    assert (final.done, final.total) == (7, 7)
    assert final.counts == {
        SourceStatus.INDEXED: 5,
        SourceStatus.FAILED: 3,
        SourceStatus.SKIPPED: 1,
    }
    assert [f.path for f in final.failed] == ["broken.docx", "huge.txt", "scan.pdf"]
    assert [e.done for e in events] == sorted(e.done for e in events)


class _Row:
    def __init__(self, row: tuple) -> None:
        self.id, self.text, self.heading, self.page, self.sha = row


def test_a_second_pass_over_unchanged_files_reads_and_embeds_nothing(store, engine, folder):
    index(store, _library(folder), HashingEmbedder())
    before = {p: r.indexed_at for p, r in store.sources("lib").items()}
    embedder = HashingEmbedder()
    summary, events = index(store, _library(folder), embedder)
    assert embedder.calls == 0
    assert (summary.files_read, summary.files_touched) == (0, 0)
    assert {p: r.indexed_at for p, r in store.sources("lib").items()} == before
    assert (events[-1].done, events[-1].total) == (0, 0)


def test_an_edited_file_sends_only_its_changed_passages(store, engine, folder):
    index(store, _library(folder), HashingEmbedder())
    garden = folder / "garden.md"
    garden.write_text(MARKDOWN.replace("A strong spray", "A very strong spray"), encoding="utf-8")
    embedder = HashingEmbedder()
    summary, _ = index(store, _library(folder), embedder)
    pests = _Row(_chunks(engine, "garden.md")[-1])
    assert summary.files_read == 1
    assert embedder.texts == [pests.text]
    assert "very strong" in pests.text
    assert summary.vectors_from_cache == 2  # the unchanged passages of the same file
    assert _vectors(engine, MODEL.key) == _scalar(engine, "SELECT COUNT(*) FROM chunks")
    assert_consistent(engine)


def test_a_touched_file_is_hashed_not_read_or_embedded(store, engine, folder):
    index(store, _library(folder), HashingEmbedder())
    before = store.sources("lib")["report.docx"]
    chunk_ids = [c[0] for c in _chunks(engine, "report.docx")]
    info = (folder / "report.docx").stat()
    os.utime(folder / "report.docx", ns=(info.st_atime_ns, info.st_mtime_ns + 5_000_000_000))
    embedder = HashingEmbedder()
    summary, _ = index(store, _library(folder), embedder)
    after = store.sources("lib")["report.docx"]
    assert embedder.calls == 0
    assert (summary.files_read, summary.files_touched) == (0, 1)
    assert after.status is SourceStatus.INDEXED
    assert after.mtime_ns == info.st_mtime_ns + 5_000_000_000
    assert after.indexed_at == before.indexed_at
    assert [c[0] for c in _chunks(engine, "report.docx")] == chunk_ids


def test_a_deleted_file_takes_its_chunks_words_and_vectors(store, engine, folder):
    index(store, _library(folder), HashingEmbedder())
    ids = [c[0] for c in _chunks(engine, "travel.pdf")]
    assert ids
    (folder / "travel.pdf").unlink()
    index(store, _library(folder), HashingEmbedder())
    assert "travel.pdf" not in store.sources("lib")
    marks = ",".join(map(str, ids))
    assert _scalar(engine, f"SELECT COUNT(*) FROM chunks WHERE id IN ({marks})") == 0
    assert _scalar(engine, f"SELECT COUNT(*) FROM chunks_fts WHERE rowid IN ({marks})") == 0
    assert _scalar(engine, f"SELECT COUNT(*) FROM vectors WHERE chunk_id IN ({marks})") == 0
    assert_consistent(engine)


def test_a_folder_that_is_not_there_keeps_its_files_until_it_is_back(store, engine, tmp_path):
    # A drive not mounted must not cost the person a whole re-index when it returns.
    first, second = write_many(tmp_path / "first", 3), write_many(tmp_path / "second", 4)
    for path in second.iterdir():
        path.rename(second / f"second-{path.name}")
    library = LibrarySettings("lib", "Library", (str(first), str(second)), embedding=MODEL)
    index(store, library, HashingEmbedder())
    assert store.status_counts("lib") == {SourceStatus.INDEXED: 7}
    second.rename(tmp_path / "elsewhere")
    (first / "file0002.md").unlink()  # really gone, but kept too while one cannot tell
    embedder = HashingEmbedder()
    summary, events = index(store, library, embedder)
    assert store.status_counts("lib") == {SourceStatus.INDEXED: 7}
    assert events[-1].notice == (
        f"Not available now: “{second}”. Their files are kept until they are back."
    )
    assert events[-1].error == ""  # the pass went on: it did not stop
    (tmp_path / "elsewhere").rename(second)
    summary, events = index(store, library, embedder)
    assert (summary.files_read, embedder.calls) == (0, 0)  # nothing read or embedded again
    assert events[-1].notice == ""
    assert store.status_counts("lib") == {SourceStatus.INDEXED: 6}
    assert "file0002.md" not in store.sources("lib")
    assert_consistent(engine)


def test_the_embedding_cache_keeps_only_texts_some_file_still_holds(store, engine, folder):
    index(store, _library(folder), HashingEmbedder())
    travel = {c[4] for c in _chunks(engine, "travel.pdf")}
    cached = "SELECT COUNT(*) FROM embed_cache WHERE text_sha256 = :sha"
    assert all(_scalar(engine, cached, sha=sha) == 1 for sha in travel)
    # The same wording in another file keeps its cached vectors; the rest goes.
    garden = {c[4] for c in _chunks(engine, "garden.md")}
    (folder / "again.md").write_bytes((folder / "garden.md").read_bytes())
    (folder / "travel.pdf").unlink()
    (folder / "garden.md").unlink()
    summary, _ = index(store, _library(folder), HashingEmbedder())
    assert summary.cache_pruned == len(travel - garden) > 0
    assert all(_scalar(engine, cached, sha=sha) == 0 for sha in travel - garden)
    assert all(_scalar(engine, cached, sha=sha) == 1 for sha in garden)
    total = "SELECT COUNT(*) FROM embed_cache"
    distinct = "SELECT COUNT(DISTINCT text_sha256) FROM chunks"
    assert _scalar(engine, total) == _scalar(engine, distinct)
    # A pass that found nothing changed does not sweep (it costs a scan of the cache).
    with engine.begin() as conn:
        conn.execute(
            text("INSERT INTO embed_cache VALUES ('orphan', :key, x'00')"), {"key": MODEL.key}
        )
    index(store, _library(folder), HashingEmbedder())
    assert _scalar(engine, cached, sha="orphan") == 1


def test_a_file_damaged_since_it_was_indexed_fails_and_loses_its_chunks(store, engine, folder):
    index(store, _library(folder), HashingEmbedder())
    (folder / "report.docx").write_bytes(b"PK\x03\x04 no longer a document at all" * 20)
    _, events = index(store, _library(folder), HashingEmbedder())
    row = store.sources("lib")["report.docx"]
    assert row.status is SourceStatus.FAILED and "damaged" in row.error
    assert _chunks(engine, "report.docx") == []
    assert "report.docx" in {f.path for f in events[-1].failed}
    assert_consistent(engine)


def test_switching_the_model_re_embeds_then_drops_the_old_vectors(store, engine, folder):
    index(store, _library(folder), HashingEmbedder())
    chunks = _scalar(engine, "SELECT COUNT(*) FROM chunks")
    embedder = HashingEmbedder(dimensions=32)
    summary, events = index(store, _library(folder, OTHER_MODEL), embedder)
    assert LibraryState.RE_EMBEDDING in {e.state for e in events}
    assert LibraryState.INDEXING not in {e.state for e in events}
    assert summary.files_read == 0
    assert len(embedder.texts) == chunks
    assert _vectors(engine, OTHER_MODEL.key) == chunks
    assert _vectors(engine, MODEL.key) == 0
    assert summary.old_vectors_deleted == chunks

    back = HashingEmbedder()
    index(store, _library(folder, MODEL), back)
    assert back.calls == 0  # every text is in the cache under the first model
    assert _vectors(engine, MODEL.key) == chunks
    assert _vectors(engine, OTHER_MODEL.key) == 0


def test_a_library_by_words_only_keeps_no_vectors(store, engine, folder):
    index(store, _library(folder), HashingEmbedder())
    assert _vectors(engine, MODEL.key) > 0
    summary, events = index(store, _library(folder, None), None)
    assert _scalar(engine, "SELECT COUNT(*) FROM vectors") == 0
    assert summary.files_read == 0
    assert events[-1].error == ""


def test_with_the_embedder_down_words_are_indexed_and_the_next_pass_embeds(store, engine, folder):
    embedder = HashingEmbedder()
    embedder.fail("connection refused by 127.0.0.1:9")
    summary, events = index(store, _library(folder), embedder)
    assert embedder.calls == 1  # asked once, then the pass went on by words
    assert summary.files_read == 5
    assert store.status_counts("lib")[SourceStatus.INDEXED] == 5
    assert _scalar(engine, "SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH 'tomatoes'") > 0
    assert _vectors(engine, MODEL.key) == 0
    final = events[-1]
    assert final.state is LibraryState.IDLE
    assert "connection refused" in final.error and "words only" in final.error
    assert (final.done, final.total) == (7, 7)
    assert_consistent(engine)

    embedder.recover()
    summary, events = index(store, _library(folder), embedder)
    assert summary.files_read == 0
    assert _vectors(engine, MODEL.key) == _scalar(engine, "SELECT COUNT(*) FROM chunks")
    assert events[-1].error == ""
    assert (events[-1].done, events[-1].total) == (5, 5)


def test_many_files_share_batches_and_a_paragraph_is_embedded_once(store, engine, tmp_path):
    folder = write_many(tmp_path / "many", 40)
    (folder / "copy.md").write_text((folder / "file0001.md").read_text(), encoding="utf-8")
    embedder = HashingEmbedder()
    index(store, _library(folder), embedder)
    chunks = _scalar(engine, "SELECT COUNT(*) FROM chunks")
    distinct = _scalar(engine, "SELECT COUNT(DISTINCT text_sha256) FROM chunks")
    assert chunks > distinct
    assert len(embedder.texts) == distinct
    assert embedder.calls == -(-distinct // EMBED_BATCH)  # full batches across files
    assert _vectors(engine, MODEL.key) == chunks


def test_batches_are_embedded_a_few_at_once_while_files_are_read(store, engine, tmp_path):
    # A remote model's round trips overlap: four calls out at once, never more, and a
    # paragraph in two batches out at the same time is embedded once.
    folder = write_many(tmp_path / "many", 120)
    (folder / "file0030-copy.md").write_text((folder / "file0001.md").read_text())
    embedder = HashingEmbedder()

    async def run() -> PassSummary:
        embedder.hold()
        task = asyncio.ensure_future(
            IndexPass(store, _library(folder), embedder, lambda _p: None).run()
        )
        await wait_for(lambda: embedder.waiting == EMBED_IN_FLIGHT)
        read_while_waiting = store.status_counts("lib").get(SourceStatus.INDEXED, 0)
        embedder.release()
        summary = await task
        assert read_while_waiting > EMBED_BATCH // 3  # files were read past the first batch
        return summary

    summary = run_within(run())
    assert embedder.most_waiting == EMBED_IN_FLIGHT
    assert len(embedder.texts) == len(set(embedder.texts))
    distinct = _scalar(engine, "SELECT COUNT(DISTINCT text_sha256) FROM chunks")
    assert len(embedder.texts) == distinct == summary.texts_embedded
    assert _vectors(engine, MODEL.key) == _scalar(engine, "SELECT COUNT(*) FROM chunks")
    assert store.status_counts("lib") == {SourceStatus.INDEXED: 121}
    assert_consistent(engine)


def test_cancelling_while_embedding_leaves_a_consistent_index(store, engine, tmp_path):
    folder = write_many(tmp_path / "many", 60)
    embedder = HashingEmbedder()
    events: list[IndexProgress] = []

    async def run() -> None:
        embedder.hold()
        task = asyncio.ensure_future(
            IndexPass(store, _library(folder), embedder, events.append).run()
        )
        await wait_for(lambda: embedder.waiting >= 1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        embedder.release()

    run_within(run())
    assert events[-1].state is LibraryState.CANCELLED
    assert_consistent(engine)
    assert 0 < store.status_counts("lib").get(SourceStatus.INDEXED, 0) < 60
    assert _vectors(engine, MODEL.key) == 0

    index(store, _library(folder), HashingEmbedder())
    assert store.status_counts("lib") == {SourceStatus.INDEXED: 60}
    assert _vectors(engine, MODEL.key) == _scalar(engine, "SELECT COUNT(*) FROM chunks")
    assert_consistent(engine)


@pytest.mark.slow
@pytest.mark.skipif(os.name == "nt", reason="SIGKILL is POSIX")
def test_a_pass_killed_part_way_resumes_without_duplicates(store, engine, tmp_path):
    folder = write_many(tmp_path / "many", 300)
    marker = tmp_path / "part-way"
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.support.knowledge_child",
            str(tmp_path / "data"),
            str(folder),
            str(marker),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: marker.exists() or child.poll() is not None, "the child part-way")
        assert child.poll() is None, "the child ended before it could be killed"
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=CEILING_S)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()

    # What the killed pass left is whole, and part of the work.
    assert_consistent(engine)
    counts = store.status_counts("lib")
    assert counts.get(SourceStatus.INDEXED, 0) < 300
    vectors_left = _vectors(engine, MODEL.key)
    assert vectors_left > 0

    embedder = HashingEmbedder()
    summary, events = index(store, _library(folder), embedder)
    assert store.status_counts("lib") == {SourceStatus.INDEXED: 300}
    assert_consistent(engine)
    for path in ("file0000.md", "file0150.md", "file0299.md"):
        expected = split_into_chunks((folder / path).read_text(encoding="utf-8"), Layout.MARKDOWN)
        assert [c[4] for c in _chunks(engine, path)] == [c.text_sha256 for c in expected]
    chunks = _scalar(engine, "SELECT COUNT(*) FROM chunks")
    assert _vectors(engine, MODEL.key) == chunks
    assert _scalar(engine, "SELECT COUNT(*) FROM vectors") == chunks
    assert len(embedder.texts) <= chunks - vectors_left  # nothing embedded twice
    assert summary.files_read == 300 - counts.get(SourceStatus.INDEXED, 0)
    assert events[-1].error == ""


def test_a_long_book_is_indexed_whole_and_one_past_the_limit_says_what_was_left_out(
    store, engine, tmp_path
):
    folder = tmp_path / "books"
    folder.mkdir()
    paragraph = "The ship sailed north along the coast for many days. " * 8 + "\n\n"
    # 600,000 characters: three times what an attachment may carry, still read whole.
    (folder / "book.txt").write_text(paragraph * (600_000 // len(paragraph)) + "Zanzibar.\n")
    over = paragraph * (MAX_LIBRARY_DOCUMENT_CHARS // len(paragraph) + 10)
    (folder / "tome.txt").write_text(over + "Kilimanjaro.\n")
    library = _library(folder, embedding=None)
    _, events = index(store, library, None)

    def found(word: str) -> bool:
        with engine.connect() as conn:
            return bool(word_search(conn, ["lib"], word))

    assert found("Zanzibar") and not found("Kilimanjaro")
    assert store.status_counts("lib") == {SourceStatus.INDEXED: 2}
    [partial] = events[-1].partial
    assert partial.path == "tome.txt"
    assert partial.reason == (
        f"only its first {MAX_LIBRARY_DOCUMENT_CHARS:,} characters are indexed: "
        "the rest is past the limit"
    )
    assert store.partial("lib") == [("tome.txt", partial.reason)]
    # Touched only: the note stays. Cut below the limit: it goes.
    info = (folder / "tome.txt").stat()
    os.utime(folder / "tome.txt", ns=(info.st_atime_ns, info.st_mtime_ns + 5_000_000_000))
    _, events = index(store, library, None)
    assert [p.path for p in events[-1].partial] == ["tome.txt"]
    (folder / "tome.txt").write_text(paragraph + "Kilimanjaro.\n")
    _, events = index(store, library, None)
    assert events[-1].partial == () and store.partial("lib") == []
    assert found("Kilimanjaro")
