"""Each request transformer alone, then all five in their order."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from desktop.core.attachments import Attachment, AttachmentKind
from desktop.core.models import CitationPart, Role, new_id
from desktop.engine.attachments.text import FILES_PREAMBLE, AttachmentInput
from desktop.engine.knowledge.context import PREAMBLE as KNOWLEDGE_PREAMBLE
from desktop.engine.prompt.transformers import (
    TransformContext,
    apply_transformers,
    documents_as_prompt,
    knowledge_context,
    ocr_text,
    placeholders,
    time_reminder,
    workspace_context,
)
from desktop.providers.base import ChatRequest, ImageInput, RequestMessage

BERLIN_NOW = datetime(2026, 11, 30, 14, 5, tzinfo=ZoneInfo("Europe/Berlin"))


def ctx(**fields: object) -> TransformContext:
    base: dict[str, object] = {
        "now": BERLIN_NOW,
        "timezone_name": "Europe/Berlin",
        "model": "gpt-4o",
        "assistant": "Writer",
        "user": "Ada",
    }
    return TransformContext(**{**base, **fields})  # type: ignore[arg-type]


def request(*messages: RequestMessage, system: str | None = None) -> ChatRequest:
    return ChatRequest(model="gpt-4o", messages=messages, system=system)


def said(text: str, role: Role = Role.USER) -> RequestMessage:
    return RequestMessage(role=role, text=text)


def attachment(name: str, kind: AttachmentKind = AttachmentKind.DOCUMENT) -> Attachment:
    mime = "image/png" if kind is AttachmentKind.IMAGE else "text/plain"
    return Attachment(new_id(), "ab" * 32, name, mime, 10, kind)


# --- time reminder ------------------------------------------------------------------


def test_the_time_reminder_goes_after_the_system_text():
    out = time_reminder(request(said("hi"), system="Be brief."), ctx())
    assert out.system == (
        "Be brief.\n\nCurrent date and time: 2026-11-30 14:05 (Europe/Berlin, UTC+01:00)"
    )
    assert out.messages == (said("hi"),)


def test_the_time_reminder_is_the_whole_system_text_when_there_was_none():
    out = time_reminder(request(said("hi")), ctx())
    assert out.system == "Current date and time: 2026-11-30 14:05 (Europe/Berlin, UTC+01:00)"


@pytest.mark.parametrize(
    ("zone", "expected"),
    [
        ("America/New_York", "2026-07-01 06:30 (America/New_York, UTC-04:00)"),
        ("Asia/Kolkata", "2026-07-01 16:00 (Asia/Kolkata, UTC+05:30)"),
        ("Europe/Berlin", "2026-07-01 12:30 (Europe/Berlin, UTC+02:00)"),
        ("UTC", "2026-07-01 10:30 (UTC, UTC+00:00)"),
    ],
)
def test_the_time_is_the_person_s_whatever_zone_now_is_given_in(zone, expected):
    now = datetime(2026, 7, 1, 10, 30, tzinfo=UTC)
    out = time_reminder(request(said("hi")), ctx(now=now, timezone_name=zone))
    assert out.system == f"Current date and time: {expected}"


def test_an_unknown_zone_name_keeps_the_offset_now_carries():
    out = time_reminder(request(said("hi")), ctx(timezone_name="Office time"))
    assert out.system == "Current date and time: 2026-11-30 14:05 (Office time, UTC+01:00)"


def test_a_naive_now_is_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        ctx(now=datetime(2026, 11, 30, 14, 5))


# --- placeholders ---------------------------------------------------------------------


def test_placeholders_fill_the_system_text_and_the_person_s_messages_only():
    before = request(
        said("Today is {{date}}, ask {{model}}"),
        said("I said {{date}} then", Role.ASSISTANT),
        said("{{assistant}}, {{user}} here at {{time}} ({{timezone}})"),
        system="You are {{assistant}}. It is {{weekday}} {{datetime}}.",
    )
    out = placeholders(before, ctx())
    assert out.system == "You are Writer. It is Monday 2026-11-30 14:05."
    assert [m.text for m in out.messages] == [
        "Today is 2026-11-30, ask gpt-4o",
        "I said {{date}} then",
        "Writer, Ada here at 14:05 (Europe/Berlin (UTC+01:00))",
    ]


def test_placeholders_use_the_person_s_zone():
    late = datetime(2026, 11, 30, 23, 30, tzinfo=UTC)
    out = placeholders(
        request(said("{{date}} {{time}}")), ctx(now=late, timezone_name="Asia/Tokyo")
    )
    assert out.messages[0].text == "2026-12-01 08:30"


def test_unknown_placeholders_survive_the_transformer():
    out = placeholders(request(said("{{unknown}} and {{ date }}"), system="{{x}}"), ctx())
    assert out.system == "{{x}}"
    assert out.messages[0].text == "{{unknown}} and 2026-11-30"


# --- file blocks ----------------------------------------------------------------------

DOC = attachment("doc.txt")
SCAN = attachment("scan.png", AttachmentKind.IMAGE)
PHOTO = attachment("photo.png", AttachmentKind.IMAGE)
NOTES = attachment("notes.md")
INPUTS = {
    DOC.id: AttachmentInput(DOC, text="DOC TEXT"),
    SCAN.id: AttachmentInput(SCAN, text="SCANNED", transcribed=True),
    PHOTO.id: AttachmentInput(PHOTO, image=ImageInput("image/png", b"x")),
    NOTES.id: AttachmentInput(NOTES, text="NOTES", workspace=True),
}
DOC_BLOCK = '<document name="doc.txt">\nDOC TEXT\n</document>'
SCAN_BLOCK = '<image name="scan.png" read_with="ocr">\nSCANNED\n</image>'
NOTES_BLOCK = '<workspace_file name="notes.md">\nNOTES\n</workspace_file>'
ALL_FILES = (SCAN.id, PHOTO.id, DOC.id, NOTES.id)  # attached out of order on purpose


def files_ctx(*per_message: tuple[str, ...]) -> TransformContext:
    return ctx(attachments=INPUTS, message_files=per_message)


def joined(*parts: str) -> str:
    return "\n\n".join(parts)


def test_documents_as_prompt_adds_only_the_documents():
    out = documents_as_prompt(request(said("Question")), files_ctx(ALL_FILES))
    assert out.messages[0].text == joined(FILES_PREAMBLE, DOC_BLOCK, "Question")


def test_ocr_text_adds_only_the_transcriptions():
    out = ocr_text(request(said("Question")), files_ctx(ALL_FILES))
    assert out.messages[0].text == joined(FILES_PREAMBLE, SCAN_BLOCK, "Question")


def test_workspace_context_adds_only_the_workspace_file():
    out = workspace_context(request(said("Question")), files_ctx(ALL_FILES))
    assert out.messages[0].text == joined(FILES_PREAMBLE, NOTES_BLOCK, "Question")


def test_file_transformers_leave_messages_without_files_alone():
    before = request(said("Hello"), said("Hi", Role.ASSISTANT), said("Question"))
    out = documents_as_prompt(before, files_ctx((), (), (DOC.id,)))
    assert out.messages[:2] == before.messages[:2]
    assert out.messages[2].text == joined(FILES_PREAMBLE, DOC_BLOCK, "Question")


def test_the_three_kinds_go_in_order_under_one_preamble_before_the_words():
    out = workspace_context(
        ocr_text(
            documents_as_prompt(request(said("Question")), files_ctx(ALL_FILES)),
            files_ctx(ALL_FILES),
        ),
        files_ctx(ALL_FILES),
    )
    assert out.messages[0].text == joined(
        FILES_PREAMBLE, DOC_BLOCK, SCAN_BLOCK, NOTES_BLOCK, "Question"
    )
    assert out.messages[0].text.count(FILES_PREAMBLE) == 1


def test_a_message_of_only_files_ends_with_its_last_block():
    out = apply_transformers(request(said("")), files_ctx((DOC.id, SCAN.id)))
    assert out.messages[0].text == joined(FILES_PREAMBLE, DOC_BLOCK, SCAN_BLOCK)


def test_words_that_only_look_like_the_preamble_stay_the_person_s():
    words = joined(FILES_PREAMBLE, "my own words")
    out = ocr_text(request(said(words)), files_ctx((SCAN.id,)))
    assert out.messages[0].text == joined(FILES_PREAMBLE, SCAN_BLOCK, words)


def test_message_files_must_match_the_messages():
    with pytest.raises(ValueError, match="one entry per request message"):
        documents_as_prompt(request(said("a"), said("b")), files_ctx((DOC.id,)))


# --- all five ---------------------------------------------------------------------------


def test_all_five_in_order():
    before = request(said("Compare, {{user}}"), system="You are {{assistant}}.")
    out = apply_transformers(before, files_ctx(ALL_FILES))
    assert out.system == (
        "You are Writer.\n\nCurrent date and time: 2026-11-30 14:05 (Europe/Berlin, UTC+01:00)"
    )
    assert out.messages[0].text == joined(
        FILES_PREAMBLE, DOC_BLOCK, SCAN_BLOCK, NOTES_BLOCK, "Compare, Ada"
    )
    assert out.messages[0].images == ()  # images are the request builder's


def test_placeholders_apply_to_what_was_written_not_to_documents():
    quoted = attachment("template.txt")
    inputs = {quoted.id: AttachmentInput(quoted, text="Due {{date}}")}
    before = request(said("Fill in {{date}}"), system="Today: {{date}}")
    out = apply_transformers(before, ctx(attachments=inputs, message_files=((quoted.id,),)))
    assert out.system == (
        "Today: 2026-11-30\n\nCurrent date and time: 2026-11-30 14:05 (Europe/Berlin, UTC+01:00)"
    )
    assert out.messages[0].text == joined(
        FILES_PREAMBLE,
        '<document name="template.txt">\nDue {{date}}\n</document>',
        "Fill in 2026-11-30",
    )


# --- knowledge ----------------------------------------------------------------------


CITED = CitationPart(1, "docs", "/home/ana/docs/plan.md", "plan.md", "Ship on {{date}}.", "Plan")


def test_knowledge_goes_last_in_the_system_text_and_leaves_the_messages_alone():
    before = request(said("When do we ship?"), system="You are {{assistant}}.")
    out = apply_transformers(before, ctx(knowledge=(CITED,)))
    assert out.messages == before.messages
    assert out.system is not None
    head, _, passages = out.system.partition("\n\n" + KNOWLEDGE_PREAMBLE)
    assert head.startswith("You are Writer.\n\nCurrent date and time:")
    assert 'number="1" file="plan.md" location="Plan">\nShip on {{date}}.\n' in passages


def test_no_knowledge_leaves_the_request_as_it_was():
    before = request(said("Hi"), system="S")
    assert knowledge_context(before, ctx()) == before
