"""Tombstones: recorded with every deletion a person makes, in the same transaction."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from desktop.storage import tombstones
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.tombstones import Kind
from tests.storage.restore_support import say


def _deleted(db: Database, kind: Kind) -> set[str]:
    with db.read() as conn:
        return tombstones.deleted_ids(conn, kind)


def test_record_keeps_each_id_once_with_its_first_deletion_time(db: Database) -> None:
    with db.write() as conn:
        tombstones.record(conn, Kind.MESSAGE, ["a", "b", "a"], 100)
        tombstones.record(conn, "message", ["b", "c"], 200)
        tombstones.record(conn, Kind.CONVERSATION, ["a"], 300)
    with db.read() as conn:
        times = dict(
            conn.exec_driver_sql(
                "SELECT id, deleted_at FROM tombstones WHERE kind = 'message'"
            ).all()
        )
    assert times == {"a": 100, "b": 100, "c": 200}
    assert _deleted(db, Kind.MESSAGE) == {"a", "b", "c"}
    assert _deleted(db, Kind.CONVERSATION) == {"a"}


def test_many_ids_at_once_stay_under_the_parameter_limit(db: Database) -> None:
    ids = [f"m{i:05d}" for i in range(12_000)]  # 36,000 values: over any limit at once
    with db.write() as conn:
        tombstones.record(conn, Kind.MESSAGE, ids, 1)
    assert _deleted(db, Kind.MESSAGE) == set(ids)


def test_an_unknown_kind_is_refused(db: Database) -> None:
    with pytest.raises(ValueError), db.write() as conn:
        tombstones.record(conn, "assistant", ["x"], 1)


def test_deleting_a_conversation_remembers_it_and_every_message_it_had(
    db: Database, repo: ChatRepository
) -> None:
    gone = repo.create_conversation("Gone")
    question = say(repo, gone.id, None, "Where?")
    answers = [say(repo, gone.id, question.id, text) for text in ("Here", "There")]
    kept = repo.create_conversation("Kept")
    other = say(repo, kept.id, None, "Still here?")

    repo.delete_conversation(gone.id)

    assert _deleted(db, Kind.CONVERSATION) == {gone.id}
    assert _deleted(db, Kind.MESSAGE) == {question.id, *(a.id for a in answers)}
    assert other.id not in _deleted(db, Kind.MESSAGE)
    repo.delete_conversation(gone.id)  # idempotent, and nothing more to remember
    assert _deleted(db, Kind.CONVERSATION) == {gone.id}


def test_a_conversation_parley_made_for_itself_leaves_no_tombstone(
    db: Database, repo: ChatRepository
) -> None:
    probe = repo.create_conversation("smoke test")
    say(repo, probe.id, None, "ping?")
    repo.delete_conversation(probe.id, remember=False)
    assert repo.get_conversation(probe.id) is None
    assert _deleted(db, Kind.CONVERSATION) == _deleted(db, Kind.MESSAGE) == set()


def test_deleting_a_message_remembers_exactly_its_subtree(
    db: Database, repo: ChatRepository
) -> None:
    chat = repo.create_conversation("Versions")
    question = say(repo, chat.id, None, "Which?")
    first = say(repo, chat.id, question.id, "This one")
    follow = say(repo, chat.id, first.id, "Why?")
    reply = say(repo, chat.id, follow.id, "Because")
    second = say(repo, chat.id, question.id, "That one")

    repo.delete_message(first.id)

    assert _deleted(db, Kind.MESSAGE) == {first.id, follow.id, reply.id}
    assert {m.id for m in repo.messages(chat.id)} == {question.id, second.id}
    assert _deleted(db, Kind.CONVERSATION) == set()


def test_a_deletion_that_fails_leaves_no_tombstone(db: Database, repo: ChatRepository) -> None:
    chat = repo.create_conversation("Guarded")
    message = say(repo, chat.id, None, "Keep me?")
    with db.write() as conn:
        conn.exec_driver_sql(
            "CREATE TRIGGER guard BEFORE DELETE ON conversations"
            " BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )

    with pytest.raises(IntegrityError):
        repo.delete_conversation(chat.id)

    assert repo.get_conversation(chat.id) is not None
    assert [m.id for m in repo.messages(chat.id)] == [message.id]
    assert _deleted(db, Kind.CONVERSATION) == _deleted(db, Kind.MESSAGE) == set()
