"""LobeChat's export file read into Parley conversations, and imported into a real database.

The fixture is written by hand in the shape of LobeChat's own exports (its migration
fixtures and `src/types/exportConfig.ts`): two agents and the default "inbox" session, a
regenerated answer (a branch), an image and a file, a system message, a tool call with
two results (one failed), CJK text, an empty topic, a broken topic, a broken message.
"""

from __future__ import annotations

import ast
import copy
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from desktop.core.models import (
    CallState,
    ErrorPart,
    Message,
    NoticePart,
    ReasoningPart,
    Role,
    TextPart,
    ToolCallPart,
)
from desktop.engine.importers import lobechat
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import ImportedConversation, Skipped, derived_id
from desktop.storage.database import Database
from desktop.storage.transfer import import_conversation

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "imports"
EXPORT = FIXTURES / "lobechat" / "lobechat-export.json"


def _read(path: Path) -> list[ImportedConversation | Skipped]:
    with ExportFiles(path) as files:
        return list(lobechat.read(files))


def _conversations(items: list[ImportedConversation | Skipped]) -> dict[str, ImportedConversation]:
    return {i.conversation.title: i for i in items if isinstance(i, ImportedConversation)}


def _by_source(item: ImportedConversation, source_id: str) -> Message:
    wanted = derived_id("lobechat", "message", source_id)
    return next(m for m in item.messages if m.id == wanted)


def _ms(value: int) -> datetime:
    return datetime.fromtimestamp(value / 1000, UTC)


def _write(tmp_path: Path, data: object, name: str = "export.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


# ---------------------------------------------------------------- detect


def test_detect_knows_a_lobechat_export_by_its_content(tmp_path):
    with ExportFiles(EXPORT) as files:
        assert lobechat.detect(files)
    renamed = tmp_path / "backup-2024.txt"  # the name says nothing; the content does
    renamed.write_bytes(EXPORT.read_bytes())
    with ExportFiles(renamed) as files:
        assert lobechat.detect(files)


def test_detect_says_no_to_other_clients_exports():
    others = [
        entry
        for folder in sorted(FIXTURES.iterdir())
        if folder.is_dir() and folder.name != "lobechat"
        for entry in sorted(folder.iterdir())
    ]
    for entry in others:  # whatever the other importers' fixtures are at the time
        with ExportFiles(entry) as files:
            assert not lobechat.detect(files), entry


@pytest.mark.parametrize(
    "data",
    [
        {"random": [1, 2, 3]},
        [{"id": "c1", "mapping": {}, "current_node": "x"}],  # ChatGPT-like
        {"state": {"messages": []}},  # no version, no sessions
        {"version": 7, "exportType": "settings", "state": {"settings": {}}},
        {"version": 7, "exportType": "agents", "state": {"sessions": [], "sessionGroups": []}},
        {"data": {"messages": [], "sessions": []}, "mode": "pglite", "schemaHash": "abc"},
        {"version": 5, "state": {"messages": {"not": "a list"}, "sessions": []}},
    ],
)
def test_detect_says_no_to_other_json(tmp_path, data):
    with ExportFiles(_write(tmp_path, data)) as files:
        assert not lobechat.detect(files)


def test_detect_says_no_to_text_that_is_not_json(tmp_path):
    path = tmp_path / "notes.json"
    path.write_text('{"state": {"messages": [', encoding="utf-8")
    with ExportFiles(path) as files:
        assert not lobechat.detect(files)
        with pytest.raises(ExportError):
            list(lobechat.read(files))


# ---------------------------------------------------------------- read


def test_read_gives_one_conversation_per_topic_and_per_session_without_topic():
    items = _read(EXPORT)
    conversations = _conversations(items)
    assert sorted(conversations) == sorted(
        ["Prisma 中的 cuid 函数", "杭州天气查询", "Travel helper", "Default"]
    )
    assert {title: len(c.messages) for title, c in conversations.items()} == {
        "Prisma 中的 cuid 函数": 5,
        "杭州天气查询": 3,  # the system message and the two tool messages are not messages
        "Travel helper": 4,
        "Default": 2,
    }
    for item in conversations.values():
        assert all(m.conversation_id == item.conversation.id for m in item.messages)
    prisma = conversations["Prisma 中的 cuid 函数"]
    assert prisma.conversation.id == derived_id("lobechat", "conversation", "CZg3IEdy")


def test_what_is_left_out_is_named_with_a_reason():
    items = _read(EXPORT)
    skipped = [i for i in items if isinstance(i, Skipped)]
    assert Skipped("Empty topic", "no messages") in skipped
    assert Skipped("Broken topic", "This topic is not in a form Parley can read.") in skipped
    assert Skipped("message 19", "This message is not in a form Parley can read.") in skipped
    assert len(skipped) == 3
    conversations = _conversations(items)
    assert conversations["Travel helper"].skipped == (
        Skipped("message 3 of “Travel helper”", "Its content is not text."),
    )
    assert conversations["杭州天气查询"].skipped == (
        Skipped("message 1 of “杭州天气查询”", "A system message; Parley does not import them."),
    )


def test_a_regenerated_answer_is_a_branch_and_the_newest_leaf_is_active():
    prisma = _conversations(_read(EXPORT))["Prisma 中的 cuid 函数"]
    user1, first, second = (_by_source(prisma, s) for s in ("msgUser1", "msgAsst1", "msgAsst1b"))
    user2, answer2 = _by_source(prisma, "msgUser2"), _by_source(prisma, "msgAsst2")
    assert user1.parent_id is None
    assert first.parent_id == second.parent_id == user1.id  # siblings: two versions
    # msgUser2 names no parent: it follows the message before it in time, the newer answer.
    assert user2.parent_id == second.id
    assert answer2.parent_id == user2.id
    assert prisma.branches == 1
    assert prisma.conversation.active_leaf_id == answer2.id


def test_a_missing_or_unknown_parent_makes_a_chronological_chain():
    conversations = _conversations(_read(EXPORT))
    travel = conversations["Travel helper"]
    u1, a1, u2, a2 = (
        _by_source(travel, s) for s in ("travelU1", "travelA1", "travelU2", "travelA2")
    )
    assert (u1.parent_id, a1.parent_id, u2.parent_id, a2.parent_id) == (None, u1.id, a1.id, u2.id)
    default = conversations["Default"]
    hello, answer = _by_source(default, "inboxU1"), _by_source(default, "inboxA1")
    assert answer.parent_id == hello.id  # its parentId names a message that is not there
    assert default.branches == 0 and default.conversation.active_leaf_id == answer.id


def test_reasoning_models_images_files_and_errors_become_parts():
    conversations = _conversations(_read(EXPORT))
    prisma = conversations["Prisma 中的 cuid 函数"]
    thought = _by_source(prisma, "msgAsst1b")
    assert thought.parts[0] == ReasoningPart(
        "The person asks about Prisma's cuid default. 先解释用途。", duration_ms=3250
    )
    assert isinstance(thought.parts[1], TextPart) and "cjld2cjxh0000qzrmn831i7rn" in thought.text
    assert str(thought.model) == "lobechat/deepseek-reasoner"
    assert _by_source(prisma, "msgAsst1").model is not None
    user1 = _by_source(prisma, "msgUser1")
    assert user1.model is None
    assert user1.text == "Prisma 的 cuid() 是做什么的？"
    notices = [p for p in user1.parts if isinstance(p, NoticePart)]
    assert len(notices) == 1 and "LobeChat" in notices[0].text and "image" in notices[0].text
    assert prisma.images == 1
    weather = conversations["杭州天气查询"]
    asked = _by_source(weather, "WwRdrdCz")
    assert [p.text for p in asked.parts if isinstance(p, NoticePart)] == [
        "The file “行程.pdf” was attached here in LobeChat; it was not imported."
    ]
    assert weather.images == 1
    failed = _by_source(conversations["Travel helper"], "travelA2")
    assert failed.parts == [ErrorPart("Rate limit reached for claude-3-5-sonnet")]  # no "..."
    for item in conversations.values():
        assert all(m.status.value == "complete" for m in item.messages)


def test_tool_results_are_folded_into_the_assistant_calls():
    weather = _conversations(_read(EXPORT))["杭州天气查询"]
    asked = _by_source(weather, "WwRdrdCz")
    calling = _by_source(weather, "tool_calls_UQ5VAGkk")
    answer = _by_source(weather, "hbqsYoMn")
    # The system message above the question is skipped: the question becomes the root.
    assert asked.parent_id is None
    assert calling.parent_id == asked.id
    # The answer named the tool message as its parent; that is folded into the call.
    assert answer.parent_id == calling.id
    assert weather.conversation.active_leaf_id == answer.id
    calls = [p for p in calling.parts if isinstance(p, ToolCallPart)]
    assert [(c.call_id, c.name, c.state, c.is_error) for c in calls] == [
        ("tool_call_UQ5VAGkk", "fetchCurrentWeather", CallState.DONE, False),
        ("tool_call_Search01", "searchWeb", CallState.ERROR, True),
    ]
    assert json.loads(calls[0].arguments) == {"city": "杭州"}
    assert "中雨" in (calls[0].result or "")
    assert calls[1].result == "search engine unavailable"
    assert calling.role == Role.ASSISTANT and calling.text == ""


def test_timestamps_are_kept():
    conversations = _conversations(_read(EXPORT))
    prisma = conversations["Prisma 中的 cuid 函数"]
    assert _by_source(prisma, "msgUser1").created_at == _ms(1715394840000)
    assert _by_source(prisma, "msgAsst2").created_at == _ms(1715394960000)
    assert prisma.conversation.created_at == _ms(1715394835000)  # the topic's
    assert prisma.conversation.updated_at == _ms(1715395000000)  # the topic's, newest
    default = conversations["Default"]
    assert default.conversation.created_at == _ms(1715300000000)
    assert default.conversation.updated_at == _ms(1715300005000)
    weather = conversations["杭州天气查询"]
    assert _by_source(weather, "tool_calls_UQ5VAGkk").created_at == _ms(1715395810016)


def test_an_agent_with_a_system_prompt_is_noted_once():
    conversations = _conversations(_read(EXPORT))
    note = (
        "The agent “Postgresql 指南” had a system prompt; "
        "Parley did not create an assistant for it."
    )
    notes = [n for item in conversations.values() for n in item.notes]
    assert notes == [note]  # two topics of that agent, one note; "Travel helper" has none


def test_messages_without_ids_or_times_get_stable_ordered_ones(tmp_path):
    data = {
        "version": 5,
        "exportType": "sessions",
        "state": {
            "sessions": [],
            "topics": [{"id": "t1", "title": "无时间", "createdAt": 1700000000000}],
            "messages": [
                {"role": "user", "content": "一", "topicId": "t1"},
                {"role": "assistant", "content": "二", "topicId": "t1"},
                {"role": "user", "content": "三", "topicId": "t1"},
            ],
        },
    }
    path = _write(tmp_path, data)
    first, again = _read(path), _read(path)
    item = _conversations(first)["无时间"]
    assert [m.id for m in item.messages] == [m.id for m in _conversations(again)["无时间"].messages]
    times = [m.created_at for m in item.messages]
    assert times == sorted(times) and len(set(times)) == 3
    assert times[0] >= _ms(1700000000000)
    assert [m.parent_id for m in item.messages] == [None, item.messages[0].id, item.messages[1].id]


HOSTILE_MESSAGES: list[object] = [
    None,
    "text",
    [],
    {"role": None, "content": "x", "topicId": "h"},
    {"role": "robot", "content": "x", "topicId": "h"},
    {"role": "user", "content": 5, "topicId": "h"},
    {"id": 7, "role": "user", "content": "ok", "topicId": "h", "createdAt": "garbage"},
    {"id": "a", "role": "user", "content": "a", "topicId": "h", "parentId": "b"},
    {"id": "b", "role": "assistant", "content": "b", "topicId": "h", "parentId": "a"},
    {"id": "a", "role": "user", "content": "duplicate", "topicId": "h"},
    {
        "id": "c",
        "role": "assistant",
        "content": None,
        "topicId": "h",
        "tools": "not a list",
        "reasoning": ["no"],
        "imageList": {"no": 1},
        "fileList": [None, 3],
        "error": "text",
        "createdAt": True,
    },
    {"id": "d", "role": "tool", "content": "orphan result", "topicId": "lonely"},
    {"id": "e", "role": "tool", "content": "who asked?", "topicId": "h", "parentId": "c"},
    {"id": "f", "role": "user", "content": "x", "topicId": ["not", "a", "string"]},
    {"id": "g", "role": "user", "content": "huge time", "topicId": "h", "createdAt": 1e300},
]


def test_hostile_input_is_skipped_with_reasons_not_crashes(tmp_path):
    data = {
        "version": "x",
        "state": {
            "sessions": {"not": "a list"},
            "topics": [None, {"id": "h", "title": {"no": 1}, "createdAt": "soon"}],
            "messages": HOSTILE_MESSAGES,
        },
    }
    items = _read(_write(tmp_path, data))
    skipped = [i for i in items if isinstance(i, Skipped)]
    conversations = [i for i in items if isinstance(i, ImportedConversation)]
    assert any(s.where == "topic 1" for s in skipped)
    # The "lonely" topic held only a tool result with no call: nothing is left of it.
    assert Skipped("Default", "no messages") in skipped
    hostile = next(
        c for c in conversations if c.conversation.id == derived_id("lobechat", "conversation", "h")
    )
    reasons = [s.reason for s in hostile.skipped]
    assert "Its content is not text." in reasons
    assert "Its id appears twice in the export." in reasons
    assert any("robot" in r for r in reasons)
    by_id = {m.id: m for m in hostile.messages}
    for message in hostile.messages:  # a tree: every parent is there, no cycle
        seen = set()
        current = message
        while current.parent_id is not None:
            assert current.parent_id in by_id and current.id not in seen
            seen.add(current.id)
            current = by_id[current.parent_id]
    leaf = by_id[hostile.conversation.active_leaf_id or ""]
    assert leaf.id not in {m.parent_id for m in hostile.messages}
    notice = [p for m in hostile.messages for p in m.parts if isinstance(p, NoticePart)]
    assert any(p.detail == "who asked?" for p in notice)  # a result with no known call


def test_user_visible_sentences_go_through_tr():
    source = Path(lobechat.__file__).read_text(encoding="utf-8")
    shown = {"Skipped", "NoticePart", "ErrorPart", "ExportError"}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        if name in shown:
            for argument in node.args:
                assert not isinstance(argument, ast.JoinedStr), ast.unparse(node)
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    assert " " not in argument.value.strip(), ast.unparse(node)


# ---------------------------------------------------------------- into the database


def _import_all(db: Database, items: list[ImportedConversation | Skipped]) -> int:
    added = 0
    for item in items:
        if isinstance(item, ImportedConversation):
            added += import_conversation(db, item.conversation, list(item.messages)).added
    return added


def test_importing_twice_adds_nothing_and_a_newer_export_adds_only_the_new(tmp_path):
    first = _read(EXPORT)
    total = sum(len(i.messages) for i in first if isinstance(i, ImportedConversation))
    with Database.open(tmp_path / "parley.db") as db:
        assert _import_all(db, first) == total == 14
        again = [
            (i.conversation, list(i.messages))
            for i in _read(EXPORT)
            if isinstance(i, ImportedConversation)
        ]
        assert all(import_conversation(db, c, m).added == 0 for c, m in again)

        newer = copy.deepcopy(json.loads(EXPORT.read_text(encoding="utf-8")))
        newer["state"]["messages"].insert(
            0,  # anywhere in the list: order comes from the times and parents
            {
                "id": "msgUser3",
                "role": "user",
                "content": "那 nanoid 呢？",
                "sessionId": "06cc3e20-e870-4099-a619-c07a849d742d",
                "topicId": "CZg3IEdy",
                "createdAt": 1715395100000,
                "updatedAt": 1715395100000,
            },
        )
        later = _read(_write(tmp_path, newer, "newer.json"))
        assert _import_all(db, later) == 1
        prisma = _conversations(later)["Prisma 中的 cuid 函数"]
        added = _by_source(prisma, "msgUser3")
        assert added.parent_id == _by_source(prisma, "msgAsst2").id
        assert prisma.conversation.active_leaf_id == added.id
