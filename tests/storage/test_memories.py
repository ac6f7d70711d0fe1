"""The memories table (migration step 7): rows, tombstones, the word index, vectors."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from desktop.core.memory import (
    GLOBAL_SCOPE,
    InvalidMemory,
    MemoryDeleted,
    MemoryNotFound,
    scope_for,
)
from desktop.storage.database import Database
from desktop.storage.errors import MigrationError
from desktop.storage.memories import MemoryRepository
from desktop.storage.memory_vectors import (
    load_vectors,
    set_vector,
    vectors_fingerprint,
    without_vector,
)
from desktop.storage.migrations import MIGRATIONS, SCHEMA_VERSION, migrate
from desktop.storage.repository import ChatRepository
from desktop.storage.search import search, search_index_is_consistent
from desktop.storage.sqlite_engine import create_sqlite_engine
from tests.support.paths import SCHEMAS
from tests.support.step_clock import StepClock

WRITER = scope_for("writer")
NAMES = sorted(p.name for p in SCHEMAS.iterdir() if (p / "parley.db").is_file())
# The databases written before step 7, which gains them memories (folders are "v<N>...").
BEFORE_MEMORIES = [n for n in NAMES if int(n[1:].split("-")[0]) < 7]
MEMORY_OBJECTS = {
    ("table", "memories"),
    ("table", "memories_fts"),
    ("index", "ix_memories_scope"),
    ("index", "ix_memories_model"),
    ("trigger", "memories_fts_delete"),
}


@pytest.fixture
def memories(db: Database, clock: StepClock) -> MemoryRepository:
    return MemoryRepository(db, clock=clock)


def _objects(path: Path) -> set[tuple[str, str]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT type, name FROM sqlite_master").fetchall()
        return {(str(kind), str(name)) for kind, name in rows}
    finally:
        conn.close()


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


# --- the migration ------------------------------------------------------------------


@pytest.mark.parametrize("name", BEFORE_MEMORIES)
def test_every_earlier_database_upgrades_with_memories_that_work(name: str, tmp_path) -> None:
    copy = tmp_path / name
    shutil.copytree(SCHEMAS / name, copy)
    path = copy / "parley.db"
    assert not MEMORY_OBJECTS & _objects(path)

    with Database.open(path) as db:
        repo = MemoryRepository(db)
        assert repo.list() == []
        kept = repo.add(GLOBAL_SCOPE, "Prefers the aisle seat on long flights")
        assert repo.search_words([GLOBAL_SCOPE], "aisle", 6) == [kept.id]
        assert ChatRepository(db).list_conversations()  # the history is still there
        assert search(db, "Alfama")  # and still found
        assert search_index_is_consistent(db)

    assert _version(path) == SCHEMA_VERSION
    assert _objects(path) >= MEMORY_OBJECTS
    with Database.open(path) as db:  # a second opening changes nothing
        assert [m.id for m in MemoryRepository(db).list()] == [kept.id]
    assert [b.name for b in copy.glob("*.bak")] == [f"parley.db.pre-v{SCHEMA_VERSION}.bak"]


def test_a_failing_memories_step_rolls_back_and_keeps_the_history(db_path: Path) -> None:
    """A version-6 file that somehow holds a table of that name: step 7 fails, is
    undone as a whole, and the file stays a working version-6 database."""
    engine = create_sqlite_engine(db_path)
    try:
        migrate(engine, MIGRATIONS[:6])
        with engine.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE memories (note TEXT)")
            conn.exec_driver_sql(
                "INSERT INTO conversations (id, title, created_at, updated_at)"
                " VALUES ('c1', 'Kept', 1, 2)"
            )
    finally:
        engine.dispose()

    with pytest.raises(MigrationError, match="version 7 failed and was undone"):
        Database.open(db_path)

    assert _version(db_path) == 6
    assert not {("table", "memories_fts"), ("index", "ix_memories_scope")} & _objects(db_path)
    raw = sqlite3.connect(db_path)
    try:
        assert raw.execute("SELECT title FROM conversations").fetchall() == [("Kept",)]
    finally:
        raw.close()
    assert [b.name for b in db_path.parent.glob("*.bak")] == [
        f"parley.db.pre-v{SCHEMA_VERSION}.bak"
    ]


# --- rows and tombstones ------------------------------------------------------------


def test_a_memory_reads_back_as_it_was_saved(memories: MemoryRepository) -> None:
    saved = memories.add(
        WRITER, "  Writes in British English  ", source_conversation_id="c1", source_message_id="m1"
    )
    assert saved.text == "Writes in British English"
    assert (saved.scope, saved.source_conversation_id, saved.source_message_id) == (
        WRITER,
        "c1",
        "m1",
    )
    assert saved.created_at == saved.updated_at and saved.deleted_at is None
    assert saved.words_only  # no vector given
    assert memories.get(saved.id) == saved
    assert memories.get("nope") is None


@pytest.mark.parametrize("text", ["", "   \n "])
def test_an_empty_memory_is_refused(memories: MemoryRepository, text: str) -> None:
    with pytest.raises(InvalidMemory, match="needs some text"):
        memories.add(GLOBAL_SCOPE, text)


@pytest.mark.parametrize("scope", ["", "assistant:", "assistant:  ", "team"])
def test_an_unknown_scope_is_refused(memories: MemoryRepository, scope: str) -> None:
    with pytest.raises(InvalidMemory):
        memories.add(scope, "Likes tea")


def test_a_too_long_memory_is_refused_not_cut(memories: MemoryRepository) -> None:
    with pytest.raises(InvalidMemory, match="at most 2,000 characters"):
        memories.add(GLOBAL_SCOPE, "x" * 2001)
    assert memories.list() == []


def test_lists_are_newest_first_by_scope_and_filter(memories: MemoryRepository) -> None:
    tea = memories.add(GLOBAL_SCOPE, "Likes green TEA")
    draft = memories.add(WRITER, "Drafts go in the notes folder")
    coffee = memories.add(GLOBAL_SCOPE, "Drinks coffee after lunch")
    assert [m.id for m in memories.list()] == [coffee.id, draft.id, tea.id]
    assert [m.id for m in memories.list([GLOBAL_SCOPE])] == [coffee.id, tea.id]
    assert [m.id for m in memories.list([WRITER])] == [draft.id]
    assert [m.id for m in memories.list(None, "tea")] == [tea.id]
    edited = memories.update_text(tea.id, "Likes green tea, no sugar")
    assert [m.id for m in memories.list([GLOBAL_SCOPE])] == [edited.id, coffee.id]
    assert memories.count([GLOBAL_SCOPE, WRITER]) == 3


def test_newest_reads_only_what_a_block_of_that_size_holds(memories: MemoryRepository) -> None:
    saved = [
        memories.add(GLOBAL_SCOPE if i % 2 else WRITER, f"memory number {i:02d}") for i in range(10)
    ]
    newest = memories.newest([GLOBAL_SCOPE, WRITER], 40)  # each text is 16 characters
    assert [m.id for m in newest] == [m.id for m in reversed(saved)][:3]
    assert [m.id for m in memories.newest([WRITER], 10_000)] == [
        m.id for m in reversed(saved) if m.scope == WRITER
    ]


def test_an_edit_changes_the_text_and_drops_the_vector(memories: MemoryRepository, db) -> None:
    saved = memories.add(GLOBAL_SCOPE, "Lives in Porto", vector=[0.6, 0.8], model_key="k")
    assert not saved.words_only
    same = memories.update_text(saved.id, " Lives in Porto ")
    assert same == saved  # the same text: nothing changed, the vector stays
    moved = memories.update_text(saved.id, "Lives in Lisbon")
    assert moved.text == "Lives in Lisbon" and moved.updated_at > saved.updated_at
    assert moved.words_only and len(load_vectors(db, "k")) == 0
    assert memories.search_words([GLOBAL_SCOPE], "Porto", 6) == []
    assert memories.search_words([GLOBAL_SCOPE], "Lisbon", 6) == [saved.id]


def test_a_deleted_memory_is_gone_everywhere_but_its_tombstone(memories: MemoryRepository) -> None:
    saved = memories.add(GLOBAL_SCOPE, "Allergic to peanuts")
    tombstone = memories.delete(saved.id)
    assert tombstone.deleted_at is not None and tombstone.text == saved.text
    assert memories.list() == [] and memories.count([GLOBAL_SCOPE]) == 0
    assert memories.search_words([GLOBAL_SCOPE], "peanuts", 6) == []
    assert memories.get_many([saved.id]) == []
    assert memories.newest([GLOBAL_SCOPE], 4000) == []
    assert memories.get(saved.id) == tombstone  # still there, as a tombstone


def test_a_tombstone_is_never_brought_back_by_an_edit(memories: MemoryRepository) -> None:
    saved = memories.add(GLOBAL_SCOPE, "Works night shifts")
    tombstone = memories.delete(saved.id)
    with pytest.raises(MemoryDeleted, match="was deleted"):
        memories.update_text(saved.id, "Works day shifts")
    with pytest.raises(MemoryDeleted):
        memories.delete(saved.id)  # the first deletion's time stays
    assert memories.get(saved.id) == tombstone
    assert memories.search_words([GLOBAL_SCOPE], "day", 6) == []


def test_undo_restores_only_the_deletion_it_undoes(memories: MemoryRepository) -> None:
    saved = memories.add(GLOBAL_SCOPE, "Has a dog called Biscuit")
    first = memories.delete(saved.id)
    assert first.deleted_at is not None
    assert memories.undelete(saved.id, first.deleted_at) == saved
    assert memories.undelete(saved.id, first.deleted_at) is None  # done already
    second = memories.delete(saved.id)
    assert memories.undelete(saved.id, first.deleted_at) is None  # not this tombstone
    assert memories.get(saved.id) == second
    with pytest.raises(MemoryNotFound):
        memories.undelete("nope", first.deleted_at)


def test_unknown_memories_say_so(memories: MemoryRepository) -> None:
    with pytest.raises(MemoryNotFound, match="no longer exists"):
        memories.update_text("nope", "text")
    with pytest.raises(MemoryNotFound):
        memories.delete("nope")


def test_a_deletion_survives_a_restart(db_path: Path) -> None:
    with Database.open(db_path) as db:
        repo = MemoryRepository(db)
        kept = repo.add(GLOBAL_SCOPE, "Takes the 8:15 train")
        gone = repo.add(GLOBAL_SCOPE, "Takes the bus on Fridays")
        repo.delete(gone.id)
    with Database.open(db_path) as db:
        repo = MemoryRepository(db)
        assert [m.id for m in repo.list()] == [kept.id]
        assert repo.search_words([GLOBAL_SCOPE], "takes", 6) == [kept.id]
        tombstone = repo.get(gone.id)
        assert tombstone is not None and tombstone.deleted


# --- words --------------------------------------------------------------------------


def test_word_search_ranks_by_bm25_within_the_scopes(memories: MemoryRepository) -> None:
    both = memories.add(GLOBAL_SCOPE, "The garden has tomatoes and basil")
    one = memories.add(GLOBAL_SCOPE, "Grows basil on the balcony")
    other = memories.add(WRITER, "Tomatoes and basil for the sauce")
    assert memories.search_words([GLOBAL_SCOPE], "tomatoes basil", 6) == [both.id, one.id]
    assert memories.search_words([WRITER], "basil", 6) == [other.id]
    assert memories.search_words([GLOBAL_SCOPE, WRITER], "basil", 1) != []
    assert memories.search_words([], "basil", 6) == []
    assert memories.search_words([GLOBAL_SCOPE], "   ", 6) == []


def test_cjk_memories_are_found_by_two_characters(memories: MemoryRepository) -> None:
    hike = memories.add(GLOBAL_SCOPE, "我周末去爬山")
    memories.add(GLOBAL_SCOPE, "平时在家写代码")
    kana = memories.add(GLOBAL_SCOPE, "東京の天気が好き")
    assert memories.search_words([GLOBAL_SCOPE], "周末", 6) == [hike.id]
    assert memories.search_words([GLOBAL_SCOPE], "爬山", 6) == [hike.id]
    assert memories.search_words([GLOBAL_SCOPE], "天気", 6) == [kana.id]


@pytest.mark.parametrize("query", ['"', "tea*", "tea AND", "NEAR(tea", "-tea", "tea OR"])
def test_fts_syntax_in_a_query_is_text(memories: MemoryRepository, query: str) -> None:
    tea = memories.add(GLOBAL_SCOPE, "Likes tea")
    found = memories.search_words([GLOBAL_SCOPE], query, 6)
    assert found in ([], [tea.id])


def test_the_word_index_can_be_rebuilt(memories: MemoryRepository) -> None:
    tea = memories.add(GLOBAL_SCOPE, "Likes tea")
    memories.rebuild_index()
    assert memories.search_words([GLOBAL_SCOPE], "tea", 6) == [tea.id]


# --- vectors ------------------------------------------------------------------------


def test_vectors_are_kept_per_model_and_scope(memories: MemoryRepository, db) -> None:
    a = memories.add(GLOBAL_SCOPE, "a", vector=[1.0, 0.0], model_key="small")
    b = memories.add(WRITER, "b", vector=[0.0, 1.0], model_key="small")
    memories.add(GLOBAL_SCOPE, "c", vector=[1.0, 0.0, 0.0], model_key="large")
    words = memories.add(GLOBAL_SCOPE, "d")
    small = load_vectors(db, "small")
    assert small.ids == (a.id, b.id) and small.scopes == (GLOBAL_SCOPE, WRITER)
    assert small.matrix.dtype == np.float32 and small.matrix.tolist() == [[1, 0], [0, 1]]
    assert len(load_vectors(db, "nobody")) == 0
    assert load_vectors(db, "small", [WRITER]).ids == (b.id,)
    assert {m.id for m in without_vector(db, "small", 10)} == {words.id} | {
        m.id for m in memories.list() if m.text == "c"
    }


def test_a_vector_is_stored_only_for_the_text_it_was_made_from(
    memories: MemoryRepository, db
) -> None:
    saved = memories.add(GLOBAL_SCOPE, "Old text")
    memories.update_text(saved.id, "New text")  # edited while "Old text" was embedded
    assert not set_vector(db, saved.id, "Old text", [1.0, 0.0], "k")
    assert set_vector(db, saved.id, "New text", [1.0, 0.0], "k")
    embedded = memories.get(saved.id)
    assert embedded is not None and not embedded.words_only
    memories.delete(saved.id)
    assert not set_vector(db, saved.id, "New text", [0.0, 1.0], "k")


def test_the_fingerprint_follows_every_change_of_the_vectors(
    memories: MemoryRepository, db
) -> None:
    last = [vectors_fingerprint(db, "k")]

    def changed() -> bool:
        now = vectors_fingerprint(db, "k")
        fresh = now != last[-1]
        last.append(now)
        return fresh

    saved = memories.add(GLOBAL_SCOPE, "one", vector=[1.0, 0.0], model_key="k")
    assert changed()
    memories.add(GLOBAL_SCOPE, "two")  # no vector of that model: no change
    assert not changed()
    tombstone = memories.delete(saved.id)
    assert changed()
    assert tombstone.deleted_at is not None
    memories.undelete(saved.id, tombstone.deleted_at)
    assert changed()
    memories.update_text(saved.id, "one, edited")
    assert changed()
    set_vector(db, saved.id, "one, edited", [0.0, 1.0], "k")
    assert changed()
