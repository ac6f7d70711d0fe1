"""Row <-> domain conversion: every field and every part type survives a round trip."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from desktop.core.models import (
    CitationPart,
    ContextSnapshot,
    Conversation,
    ErrorPart,
    Message,
    MessageStatus,
    ModelRef,
    NoticePart,
    Part,
    ReasoningPart,
    Role,
    RollingSummary,
    SourceKind,
    TextPart,
    Usage,
)
from desktop.storage import mapping
from desktop.storage.mapping import UnknownPart

T0 = datetime(2024, 5, 1, 12, 30, 15, 123000, tzinfo=UTC)


def _full_message() -> Message:
    return Message(
        id="m2",
        conversation_id="c1",
        parent_id="m1",
        role=Role.ASSISTANT,
        parts=[
            ReasoningPart("thinking…", duration_ms=1500),
            ReasoningPart("still thinking"),
            TextPart("Hello, **world** ✓"),
            NoticePart("images were transcribed with OCR"),
            ErrorPart("rate limited: try later", status_code=429),
            ErrorPart("connection dropped"),
        ],
        status=MessageStatus.ERROR,
        model=ModelRef("local", "llama3:8b"),
        usage=Usage(input_tokens=12, output_tokens=34, reasoning_tokens=5),
        first_token_ms=250,
        created_at=T0,
        finished_at=T0 + timedelta(seconds=3),
        context=ContextSnapshot(("a1", "a2"), "notes/todo.md", context_captured=True),
    )


def test_a_message_with_every_field_round_trips() -> None:
    message = _full_message()
    row = mapping.message_to_row(message)
    assert row["created_at"] == 1714566615123
    assert (row["provider_id"], row["model"]) == ("local", "llama3:8b")
    assert (row["input_tokens"], row["output_tokens"], row["reasoning_tokens"]) == (12, 34, 5)
    assert mapping.message_from_row(row) == message


def test_a_minimal_message_round_trips_with_nones() -> None:
    message = Message(id="m1", conversation_id="c1", parent_id=None, role=Role.USER, created_at=T0)
    row = mapping.message_to_row(message)
    assert row["input_tokens"] is None and row["provider_id"] is None
    back = mapping.message_from_row(row)
    assert back == message
    assert back.usage is None and back.model is None and back.context == ContextSnapshot()


def test_zero_usage_is_kept_distinct_from_no_usage() -> None:
    row = mapping.message_to_row(_full_message())
    row.update(input_tokens=0, output_tokens=0, reasoning_tokens=None)
    assert mapping.usage_from_columns(row) == Usage(0, 0, 0)


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        (TextPart("hi"), {"type": "text", "text": "hi"}),
        (ReasoningPart("r", 7), {"type": "reasoning", "text": "r", "duration_ms": 7}),
        (NoticePart("n"), {"type": "notice", "text": "n"}),
        (ErrorPart("e", 500), {"type": "error", "message": "e", "status_code": 500}),
    ],
)
def test_each_part_type_has_a_type_key_and_round_trips(part: Part, expected: dict) -> None:
    assert mapping.part_to_json(part) == expected
    assert mapping.part_from_json(expected) == part


def test_an_unknown_part_type_becomes_a_notice_and_is_written_back_verbatim() -> None:
    future = {"type": "image", "attachment_id": "x1", "alt": "a cat"}
    stored = json.dumps([{"type": "text", "text": "see:"}, future])
    parts = mapping.parts_from_json(stored)
    assert parts[0] == TextPart("see:")
    assert isinstance(parts[1], UnknownPart) and isinstance(parts[1], NoticePart)
    assert "image" in parts[1].text
    assert json.loads(mapping.parts_to_json(parts)) == json.loads(stored)


@pytest.mark.parametrize(
    "bad", [{"type": "text"}, {"type": "text", "text": 5}, {"no": "type"}, "just a string", 3]
)
def test_malformed_parts_never_crash(bad: object) -> None:
    part = mapping.part_from_json(bad)
    assert isinstance(part, UnknownPart)
    assert json.loads(part.raw) == bad


def test_an_unreadable_parts_column_shows_a_notice() -> None:
    assert mapping.parts_from_json("{not json") == [
        NoticePart("The content of this message could not be read.")
    ]


def test_an_unknown_status_reads_as_complete() -> None:
    row = mapping.message_to_row(_full_message())
    row["status"] = "thinking_really_hard"
    assert mapping.message_from_row(row).status is MessageStatus.COMPLETE


def test_a_conversation_with_every_field_round_trips() -> None:
    conversation = Conversation(
        id="c1",
        title="Trip to Lisbon",
        created_at=T0,
        updated_at=T0 + timedelta(minutes=5),
        assistant_id="travel",
        pinned=True,
        archived=True,
        active_leaf_id="m9",
        summary=RollingSummary("They planned day one.", ("m1", "m2", "m3")),
        workspace="/home/me/trip",
    )
    row = mapping.conversation_to_row(conversation)
    assert json.loads(row["summary_covered_ids"]) == ["m1", "m2", "m3"]
    assert mapping.conversation_from_row(row) == conversation


def test_a_conversation_without_optional_fields_round_trips() -> None:
    conversation = Conversation(id="c2", title="t", created_at=T0, updated_at=T0)
    row = mapping.conversation_to_row(conversation)
    assert row["summary_text"] is None and row["summary_covered_ids"] is None
    assert mapping.conversation_from_row(row) == conversation


def test_times_are_utc_epoch_milliseconds() -> None:
    plus_two = timezone(timedelta(hours=2))
    same_instant = T0.astimezone(plus_two)
    assert mapping.to_epoch_ms(same_instant) == mapping.to_epoch_ms(T0) == 1714566615123
    back = mapping.from_epoch_ms(1714566615123)
    assert back == T0 and back.tzinfo is UTC
    assert mapping.truncate_to_ms(T0 + timedelta(microseconds=999)) == T0


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(ValueError, match="naive"):
        mapping.to_epoch_ms(datetime(2024, 1, 1))


def test_context_snapshot_round_trips_and_tolerates_junk() -> None:
    snapshot = ContextSnapshot(("a",), None, context_captured=False)
    assert mapping.context_from_json(mapping.context_to_json(snapshot)) == snapshot
    workspace = ContextSnapshot(
        ("a",), "/w/notes.md", "snap", "notes.md: gone", context_captured=True
    )
    assert mapping.context_from_json(mapping.context_to_json(workspace)) == workspace
    assert mapping.context_from_json("[1, 2]") == ContextSnapshot()
    assert mapping.context_from_json(None) == ContextSnapshot()


@pytest.mark.parametrize("ids", ["5", '"a1"', '{"a1": 1}', "null", '["a1", 2, null]'])
def test_context_attachment_ids_that_are_not_a_list_of_ids_are_dropped(ids: str) -> None:
    """A column whose ids are not a list reads as no attachments (a number used to raise,
    a string to read as one id a character); a list keeps its ids and drops the rest."""
    snapshot = mapping.context_from_json(f'{{"attachment_ids": {ids}, "workspace_file": "w"}}')
    expected = ("a1",) if ids.startswith("[") else ()
    assert snapshot == ContextSnapshot(expected, "w")


def test_a_reader_decodes_rows_by_position_and_shares_what_they_have_in_common() -> None:
    first = _full_message()
    second = Message(
        id="m3",
        conversation_id="c1",
        parent_id="m2",
        role=Role.USER,
        parts=[TextPart("thanks")],
        model=ModelRef("local", "llama3:8b"),
        created_at=T0,
        context=first.context,
    )
    reader = mapping.MessageReader()
    rows = [mapping.message_to_row(m) for m in (first, second)]
    read = [reader.read([row[name] for name in mapping.MESSAGE_COLUMNS]) for row in rows]
    assert read == [first, second]
    assert read[0].context is read[1].context  # decoded once, shared (it is frozen)
    assert read[0].model is read[1].model
    assert "search_text" not in mapping.MESSAGE_COLUMNS  # never needed to show a message


# --- citations ------------------------------------------------------------------------

CITED = CitationPart(
    number=2,
    library_id="lib-1",
    path="/home/me/notes/trams.md",
    relative_path="notes/trams.md",
    excerpt="Tram 28 runs from Martim Moniz.",
    heading_path="Lisbon › Trams",
    page=None,
    char_start=120,
    char_end=151,
    source_sha256="ab" * 32,
    chunk_id=17,
)


def _cited_answer() -> Message:
    first = CitationPart(1, "lib-1", "/home/me/guide.pdf", "guide.pdf", "Belém at dawn.", page=3)
    return Message(
        id="a1",
        conversation_id="c1",
        parent_id="u1",
        role=Role.ASSISTANT,
        parts=[TextPart("Take tram 28 [2], then Belém [1]."), first, CITED],
        created_at=T0,
    )


def test_a_citation_part_round_trips_with_every_field() -> None:
    data = mapping.part_to_json(CITED)
    assert data["type"] == "citation" and data["number"] == 2 and data["chunk_id"] == 17
    assert mapping.decode_part(json.loads(json.dumps(data))) == CITED
    bare = CitationPart(1, "lib", "/p.txt", "p.txt", "x")
    assert mapping.part_to_json(bare).keys() >= {"number", "path", "excerpt"}
    assert "page" not in mapping.part_to_json(bare)  # unset optional fields are not written
    assert mapping.decode_part(mapping.part_to_json(bare)) == bare


def test_chat_and_web_citations_round_trip_and_an_unknown_kind_reads_as_a_document() -> None:
    chat = CitationPart(
        3,
        "",
        "",
        "",
        "A walk to the lighthouse",
        kind=SourceKind.CHAT,
        title="Weekend plans",
        conversation_id="c9",
        message_id="m9",
        date="2026-03-14T10:00:00+00:00",
    )
    web = CitationPart(
        4, "", "", "", "Hours", kind=SourceKind.WEB, title="Museum", url="https://m.example/"
    )
    for part in (chat, web):
        data = json.loads(json.dumps(mapping.part_to_json(part)))
        assert data["kind"] == part.kind.value
        assert mapping.decode_part(data) == part
    assert "kind" not in mapping.part_to_json(CITED)  # documents are written as before
    later = {**mapping.part_to_json(web), "kind": "podcast"}
    assert mapping.decode_part(later).kind is SourceKind.DOCUMENT


def test_a_message_with_citations_round_trips_and_searches_by_its_text_only() -> None:
    message = _cited_answer()
    row = mapping.message_to_row(message)
    assert row["search_text"] == "Take tram 28 [2], then Belém [1]."
    assert mapping.message_from_row(row) == message


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"number": 0}, "number"),
        ({"number": "2"}, "number"),
        ({"path": None}, "path"),
        ({"excerpt": 5}, "excerpt"),
        ({"char_start": 10, "char_end": 5}, "char_end"),
        ({"page": "3"}, "page"),
    ],
)
def test_a_malformed_citation_is_named_strictly_and_kept_verbatim_leniently(
    bad: dict, field: str
) -> None:
    data = {**mapping.part_to_json(CITED), **bad}
    with pytest.raises(mapping.PartFormatError) as caught:
        mapping.decode_part(data)
    assert caught.value.field == field
    kept = mapping.part_from_json(data)
    assert isinstance(kept, UnknownPart) and json.loads(kept.raw) == data


def test_a_parley_that_predates_citations_reads_the_answer_and_keeps_them() -> None:
    """What an older Parley's reader does with a citation is what this one does with any
    part type it does not know: the text parts read as before (each citation is an
    object of its own after them, none is folded into the text), and the citations are
    kept as raw JSON, so saving the message there writes them back unchanged."""
    stored = mapping.message_to_row(_cited_answer())["parts"]
    items = json.loads(stored)
    assert [item["type"] for item in items] == ["text", "citation", "citation"]
    older = [
        mapping._unknown(item) if item["type"] == "citation" else mapping.decode_part(item)
        for item in items
    ]
    assert older[0] == TextPart("Take tram 28 [2], then Belém [1].")
    assert all(isinstance(part, UnknownPart) for part in older[1:])
    assert mapping.parts_to_json(older) == stored
    assert mapping.parts_from_json(mapping.parts_to_json(older)) == _cited_answer().parts
