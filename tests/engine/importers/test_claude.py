"""The Claude (claude.ai) export importer on a hand-written, real-shaped export: the
tree from `parent_message_uuid`, the newest leaf as the active one, thinking, tool
calls, attachments' text, skipped items, and idempotent imports into a real database."""

from __future__ import annotations

import copy
import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from desktop.core.models import (
    CallState,
    Message,
    ModelRef,
    NoticePart,
    ReasoningPart,
    Role,
    TextPart,
    ToolCallPart,
)
from desktop.engine.importers import claude
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import ImportedConversation, Skipped, derived_id
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.transfer import import_conversation

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "imports"
FIXTURE = FIXTURES / "claude"
TRIP = "5b1f3c2e-1111-4a4a-9b9b-000000000001"
LINEAR = "5b1f3c2e-1111-4a4a-9b9b-000000000002"


def _m(number: int) -> str:
    """The Parley id of the trip chat's message `number`."""
    return derived_id("claude", "message", f"a0000000-0000-4000-8000-{number:012d}")


def _read(path: Path) -> list[ImportedConversation | Skipped]:
    with ExportFiles(path) as files:
        return list(claude.read(files))


def _chats(items: list[ImportedConversation | Skipped]) -> dict[str, ImportedConversation]:
    return {i.conversation.id: i for i in items if isinstance(i, ImportedConversation)}


def _by_id(chat: ImportedConversation) -> dict[str, Message]:
    return {m.id: m for m in chat.messages}


def _trip() -> ImportedConversation:
    return _chats(_read(FIXTURE))[derived_id("claude", "conversation", TRIP)]


def _write_export(folder: Path, conversations: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "conversations.json").write_text(
        json.dumps(conversations, ensure_ascii=False), encoding="utf-8"
    )
    return folder


def _zip(tmp_path: Path) -> Path:
    path = tmp_path / "data-2025-03-02-10-00-00.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for name in ("conversations.json", "projects.json", "users.json"):
            archive.write(FIXTURE / name, f"data-2025-03-02/{name}")
    return path


def _import_all(db: Database, items: list[ImportedConversation | Skipped]) -> int:
    added = 0
    for item in items:
        if isinstance(item, ImportedConversation):
            added += import_conversation(db, item.conversation, list(item.messages)).added
    return added


# --- detect ---------------------------------------------------------------------------


def test_detect_recognises_the_folder_the_zip_and_a_renamed_single_file(tmp_path: Path) -> None:
    single = tmp_path / "my-claude-history.json"
    single.write_bytes((FIXTURE / "conversations.json").read_bytes())
    for path in (FIXTURE, _zip(tmp_path), single):
        with ExportFiles(path) as files:
            assert claude.detect(files), path


def test_detect_says_no_to_other_clients_and_to_other_json(tmp_path: Path) -> None:
    others = [p for p in FIXTURES.iterdir() if p.is_dir() and p.name != "claude"]
    for folder in others:
        with ExportFiles(folder) as files:
            assert not claude.detect(files), folder
    chatgpt = [{"id": "x", "title": "t", "mapping": {}, "current_node": None}]
    for name, content in (
        ("conversations.json", chatgpt),
        ("random.json", {"hello": [1, 2, 3]}),
        ("list.json", [{"uuid": "u"}, 3, "x"]),
    ):
        path = tmp_path / name
        path.write_text(json.dumps(content), encoding="utf-8")
        with ExportFiles(path) as files:
            assert not claude.detect(files), name
    broken = tmp_path / "conversations.json"
    broken.write_text("[{not json", encoding="utf-8")
    with ExportFiles(broken) as files:
        assert not claude.detect(files)


# --- read -----------------------------------------------------------------------------


def test_read_counts_conversations_messages_and_skips_the_rest() -> None:
    items = _read(FIXTURE)
    chats = _chats(items)
    assert set(chats) == {
        derived_id("claude", "conversation", TRIP),
        derived_id("claude", "conversation", LINEAR),
    }
    skipped = {i.where: i.reason for i in items if isinstance(i, Skipped)}
    assert skipped == {
        "Empty chat": "no messages",
        "Broken chat": "it has no list of messages",
        "conversation 5": "it is not a conversation",
    }
    trip = _trip()
    assert len(trip.messages) == 7
    assert {s.reason for s in trip.skipped} == {
        "a system message is not imported",
        "it is not a message",
    }
    assert [s.where for s in trip.skipped] == [
        "message 2 of “北京旅行 Trip planning”",
        "message 7 of “北京旅行 Trip planning”",
    ]


def test_the_tree_follows_parent_message_uuid_around_the_system_message() -> None:
    trip = _trip()
    parents = {m.id: m.parent_id for m in trip.messages}
    assert parents == {
        _m(1): None,
        _m(2): _m(1),  # its parent in the export is the system message, which is left out
        _m(3): _m(2),
        _m(4): _m(3),
        _m(5): _m(3),  # a retry: a sibling of 4
        _m(6): _m(2),  # an edit of 3: a sibling of it
        _m(7): _m(6),
    }
    assert trip.branches == 2
    assert trip.conversation.active_leaf_id == _m(7)  # the newest leaf
    assert all(m.conversation_id == trip.conversation.id for m in trip.messages)
    roles = {m.id: m.role for m in trip.messages}
    assert [roles[_m(n)] for n in range(1, 8)] == [
        Role.USER,
        Role.ASSISTANT,
        Role.USER,
        Role.ASSISTANT,
        Role.ASSISTANT,
        Role.USER,
        Role.ASSISTANT,
    ]


def test_parts_reasoning_tool_calls_attachments_and_cjk_text() -> None:
    trip = _trip()
    messages = _by_id(trip)
    question = messages[_m(1)]
    assert question.parts[0] == TextPart("我想去北京旅行，有什么建议？")
    attachment = question.parts[1]
    assert isinstance(attachment, TextPart)
    assert "itinerary.txt" in attachment.text
    assert attachment.text.endswith("第一天：故宫\nDay 2: Great Wall")
    notices = [p.text for p in question.parts if isinstance(p, NoticePart)]
    assert len(notices) == 2
    assert "itinerary.txt" in notices[0]
    assert "map.png" in notices[1]
    assert trip.images == 1

    answer = messages[_m(2)]
    assert answer.parts == [
        ReasoningPart(
            "The user wants a Beijing itinerary; the file lists two days.", duration_ms=4000
        ),
        TextPart("北京有很多好地方。Start with the Forbidden City."),
    ]  # the token_budget block is bookkeeping: nothing shown for it

    searched = messages[_m(5)]
    call, text = searched.parts
    assert isinstance(call, ToolCallPart)
    assert call.call_id == "toolu_01A"
    assert call.name == "web_search"
    assert json.loads(call.arguments) == {"query": "best Peking duck 北京"}
    assert call.result == "Quanjude (全聚德), founded 1864."
    assert call.state is CallState.DONE
    assert not call.is_error
    assert text == TextPart("Quanjude is the classic choice.")
    assert messages[_m(7)].text == "Stay near Wangfujing (王府井)."


def test_timestamps_are_kept() -> None:
    trip = _trip()
    assert trip.conversation.created_at == datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
    assert trip.conversation.updated_at == datetime(2025, 3, 1, 10, 5, tzinfo=UTC)
    assert _by_id(trip)[_m(5)].created_at == datetime(2025, 3, 1, 10, 2, tzinfo=UTC)


def test_an_older_export_without_parents_is_one_line_with_times_filled_in() -> None:
    chat = _chats(_read(FIXTURE))[derived_id("claude", "conversation", LINEAR)]
    ids = [derived_id("claude", "message", f"b0000000-0000-4000-8000-{n:012d}") for n in (1, 2, 3)]
    messages = _by_id(chat)
    assert [messages[i].parent_id for i in ids] == [None, ids[0], ids[1]]
    assert chat.conversation.active_leaf_id == ids[2]
    assert chat.branches == 0
    assert chat.conversation.title == "Convert 100 USD to EUR"  # no name: the first line asked
    # The answer has no time in the export: the chat's time plus its position.
    assert messages[ids[1]].created_at == datetime(2024, 6, 10, 8, 0, 0, 1000, tzinfo=UTC)
    assert len({m.created_at for m in chat.messages}) == 3
    assert messages[ids[0]].text == "Convert 100 USD to EUR\nplease"  # `text` without content
    call = messages[ids[1]].parts[0]
    assert isinstance(call, ToolCallPart)
    assert call.name == "repl"
    assert call.state is CallState.ERROR
    assert call.is_error
    assert call.result == "ReferenceError: rate is not defined"
    assert chat.notes  # the preview says the export held no branches


def test_the_zip_reads_like_the_folder(tmp_path: Path) -> None:
    from_zip = _read(_zip(tmp_path))
    from_folder = _read(FIXTURE)
    assert [type(i) for i in from_zip] == [type(i) for i in from_folder]
    assert _chats(from_zip).keys() == _chats(from_folder).keys()
    for key, chat in _chats(from_zip).items():
        assert chat.messages == _chats(from_folder)[key].messages


def test_a_chosen_leaf_wins_over_the_newest(tmp_path: Path) -> None:
    data = json.loads((FIXTURE / "conversations.json").read_text(encoding="utf-8"))
    data[0]["current_leaf_message_uuid"] = "a0000000-0000-4000-8000-000000000004"
    chat = _chats(_read(_write_export(tmp_path / "x", data)))[
        derived_id("claude", "conversation", TRIP)
    ]
    assert chat.conversation.active_leaf_id == _m(4)


def test_a_conversation_model_names_the_answers_model(tmp_path: Path) -> None:
    data = json.loads((FIXTURE / "conversations.json").read_text(encoding="utf-8"))
    data[0]["model"] = "claude-sonnet-4-20250514"
    chat = _chats(_read(_write_export(tmp_path / "x", data)))[
        derived_id("claude", "conversation", TRIP)
    ]
    messages = _by_id(chat)
    assert messages[_m(2)].model == ModelRef("claude", "claude-sonnet-4-20250514")
    assert messages[_m(1)].model is None


def test_hostile_input_is_skipped_never_raised(tmp_path: Path) -> None:
    cycle = [
        {"uuid": "x1", "sender": "human", "text": "a", "parent_message_uuid": "x2"},
        {"uuid": "x2", "sender": "assistant", "text": "b", "parent_message_uuid": "x1"},
        {"uuid": "x3", "sender": "assistant", "text": "c", "parent_message_uuid": "x3"},
    ]
    odd_blocks = [
        {
            "uuid": "y1",
            "sender": "assistant",
            "content": [
                None,
                {"type": ["list"]},
                {"type": "thinking", "thinking": 5},
                {"type": "tool_use", "name": {"a": 1}, "input": {"deep": [1, {"x": None}]}},
                {"type": "tool_result", "tool_use_id": 7, "content": {"not": "a list"}},
                {"type": "text", "text": None},
            ],
            "attachments": [None, {"file_name": 3, "extracted_content": ["x"]}],
            "files": "nope",
            "created_at": "not a time",
        },
        {"uuid": None, "sender": None, "text": "nobody"},
        {"uuid": "y1", "sender": "human", "text": "duplicate"},
    ]
    data: list[Any] = [
        {"uuid": "c1", "name": "cycle", "chat_messages": cycle},
        {"uuid": "c2", "name": 9, "created_at": 5, "chat_messages": odd_blocks},
        {"uuid": 5, "chat_messages": []},
        {"uuid": "c4", "chat_messages": [None, "x", 3]},
        [],
        None,
    ]
    items = _read(_write_export(tmp_path / "hostile", data))
    assert len(items) == 6
    chats = _chats(items)
    looped = chats[derived_id("claude", "conversation", "c1")]
    assert len(looped.messages) == 3
    roots = [m for m in looped.messages if m.parent_id is None]
    assert roots  # the cycle was cut: the tree has a root
    odd = chats[derived_id("claude", "conversation", "c2")]
    assert len(odd.messages) == 1
    assert {s.reason for s in odd.skipped} == {
        "it says nobody sent it",
        "the same message appears twice",
    }
    assert any(isinstance(p, NoticePart) for p in odd.messages[0].parts)
    reasons = [i.reason for i in items if isinstance(i, Skipped)]
    assert "none of its messages could be imported" in reasons
    assert "it has no id" in reasons


def test_hostile_trees_import_into_a_real_database(tmp_path: Path) -> None:
    cycle = [
        {"uuid": "x1", "sender": "human", "text": "a", "parent_message_uuid": "x2"},
        {"uuid": "x2", "sender": "assistant", "text": "b", "parent_message_uuid": "x1"},
        {"uuid": "x4", "sender": "human", "text": "d", "parent_message_uuid": "gone"},
    ]
    items = _read(_write_export(tmp_path / "hostile", [{"uuid": "c1", "chat_messages": cycle}]))
    db = Database.open(tmp_path / "parley.db")
    try:
        assert _import_all(db, items) == 3
    finally:
        db.close()


def test_a_file_that_is_not_a_list_of_conversations_is_an_export_error(tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps({"uuid": "x", "chat_messages": []}), encoding="utf-8")
    with ExportFiles(path) as files, pytest.raises(ExportError):
        list(claude.read(files))


# --- into the database ----------------------------------------------------------------


def test_importing_twice_adds_nothing_and_a_newer_export_adds_only_the_new(
    tmp_path: Path,
) -> None:
    db = Database.open(tmp_path / "parley.db")
    try:
        assert _import_all(db, _read(_zip(tmp_path))) == 10
        assert _import_all(db, _read(FIXTURE)) == 0

        repo = ChatRepository(db)
        trip_id = derived_id("claude", "conversation", TRIP)
        stored = repo.get_conversation(trip_id)
        assert stored is not None
        assert stored.active_leaf_id == _m(7)
        assert [m.id for m in repo.active_path(trip_id)] == [_m(1), _m(2), _m(6), _m(7)]

        newer = copy.deepcopy(
            json.loads((FIXTURE / "conversations.json").read_text(encoding="utf-8"))
        )
        newer[0]["chat_messages"].append(
            {
                "uuid": "a0000000-0000-4000-8000-000000000008",
                "text": "谢谢！",
                "content": [{"type": "text", "text": "谢谢！"}],
                "sender": "human",
                "created_at": "2025-03-02T09:00:00.000000Z",
                "attachments": [],
                "files": [],
                "parent_message_uuid": "a0000000-0000-4000-8000-000000000007",
            }
        )
        assert _import_all(db, _read(_write_export(tmp_path / "newer", newer))) == 1
        added = [m for m in repo.messages(trip_id) if m.id == _m(8)]
        assert len(added) == 1
        assert added[0].parent_id == _m(7)
        assert added[0].text == "谢谢！"
    finally:
        db.close()
