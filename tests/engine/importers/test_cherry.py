"""Cherry Studio backups: the legacy data.json (bare, zipped, and the older inline-message
kind) read into conversations — the tree of several replies to one question, the reply
Cherry uses as the active one, parts, timestamps, what is skipped and why — and the newer
"direct" backup refused in words. Imports go into a real database, twice."""

from __future__ import annotations

import copy
import json
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
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
from desktop.engine.importers import cherry
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import ImportedConversation, Skipped, derived_id
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.transfer import import_conversation

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "imports"
DATA = FIXTURES / "cherry" / "data.json"
LEGACY = FIXTURES / "cherry" / "legacy-v3.json"


def read_all(path: Path) -> list[ImportedConversation | Skipped]:
    with ExportFiles(path) as files:
        assert cherry.detect(files)
        return list(cherry.read(files))


def conversations(items: list[ImportedConversation | Skipped]) -> list[ImportedConversation]:
    return [item for item in items if isinstance(item, ImportedConversation)]


def by_source(item: ImportedConversation, source_id: str) -> Message:
    wanted = derived_id("cherry", "message", source_id)
    return next(m for m in item.messages if m.id == wanted)


def mid(source_id: str) -> str:
    return derived_id("cherry", "message", source_id)


def parts_of(message: Message, kind: type) -> list[Any]:
    return [p for p in message.parts if isinstance(p, kind)]


@pytest.fixture
def db(tmp_path) -> Iterator[Database]:
    database = Database.open(tmp_path / "parley.db")
    try:
        yield database
    finally:
        database.close()


def zipped(tmp_path: Path, data: bytes, name: str = "cherry-studio.202406011000.zip") -> Path:
    """A backup zip as Cherry's legacy backup writes it: data.json and the Data folder."""
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data.json", data)
        archive.writestr("Data/Files/file-1.jpg", b"\xff\xd8\xff\xe0 not really a jpeg")
    return path


def test_the_topics_become_conversations_and_the_rest_is_skipped_with_reasons():
    items = read_all(DATA)
    found = conversations(items)
    assert [c.conversation.title for c in found] == [
        "京都旅行计划",
        "How do I reverse a list in Python?",  # no persisted title: the first question
    ]
    assert [len(c.messages) for c in found] == [5, 5]
    assert [s for s in items if isinstance(s, Skipped)] == [
        Skipped("空的话题", "no messages"),
        Skipped("topic 4", "not a topic record"),
        Skipped("topic-broken", "its messages are not a list"),
        Skipped("默认话题", "no messages"),  # listed by an assistant, never stored
    ]
    trip = found[0]
    assert trip.conversation.id == derived_id("cherry", "conversation", "topic-trip")
    assert trip.skipped == (
        Skipped("message 5 of “京都旅行计划”", "not a message record"),
        Skipped("message 8 of “京都旅行计划”", "its content is not in the backup"),
    )


def test_two_replies_to_one_question_are_siblings_and_the_newest_is_the_active_one():
    trip = conversations(read_all(DATA))[0]
    parents = {m.id: m.parent_id for m in trip.messages}
    assert parents == {
        mid("m-u1"): None,
        mid("m-a1"): mid("m-u1"),
        mid("m-a2"): mid("m-u1"),  # a second model asked at once: a sibling
        # the system note between them is hidden; the next question continues from the
        # reply Cherry went on with (the newest, none being marked)
        mid("m-u2"): mid("m-a2"),
        mid("m-a3"): mid("m-u2"),
    }
    assert trip.branches == 1
    assert trip.conversation.active_leaf_id == mid("m-a3")


def test_a_reply_marked_useful_is_the_one_the_conversation_goes_on_from():
    chat = conversations(read_all(DATA))[1]
    assert by_source(chat, "c-a2").parent_id == mid("c-u1")
    assert by_source(chat, "c-u2").parent_id == mid("c-a1")  # c-a1 is marked useful
    last = chat.messages[-1]
    assert last.id == derived_id("cherry", "message", f"{chat.conversation.id}#5")  # no id
    assert last.parent_id == mid("c-u2")
    assert chat.conversation.active_leaf_id == last.id
    assert chat.branches == 1


def test_blocks_become_text_reasoning_tool_calls_and_notices():
    trip, chat = conversations(read_all(DATA))
    question = by_source(trip, "m-u1")
    assert question.role is Role.USER and question.model is None
    assert question.text == "我想去京都玩三天，有什么建议？"
    assert [p.text for p in parts_of(question, NoticePart)] == [
        "An image was attached here in Cherry Studio; it was not imported."
    ]
    assert trip.images == 1
    assert trip.notes == ("1 image(s) or file(s) attached in Cherry Studio were not imported.",)

    thought = by_source(trip, "m-a1")
    assert thought.parts[0] == ReasoningPart(
        "用户想要三天的京都行程，先按区域划分：东山、岚山、伏见。", duration_ms=2150
    )
    assert thought.text == "第一天：清水寺和祇园；第二天：岚山竹林；第三天：伏见稻荷大社。"
    assert thought.model == ModelRef("cherry", "gpt-4o")
    assert thought.usage is not None and thought.usage.output_tokens == 340

    cited = by_source(trip, "m-a2")
    assert cited.model == ModelRef("cherry", "deepseek-chat")
    (sources,) = parts_of(cited, NoticePart)
    assert sources.text == "This answer cited 2 source(s) in Cherry Studio."
    assert sources.detail == (
        "京都观光指南 — https://kyoto.travel/zh/\nKyoto bus pass — https://www.city.kyoto.lg.jp/kotsu/"
    )

    answer = by_source(trip, "m-a3")
    tool, text, fenced = answer.parts
    assert isinstance(tool, ToolCallPart)
    assert (tool.call_id, tool.name, tool.state, tool.is_error) == (
        "call_weather_1",
        "get_weather",
        CallState.DONE,
        False,
    )
    assert json.loads(tool.arguments) == {"city": "京都", "day": 2}
    assert tool.result == "晴，18–25°C"
    assert text == TextPart("第二天天气晴朗：上午竹林小径，中午汤豆腐，下午嵯峨野小火车。")
    assert fenced == TextPart(
        "```python\nroute = ['竹林小径', '天龙寺', '渡月桥']\nprint(' → '.join(route))\n```"
    )
    assert answer.usage is not None and answer.usage.input_tokens == 900

    failed = by_source(chat, "c-a2")
    assert failed.parts == [NoticePart("Cherry Studio showed an error here: 429 Too Many Requests")]
    attached = by_source(chat, "c-u2")
    assert attached.parts[1] == NoticePart(
        "The file itinerary.pdf was attached here in Cherry Studio; it was not imported."
    )
    assert chat.messages[-1].model == ModelRef("cherry", "GPT-4o mini")


def test_times_are_kept_and_a_message_without_one_comes_just_after_its_parent():
    trip, chat = conversations(read_all(DATA))
    assert by_source(trip, "m-u1").created_at == datetime(2024, 5, 1, 9, 1, tzinfo=UTC)
    assert trip.conversation.created_at == datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
    assert trip.conversation.updated_at == datetime(2024, 5, 1, 9, 20, tzinfo=UTC)
    assert trip.conversation.pinned
    question = by_source(chat, "c-u2")
    assert chat.messages[-1].created_at == question.created_at + timedelta(microseconds=1)
    assert chat.conversation.created_at == datetime(2024, 6, 1, 10, 0, tzinfo=UTC)


def test_an_older_backup_with_the_content_inline_reads_the_same_way():
    (ramen,) = conversations(read_all(LEGACY))
    assert ramen.conversation.title == "Tokyo ramen"
    question, answer = ramen.messages
    assert question.text == "东京哪家拉面好吃？" and ramen.images == 1
    assert answer.parent_id == question.id
    assert answer.created_at == datetime(2024, 4, 20, 12, 0, 9, tzinfo=UTC)
    reasoning, tool, text = answer.parts
    assert reasoning == ReasoningPart("先想想东京的有名拉面店。", duration_ms=900)
    assert isinstance(tool, ToolCallPart)
    assert (tool.name, tool.result, tool.state) == ("search_places", "一兰, 阿夫利", CallState.DONE)
    assert text == TextPart("推荐一兰和阿夫利。")
    assert answer.model == ModelRef("cherry", "qwen-max")


def test_the_zip_reads_like_the_bare_file(tmp_path):
    path = zipped(tmp_path, DATA.read_bytes())
    from_zip = read_all(path)
    assert from_zip == read_all(DATA)


def test_a_direct_backup_is_recognised_and_refused_in_words(tmp_path):
    path = tmp_path / "cherry-studio.20250301.host.mac.zip"
    with zipfile.ZipFile(path, "w") as archive:
        metadata = {"version": 6, "timestamp": 1740787200000, "appName": "Cherry Studio"}
        archive.writestr("metadata.json", json.dumps(metadata))
        archive.writestr("IndexedDB/file__0.indexeddb.leveldb/CURRENT", "MANIFEST-000001\n")
        archive.writestr("IndexedDB/file__0.indexeddb.leveldb/000003.log", b"\x00\x01leveldb")
        archive.writestr("Local Storage/leveldb/000003.log", b"\x00\x02leveldb")
        archive.writestr("Data/Files/x.png", b"png")
    with ExportFiles(path) as files:
        assert cherry.detect(files)
        with pytest.raises(ExportError) as caught:
            list(cherry.read(files))
    words = str(caught.value)
    assert "LevelDB" in words and "earlier backups" in words and "data.json" in words

    # The same folders without the metadata (an unzipped copy) are recognised too.
    folder = tmp_path / "unzipped"
    (folder / "IndexedDB" / "file__0.indexeddb.leveldb").mkdir(parents=True)
    (folder / "IndexedDB" / "file__0.indexeddb.leveldb" / "CURRENT").write_text("MANIFEST\n")
    with ExportFiles(folder) as files:
        assert cherry.detect(files)
        with pytest.raises(ExportError):
            list(cherry.read(files))


def test_other_clients_exports_and_random_json_are_not_taken_for_cherry(tmp_path):
    others = [p for p in sorted(FIXTURES.iterdir()) if p.is_dir() and p.name != "cherry"]
    candidates = others + [f for d in others for f in sorted(d.rglob("*.json")) if f.is_file()]
    assert candidates  # the other importers' fixtures
    random_json = tmp_path / "data.json"
    random_json.write_text(json.dumps({"indexedDB": "no", "topics": [1, 2]}), encoding="utf-8")
    listing = tmp_path / "list.json"
    listing.write_text(json.dumps([{"indexedDB": {"topics": []}}]), encoding="utf-8")
    for path in [*candidates, random_json, listing]:
        with ExportFiles(path) as files:
            assert not cherry.detect(files), path


def test_hostile_shapes_are_skipped_not_raised(tmp_path):
    data = json.loads(DATA.read_text(encoding="utf-8"))
    data["localStorage"]["persist:cherry-studio"] = "{not json"
    data["time"] = 10**400
    topic = data["indexedDB"]["topics"][0]
    topic["messages"][0]["blocks"] = [None, 7, "b-u1-text", {"id": "x"}]
    topic["messages"][1]["role"] = ["assistant"]
    topic["messages"][2]["createdAt"] = 12
    topic["messages"][2]["usage"] = {"inputTokens": "many"}
    data["indexedDB"]["message_blocks"].append({"id": "b-weird", "type": "tool", "toolName": 5})
    data["indexedDB"]["message_blocks"].append(
        {"id": "b-deep", "type": "citation", "response": [[[[[[["https://deep.example"]]]]]]]}
    )
    topic["messages"].append(
        {"id": "m-odd", "role": "assistant", "askId": 42, "blocks": ["b-weird", "b-deep"]}
    )
    topic["messages"].append({"id": "m-u1", "role": "user", "blocks": ["b-u2-text"]})
    path = tmp_path / "data.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    items = read_all(path)
    trip = conversations(items)[0]
    assert trip.conversation.title == "我想去京都玩三天，有什么建议？"  # titles unreadable
    assert Skipped(
        "message 2 of “topic-trip”", "its role “['assistant']” is not one Parley has"
    ) in (trip.skipped)
    assert Skipped("message 10 of “topic-trip”", "its id appears twice in the topic") in (
        trip.skipped
    )
    odd = by_source(trip, "m-odd")
    assert isinstance(odd.parts[0], ToolCallPart) and odd.parts[0].name == "tool"
    assert odd.parts[1] == NoticePart(
        "This answer cited 1 source(s) in Cherry Studio.", detail="https://deep.example"
    )


def test_importing_twice_adds_nothing_and_a_newer_backup_adds_only_its_new_message(db, tmp_path):
    def import_all(path: Path) -> tuple[int, int]:
        added = skipped = 0
        for item in conversations(read_all(path)):
            result = import_conversation(db, item.conversation, list(item.messages))
            added, skipped = added + result.added, skipped + result.skipped
        return added, skipped

    path = zipped(tmp_path, DATA.read_bytes())
    assert import_all(path) == (10, 0)
    assert import_all(path) == (0, 10)

    newer: dict[str, Any] = copy.deepcopy(json.loads(DATA.read_text(encoding="utf-8")))
    trip = newer["indexedDB"]["topics"][0]["messages"]
    trip.append(
        {
            "id": "m-u3",
            "role": "user",
            "assistantId": "asst-travel",
            "topicId": "topic-trip",
            "createdAt": "2024-05-01T09:30:00.000Z",
            "status": "success",
            "blocks": ["b-u3"],
        }
    )
    newer["indexedDB"]["message_blocks"].append(
        {"id": "b-u3", "messageId": "m-u3", "type": "main_text", "content": "第三天呢？"}
    )
    later = tmp_path / "later"
    later.mkdir()
    newer_path = zipped(later, json.dumps(newer, ensure_ascii=False).encode("utf-8"))
    assert import_all(newer_path) == (1, 10)

    stored = ChatRepository(db).get_conversation(derived_id("cherry", "conversation", "topic-trip"))
    assert stored is not None and stored.title == "京都旅行计划"
