"""The Chatbox importer on hand-written backups shaped as Chatbox writes them (one JSON of
its store: `chat-sessions-list` + `session:<id>` keys, or the old `chat-sessions` array):
what it recognises, the tree it builds from threads and forks, the parts, the times, what
it leaves out and why, and importing into a real database (twice, then a newer backup)."""

from __future__ import annotations

import copy
import json
import shutil
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from desktop.core.models import (
    CallState,
    ErrorPart,
    Message,
    ModelRef,
    NoticePart,
    ReasoningPart,
    Role,
    TextPart,
    ToolCallPart,
    Usage,
)
from desktop.engine.importers import chatbox
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import ImportedConversation, Skipped, derived_id
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.transfer import import_conversation

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "imports"
BACKUP = FIXTURES / "chatbox" / "chatbox-exported-data-2025-3-14.json"
LEGACY = FIXTURES / "chatbox" / "chatbox-legacy-chat-sessions.json"
TRIP = "3f0c1a52-trip"


def _read(path: Path) -> list[ImportedConversation | Skipped]:
    with ExportFiles(path) as files:
        assert chatbox.detect(files)
        return list(chatbox.read(files))


def _conversations(items: list[ImportedConversation | Skipped]) -> list[ImportedConversation]:
    return [item for item in items if isinstance(item, ImportedConversation)]


def _by_source(item: ImportedConversation, session: str = TRIP) -> dict[str, Message]:
    """The imported messages keyed by their Chatbox id."""
    wanted = {m.id: m for m in item.messages}
    found = {}
    sources = ["m-sys-1", "m-u1", "m-a1", "m-sys-2", "m-u2", "m-a2", "m-tool-legacy"]
    sources += ["m-u3", "m-a3", "m-a2-old", "m-u2b", "m-a2b"]
    for source in sources:
        key = derived_id("chatbox", "message", f"{session}/{source}")
        if key in wanted:
            found[source] = wanted[key]
    return found


def _write(tmp_path: Path, data: dict[str, Any], name: str = "backup.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def db(tmp_path) -> Iterator[Database]:
    database = Database.open(tmp_path / "parley.db")
    try:
        yield database
    finally:
        database.close()


# --- recognising the export -------------------------------------------------------------


def test_both_backup_shapes_are_recognised_by_their_content_not_their_name(tmp_path):
    renamed = tmp_path / "my-notes.txt"
    shutil.copy(BACKUP, renamed)
    zipped = tmp_path / "chatbox.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.write(LEGACY, "backups/chatbox-legacy-chat-sessions.json")
    for path in (BACKUP, LEGACY, renamed, zipped):
        with ExportFiles(path) as files:
            assert chatbox.detect(files), path


@pytest.mark.parametrize(
    "document",
    [
        {"something": "else"},
        [{"id": "c1", "title": "旅行", "mapping": {}}],  # a ChatGPT-like list
        # Cherry Studio's legacy backup also names chats; its indexedDB says whose it is
        {
            "time": 1,
            "version": 5,
            "localStorage": {},
            "indexedDB": {"topics": []},
            "chat-sessions": [],
        },
        {"exportType": "sessions", "state": {"sessions": []}, "version": 7},  # LobeChat
    ],
)
def test_other_json_is_not_taken_for_a_chatbox_backup(tmp_path, document):
    with ExportFiles(_write(tmp_path, document)) as files:  # type: ignore[arg-type]
        assert not chatbox.detect(files)


def test_not_json_and_an_empty_folder_are_not_chatbox_backups(tmp_path):
    text = tmp_path / "notes.json"
    text.write_text("not json {", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    for path in (text, tmp_path / "empty"):
        with ExportFiles(path) as files:
            assert not chatbox.detect(files)


def _other_fixtures() -> list[Path]:
    if not FIXTURES.is_dir():
        return []
    found: list[Path] = []
    for folder in sorted(p for p in FIXTURES.iterdir() if p.is_dir() and p.name != "chatbox"):
        found.append(folder)
        found.extend(sorted(p for p in folder.rglob("*") if p.is_file()))
    return found


@pytest.mark.parametrize("path", _other_fixtures(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_other_clients_fixtures_are_not_taken_for_chatbox(path):
    with ExportFiles(path) as files:
        assert not chatbox.detect(files)


# --- reading the current backup shape ---------------------------------------------------


def test_chats_are_read_and_the_unreadable_ones_are_skipped_with_their_reasons():
    items = _read(BACKUP)
    conversations = _conversations(items)
    assert [c.conversation.title for c in conversations] == ["京都旅行 Kyoto trip"]
    skipped = [(s.where, s.reason) for s in items if isinstance(s, Skipped)]
    assert skipped == [
        ("New Chat", "no messages"),  # only its system prompt
        ("Broken chat", "Its messages are not a list."),
        ("Deleted blob", "The backup holds no messages for it."),
        ("Chat 5 of the chat list", "It is not a chat entry."),
    ]
    trip = conversations[0]
    assert trip.conversation.id == derived_id("chatbox", "conversation", TRIP)
    assert trip.conversation.pinned  # starred in Chatbox
    assert not trip.conversation.archived
    assert len(trip.messages) == 9
    assert [(s.where, s.reason) for s in trip.skipped] == [
        (
            "Message 7 of “京都旅行 Kyoto trip”",
            "Chatbox's separate tool messages are not imported.",
        ),
        ("Message 8 of “京都旅行 Kyoto trip”", "It is not a message."),
    ]


def test_earlier_threads_come_first_on_one_line_and_forks_become_siblings():
    trip = _conversations(_read(BACKUP))[0]
    m = _by_source(trip)
    assert "m-sys-1" not in m and "m-sys-2" not in m and "m-tool-legacy" not in m
    id_of = {source: message.id for source, message in m.items()}

    def parent(source: str) -> str | None:
        return m[source].parent_id

    # The thread before the current one is the start of the same line.
    assert parent("m-u1") is None
    assert parent("m-a1") == id_of["m-u1"]
    assert parent("m-u2") == id_of["m-a1"]
    # The fork at m-u2: the shown answer and the stored alternative are siblings.
    assert parent("m-a2") == id_of["m-u2"]
    assert parent("m-a2-old") == id_of["m-u2"]
    assert parent("m-u2b") == id_of["m-a2-old"]
    assert parent("m-a2b") == id_of["m-u2b"]
    # The skipped tool message and the non-message in between do not break the line.
    assert parent("m-u3") == id_of["m-a2"]
    assert parent("m-a3") == id_of["m-u3"]
    assert trip.branches == 1
    assert trip.conversation.active_leaf_id == id_of["m-a3"]  # the shown branch's end
    assert all(message.conversation_id == trip.conversation.id for message in trip.messages)


def test_notices_mark_the_system_prompt_once_and_where_a_new_thread_began():
    m = _by_source(_conversations(_read(BACKUP))[0])
    prompt = m["m-u1"].parts[0]
    assert isinstance(prompt, NoticePart)
    assert prompt.detail == "你是一位熟悉日本的旅行顾问。"
    assert m["m-u1"].parts[1:] == [TextPart("你好，帮我规划京都三日游。")]
    # The second thread repeats the same prompt: no second prompt notice, but a thread one.
    thread = m["m-u2"].parts[0]
    assert isinstance(thread, NoticePart) and "第二段：寺庙" in thread.text
    prompts = [
        part
        for message in m.values()
        for part in message.parts
        if isinstance(part, NoticePart) and part.detail == "你是一位熟悉日本的旅行顾问。"
    ]
    assert prompts == [prompt]


def test_parts_map_to_text_reasoning_tool_calls_notices_and_images_as_notices():
    trip = _conversations(_read(BACKUP))[0]
    m = _by_source(trip)
    user = m["m-u2"].parts
    assert "行程.pdf" in user[1].text and isinstance(user[1], NoticePart)
    assert user[2] == TextPart("推荐一些寺庙，照片里这个是哪里？")
    assert isinstance(user[3], NoticePart) and user[3].detail == "清水寺 Kiyomizu-dera"
    assert trip.images == 2  # the image and the file
    assert trip.notes and "2" in trip.notes[0]

    reasoning, search, answer = m["m-a2"].parts
    assert reasoning == ReasoningPart("用户想看寺庙，先搜索一下。", duration_ms=1500)
    assert isinstance(search, ToolCallPart)
    assert (search.call_id, search.name, search.state, search.is_error) == (
        "call_web_1",
        "web_search",
        CallState.DONE,
        False,
    )
    assert json.loads(search.arguments) == {"query": "京都 寺庙 推荐"}
    assert "金阁寺" in (search.result or "")
    assert answer == TextPart("照片里是清水寺。另外推荐金阁寺和银阁寺。")
    assert m["m-a2"].model == ModelRef("chatbox", "deepseek-reasoner")
    assert m["m-a2"].usage == Usage(input_tokens=120, output_tokens=80, reasoning_tokens=25)
    assert m["m-a2"].first_token_ms == 820
    assert m["m-a2"].role is Role.ASSISTANT and m["m-u2"].role is Role.USER

    failed, info, text = m["m-a3"].parts
    assert isinstance(failed, ToolCallPart)
    assert failed.state is CallState.ERROR and failed.is_error
    assert failed.result == "request timed out"
    assert info == NoticePart("Web search was used")
    assert text == TextPart("不客气，祝旅途愉快！")
    assert m["m-a2-old"].model == ModelRef("chatbox", "gpt-4o")
    assert all(message.status.value == "complete" for message in trip.messages)


def test_times_are_kept_and_a_message_without_one_comes_after_its_parent():
    trip = _conversations(_read(BACKUP))[0]
    m = _by_source(trip)

    def at(ms: int) -> datetime:
        return datetime.fromtimestamp(ms / 1000, UTC)

    assert m["m-u1"].created_at == at(1710000001000)
    assert m["m-a2"].created_at == at(1710003610000)
    assert m["m-a2-old"].created_at == at(1710003605000)
    assert m["m-a3"].created_at > m["m-u3"].created_at  # m-a3 has no timestamp
    assert trip.conversation.created_at == at(1710000000000)  # the first thread's start
    assert trip.conversation.updated_at == m["m-a3"].created_at
    assert len({message.created_at for message in trip.messages}) == len(trip.messages)


# --- the old single-array shape --------------------------------------------------------


def test_the_old_chat_sessions_array_with_legacy_content_fields():
    items = _read(LEGACY)
    assert [(s.where, s.reason) for s in items if isinstance(s, Skipped)] == [
        ("No id at all", "It has no id.")
    ]
    (chat,) = _conversations(items)
    assert chat.conversation.title == "Hello 世界" and not chat.conversation.pinned
    user, answer, thanks = sorted(chat.messages, key=lambda message: message.created_at)
    assert user.parent_id is None and answer.parent_id == user.id and thanks.parent_id == answer.id
    assert isinstance(user.parts[0], NoticePart)
    assert user.parts[0].detail == "You are a helpful assistant."
    assert user.parts[1] == TextPart("把“hello”翻译成中文")
    assert isinstance(user.parts[2], NoticePart) and chat.images == 1  # an old `pictures` entry
    reasoning, search, text = answer.parts
    assert reasoning == ReasoningPart("简单的翻译。", duration_ms=0)
    assert isinstance(search, ToolCallPart) and search.name == "web_search"
    assert "https://example.org/dict" in (search.result or "")
    assert text == TextPart("你好")
    # A message without an id or a time: derived from its chat and position, after its parent.
    assert thanks.id == derived_id("chatbox", "message", "old-1/#4")
    assert thanks.created_at > answer.created_at > user.created_at
    assert chat.conversation.active_leaf_id == thanks.id


def test_a_stale_old_array_next_to_the_split_chats_is_not_imported_again(tmp_path):
    data = json.loads(BACKUP.read_text(encoding="utf-8"))
    stale = copy.deepcopy(data[f"session:{TRIP}"])
    stale["name"] = "stale copy"
    deleted_later = {"id": "deleted", "name": "Deleted after migrating", "messages": []}
    data["chat-sessions"] = [stale, deleted_later]
    titles = [c.conversation.title for c in _conversations(_read(_write(tmp_path, data)))]
    assert titles == ["京都旅行 Kyoto trip"]


def test_same_message_ids_in_two_chats_stay_two_messages(tmp_path, db):
    """Chatbox's preset chats share message ids; each chat keeps its own."""
    message = {"id": "a700be6c", "role": "user", "contentParts": [{"type": "text", "text": "Hi"}]}
    data = {
        "__exported_items": ["conversations"],
        "chat-sessions-list": [{"id": "one"}, {"id": "two"}],
        "session:one": {"id": "one", "name": "One", "messages": [message]},
        "session:two": {"id": "two", "name": "Two", "messages": [message]},
    }
    one, two = _conversations(_read(_write(tmp_path, data)))
    assert one.messages[0].id != two.messages[0].id
    for item in (one, two):
        assert import_conversation(db, item.conversation, list(item.messages)).added == 1


def test_a_backup_without_chats_says_so(tmp_path):
    path = _write(tmp_path, {"__exported_items": ["setting"], "settings": {}, "configVersion": 12})
    with ExportFiles(path) as files, pytest.raises(ExportError, match="no chats"):
        list(chatbox.read(files))


# --- hostile input ----------------------------------------------------------------------


def test_odd_values_anywhere_are_skipped_not_raised(tmp_path):
    weird_parts: list[Any] = [
        None,
        7,
        {"type": "text", "text": 5},
        {"type": "reasoning", "text": "想", "duration": "long"},
        {"type": "tool-call", "state": "call", "args": {"a": [1, 2]}},
        {"type": "mystery"},
        {"type": "image"},
    ]
    data: dict[str, Any] = {
        "chat-sessions-list": [{"id": "h", "name": ["not", "a", "name"]}, {"id": "loop"}],
        "session:h": {
            "id": "h",
            "messages": [
                {"id": "u", "role": "user", "contentParts": weird_parts, "timestamp": 1e300},
                {"id": "x", "role": "user", "contentParts": "nope", "timestamp": -5},
                {"id": "y", "role": "wizard", "contentParts": []},
                {"id": "u", "role": "assistant", "contentParts": []},  # the same id again
                {"id": "a", "role": "assistant", "contentParts": [], "usage": "lots"},
            ],
            "threads": [None, {"name": "no messages key"}],
            "messageForksHash": {"u": "not a fork", "a": {"lists": [None, {"messages": 3}]}},
            "starred": "yes",
        },
        # A fork whose branch holds the forked message again, and so on: read once.
        "session:loop": {
            "id": "loop",
            "name": "Loop",
            "messages": [{"id": "p", "role": "user", "contentParts": []}],
            "messageForksHash": {
                "p": {"position": 0, "lists": [{"messages": [{"id": "p", "role": "user"}]}]}
            },
        },
    }
    items = _read(_write(tmp_path, data))
    odd, loop = _conversations(items)
    assert odd.conversation.title == "Untitled chat" and not odd.conversation.pinned
    user = odd.messages[0]
    kinds = [type(part) for part in user.parts]
    assert kinds == [ReasoningPart, ToolCallPart, NoticePart, NoticePart]
    assert user.parts[0] == ReasoningPart("想", duration_ms=0)
    assert isinstance(user.parts[1], ToolCallPart) and user.parts[1].state is CallState.INTERRUPTED
    assert len(odd.messages) == 2 and odd.messages[1].parent_id == user.id
    reasons = [s.reason for s in odd.skipped]
    assert "Its content is not a list." in reasons
    assert "Its role (wizard) is not one Parley has." in reasons
    assert "Its id appears twice." in reasons
    assert "It is not a thread." in reasons
    assert len(loop.messages) == 1 and [s.reason for s in loop.skipped] == ["Its id appears twice."]


def test_forks_nested_thousands_deep_are_read_without_recursion(tmp_path):
    forks = {}
    for depth in range(3000):
        forks[f"n{depth}"] = {
            "position": 1,
            "lists": [
                {"messages": [{"id": f"n{depth + 1}", "role": "user", "contentParts": []}]},
                {"messages": []},
            ],
        }
    data = {
        "chat-sessions-list": [{"id": "deep", "name": "Deep"}],
        "session:deep": {
            "id": "deep",
            "messages": [
                {"id": "n0", "role": "user", "contentParts": []},
                {"id": "shown", "role": "assistant", "contentParts": []},
            ],
            "messageForksHash": forks,
        },
    }
    (deep,) = _conversations(_read(_write(tmp_path, data)))
    assert len(deep.messages) == 3002
    assert deep.branches == 1  # n0: the shown answer and the stored branch
    assert deep.conversation.active_leaf_id == derived_id("chatbox", "message", "deep/shown")


def test_errors_from_chatbox_stay_on_their_message(tmp_path):
    data = {
        "chat-sessions-list": [{"id": "e", "name": "E"}],
        "session:e": {
            "id": "e",
            "messages": [
                {"id": "q", "role": "user", "contentParts": [{"type": "text", "text": "?"}]},
                {"id": "r", "role": "assistant", "contentParts": [], "error": "401 Unauthorized"},
            ],
        },
    }
    (chat,) = _conversations(_read(_write(tmp_path, data)))
    assert chat.messages[1].parts == [ErrorPart("401 Unauthorized")]


# --- into a real database ---------------------------------------------------------------


def _import_all(db: Database, path: Path) -> int:
    added = 0
    for item in _conversations(_read(path)):
        added += import_conversation(db, item.conversation, list(item.messages)).added
    return added


def test_importing_twice_adds_nothing_and_a_newer_backup_adds_only_the_new_message(tmp_path, db):
    assert _import_all(db, BACKUP) == 9
    assert _import_all(db, BACKUP) == 0

    newer = json.loads(BACKUP.read_text(encoding="utf-8"))
    newer["session:" + TRIP]["messages"].append(
        {
            "id": "m-u4",
            "role": "user",
            "contentParts": [{"type": "text", "text": "还有一个问题：岚山怎么去？"}],
            "timestamp": 1710003800000,
        }
    )
    newer["__exported_at"] = "2025-03-20T08:30:00.000Z"
    assert _import_all(db, _write(tmp_path, newer, "newer.json")) == 1

    repository = ChatRepository(db)
    conversation_id = derived_id("chatbox", "conversation", TRIP)
    stored = repository.get_conversation(conversation_id)
    assert stored is not None and stored.title == "京都旅行 Kyoto trip"
    new = repository.get_message(derived_id("chatbox", "message", f"{TRIP}/m-u4"))
    assert new is not None and new.text == "还有一个问题：岚山怎么去？"
    assert new.parent_id == derived_id("chatbox", "message", f"{TRIP}/m-a3")
