"""Databases written by every released schema version, upgraded by today's code.

The fixtures in tests/fixtures/schemas/ were each written by the commit that shipped
that version (how: README.md there). Upgrading a copy must keep every conversation,
message and attachment as it was, keep old text searchable, accept new writes, and end
with exactly the schema a new database gets.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop.core.models import ContextSnapshot, Message, Role, TextPart, new_id
from desktop.storage import migrations
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.mapping import from_epoch_ms, message_to_row
from desktop.storage.migrations import MIGRATIONS, SCHEMA_VERSION, migrate
from desktop.storage.repository import ChatRepository
from desktop.storage.search import search, search_index_is_consistent
from desktop.storage.sqlite_engine import create_sqlite_engine
from tests.support.paths import SCHEMAS

NAMES = sorted(p.name for p in SCHEMAS.iterdir() if (p / "parley.db").is_file())
WITH_ATTACHMENTS = [n for n in NAMES if (SCHEMAS / n / "attachments").is_dir()]  # v4 on
# The two flavours of a database that reached version 4 before step 4 gained the column.
WITHOUT_WORKSPACE_FILE = {"v4-without-workspace-file", "v5-without-workspace-file"}
TABLES = ("conversations", "messages", "attachments", "memories")
# Step 8 adds the tombstones table to every database, so every fixture is changed by
# today's upgrade. Up to version 6, the version-5 databases with the column were not:
# step 6 had nothing to do in them.
UNCHANGED_BY_UPGRADE: set[str] = set()
CHANGED_BY_UPGRADE = set(NAMES) - UNCHANGED_BY_UPGRADE
UNCHANGED_BY_STEP_6 = {"v5", "v5-latest"}
BEFORE_STEP_6 = [n for n in NAMES if int(n[1:].split("-")[0]) < 6]  # folders are "v<N>..."


def test_there_is_a_fixture_for_every_released_version() -> None:
    versions = {_user_version(SCHEMAS / name / "parley.db") for name in NAMES}
    assert versions == set(range(1, SCHEMA_VERSION)), "add a fixture for the newest release"
    assert set(NAMES) >= WITHOUT_WORKSPACE_FILE


@pytest.fixture(params=NAMES)
def old(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A copy of one fixture's data folder (the originals are never opened for writing)."""
    copy = tmp_path / request.param
    shutil.copytree(SCHEMAS / request.param, copy)
    return copy


@pytest.fixture
def upgraded(old: Path) -> Iterator[tuple[Database, dict[str, list[dict[str, Any]]]]]:
    """The copy opened (upgraded) by today's code, and its rows as they were before."""
    before = _rows(old / "parley.db")
    db = Database.open(old / "parley.db")
    try:
        yield db, before
    finally:
        db.close()


# --- nothing lost -----------------------------------------------------------------------


def test_every_row_survives_the_upgrade_unchanged(old: Path, upgraded) -> None:
    _db, before = upgraded
    after = _rows(old / "parley.db")
    assert before["conversations"] and before["messages"]
    for table in TABLES:
        assert [r["id"] for r in after[table]] == [r["id"] for r in before[table]], table
        for was, now in zip(before[table], after[table], strict=True):
            assert {k: now[k] for k in was} == was, (table, was["id"])
    if old.name in WITHOUT_WORKSPACE_FILE:
        assert all(r["workspace_file"] is None for r in after["conversations"])


def test_every_message_reads_back_as_it_was_stored(upgraded) -> None:
    db, before = upgraded
    repo = ChatRepository(db)
    for conversation in before["conversations"]:
        stored = repo.get_conversation(conversation["id"])
        assert stored is not None and stored.title == conversation["title"]
        rows = {
            r["id"]: r for r in before["messages"] if r["conversation_id"] == conversation["id"]
        }
        messages = repo.messages(conversation["id"])
        assert sorted(m.id for m in messages) == sorted(rows)
        for message in messages:
            row = rows[message.id]
            # Decoding and encoding again gives the JSON the old version wrote (plus
            # empty fields it did not know yet).
            again = message_to_row(message)
            for column in ("parts", "context"):
                _assert_same_json(json.loads(again[column]), json.loads(row[column]))
            for column in ("role", "status", "model", "provider_id", "output_tokens"):
                assert again[column] == row[column], (message.id, column)
        path = repo.active_path(conversation["id"])
        assert path and path[-1].id == conversation["active_leaf_id"]


def test_versions_and_branches_survive(upgraded) -> None:
    db, before = upgraded
    repo = ChatRepository(db)
    trip = _conversation(before, "Trip to Lisbon")
    roots = [r for r in before["messages"] if r["conversation_id"] == trip and not r["parent_id"]]
    assert len(roots) == 2  # the question and its edited version
    question = next(r for r in roots if "Alfama" in r["parts"])
    answers = repo.siblings(
        next(r["id"] for r in before["messages"] if r["parent_id"] == question["id"])
    )
    assert sorted(m.text for m in answers) == [
        "Mouraria has great food too.",
        "Try the tascas by the Sé cathedral.",
    ]
    assert [m.text for m in repo.active_path(trip)] == [
        "Where should we eat near the Alfama?",
        "Mouraria has great food too.",
    ]


def test_old_text_is_found_by_search(upgraded) -> None:
    db, before = upgraded
    ids = {r["id"]: r for r in before["messages"]}

    def texts(query: str) -> list[str]:
        hits = [h for h in search(db, query) if h.message_id]
        return [_text(ids[h.message_id]) for h in hits]

    assert texts("Alfama") == ["Where should we eat near the Alfama?"]
    assert texts("Sé") == ["Try the tascas by the Sé cathedral."]  # the short-term index
    assert texts("世界") == ["你好世界, plan my weekend"]
    assert texts("zanzibar") == []  # its conversation was deleted
    titles = [h.conversation_id for h in search(db, "Lisbon") if h.message_id is None]
    assert titles == [_conversation(before, "Trip to Lisbon")]
    assert search_index_is_consistent(db)


@pytest.mark.parametrize("old", WITH_ATTACHMENTS, indirect=True)
def test_attachments_survive_with_their_files(old: Path, upgraded) -> None:
    db, before = upgraded
    assert before["attachments"]
    store = AttachmentStore(old / "attachments", db.engine)
    for row in before["attachments"]:
        attachment = store.get(row["id"])
        assert attachment is not None and attachment.name == row["name"]
        assert hashlib.sha256(store.read_bytes(attachment)).hexdigest() == row["sha256"]
    document = next(store.get(r["id"]) for r in before["attachments"] if r["kind"] == "document")
    assert document is not None and "Algarve" in (store.load_text(document) or "")
    sent = next(r for r in before["messages"] if "attached figures" in r["parts"])
    context = ChatRepository(db).get_message(sent["id"]).context
    assert set(context.attachment_ids) == {r["id"] for r in before["attachments"]}


# --- writing works ----------------------------------------------------------------------


def test_an_upgraded_database_takes_new_messages_with_a_workspace_file(upgraded) -> None:
    db, before = upgraded
    repo = ChatRepository(db)
    trip = _conversation(before, "Trip to Lisbon")
    assert repo.set_workspace_file(trip, "/home/someone/plan.md").workspace_file == (
        "/home/someone/plan.md"
    )
    leaf = repo.active_path(trip)[-1]
    context = ContextSnapshot(workspace_file="/home/someone/plan.md", context_captured=True)
    added = repo.add_message(
        Message(new_id(), trip, leaf.id, Role.USER, [TextPart("And a fado bar?")], context=context)
    )
    assert repo.get_message(added.id).context == context
    assert [m.id for m in repo.active_path(trip)][-2:] == [leaf.id, added.id]
    assert [h.message_id for h in search(db, "fado")] == [added.id]

    fresh = repo.create_conversation("After the upgrade")
    repo.set_workspace_file(fresh.id, "/home/someone/notes.md")
    repo.set_system_prompt(fresh.id, "Be brief.")
    again = repo.get_conversation(fresh.id)
    assert (again.workspace_file, again.system_prompt) == ("/home/someone/notes.md", "Be brief.")
    was = next(r["updated_at"] for r in before["conversations"] if r["id"] == trip)
    assert repo.get_conversation(trip).updated_at > from_epoch_ms(was)  # moves up the list
    assert search_index_is_consistent(db)


def test_the_upgrade_keeps_a_copy_of_the_old_file(old: Path, upgraded) -> None:
    _db, before = upgraded
    backups = sorted(old.glob("*.bak"))
    if old.name not in CHANGED_BY_UPGRADE:
        assert backups == []  # nothing in it changed: see the test below
        return
    assert [b.name for b in backups] == [f"parley.db.pre-v{SCHEMA_VERSION}.bak"]
    assert _user_version(backups[0]) == _user_version(SCHEMAS / old.name / "parley.db")
    assert _rows(backups[0]) == before


@pytest.mark.parametrize("name", NAMES)
def test_only_an_upgrade_that_changes_data_takes_a_copy_and_says_so(name: str, tmp_path) -> None:
    """An upgrade with something to change keeps a copy and says so before the window;
    one with nothing to change does neither (a nearly full disk may have no room for a
    copy)."""
    copy = tmp_path / name
    shutil.copytree(SCHEMAS / name, copy)
    notices: list[str] = []
    Database.open(copy / "parley.db", on_upgrade=lambda: notices.append("upgrading")).close()
    assert _user_version(copy / "parley.db") == SCHEMA_VERSION
    backups = [b.name for b in copy.glob("*.bak")]
    if name in CHANGED_BY_UPGRADE:
        assert (backups, notices) == ([f"parley.db.pre-v{SCHEMA_VERSION}.bak"], ["upgrading"])
    else:
        assert (backups, notices) == ([], [])


@pytest.mark.parametrize("name", BEFORE_STEP_6)
def test_step_6_copies_only_where_it_adds_the_column(name: str, tmp_path) -> None:
    """Step 6 adds a column only where one release left it out: every other version-5
    database just moves to version 6, with no copy and no "upgrading" notice."""
    copy = tmp_path / name
    shutil.copytree(SCHEMAS / name, copy)
    notices: list[str] = []
    engine = create_sqlite_engine(copy / "parley.db")
    try:
        migrate(engine, MIGRATIONS[:6], on_upgrade=lambda: notices.append("upgrading"))
    finally:
        engine.dispose()
    assert _user_version(copy / "parley.db") == 6
    backups = [b.name for b in copy.glob("*.bak")]
    if name in UNCHANGED_BY_STEP_6:
        assert (backups, notices) == ([], [])
    else:
        assert (backups, notices) == (["parley.db.pre-v6.bak"], ["upgrading"])


# --- the schema -------------------------------------------------------------------------


def test_the_upgraded_schema_is_the_schema_of_a_new_database(old: Path, upgraded, tmp_path: Path):
    Database.open(tmp_path / "new.db").close()
    assert _schema(old / "parley.db") == _schema(tmp_path / "new.db")
    assert _user_version(old / "parley.db") == SCHEMA_VERSION


@pytest.mark.parametrize("name", NAMES)
def test_todays_steps_build_the_schema_each_release_built(name: str, tmp_path: Path) -> None:
    """Replaying steps 1..N must give what the release at version N gave: a step edited
    after its release fails here (step 4's column is the one known case)."""
    shipped = _schema(SCHEMAS / name / "parley.db")
    version = _user_version(SCHEMAS / name / "parley.db")
    engine = create_sqlite_engine(tmp_path / "replay.db")
    try:
        migrate(engine, migrations=MIGRATIONS[:version])
    finally:
        engine.dispose()
    replayed = _schema(tmp_path / "replay.db")
    if name in WITHOUT_WORKSPACE_FILE:
        table = ("table", "conversations")
        columns, keys = replayed[table]
        replayed[table] = (frozenset(c for c in columns if c[0] != "workspace_file"), keys)
    assert shipped == replayed


# A released step is never edited: databases that already ran it never see the change
# (that is how step 4's `workspace_file` went missing, and why step 6 exists). These are
# SHA-256 sums of each step's source and the DDL it runs. If one no longer matches, undo
# the edit and make the change a new version. A new step adds its sum here when it ships.
RELEASED_STEPS = {
    1: "d1f129201d53188ec58fa5c0c752bbe7893d1598a93b31fca743eb5a47d8bf86",
    2: "cd2d57aa039564058ae72d8f7cc9ed35429376b8b8687115a5dc6766f17f6792",
    3: "418ed69a3128d702c3241a10ca3da844c8d9c4c4ca1f6d801c64b71913c6cba8",
    # As edited in f4ed131 (with workspace_file); databases from 4f097c1 lack it: step 6.
    4: "ab235e9871c6d43f4e6a58b937e404e244ff1d5a4d27940ffb3c9f6390dee815",
    5: "acd23c66556e934118eaef30b0b21abedd12f7f86e3c057c68c7cac83e8e70f8",
    6: "d2802b5745d9bf955a2c0c18ee423a872d9a6d86a68be8e952c00d8859b85aed",
    7: "e2cc77a4293ba6609670ff6d384d71e9299fb7c5860cf3275f66084d5f919a2b",
    8: "3c43899535296d52dbf458b3f43570729e7e0923b9443e14ad97c71cbc38611e",
}


def test_released_migration_steps_are_never_edited() -> None:
    assert set(RELEASED_STEPS) == set(range(1, SCHEMA_VERSION + 1)), (
        "record the checksum of the new step"
    )
    for version, step in enumerate(MIGRATIONS, start=1):
        assert _fingerprint(step) == RELEASED_STEPS[version], (
            f"migration step {version} was changed after its release: make a new version"
        )


# --- helpers ----------------------------------------------------------------------------


def _fingerprint(step: Any) -> str:
    """The step's source, and that of the module-level helpers and DDL it names."""
    digest = hashlib.sha256(inspect.getsource(step).encode())
    for name in sorted(step.__code__.co_names):
        value = getattr(migrations, name, None)
        if inspect.isfunction(value) and value.__module__ == migrations.__name__:
            digest.update(inspect.getsource(value).encode())
        elif isinstance(value, str | tuple):
            digest.update(repr(value).encode())
    return digest.hexdigest()


def _assert_same_json(new: Any, old: Any) -> None:
    """`new` holds everything `old` holds; keys only `new` has are empty."""
    if isinstance(old, dict):
        assert isinstance(new, dict)
        for key, value in old.items():
            _assert_same_json(new[key], value)
        assert not any(new[key] for key in new.keys() - old.keys()), new
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old)
        for a, b in zip(new, old, strict=True):
            _assert_same_json(a, b)
    else:
        assert new == old


def _text(row: dict[str, Any]) -> str:
    """A stored message's visible text, read from its JSON as written."""
    parts = json.loads(row["parts"])
    return "".join(p["text"] for p in parts if p.get("type") == "text")


def _user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def _rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        return {
            table: [dict(r) for r in conn.execute(f"SELECT * FROM {table} ORDER BY id")]
            if table in present
            else []
            for table in TABLES
        }
    finally:
        conn.close()


def _conversation(before: dict[str, list[dict[str, Any]]], title: str) -> str:
    return next(r["id"] for r in before["conversations"] if r["title"] == title)


def _schema(path: Path) -> dict[tuple[str, str], Any]:
    """Every object of the database, comparable across files.

    Tables by their columns (name, type, not null, default, primary key) and foreign
    keys, as a set: a column added later by ALTER TABLE sits at the end of its table,
    and nothing reads columns by position. Indexes by table, columns and uniqueness.
    Virtual (FTS5) tables, triggers and views by their SQL, whitespace collapsed (the
    same statement was written with other line breaks in some releases).
    """
    conn = sqlite3.connect(path)
    try:
        objects = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchall()
        schema: dict[tuple[str, str], Any] = {}
        for kind, name, table, sql in objects:
            if kind == "table" and not sql.upper().startswith("CREATE VIRTUAL"):
                columns = frozenset(
                    tuple(r[1:]) for r in conn.execute(f"PRAGMA table_info('{name}')")
                )
                keys = frozenset(
                    tuple(r[2:]) for r in conn.execute(f"PRAGMA foreign_key_list('{name}')")
                )
                schema[(kind, name)] = (columns, keys)
            elif kind == "index":
                info = conn.execute(f"PRAGMA index_info('{name}')").fetchall()
                unique = next(
                    r[2] for r in conn.execute(f"PRAGMA index_list('{table}')") if r[1] == name
                )
                schema[(kind, name)] = (table, tuple(r[2] for r in info), unique)
            else:
                schema[(kind, name)] = (table, " ".join(sql.split()))
        return schema
    finally:
        conn.close()
