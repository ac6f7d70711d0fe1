"""The ChatGPT export importer on a hand-written, real-shaped `conversations.json`: the
node tree with a regenerated answer, hidden/system nodes left out with their children
re-attached, `current_node` as the active leaf, thoughts and tool calls folded into one
assistant turn, images the export holds as files and the others as notices, skipped
items with reasons, and idempotent imports into a real database."""

from __future__ import annotations

import ast
import copy
import json
import zipfile
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
from desktop.engine.importers import chatgpt, chatgpt_content
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import (
    ImportedConversation,
    ImportedFile,
    Skipped,
    derived_id,
)
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.transfer import import_conversation

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "imports"
FIXTURE = FIXTURES / "chatgpt"
KYOTO = "6650a1b2-0000-4000-8000-00000000c0a1"
WEATHER = "6650a1b2-0000-4000-8000-00000000c0a2"
IMAGE_NOTICE = "An image was attached here in ChatGPT; it was not imported."


def _m(node: str) -> str:
    return derived_id("chatgpt", "message", node)


def _c(source_id: str) -> str:
    return derived_id("chatgpt", "conversation", source_id)


def _read(path: Path) -> list[ImportedConversation | Skipped]:
    with ExportFiles(path) as files:
        return list(chatgpt.read(files))


def _detect(path: Path) -> bool:
    with ExportFiles(path) as files:
        return chatgpt.detect(files)


def _chats(items: list[ImportedConversation | Skipped]) -> dict[str, ImportedConversation]:
    return {i.conversation.id: i for i in items if isinstance(i, ImportedConversation)}


def _by_id(chat: ImportedConversation) -> dict[str, Message]:
    return {m.id: m for m in chat.messages}


def _chat(source_id: str) -> ImportedConversation:
    return _chats(_read(FIXTURE))[_c(source_id)]


def _export(tmp_path: Path, data: Any, name: str = "conversations.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _fixture_data() -> list[Any]:
    return json.loads((FIXTURE / "conversations.json").read_text(encoding="utf-8"))


def _node(key: str, parent: str, role: str, content: Any, **message: Any) -> Any:
    return {
        "id": key,
        "parent": parent,
        "children": [],
        "message": {
            "id": key,
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": 1714560000.0,
            "content": content,
            "metadata": {},
            "recipient": "all",
            **message,
        },
    }


def _text(text: str) -> dict[str, Any]:
    return {"content_type": "text", "parts": [text]}


# detect


def test_detect_says_yes_to_the_export_folder_zip_and_a_renamed_file(tmp_path: Path) -> None:
    assert _detect(FIXTURE)
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for file in FIXTURE.iterdir():
            zipped.write(file, f"chatgpt-export/{file.name}")
    assert _detect(archive)
    renamed = tmp_path / "my history.json"
    renamed.write_bytes((FIXTURE / "conversations.json").read_bytes())
    assert _detect(renamed)


def test_detect_says_no_to_the_other_clients_and_to_random_json(tmp_path: Path) -> None:
    others = [p for p in sorted(FIXTURES.iterdir()) if p.is_dir() and p.name != "chatgpt"]
    for other in others:
        assert not _detect(other), other.name
        for file in sorted(other.rglob("*.json")):
            assert not _detect(file), file
    claude_like = tmp_path / "claude-like"
    claude_like.mkdir()
    _export(claude_like, [{"uuid": "u", "name": "n", "chat_messages": [], "created_at": "2024"}])
    assert not _detect(claude_like)
    assert not _detect(_export(tmp_path, {"mapping": {}, "current_node": "x"}, "one.json"))
    assert not _detect(_export(tmp_path, [1, "two", None], "list.json"))
    assert not _detect(_export(tmp_path, [], "empty.json"))
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\xff\xfe not json at all [")
    assert not _detect(garbage)


def test_detect_looks_past_a_malformed_first_entry(tmp_path: Path) -> None:
    data = ["not a conversation", *_fixture_data()]
    assert _detect(_export(tmp_path, data))


# read: conversations, tree, active leaf


def test_conversations_and_what_was_skipped() -> None:
    items = _read(FIXTURE)
    chats = _chats(items)
    assert set(chats) == {_c(KYOTO), _c(WEATHER)}
    assert len(chats[_c(KYOTO)].messages) == 5
    assert len(chats[_c(WEATHER)].messages) == 3
    skipped = [i for i in items if isinstance(i, Skipped)]
    assert [(s.where, s.reason) for s in skipped] == [
        ("Empty chat", "no messages"),
        ("Broken tree", "its message tree is missing or unreadable"),
        ("conversation 5", "it is not a conversation (not a JSON object)"),
    ]


def test_tree_keeps_the_regenerated_answer_as_a_sibling() -> None:
    chat = _chat(KYOTO)
    parents = {m.id: m.parent_id for m in chat.messages}
    # The system root and the hidden custom-instructions node are gone: the first
    # question is a root.
    assert parents == {
        _m("u-1"): None,
        _m("a-1-thoughts"): _m("u-1"),
        _m("u-2"): _m("a-1-thoughts"),
        _m("a-3"): _m("u-2"),
        _m("a-2"): _m("u-1"),
    }
    assert chat.branches == 1
    assert chat.conversation.title == "京都旅行 Kyoto trip"
    assert chat.conversation.id == _c(KYOTO)
    assert all(m.conversation_id == _c(KYOTO) for m in chat.messages)


def test_current_node_is_the_active_leaf_even_when_another_leaf_is_newer() -> None:
    chat = _chat(KYOTO)
    by_id = _by_id(chat)
    assert by_id[_m("a-2")].created_at > by_id[_m("a-3")].created_at
    assert chat.conversation.active_leaf_id == _m("a-3")


def test_without_a_current_node_the_newest_leaf_is_active(tmp_path: Path) -> None:
    data = _fixture_data()
    del data[0]["current_node"]
    chat = _chats(_read(_export(tmp_path, data)))[_c(KYOTO)]
    assert chat.conversation.active_leaf_id == _m("a-2")


def test_current_node_on_a_hidden_node_walks_up_to_the_nearest_kept_message(
    tmp_path: Path,
) -> None:
    data = _fixture_data()
    mapping = data[0]["mapping"]
    mapping["a-3"]["children"] = ["hidden-tail"]
    mapping["hidden-tail"] = _node(
        "hidden-tail",
        "a-3",
        "assistant",
        _text("memory updated"),
        metadata={"is_visually_hidden_from_conversation": True},
    )
    data[0]["current_node"] = "hidden-tail"
    chat = _chats(_read(_export(tmp_path, data)))[_c(KYOTO)]
    assert chat.conversation.active_leaf_id == _m("a-3")
    assert _m("hidden-tail") not in _by_id(chat)


def test_a_damaged_node_is_skipped_and_its_child_hangs_from_the_nearest_kept_one() -> None:
    chat = _chat(WEATHER)
    by_id = _by_id(chat)
    thanks = by_id[_m("w-u2")]
    assert thanks.text == "Danke!"
    assert thanks.parent_id == _m("w-a1")
    assert chat.conversation.active_leaf_id == _m("w-u2")
    assert [(s.where, s.reason) for s in chat.skipped] == [
        ("message 6 of “Weather search”", "it is not a JSON object"),
        (
            "message 7 of “Weather search”",
            "it was written by “critic”, which is not the person or the model",
        ),
    ]
    assert chat.conversation.archived is True


# read: parts


def test_an_assistant_turn_folds_thoughts_recap_tool_call_and_answer() -> None:
    answer = _by_id(_chat(KYOTO))[_m("a-1-thoughts")]
    assert answer.role is Role.ASSISTANT
    assert answer.model == ModelRef("chatgpt", "o3")
    reasoning, call, text = answer.parts
    assert reasoning == ReasoningPart(
        "**估算预算**\nHotels in Kyoto cost about 15000 yen a night; I should add it up.",
        duration_ms=6000,
    )
    assert isinstance(call, ToolCallPart)
    assert (call.call_id, call.name, call.arguments) == (
        "a-1-code",
        "python",
        "print(3 * 15000 + 20000)",
    )
    assert (call.result, call.state, call.is_error) == ("65000\n", CallState.DONE, False)
    assert text == TextPart("三日游预算大约 65000 日元：住宿 45000，其余 20000。")


def test_a_browsing_call_gets_its_result() -> None:
    answer = _by_id(_chat(WEATHER))[_m("w-a1")]
    call, text = answer.parts
    assert isinstance(call, ToolCallPart)
    assert call.name == "web.run"
    assert call.result == "Berlin: sunny, 21 °C"
    assert call.state is CallState.DONE
    assert text == TextPart("It is sunny in Berlin, 21 °C.")
    assert answer.model == ModelRef("chatgpt", "gpt-4o")


def test_the_photo_the_export_holds_is_a_file_and_the_pdf_it_lacks_a_notice() -> None:
    chat = _chat(KYOTO)
    question = _by_id(chat)[_m("u-2")]
    assert question.role is Role.USER
    assert question.model is None
    # The photo is shown inline and listed as an attachment: one file, no notice.
    assert question.parts == [
        TextPart("这张照片是哪里？"),
        NoticePart("The file “行程.pdf” was attached here in ChatGPT; it was not imported."),
    ]
    assert chat.files == (
        ImportedFile(
            _m("u-2"), "file-Photo123", "file-Photo123-torii.png", "torii.png", "image/png"
        ),
    )
    assert chat.images == 2  # the photo (pointer and attachment are one file) and the PDF
    assert chat.files_left_out == 1  # the PDF, which the export does not hold
    assert len(chat.notes) == 1 and chat.notes[0].startswith("1 image(s) or file(s)")


def test_cjk_text_is_intact() -> None:
    by_id = _by_id(_chat(KYOTO))
    assert by_id[_m("u-1")].text == "帮我计划去京都的三日游，预算多少？"
    assert by_id[_m("a-3")].text == "这是伏见稻荷大社的千本鸟居。"


def test_tool_output_without_a_call_and_a_failed_call(tmp_path: Path) -> None:
    root = {"id": "r", "parent": None, "children": ["q"], "message": None}
    mapping = {
        "r": root,
        "q": _node("q", "r", "user", _text("draw a cat")),
        "img": _node(
            "img",
            "q",
            "tool",
            {
                "content_type": "multimodal_text",
                "parts": [{"content_type": "image_asset_pointer", "asset_pointer": "sediment://x"}],
            },
        ),
        "call": _node(
            "call", "img", "assistant", {"content_type": "code", "text": "1/0"}, recipient="python"
        ),
        "err": _node(
            "err",
            "call",
            "tool",
            {
                "content_type": "system_error",
                "name": "ZeroDivisionError",
                "text": "division by zero",
            },
        ),
    }
    mapping["img"]["message"]["author"]["name"] = "dalle.text2im"
    mapping["err"]["message"]["author"]["name"] = "python"
    data = [{"id": "c-tools", "title": "Tools", "mapping": mapping, "current_node": "err"}]
    chat = _chats(_read(_export(tmp_path, data)))[_c("c-tools")]
    answer = _by_id(chat)[_m("img")]
    assert answer.role is Role.ASSISTANT
    assert answer.parent_id == _m("q")
    dalle, notice, failed = answer.parts
    assert isinstance(dalle, ToolCallPart)
    assert (dalle.name, dalle.state) == ("dalle.text2im", CallState.DONE)
    assert notice == NoticePart(IMAGE_NOTICE)
    assert isinstance(failed, ToolCallPart)
    assert (failed.name, failed.arguments, failed.result) == ("python", "1/0", "division by zero")
    assert (failed.state, failed.is_error) == (CallState.ERROR, True)
    assert chat.images == 1


# read: times


def test_timestamps_are_kept() -> None:
    chat = _chat(KYOTO)
    by_id = _by_id(chat)
    assert chat.conversation.created_at == datetime(2024, 5, 1, 8, 0, tzinfo=UTC)
    assert chat.conversation.updated_at == datetime(2024, 5, 1, 8, 10, 0, 500000, tzinfo=UTC)
    assert by_id[_m("u-1")].created_at == datetime(2024, 5, 1, 8, 0, 1, 250000, tzinfo=UTC)
    answer = by_id[_m("a-1-thoughts")]
    assert answer.created_at == datetime(2024, 5, 1, 8, 0, 3, tzinfo=UTC)
    assert answer.finished_at == datetime(2024, 5, 1, 8, 0, 12, tzinfo=UTC)


def test_a_message_without_a_time_gets_the_conversation_time_plus_its_place() -> None:
    by_id = _by_id(_chat(WEATHER))
    question = by_id[_m("w-u1")]
    assert question.created_at == datetime(2024, 6, 1, tzinfo=UTC) + timedelta(microseconds=1)
    assert question.created_at < by_id[_m("w-a1")].created_at


def test_messages_without_times_stay_distinct_and_after_their_parents(tmp_path: Path) -> None:
    mapping: dict[str, Any] = {"r": {"id": "r", "parent": None, "children": [], "message": None}}
    parent = "r"
    for number in range(4):
        key = f"n{number}"
        role = "user" if number % 2 == 0 else "assistant"
        mapping[key] = _node(key, parent, role, _text(f"m{number}"), create_time=None)
        parent = key
    data = [{"id": "c-none", "title": "No times", "create_time": 1714560000.0, "mapping": mapping}]
    messages = _chats(_read(_export(tmp_path, data)))[_c("c-none")].messages
    times = [m.created_at for m in messages]
    assert len(set(times)) == 4
    assert times == sorted(times)


# read: hostile and malformed input


def test_hostile_shapes_are_skipped_with_reasons_not_raised(tmp_path: Path) -> None:
    loop = {
        "x": _node("x", "y", "user", _text("x")),
        "y": _node("y", "x", "assistant", _text("y")),
    }
    weird = {
        "r": {"id": "r", "parent": None, "children": ["a"], "message": None},
        "a": _node("a", "r", "user", {"content_type": "text", "parts": [1, None, {"k": []}, "ok"]}),
        "b": {"parent": "a", "children": "nope", "message": {"author": ["user"]}},
        "c": _node("c", "a", "assistant", "not content", create_time="yesterday"),
        "d": _node("d", "a", "assistant", {"content_type": 7, "parts": "x"}, create_time=1e300),
        "e": _node("e", "a", "user", {"content_type": "text"}, metadata=[1]),
    }
    data = [
        {"id": "c-loop", "title": "Loop", "mapping": loop, "current_node": "x"},
        {"id": "c-weird", "title": 5, "mapping": weird, "current_node": ["a"], "create_time": "x"},
        {"id": None, "title": "No id", "mapping": {}},
        {"id": "c-empty", "title": "Empty", "mapping": {}},
        None,
        [],
    ]
    items = _read(_export(tmp_path, data))
    assert len(items) == 6
    loop_chat, weird_chat, no_id, empty, none, lst = items
    assert isinstance(loop_chat, Skipped)
    assert (loop_chat.where, loop_chat.reason) == ("Loop", "no messages")
    assert isinstance(weird_chat, ImportedConversation)
    assert weird_chat.conversation.title == "Untitled chat"
    assert [m.text for m in weird_chat.messages] == ["ok"]
    assert sorted(s.reason for s in weird_chat.skipped) == [
        "it names no author",
        "its content is missing or unreadable",
    ]
    assert no_id == Skipped("No id", "it has no id")
    assert empty == Skipped("Empty", "no messages")
    assert isinstance(none, Skipped) and isinstance(lst, Skipped)


def test_a_loop_of_kept_replies_is_skipped_with_its_reason(tmp_path: Path) -> None:
    mapping = {
        "r": {"id": "r", "parent": None, "children": ["q"], "message": None},
        "q": _node("q", "r", "user", _text("hello")),
        "x": _node("x", "y", "user", _text("x")),
        "y": _node("y", "x", "assistant", _text("y")),
    }
    data = [{"id": "c-partial-loop", "title": "Partly", "mapping": mapping}]
    chat = _chats(_read(_export(tmp_path, data)))[_c("c-partial-loop")]
    assert [m.text for m in chat.messages] == ["hello"]
    assert {s.reason for s in chat.skipped} == {"its replies go round in a loop"}


def test_a_truncated_file_keeps_what_came_before(tmp_path: Path) -> None:
    whole = json.dumps(_fixture_data()[:2], ensure_ascii=False)
    cut = whole[: whole.index('"Weather search"')]
    path = tmp_path / "conversations.json"
    path.write_text(cut, encoding="utf-8")
    items = _read(path)
    assert isinstance(items[0], ImportedConversation)
    assert items[0].conversation.id == _c(KYOTO)
    assert isinstance(items[1], Skipped)
    assert items[1].reason.startswith("The rest of the file is not valid JSON")
    # A conversations.json on its own holds none of the export's files: said once.
    assert len(items) == 3 and isinstance(items[2], Skipped)
    assert "Choose the export's zip file" in items[2].reason
    assert items[0].files == () and items[0].notes == ()


def test_an_export_that_is_not_a_list_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(ExportError):
        _read(_export(tmp_path, {"conversations": []}))
    folder = tmp_path / "no-conversations"
    folder.mkdir()
    (folder / "user.json").write_text("{}", encoding="utf-8")
    (folder / "chat.html").write_text("<html></html>", encoding="utf-8")
    with pytest.raises(ExportError):
        _read(folder)


def test_a_conversation_reusing_another_ones_messages_is_skipped(tmp_path: Path) -> None:
    data = _fixture_data()[:1]
    twin = copy.deepcopy(data[0])
    twin["id"] = twin["conversation_id"] = "someone-else"
    twin["title"] = "Twin"
    items = _read(_export(tmp_path, [*data, twin]))
    assert isinstance(items[0], ImportedConversation)
    assert items[1] == Skipped(
        "Twin", "it shares messages with another conversation of this export"
    )


def test_numbered_parts_of_an_export_are_all_read(tmp_path: Path) -> None:
    data = _fixture_data()
    _export(tmp_path, data[:1], "conversations-000.json")
    _export(tmp_path, data[1:2], "conversations-001.json")
    assert _detect(tmp_path)
    assert set(_chats(_read(tmp_path))) == {_c(KYOTO), _c(WEATHER)}


# importing into a real database


def _import(db: Database, path: Path) -> dict[str, int]:
    added = {}
    for item in _read(path):
        if isinstance(item, ImportedConversation):
            result = import_conversation(db, item.conversation, list(item.messages))
            added[item.conversation.id] = result.added
    return added


def test_the_zip_imports_once_and_the_second_import_adds_nothing(tmp_path: Path) -> None:
    archive = tmp_path / "chatgpt-export.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.write(FIXTURE / "conversations.json", "conversations.json")
        zipped.write(FIXTURE / "user.json", "user.json")
        zipped.writestr("chat.html", "<html><body>chat</body></html>")
        zipped.writestr("file-Photo123-torii.jpg", b"\xff\xd8\xff\xe0 not really a jpeg")
    db = Database.open(tmp_path / "parley.db")
    try:
        assert _import(db, archive) == {_c(KYOTO): 5, _c(WEATHER): 3}
        assert _import(db, archive) == {_c(KYOTO): 0, _c(WEATHER): 0}
        repo = ChatRepository(db)
        stored = repo.get_conversation(_c(KYOTO))
        assert stored is not None
        assert stored.active_leaf_id == _m("a-3")
        assert [m.text for m in repo.active_path(_c(KYOTO))] == [
            "帮我计划去京都的三日游，预算多少？",
            "三日游预算大约 65000 日元：住宿 45000，其余 20000。",
            "这张照片是哪里？",
            "这是伏见稻荷大社的千本鸟居。",
        ]
        assert len(repo.messages(_c(KYOTO))) == 5
        reloaded = {m.id: m for m in repo.messages(_c(KYOTO))}[_m("a-1-thoughts")]
        assert [type(p) for p in reloaded.parts] == [ReasoningPart, ToolCallPart, TextPart]
    finally:
        db.close()


def test_a_newer_export_adds_only_the_new_message(tmp_path: Path) -> None:
    db = Database.open(tmp_path / "parley.db")
    try:
        assert _import(db, FIXTURE) == {_c(KYOTO): 5, _c(WEATHER): 3}
        newer = _fixture_data()
        mapping = newer[0]["mapping"]
        mapping["a-3"]["children"] = ["u-4"]
        mapping["u-4"] = _node("u-4", "a-3", "user", _text("谢谢！"), create_time=1714552000.0)
        newer[0]["current_node"] = "u-4"
        newer_dir = tmp_path / "newer"
        newer_dir.mkdir()
        _export(newer_dir, newer)
        assert _import(db, newer_dir) == {_c(KYOTO): 1, _c(WEATHER): 0}
        stored = ChatRepository(db).messages(_c(KYOTO))
        assert len(stored) == 6
        assert {m.id: m for m in stored}[_m("u-4")].parent_id == _m("a-3")
    finally:
        db.close()


# house rules


def test_every_sentence_goes_through_tr_as_a_literal() -> None:
    for module in (chatgpt, chatgpt_content):
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        calls = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr"
        ]
        assert calls, module.__name__
        for call in calls:
            assert isinstance(call.args[0], ast.Constant), ast.unparse(call)
            assert isinstance(call.args[0].value, str), ast.unparse(call)
