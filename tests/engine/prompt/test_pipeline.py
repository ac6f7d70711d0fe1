"""The whole outgoing request for a model step: builder, system prompt, transformers,
and the system role moved last; what is stored stays as it was."""

from __future__ import annotations

import copy
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy import select

from desktop.core.assistants import Assistant
from desktop.core.attachments import Attachment, AttachmentKind
from desktop.core.capabilities import Capabilities
from desktop.core.models import (
    ContextSnapshot,
    Conversation,
    Message,
    Role,
    TextPart,
    ToolCallPart,
    new_id,
)
from desktop.engine.attachments.text import FILES_PREAMBLE, AttachmentInput
from desktop.engine.prompt.pipeline import prepare_request
from desktop.engine.prompt.request_builder import (
    CONTINUE_PROMPT,
    RequestOptions,
    Step,
    build_request,
)
from desktop.engine.prompt.system_prompt import NO_TOOLS_NOTE, SUMMARY_HEADING
from desktop.providers.base import ImageInput, ToolSpec
from desktop.storage import tables
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository

NOW = datetime(2026, 11, 30, 14, 5, tzinfo=ZoneInfo("Europe/Berlin"))
REMINDER = "Current date and time: 2026-11-30 14:05 (Europe/Berlin, UTC+01:00)"
WRITER = Assistant(id="writer", name="Writer", system_prompt="You are {{assistant}}.")
TOOLS = Capabilities(supports_tools=True)


def user(text: str, *files: Attachment) -> Message:
    context = ContextSnapshot(attachment_ids=tuple(f.id for f in files))
    return Message(new_id(), "c", None, Role.USER, [TextPart(text)], context=context)


def answer(*parts: TextPart | ToolCallPart) -> Message:
    return Message(new_id(), "c", None, Role.ASSISTANT, list(parts))


def prepare(path: list[Message], options: RequestOptions | None = None, **given: object):
    fields: dict[str, object] = {
        "assistant": WRITER,
        "conversation": None,
        "summary_text": None,
        "now": NOW,
        "timezone_name": "Europe/Berlin",
        "user": "Ada",
        "tools_wanted": False,
        **given,
    }
    return prepare_request(path, "gpt-4o", options or RequestOptions(), **fields)  # type: ignore[arg-type]


def test_the_system_prompt_is_composed_then_transformed():
    conversation = Conversation("c", "t", system_prompt="Answer {{user}} in French.")
    request = prepare(
        [user("Hi")],
        RequestOptions(capabilities=TOOLS, tools=(ToolSpec("read_file", "Read"),)),
        conversation=conversation,
        summary_text="They met on {{date}}.",
        tools_wanted=True,
    )
    sections = request.system.split("\n\n") if request.system else []
    assert sections[0] == "Answer Ada in French."
    assert sections[1] == f"{SUMMARY_HEADING}\nThey met on 2026-11-30."
    assert sections[2].startswith("You may call these tools") and "read_file" in sections[2]
    assert sections[3] == REMINDER
    assert len(sections) == 4


def test_the_assistant_prompt_stays_when_it_forbids_overrides():
    strict = Assistant(
        id="s", name="Strict", system_prompt="Only {{assistant}}.", allow_prompt_override=False
    )
    conversation = Conversation("c", "t", system_prompt="Ignore that.")
    request = prepare([user("Hi")], assistant=strict, conversation=conversation)
    assert request.system == f"Only Strict.\n\n{REMINDER}"


def test_a_model_without_tools_is_told_so_and_gets_no_definitions():
    options = RequestOptions(tools=(ToolSpec("read_file", "Read"),))
    request = prepare([user("Hi")], options, tools_wanted=True)
    assert request.tools == ()
    assert request.system == f"You are Writer.\n\n{NO_TOOLS_NOTE}\n\n{REMINDER}"
    assert "You may call" not in request.system
    quiet = prepare([user("Hi")], options, tools_wanted=False)
    assert quiet.system == f"You are Writer.\n\n{REMINDER}"


def test_options_system_is_replaced_by_the_composed_prompt():
    request = prepare([user("Hi")], RequestOptions(system="stale"))
    assert request.system == f"You are Writer.\n\n{REMINDER}"


def test_without_a_system_role_the_whole_system_text_leads_as_a_user_turn():
    options = RequestOptions(capabilities=Capabilities(supports_system_role=False))
    request = prepare([user("Hi {{model}}")], options)
    assert request.system is None
    assert [m.role for m in request.messages] == [Role.USER, Role.USER]
    assert request.messages[0].text == f"You are Writer.\n\n{REMINDER}"
    assert request.messages[1].text == "Hi gpt-4o"


def test_files_reach_the_message_they_belong_to_with_images_kept():
    doc = Attachment(new_id(), "ab" * 32, "a.txt", "text/plain", 3, AttachmentKind.DOCUMENT)
    photo = Attachment(new_id(), "cd" * 32, "p.png", "image/png", 3, AttachmentKind.IMAGE)
    image = ImageInput("image/png", b"x")
    inputs = {
        doc.id: AttachmentInput(doc, text="{{date}} stays"),
        photo.id: AttachmentInput(photo, image=image),
    }
    path = [user("first", doc), answer(TextPart("ok")), user("look {{date}}", photo)]
    request = prepare(path, RequestOptions(attachments=inputs))
    first, _, last = request.messages
    assert first.text == (
        f'{FILES_PREAMBLE}\n\n<document name="a.txt">\n{{{{date}}}} stays\n</document>\n\nfirst'
    )
    assert last.text == "look 2026-11-30" and last.images == (image,)


def test_without_placeholders_the_messages_match_the_plain_builder():
    doc = Attachment(new_id(), "ab" * 32, "a.txt", "text/plain", 3, AttachmentKind.DOCUMENT)
    scan = Attachment(new_id(), "cd" * 32, "s.png", "image/png", 3, AttachmentKind.IMAGE)
    inputs = {
        doc.id: AttachmentInput(doc, text="DOC"),
        scan.id: AttachmentInput(scan, text="SCAN", transcribed=True),
    }
    options = RequestOptions(attachments=inputs)
    path = [user("q", scan, doc), answer(TextPart("a")), user("again")]
    assert prepare(path, options).messages == build_request(path, "m", options).messages


def test_continue_and_tool_steps():
    partial = answer(TextPart("Half an answ"))
    cont = prepare([user("Q"), partial], step=Step.CONTINUE)
    assert cont.messages[-1].text == CONTINUE_PROMPT
    call = ToolCallPart("call_1", "read_file", "{}", result="contents")
    tools = prepare([user("Q"), answer(call)], RequestOptions(capabilities=TOOLS), step=Step.TOOLS)
    assert tools.messages[-1].tool_results[0].content == "contents"
    assert tools.system == f"You are Writer.\n\n{REMINDER}"


def _rows(db: Database) -> list[tuple[object, ...]]:
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(select(tables.messages).order_by("id"))]


def test_stored_messages_never_change(tmp_path: Path):
    db = Database.open(tmp_path / "parley.db")
    try:
        repo = ChatRepository(db)
        conversation = repo.create_conversation("Dates")
        question = repo.add_message(
            Message(new_id(), conversation.id, None, Role.USER, [TextPart("Due {{date}}?")])
        )
        reply = repo.add_message(
            Message(new_id(), conversation.id, question.id, Role.ASSISTANT, [TextPart("Yes")])
        )
        again = repo.add_message(
            Message(new_id(), conversation.id, reply.id, Role.USER, [TextPart("{{user}} asks")])
        )
        path = repo.active_path(conversation.id)
        kept = copy.deepcopy(path)
        rows = _rows(db)

        request = prepare(path, conversation=conversation, summary_text="S")

        assert request.messages[0].text == "Due 2026-11-30?"
        assert path == kept
        assert repo.active_path(conversation.id) == kept
        assert [m.id for m in kept] == [question.id, reply.id, again.id]
        assert _rows(db) == rows
    finally:
        db.close()
