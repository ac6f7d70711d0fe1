"""Jan's `threads/` folder: recognised as the data folder, the threads folder itself or a
zip; read into conversations with versions (edits), the version Jan showed as the active
one, reasoning, tool calls, a picture kept in the thread's `files/` attached to its
message and notices for the images and files that are not, the source's times and CJK
text intact; what cannot be read is skipped with a reason; importing twice adds nothing
and a newer copy adds only its new message. Fixture: tests/fixtures/imports/jan/ (a Jan
data folder written from Jan's source)."""

from __future__ import annotations

import json
import shutil
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from desktop.core.attachments import AttachmentKind
from desktop.core.models import (
    CallState,
    ModelRef,
    NoticePart,
    ReasoningPart,
    Role,
    TextPart,
    ToolCallPart,
)
from desktop.engine.importers import jan
from desktop.engine.importers.files import ExportFiles
from desktop.engine.importers.model import ImportedConversation, ImportedFile, Skipped, derived_id
from desktop.engine.importers.run import ImportOutcome, import_preview, read_export
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.transfer import import_conversation

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "imports"
DATA_FOLDER = FIXTURES / "jan"
KYOTO = "01HXKQ3V8N2P7Y5R4T6W9Z0ABC"
CAT = "jan_1700000000"


def message_id(thread: str, message: str) -> str:
    return derived_id("jan", "message", f"{thread}/{message}")


def read_all(path: Path) -> list[ImportedConversation | Skipped]:
    with ExportFiles(path) as files:
        return list(jan.read(files))


def detected(path: Path) -> bool:
    with ExportFiles(path) as files:
        return jan.detect(files)


def conversations(items: list[ImportedConversation | Skipped]) -> dict[str, ImportedConversation]:
    return {i.conversation.title: i for i in items if isinstance(i, ImportedConversation)}


def zip_folder(source: Path, target: Path, prefix: str) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(source.rglob("*")):
            if path.is_file():
                archive.write(path, prefix + path.relative_to(source).as_posix())
    return target


@pytest.fixture
def db(tmp_path) -> Iterator[Database]:
    database = Database.open(tmp_path / "parley.db")
    try:
        yield database
    finally:
        database.close()


# --- detect ---------------------------------------------------------------------------


def test_the_data_folder_the_threads_folder_and_zips_of_them_are_jans(tmp_path):
    assert detected(DATA_FOLDER)
    assert detected(DATA_FOLDER / "threads")
    assert detected(zip_folder(DATA_FOLDER, tmp_path / "jan-data.zip", "jan/"))
    # A zip of the threads folder's contents has no "threads" above the thread folders:
    # recognised by what thread.json holds.
    assert detected(zip_folder(DATA_FOLDER / "threads", tmp_path / "threads.zip", ""))


def test_other_exports_and_a_random_json_are_not_jans(tmp_path):
    others = [p for p in FIXTURES.iterdir() if p.is_dir() and p.name != "jan"]
    for folder in others:
        assert not detected(folder), folder
        for path in folder.rglob("*"):
            if path.is_file():
                assert not detected(path), path
    random = tmp_path / "random.json"
    random.write_text('{"thread": {"id": 1}, "messages": []}', encoding="utf-8")
    assert not detected(random)
    chatgpt_like = tmp_path / "chatgpt"
    chatgpt_like.mkdir()
    (chatgpt_like / "conversations.json").write_text("[]", encoding="utf-8")
    assert not detected(chatgpt_like)
    # A thread.json of something else, not under a "threads" folder.
    lookalike = tmp_path / "other" / "project"
    lookalike.mkdir(parents=True)
    (lookalike / "thread.json").write_text('{"name": "a forum thread"}', encoding="utf-8")
    assert not detected(tmp_path / "other")


# --- read -----------------------------------------------------------------------------


def test_threads_become_conversations_and_the_unreadable_ones_are_skipped_with_reasons():
    items = read_all(DATA_FOLDER)
    found = conversations(items)
    assert sorted(found) == ["Cat picture", "Kyoto trip 京都旅行"]
    skipped = {s.where: s.reason for s in items if isinstance(s, Skipped)}
    assert skipped["New Thread"] == "no messages"  # a thread.json without messages.jsonl
    assert "not valid JSON" in skipped["01HXKQ9BROKEN0000000000000"]
    assert "no thread.json" in skipped["01HXKQ9ORPHAN0000000000000"]
    assert len(skipped) == 3
    kyoto = found["Kyoto trip 京都旅行"]
    assert kyoto.conversation.id == derived_id("jan", "conversation", KYOTO)
    assert len(kyoto.messages) == 6 and len(found["Cat picture"].messages) == 4


def test_edits_become_sibling_versions_and_the_version_jan_showed_is_active():
    kyoto = conversations(read_all(DATA_FOLDER))["Kyoto trip 京都旅行"]
    parents = {m.id: m.parent_id for m in kyoto.messages}
    ask = message_id(KYOTO, "01HXKQ41USER000000000000AB")
    plan = message_id(KYOTO, "01HXKQ42ASST000000000000AC")
    cheaper = message_id(KYOTO, "01HXKQ43USER000000000000AD")
    hostel = message_id(KYOTO, "01HXKQ44ASST000000000000AE")
    cheaper_edit = message_id(KYOTO, "01HXKQ45USER000000000000AF")
    ryokan = message_id(KYOTO, "01HXKQ46ASST000000000000AG")
    # The system message is left out; the first question takes its place as the root.
    assert parents == {
        ask: None,
        plan: ask,
        cheaper: plan,
        hostel: cheaper,
        cheaper_edit: plan,
        ryokan: cheaper_edit,
    }
    assert kyoto.branches == 1
    # activeChildId names the older version, although a newer one exists.
    assert kyoto.conversation.active_leaf_id == hostel
    reasons = [s.reason for s in kyoto.skipped]
    assert reasons == [
        "A system message; Parley keeps the system prompt with the assistant.",
        "The line is not readable JSON.",
    ]
    assert kyoto.skipped[1].where == "message 4 of “Kyoto trip 京都旅行”"


def test_without_branch_links_a_thread_is_linear_and_ends_at_its_last_message():
    cat = conversations(read_all(DATA_FOLDER))["Cat picture"]
    chain = [m.parent_id for m in cat.messages]
    assert chain == [None] + [m.id for m in cat.messages[:-1]]
    assert [m.role for m in cat.messages] == [Role.USER, Role.ASSISTANT] * 2
    assert cat.conversation.active_leaf_id == cat.messages[-1].id
    assert cat.branches == 0
    # The tool message was folded into its call, so it is neither a message nor skipped.
    assert cat.skipped == ()


def test_reasoning_tool_calls_images_and_files_become_parts():
    found = conversations(read_all(DATA_FOLDER))
    ask, plan = found["Kyoto trip 京都旅行"].messages[:2]
    assert ask.parts == [
        TextPart("帮我计划京都三日游"),
        NoticePart("An image was attached here in Jan; it was not imported."),
    ]
    reasoning, call, answer = plan.parts
    assert reasoning == ReasoningPart(
        "The user wants a three-day plan. Check the weather first.", duration_ms=0
    )
    assert isinstance(call, ToolCallPart)
    assert (call.call_id, call.name, call.result, call.state, call.is_error) == (
        "call_weather_1",
        "web_search",
        "Sunny, 22°C",
        CallState.DONE,
        False,
    )
    assert json.loads(call.arguments) == {"query": "Kyoto weather May"}
    assert answer == TextPart("第一天：清水寺和祇园。")
    assert plan.model == ModelRef("jan", "qwen3-8b") and ask.model is None

    picture, cat_answer, pdf, _summary = found["Cat picture"].messages
    # The picture is among the thread's files: attached on import, so no notice.
    assert picture.parts == [TextPart("What is in this picture? 这是什么")]
    member = f"threads/{CAT}/files/01HFA0USER1.png"
    assert found["Cat picture"].files == (
        ImportedFile(picture.id, member, member, "01HFA0USER1.png"),
    )
    # Older Jan wrote the reasoning in front of the answer in <think> tags.
    assert cat_answer.parts[:2] == [
        ReasoningPart("Orange fur, whiskers: a cat.", duration_ms=0),
        TextPart("It is an orange cat."),
    ]
    calls = [p for p in cat_answer.parts if isinstance(p, ToolCallPart)]
    assert [(c.name, c.arguments, c.result, c.state) for c in calls] == [
        ("describe_image", '{"detail":"high"}', "cat, orange", CallState.DONE),
        ("count_whiskers", "{}", "24", CallState.DONE),  # its result came as a tool message
    ]
    assert pdf.parts == [
        TextPart("Summarise this"),
        NoticePart("A PDF file was attached here in Jan; it was not imported."),
        NoticePart(
            "The file notes.pdf was attached here in Jan; its text is kept here.",
            detail="Cats sleep 16 hours a day.",
        ),
    ]
    assert cat_answer.model == ModelRef("jan", "tinyllama-1.1b")
    assert found["Cat picture"].images == 2 and found["Kyoto trip 京都旅行"].images == 1
    # Left out: the PDF (not among the thread's files) and Kyoto's image.
    assert (
        found["Cat picture"].files_left_out == 1
        and found["Kyoto trip 京都旅行"].files_left_out == 1
    )
    assert found["Cat picture"].notes == (
        "1 image(s) or file(s) attached in Jan are not among the thread's files; they were "
        "not imported.",
    )


def test_times_are_kept_in_milliseconds_or_seconds_and_a_missing_one_follows_its_parent():
    found = conversations(read_all(DATA_FOLDER))
    kyoto = found["Kyoto trip 京都旅行"]
    ask, plan = kyoto.messages[:2]
    assert ask.created_at == datetime(2024, 5, 1, 8, 0, 1, tzinfo=UTC)
    assert plan.finished_at == datetime(2024, 5, 1, 8, 0, 9, 500000, tzinfo=UTC)
    # Jan rewrites `created` on each change: the first message is older and wins.
    assert kyoto.conversation.created_at == datetime(2024, 5, 1, 8, 0, 0, tzinfo=UTC)
    assert kyoto.conversation.updated_at == datetime(2024, 5, 1, 8, 1, 0, 250000, tzinfo=UTC)

    cat = found["Cat picture"]
    assert cat.messages[0].created_at == datetime.fromtimestamp(1700000001, UTC)
    assert cat.conversation.created_at == datetime.fromtimestamp(1700000000, UTC)  # ms
    assert cat.conversation.updated_at == datetime.fromtimestamp(1700000100, UTC)
    times = [m.created_at for m in cat.messages]
    assert times == sorted(times) and len(set(times)) == len(times)


def test_hostile_shapes_are_skipped_not_raised(tmp_path):
    thread = tmp_path / "threads" / "odd"
    thread.mkdir(parents=True)
    (thread / "thread.json").write_text(
        json.dumps({"id": 5, "title": ["x"], "assistants": "none", "created": "soon"}),
        encoding="utf-8",
    )
    lines = [
        {"role": "user", "content": 42, "metadata": []},
        {"id": {"x": 1}, "role": {"a": 1}, "content": []},
        {"id": "m3", "role": "assistant", "created_at": True, "content": [7, {"type": None}]},
        {"id": "m4", "role": "assistant", "metadata": {"parentId": 9, "tool_calls": "x"}},
        [1, 2],
        {"id": "m5", "role": "user", "content": "plain text", "created_at": 10**30},
    ]
    (thread / "messages.jsonl").write_text(
        "\n".join(json.dumps(line) for line in lines) + "\n\x00garbage\n", encoding="utf-8"
    )
    listed = tmp_path / "threads" / "listed"
    listed.mkdir()
    (listed / "thread.json").write_text("[1, 2, 3]", encoding="utf-8")
    (listed / "messages.jsonl").write_text("{}\n", encoding="utf-8")

    items = read_all(tmp_path)
    skipped = [i for i in items if isinstance(i, Skipped)]
    assert [s.where for s in skipped] == ["listed"]
    (odd,) = conversations(items).values()
    assert odd.conversation.title == "Untitled Jan thread"
    assert [m.role for m in odd.messages] == [Role.USER, Role.ASSISTANT, Role.ASSISTANT, Role.USER]
    assert odd.messages[-1].parts == [TextPart("plain text")]
    assert len(odd.skipped) == 3  # the odd role, the list line, the garbage line
    # A message without an id gets one from its place in the thread, the same each time.
    assert odd.messages[0].id == message_id("odd", "odd#1")


# --- into the database ----------------------------------------------------------------


def import_all(db: Database, path: Path) -> int:
    added = 0
    for item in read_all(path):
        if isinstance(item, ImportedConversation):
            added += import_conversation(db, item.conversation, list(item.messages)).added
    return added


def test_importing_twice_adds_nothing_and_a_newer_copy_adds_only_its_new_message(tmp_path, db):
    assert import_all(db, DATA_FOLDER) == 10
    assert import_all(db, DATA_FOLDER) == 0
    zipped = zip_folder(DATA_FOLDER, tmp_path / "jan.zip", "")
    assert import_all(db, zipped) == 0  # the same threads, zipped

    newer = tmp_path / "newer"
    shutil.copytree(DATA_FOLDER, newer)
    follow_up = {
        "id": "01HXKQ47USER000000000000AH",
        "object": "thread.message",
        "thread_id": KYOTO,
        "role": "user",
        "content": [{"type": "text", "text": {"value": "住哪里？", "annotations": []}}],
        "status": "ready",
        "created_at": 1714550500000,
        "completed_at": 1714550500000,
        "metadata": {"parentId": "01HXKQ44ASST000000000000AE"},
    }
    with (newer / "threads" / KYOTO / "messages.jsonl").open("a", encoding="utf-8") as file:
        file.write(json.dumps(follow_up, ensure_ascii=False) + "\n")
    kyoto = conversations(read_all(newer))["Kyoto trip 京都旅行"]
    new_id = message_id(KYOTO, "01HXKQ47USER000000000000AH")
    assert kyoto.conversation.active_leaf_id == new_id
    assert import_all(db, newer) == 1


def import_with_files(db: Database, store: AttachmentStore, path: Path) -> ImportOutcome:
    preview = read_export(path, readers=[jan])
    return import_preview(
        db, preview, progress=lambda _d, _t: None, cancelled=lambda: False, attachments=store
    )


@pytest.mark.parametrize("chosen", ["data folder", "threads folder", "zip"])
def test_a_thread_files_picture_is_attached_to_its_message_once(tmp_path, db, chosen):
    store = AttachmentStore(tmp_path / "attachments", db.engine)
    path = {
        "data folder": DATA_FOLDER,
        "threads folder": DATA_FOLDER / "threads",
        "zip": zip_folder(DATA_FOLDER, tmp_path / "jan.zip", "jan-data/"),
    }[chosen]
    first = import_with_files(db, store, path)
    assert (first.added, first.files_added, first.skipped) == (2, 1, ())
    picture = ChatRepository(db).get_message(message_id(CAT, "01HFA0USER1"))
    assert picture is not None
    (attached,) = store.get_many(picture.context.attachment_ids)
    original = DATA_FOLDER / "threads" / CAT / "files" / "01HFA0USER1.png"
    assert store.read_bytes(attached) == original.read_bytes()
    assert (attached.name, attached.kind, attached.mime) == (
        "01HFA0USER1.png",
        AttachmentKind.IMAGE,
        "image/png",
    )
    pdf = ChatRepository(db).get_message(message_id(CAT, "01HFA0USER2"))
    assert pdf is not None and pdf.context.attachment_ids == ()
    assert NoticePart("A PDF file was attached here in Jan; it was not imported.") in pdf.parts

    again = import_with_files(db, store, path)
    assert (again.added, again.unchanged, again.files_added, again.skipped) == (0, 2, 0, ())
    with db.read() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM attachments").one() == (1,)
