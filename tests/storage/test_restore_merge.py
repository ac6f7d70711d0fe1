"""Restoring a backup merges: nothing newer here is lost, nothing deleted here returns."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

from desktop.core.models import Message, MessageStatus, Role, RollingSummary, TextPart, new_id
from desktop.storage import tombstones
from desktop.storage.database import Database
from desktop.storage.errors import StorageError
from desktop.storage.mapping import to_epoch_ms
from desktop.storage.memories import MemoryRepository
from desktop.storage.repository import ChatRepository
from desktop.storage.restore_merge import (
    MergeOutcome,
    RestoreConflictError,
    merge_backup,
    prepare_backup_database,
)
from desktop.storage.search import search, search_index_is_consistent
from tests.storage.restore_support import dump, memory_words_are_consistent, say, snapshot
from tests.support.step_clock import StepClock

NOW_MS = 1_900_000_000_000


@dataclass
class Device:
    """One Parley's data: its database, and repositories on its own clock."""

    db: Database
    clock: StepClock
    chats: ChatRepository
    memories: MemoryRepository


def _device(path: Path, clock: StepClock) -> Device:
    db = Database.open(path)
    return Device(db, clock, ChatRepository(db, clock=clock), MemoryRepository(db, clock=clock))


@pytest.fixture
def here(tmp_path: Path) -> Iterator[Device]:
    (tmp_path / "here").mkdir()
    device = _device(tmp_path / "here" / "parley.db", StepClock())
    try:
        yield device
    finally:
        device.db.close()


@pytest.fixture
def fork(here: Device, tmp_path: Path) -> Iterator[Device]:
    """Another device that started as a copy of `here` (empty when the fixture runs)
    and works an hour later. For a copy of data a test writes first: `_fork_of`."""
    (tmp_path / "there").mkdir()
    path = snapshot(here.db, tmp_path / "there" / "parley.db")
    clock = StepClock()
    clock.now = here.clock.now + timedelta(hours=1)
    device = _device(path, clock)
    try:
        yield device
    finally:
        device.db.close()


def _backup_of(device: Device, tmp_path: Path) -> Path:
    """Its database as a backup holds it, extracted and prepared for restoring."""
    folder = tmp_path / f"backup-{new_id()[:8]}"
    folder.mkdir()
    path = snapshot(device.db, folder / "parley.db")
    prepare_backup_database(path)
    return path


def _deleted(db: Database, kind: tombstones.Kind) -> set[str]:
    with db.read() as conn:
        return tombstones.deleted_ids(conn, kind)


def _consistent(db: Database) -> None:
    assert search_index_is_consistent(db)
    assert memory_words_are_consistent(db)


# --- an older backup --------------------------------------------------------------


def test_an_old_backup_loses_nothing_newer_and_brings_back_nothing_deleted(
    here: Device, tmp_path: Path
) -> None:
    chats, memories = here.chats, here.memories
    trip = chats.create_conversation("Trip")
    question = say(chats, trip.id, None, "Where to eat?")
    answer = say(chats, trip.id, question.id, "In the Alfama")
    weekend = chats.create_conversation("Weekend")
    plans = say(chats, weekend.id, None, "Plans?")
    hike = say(chats, weekend.id, plans.id, "A hike")
    trail = say(chats, weekend.id, hike.id, "Which trail?")
    museum = say(chats, weekend.id, plans.id, "A museum")
    draft = chats.create_conversation("Draft")
    say(chats, draft.id, None, "zanzibar?")
    tea = memories.add("global", "Likes tea")
    coffee = memories.add("global", "Dislikes coffee")
    porto = memories.add("global", "Lives in Porto")
    backup = _backup_of(here, tmp_path)

    # What happened here after the backup was made.
    dessert = say(chats, trip.id, answer.id, "And for dessert?")
    chats.rename_conversation(trip.id, "Lisbon trip")
    chats.set_pinned(weekend.id, True)
    trains = memories.add("global", "Prefers trains")
    chats.delete_conversation(draft.id)
    chats.delete_message(hike.id)
    memories.delete(coffee.id)
    memories.update_text(porto.id, "Lives in Lisbon")
    before = dump(here.db.path)

    outcome = merge_backup(here.db, backup, now_ms=NOW_MS)

    assert outcome == MergeOutcome(messages_skipped_deleted=3)  # the draft's, hike, trail
    assert dump(here.db.path) == before  # nothing at all changed
    assert chats.get_conversation(draft.id) is None
    assert [m.id for m in chats.active_path(trip.id)][-1] == dessert.id
    assert chats.get_conversation(trip.id).title == "Lisbon trip"
    assert chats.get_conversation(weekend.id).pinned
    assert {m.id for m in chats.messages(weekend.id)} == {plans.id, museum.id}
    assert trail.id in _deleted(here.db, tombstones.Kind.MESSAGE)
    assert [m.text for m in memories.list()] == ["Lives in Lisbon", "Prefers trains", "Likes tea"]
    assert memories.get(coffee.id).deleted and {tea.id, trains.id} <= {
        m.id for m in memories.list()
    }
    assert search(here.db, "zanzibar") == []
    _consistent(here.db)


# --- a newer backup, from another device ------------------------------------------


def test_a_newer_backup_adds_its_replies_and_takes_its_newer_fields(
    here: Device, tmp_path: Path
) -> None:
    trip = here.chats.create_conversation("Trip")
    question = say(here.chats, trip.id, None, "Where to eat?")
    answer = say(here.chats, trip.id, question.id, "In the Alfama")
    other = say(here.chats, trip.id, question.id, "In Belém")
    here.chats.set_workspace(trip.id, "/here/project")
    tea = here.memories.add("global", "Likes tea")
    with _fork_of(here, tmp_path) as fork:  # a copy of all that, carrying on elsewhere
        dessert = say(fork.chats, trip.id, answer.id, "And for dessert?")
        nata = say(fork.chats, trip.id, dessert.id, "Pastéis de nata")
        fork.chats.rename_conversation(trip.id, "Lisbon in May")
        fork.chats.set_workspace(trip.id, "/there/elsewhere")
        fork.chats.set_summary(trip.id, RollingSummary("Their summary", (question.id,)))
        fork.chats.delete_message(other.id)  # deleted there: a restore never deletes here
        scratch = fork.chats.create_conversation("Scratch")
        scratch_message = say(fork.chats, scratch.id, None, "Just trying?")
        fork.chats.delete_conversation(scratch.id)
        fork.memories.update_text(tea.id, "Likes green tea")
        walks = fork.memories.add("global", "Walks to work")
        backup = _backup_of(fork, tmp_path)

    outcome = merge_backup(here.db, backup, now_ms=NOW_MS)

    assert outcome == MergeOutcome(
        conversations_updated=1, messages_added=2, memories_added=1, memories_updated=1
    )
    stored = here.chats.get_conversation(trip.id)
    assert (stored.title, stored.workspace, stored.summary) == (
        "Lisbon in May",
        "/here/project",
        None,
    )
    assert [m.id for m in here.chats.active_path(trip.id)] == [
        question.id,
        answer.id,
        dessert.id,
        nata.id,
    ]
    assert here.chats.get_message(other.id) is not None
    assert [h.message_id for h in search(here.db, "nata")] == [nata.id]
    assert [h.conversation_id for h in search(here.db, "May")] == [trip.id]
    assert here.memories.get(tea.id).text == "Likes green tea"
    assert here.memories.search_words(["global"], "green", 5) == [tea.id]
    assert here.memories.get(walks.id) is not None
    # What was deleted there, and never existed here, stays away from later restores.
    assert scratch.id in _deleted(here.db, tombstones.Kind.CONVERSATION)
    assert scratch_message.id in _deleted(here.db, tombstones.Kind.MESSAGE)
    assert other.id not in _deleted(here.db, tombstones.Kind.MESSAGE)
    _consistent(here.db)

    after = dump(here.db.path)
    assert merge_backup(here.db, backup, now_ms=NOW_MS) == MergeOutcome()
    assert dump(here.db.path) == after


def test_a_new_conversation_arrives_whole_with_its_active_branch(
    here: Device, fork: Device, tmp_path: Path
) -> None:
    plan = fork.chats.create_conversation("Plan")
    first = say(fork.chats, plan.id, None, "Monday?")
    reply = say(fork.chats, plan.id, first.id, "Gym")
    again = say(fork.chats, plan.id, first.id, "Rest")
    fork.chats.set_active_leaf(plan.id, reply.id)
    fork.chats.set_pinned_messages(plan.id, [first.id])
    fork.chats.set_workspace(plan.id, "/there/plans")

    outcome = merge_backup(here.db, _backup_of(fork, tmp_path), now_ms=NOW_MS)

    assert outcome == MergeOutcome(conversations_added=1, messages_added=3)
    stored = here.chats.get_conversation(plan.id)
    assert stored == fork.chats.get_conversation(plan.id)  # new here: nothing to keep
    assert [m.id for m in here.chats.active_path(plan.id)] == [first.id, reply.id]
    assert [m.id for m in here.chats.siblings(reply.id)] == [reply.id, again.id]
    assert [s.id for s in here.chats.list_conversation_summaries()] == [plan.id]
    _consistent(here.db)


# --- deleted here, continued there ------------------------------------------------


@pytest.mark.parametrize("deleted", ["middle", "root"])
def test_a_reply_to_a_message_deleted_here_hangs_from_its_nearest_surviving_ancestor(
    deleted: str, here: Device, tmp_path: Path
) -> None:
    chat = here.chats.create_conversation("Thread")
    root = say(here.chats, chat.id, None, "Start?")
    middle = say(here.chats, chat.id, root.id, "Middle")
    follow = say(here.chats, chat.id, middle.id, "More?")
    with _fork_of(here, tmp_path) as fork:
        late = say(fork.chats, chat.id, follow.id, "A late reply")
        backup = _backup_of(fork, tmp_path)
    here.chats.delete_message(middle.id if deleted == "middle" else root.id)

    outcome = merge_backup(here.db, backup, now_ms=NOW_MS)

    skipped = 2 if deleted == "middle" else 3
    assert outcome.messages_added == 1 and outcome.messages_skipped_deleted == skipped
    stored = here.chats.get_message(late.id)
    assert stored.parent_id == (root.id if deleted == "middle" else None)
    assert here.chats.get_message(middle.id) is None and here.chats.get_message(follow.id) is None
    assert [m.id for m in here.chats.active_path(chat.id)][-1] == late.id
    _consistent(here.db)


def test_messages_of_a_conversation_deleted_here_stay_deleted(here: Device, tmp_path: Path) -> None:
    chat = here.chats.create_conversation("Gone")
    first = say(here.chats, chat.id, None, "Hello?")
    with _fork_of(here, tmp_path) as fork:
        say(fork.chats, chat.id, first.id, "Written there later")
        backup = _backup_of(fork, tmp_path)
    here.chats.delete_conversation(chat.id)

    outcome = merge_backup(here.db, backup, now_ms=NOW_MS)

    assert outcome == MergeOutcome(messages_skipped_deleted=2)
    assert here.chats.get_conversation(chat.id) is None
    assert search(here.db, "Written") == []


@pytest.mark.parametrize("status", [MessageStatus.STREAMING, MessageStatus.AWAITING_APPROVAL])
def test_an_answer_caught_unfinished_arrives_interrupted_and_searchable(
    here: Device, fork: Device, tmp_path: Path, status: MessageStatus
) -> None:
    chat = fork.chats.create_conversation("Live")
    question = say(fork.chats, chat.id, None, "Tell me?")
    streaming = Message(new_id(), chat.id, question.id, Role.ASSISTANT, [TextPart("")])
    streaming.status = status
    fork.chats.add_message(streaming)
    streaming.parts = [TextPart("Half an answer about quokkas")]
    fork.chats.save_message(streaming)  # streaming: not indexed yet

    merge_backup(here.db, _backup_of(fork, tmp_path), now_ms=NOW_MS)

    stored = here.chats.get_message(streaming.id)
    assert stored.status is MessageStatus.INTERRUPTED
    assert to_epoch_ms(stored.finished_at) == NOW_MS
    assert [h.message_id for h in search(here.db, "quokkas")] == [streaming.id]
    assert here.chats.awaiting_approval() == []  # nothing from there asks to run here
    _consistent(here.db)


# --- memories: last writer wins, deletions included -------------------------------


def test_a_memory_takes_the_newer_side_and_a_newer_deletion_on_either_side_wins(
    here: Device, tmp_path: Path
) -> None:
    ids = {text: here.memories.add("global", text).id for text in ("a1", "b1", "c1", "d1")}
    with _fork_of(here, tmp_path) as fork:  # an hour later, a, b and c change there
        fork.memories.update_text(ids["a1"], "a2 written there")
        fork.memories.delete(ids["b1"])
        fork.memories.update_text(ids["c1"], "c2 written there")
        backup = _backup_of(fork, tmp_path)
        # Here, later still: c is deleted after its edit there; d is edited.
        here.clock.now = fork.clock.now + timedelta(hours=1)
    here.memories.delete(ids["c1"])
    here.memories.update_text(ids["d1"], "d2 written here")

    outcome = merge_backup(here.db, backup, now_ms=NOW_MS)

    assert (outcome.memories_added, outcome.memories_updated) == (0, 2)
    memories = here.memories
    assert memories.get(ids["a1"]).text == "a2 written there"
    assert memories.get(ids["b1"]).deleted  # deleted there, later than anything here
    assert memories.get(ids["c1"]).deleted  # deleted here, after the edit there
    assert memories.get(ids["d1"]).text == "d2 written here"
    assert memories.search_words(["global"], "a2", 5) == [ids["a1"]]
    assert memories.search_words(["global"], "a1", 5) == []
    _consistent(here.db)


# --- failures change nothing -------------------------------------------------------


def test_a_message_id_owned_by_another_conversation_here_refuses_the_whole_restore(
    here: Device, tmp_path: Path
) -> None:
    mine = here.chats.create_conversation("Mine")
    message = say(here.chats, mine.id, None, "Whose?")
    elsewhere = _device(tmp_path / "elsewhere.db", StepClock())
    try:
        theirs = elsewhere.chats.create_conversation("Theirs")  # would be added first
        clash = Message(message.id, theirs.id, None, Role.USER, [TextPart("Mine now")])
        elsewhere.chats.add_message(clash)
        elsewhere.memories.add("global", "Would be added too")
        backup = _backup_of(elsewhere, tmp_path)
    finally:
        elsewhere.db.close()
    before = dump(here.db.path)

    with pytest.raises(RestoreConflictError, match=f"{message.id}.*Nothing was restored"):
        merge_backup(here.db, backup, now_ms=NOW_MS)

    assert dump(here.db.path) == before
    assert here.chats.get_conversation(theirs.id) is None


def test_a_failure_late_in_the_merge_rolls_all_of_it_back(
    here: Device, fork: Device, tmp_path: Path
) -> None:
    chat = fork.chats.create_conversation("New there")
    say(fork.chats, chat.id, None, "Hello?")
    fork.memories.add("global", "Written there")
    backup = _backup_of(fork, tmp_path)
    with here.db.write() as conn:  # memories are merged after chats and attachments
        conn.exec_driver_sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON memories"
            " BEGIN SELECT RAISE(ABORT, 'the disk went away'); END"
        )
    before = dump(here.db.path)

    with pytest.raises(StorageError, match=r"the disk went away.*nothing was changed"):
        merge_backup(here.db, backup, now_ms=NOW_MS)

    assert dump(here.db.path) == before
    assert here.chats.get_conversation(chat.id) is None
    # The connection is left clean: once the cause is gone, the same restore works.
    with here.db.write() as conn:
        conn.exec_driver_sql("DROP TRIGGER refuse")
    assert merge_backup(here.db, backup, now_ms=NOW_MS).conversations_added == 1
    _consistent(here.db)


def test_a_backup_not_prepared_for_this_version_is_refused(here: Device, tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    shutil.copyfile(Path(__file__).parents[1] / "fixtures" / "schemas" / "v6" / "parley.db", old)
    before = dump(here.db.path)
    with pytest.raises(StorageError, match="must be prepared"):
        merge_backup(here.db, old, now_ms=NOW_MS)
    with pytest.raises(StorageError, match="missing"):
        merge_backup(here.db, tmp_path / "absent.db", now_ms=NOW_MS)
    assert not (tmp_path / "absent.db").exists()
    assert dump(here.db.path) == before


# --- helpers -----------------------------------------------------------------------


class _fork_of:  # a context manager that reads like a phrase
    """A copy of `here` as it is now, on a clock an hour later; closed at the end."""

    def __init__(self, here: Device, tmp_path: Path) -> None:
        folder = tmp_path / f"fork-{new_id()[:8]}"
        folder.mkdir()
        clock = StepClock()
        clock.now = here.clock.now + timedelta(hours=1)
        self.device = _device(snapshot(here.db, folder / "parley.db"), clock)

    def __enter__(self) -> Device:
        return self.device

    def __exit__(self, *_exc: object) -> None:
        self.device.db.close()
