"""The merge of change records into parley.db (`sync_apply.apply_records`) and the
finding of local changes (`sync_collect.collect`), with hand-written records and no
network: records arriving out of order wait and then apply, duplicates change nothing,
last-writer-wins ties go to the higher device id, a deletion removes exactly the ids it
names and re-attaches a reply it did not name to the nearest surviving ancestor; what
is collected carries only the file name of a workspace file, and nothing of a message
still streaming."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from desktop.core import hlc
from desktop.core.models import ContextSnapshot, Message, MessageStatus, Role, TextPart
from desktop.storage import mapping
from desktop.storage import sync_records as rec
from desktop.storage.database import Database
from desktop.storage.memories import MemoryRepository
from desktop.storage.repository import ChatRepository
from desktop.storage.sync_apply import apply_records
from desktop.storage.sync_collect import collect, mark_sent
from desktop.storage.sync_state import SyncState

T0 = 1_780_000_000_000  # 2026, in milliseconds
DEVICE_A = "a" * 32
DEVICE_B = "b" * 32
CID = "c0" * 16


class Side:
    """One device's parley.db and sync.db."""

    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True)
        self.db = Database.open(root / "parley.db")
        self.state = SyncState(root)
        self.repo = ChatRepository(self.db, clock=lambda: datetime(2026, 12, 6, 8, tzinfo=UTC))

    def apply(self, *records: dict[str, Any], now: int = T0 + 10_000) -> Any:
        # Records are JSON on the wire: a round trip keeps the test honest about types.
        wire = json.loads(json.dumps(list(records)))
        return apply_records(self.db, self.state, wire, now)

    def messages(self) -> dict[str, str | None]:
        """id -> parent of every message."""
        with self.db.read() as conn:
            return dict(conn.exec_driver_sql("SELECT id, parent_id FROM messages").all())

    def titles(self) -> dict[str, str]:
        with self.db.read() as conn:
            return dict(conn.exec_driver_sql("SELECT id, title FROM conversations").all())

    def dump(self) -> list[Any]:
        with self.db.read() as conn:
            return [
                sorted(conn.exec_driver_sql(f"SELECT * FROM {table}").all())
                for table in ("conversations", "messages", "memories", "tombstones")
            ]

    def close(self) -> None:
        self.state.close()
        self.db.close()


@pytest.fixture
def side(tmp_path: Path) -> Any:
    made = Side(tmp_path / "one")
    yield made
    made.close()


@pytest.fixture
def other(tmp_path: Path) -> Any:
    made = Side(tmp_path / "two")
    yield made
    made.close()


def stamp(seconds: int, counter: int = 0) -> int:
    return hlc.pack(T0 + seconds * 1000, counter)


def conversation(
    cid: str = CID, title: str = "Trip", at: int = 1, device: str = DEVICE_A, **fields: Any
) -> dict[str, Any]:
    values: dict[str, Any] = {
        "title": title,
        "pinned": False,
        "archived": False,
        "assistant_id": None,
        "system_prompt": None,
        "pinned_message_ids": [],
        "active_leaf_id": None,
        **fields,
    }
    return {
        "t": rec.CONVERSATION,
        "id": cid,
        "created_at": T0,
        "updated_at": [T0 + at * 1000, stamp(at), device],
        "fields": {name: [value, stamp(at), device] for name, value in values.items()},
    }


def message(
    mid: str,
    parent: str | None,
    text: str,
    *,
    cid: str = CID,
    at: int = 2,
    device: str = DEVICE_A,
    role: Role = Role.USER,
) -> dict[str, Any]:
    node = Message(
        id=mid,
        conversation_id=cid,
        parent_id=parent,
        role=role,
        parts=[TextPart(text)],
        status=MessageStatus.COMPLETE,
        created_at=mapping.from_epoch_ms(T0 + at * 1000),
    )
    row = mapping.message_to_row(node)
    return {
        "t": rec.MESSAGE,
        "id": mid,
        "conversation_id": cid,
        "parent_id": parent,
        "row": {name: row.get(name) for name in rec.MESSAGE_COLUMNS},
        "stamp": stamp(at),
        "device": device,
    }


def delete(named: dict[str, str | None], *, whole: bool = False) -> dict[str, Any]:
    return {
        "t": rec.DELETE,
        "kind": "conversation" if whole else "message",
        "conversation_id": CID,
        "messages": named,
    }


def memory(mid: str, text: str, at: int, device: str, *, deleted: bool = False) -> dict[str, Any]:
    return {
        "t": rec.MEMORY,
        "id": mid,
        "row": {
            "scope": "global",
            "text": text,
            "created_at": T0,
            "updated_at": T0 + at * 1000,
            "source_conversation_id": None,
            "source_message_id": None,
            "deleted_at": T0 + at * 1000 if deleted else None,
            "restored_at": None,
        },
        "stamp": stamp(at),
        "device": device,
    }


def chain() -> list[dict[str, Any]]:
    """q1 → a1 → q2 → a2."""
    return [
        message("q1", None, "q1", at=2),
        message("a1", "q1", "a1", at=3, role=Role.ASSISTANT),
        message("q2", "a1", "q2", at=4),
        message("a2", "q2", "a2", at=5, role=Role.ASSISTANT),
    ]


# --- order and repetition --------------------------------------------------------------


def test_a_reply_before_its_parent_and_chat_waits_then_applies(side: Side) -> None:
    q1, a1, q2, a2 = chain()
    first = side.apply(a2, q2)
    assert (first.applied, first.waiting) == (0, 2)
    assert side.messages() == {}
    second = side.apply(a1)
    assert second.waiting == 3 and side.messages() == {}
    third = side.apply(conversation(), q1)
    assert third.waiting == 0
    assert side.messages() == {"q1": None, "a1": "q1", "q2": "a1", "a2": "q2"}
    assert side.titles() == {CID: "Trip"}


def test_every_order_gives_the_same_data(tmp_path: Path) -> None:
    records = [conversation(), *chain(), delete({"q2": "a1"}), message("r", "q2", "r", at=6)]
    dumps = []
    for i, order in enumerate([records, records[::-1], records[3:] + records[:3]]):
        side = Side(tmp_path / f"side-{i}")
        for record in order:
            side.apply(record)
        dumps.append(side.dump())
        # q2 named: a2 (not named) and r (under q2) hang from a1 now.
        assert side.messages() == {"q1": None, "a1": "q1", "a2": "a1", "r": "a1"}
        side.close()
    assert dumps[0][1] == dumps[1][1] == dumps[2][1]


def test_records_applied_twice_change_nothing(side: Side) -> None:
    records = [conversation(), *chain(), memory("m1", "Likes tea", 3, DEVICE_A)]
    side.apply(*records)
    before = side.dump()
    again = side.apply(*records)
    assert side.dump() == before
    assert again.waiting == 0
    side.apply(*records[::-1])
    assert side.dump() == before


# --- last writer wins ------------------------------------------------------------------


def test_a_tie_in_stamps_goes_to_the_higher_device_id_in_either_order(
    side: Side, other: Side
) -> None:
    from_a = conversation(title="From A", at=5, device=DEVICE_A)
    from_b = conversation(title="From B", at=5, device=DEVICE_B)
    side.apply(from_a)
    side.apply(from_b)
    other.apply(from_b)
    other.apply(from_a)
    assert side.titles() == other.titles() == {CID: "From B"}

    tie_a = memory("m1", "Tea from A", 7, DEVICE_A)
    tie_b = memory("m1", "Tea from B", 7, DEVICE_B)
    side.apply(tie_b)
    side.apply(tie_a)
    other.apply(tie_a)
    other.apply(tie_b)
    for made in (side, other):
        found = MemoryRepository(made.db).get("m1")
        assert found is not None and found.text == "Tea from B"


def test_an_older_stamp_loses_whichever_arrives_last(side: Side) -> None:
    side.apply(conversation(title="Newer", at=9, device=DEVICE_A))
    side.apply(conversation(title="Older", at=4, device=DEVICE_B))
    assert side.titles() == {CID: "Newer"}
    side.apply(memory("m1", "Deleted later", 9, DEVICE_A, deleted=True))
    side.apply(memory("m1", "Edited earlier", 4, DEVICE_B))
    found = MemoryRepository(side.db).get("m1")
    assert found is not None and found.deleted and found.text == "Deleted later"


# --- deletions -------------------------------------------------------------------------


def test_a_deletion_reattaches_a_reply_it_did_not_name_to_the_nearest_survivor(
    side: Side,
) -> None:
    side.apply(conversation(), *chain())
    side.apply(message("r", "a2", "a reply under a2, written elsewhere", at=6))
    side.apply(delete({"q2": "a1", "a2": "q2"}))
    assert side.messages() == {"q1": None, "a1": "q1", "r": "a1"}


def test_a_reply_arriving_after_the_deletion_of_its_parent_goes_to_the_same_survivor(
    side: Side, other: Side
) -> None:
    reply = message("r", "a2", "late reply", at=6)
    side.apply(conversation(), *chain())
    side.apply(delete({"q2": "a1", "a2": "q2"}))
    side.apply(reply)
    other.apply(conversation(), *chain(), reply)
    other.apply(delete({"q2": "a1", "a2": "q2"}))
    assert side.messages() == other.messages() == {"q1": None, "a1": "q1", "r": "a1"}


def test_a_deletion_of_ids_never_seen_here_keeps_their_replies_waiting_no_more(
    side: Side,
) -> None:
    """The deletion names q2 and a2 (with the parents they were written under) before
    they arrive: a reply under a2 goes straight to a1."""
    q1, a1, _q2, _a2 = chain()
    side.apply(conversation(), q1, a1)
    side.apply(delete({"q2": "a1", "a2": "q2"}))
    result = side.apply(message("r", "a2", "reply", at=6))
    assert result.waiting == 0
    assert side.messages() == {"q1": None, "a1": "q1", "r": "a1"}
    side.apply(*chain())  # the deleted ones arriving late stay deleted
    assert side.messages() == {"q1": None, "a1": "q1", "r": "a1"}


def test_a_whole_deletion_keeps_the_chat_for_a_reply_it_did_not_name(side: Side) -> None:
    side.apply(conversation(), *chain())
    side.apply(message("r", "a2", "reply", at=6))
    outcome = side.apply(delete({"q1": None, "a1": "q1", "q2": "a1", "a2": "q2"}, whole=True))
    assert outcome.revived == []
    assert side.titles() == {CID: "Trip"}
    assert side.messages() == {"r": None}


def test_a_reply_to_a_chat_deleted_here_brings_it_back(side: Side) -> None:
    side.apply(conversation(), *chain())
    side.repo.delete_conversation(CID)
    outcome = side.apply(message("r", "a2", "reply", at=6))
    assert outcome.revived == [CID]
    assert side.titles() == {CID: "Trip"}
    assert side.messages() == {"r": None}


# --- collecting ------------------------------------------------------------------------


def test_a_workspace_file_is_sent_by_its_name_only(side: Side) -> None:
    side.apply(conversation(), chain()[0])
    node = Message(
        id="w1",
        conversation_id=CID,
        parent_id="q1",
        role=Role.USER,
        parts=[TextPart("see the file")],
        context=ContextSnapshot(
            workspace_file="/home/alice/work/notes/plan.md", context_captured=True
        ),
    )
    side.repo.add_message(node)
    records = collect(side.db, side.state, DEVICE_A, T0 + 60_000).records
    sent = [r for r in records if r["t"] == rec.MESSAGE and r["id"] == "w1"]
    assert len(sent) == 1
    context = json.loads(sent[0]["row"]["context"])
    assert context["workspace_file"] == "plan.md"
    assert "/home/alice" not in json.dumps(records)


def test_a_streaming_message_is_collected_only_once_final(side: Side, other: Side) -> None:
    side.apply(conversation(), chain()[0])
    collect_now = collect(side.db, side.state, DEVICE_A, T0 + 60_000)
    mark_sent(side.state, collect_now.marks)
    streaming = Message(
        id="s1",
        conversation_id=CID,
        parent_id="q1",
        role=Role.ASSISTANT,
        parts=[TextPart("Once")],
        status=MessageStatus.STREAMING,
    )
    side.repo.add_message(streaming)
    found = collect(side.db, side.state, DEVICE_A, T0 + 61_000)
    assert [r["id"] for r in found.records if r["t"] == rec.MESSAGE] == []
    streaming.parts = [TextPart("Once upon a time.")]
    streaming.status = MessageStatus.COMPLETE
    side.repo.save_message(streaming)
    found = collect(side.db, side.state, DEVICE_A, T0 + 62_000)
    sent = [r for r in found.records if r["t"] == rec.MESSAGE]
    assert [r["id"] for r in sent] == ["s1"]
    assert "Once upon a time." in sent[0]["row"]["parts"]
    # What was collected applies on another device as it is.
    other.apply(conversation(), chain()[0])
    other.apply(*found.records)
    assert other.messages() == {"q1": None, "s1": "q1"}


def test_collecting_after_marking_sent_finds_nothing_new(side: Side) -> None:
    side.repo.create_conversation("Mine")
    first = collect(side.db, side.state, DEVICE_A, T0 + 60_000)
    assert [r["t"] for r in first.records] == [rec.CONVERSATION]
    mark_sent(side.state, first.marks)
    assert collect(side.db, side.state, DEVICE_A, T0 + 61_000).records == []


def test_received_records_are_not_collected_to_be_sent_back(side: Side) -> None:
    side.apply(conversation(), *chain(), memory("m1", "Likes tea", 3, DEVICE_B))
    side.apply(delete({"a2": "q2"}))
    assert collect(side.db, side.state, DEVICE_A, T0 + 60_000).records == []


def test_deleting_again_a_chat_a_reply_brought_back_is_collected_even_when_empty(
    side: Side,
) -> None:
    """The chat was deleted elsewhere (a received deletion), a reply brought it back,
    its only message was deleted elsewhere too; now the person deletes it here. The
    other devices still have it: the deletion must go out."""
    side.apply(conversation(), *chain())
    side.apply(delete({"q1": None, "a1": "q1", "q2": "a1", "a2": "q2"}, whole=True))
    assert side.titles() == {}
    side.apply(message("r", "a2", "reply", at=6))
    assert side.titles() == {CID: "Trip"}
    side.apply(delete({"r": "a2"}))
    assert side.messages() == {}
    mark_sent(side.state, collect(side.db, side.state, DEVICE_A, T0 + 60_000).marks)

    side.repo.delete_conversation(CID)
    records = collect(side.db, side.state, DEVICE_A, T0 + 61_000).records
    assert [(r["t"], r.get("kind"), r.get("conversation_id")) for r in records] == [
        (rec.DELETE, "conversation", CID)
    ]
