"""Export formats: Markdown for people, Parley JSON for round trips, strict validation."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from desktop.core.errors import ParleyError
from desktop.core.models import (
    CitationPart,
    ContextSnapshot,
    Conversation,
    ErrorPart,
    Message,
    MessageStatus,
    ModelRef,
    NoticePart,
    ReasoningPart,
    Role,
    RollingSummary,
    TextPart,
    ToolCallPart,
    Usage,
)
from desktop.engine.export.markdown import to_markdown
from desktop.engine.export.parley_json import (
    FORMAT,
    VERSION,
    ConversationFileError,
    effective_leaf,
    from_json,
    to_json,
)
from desktop.storage.mapping import UnknownPart

T0 = datetime(2024, 5, 1, 12, 30, 15, 123000, tzinfo=UTC)


def _tree() -> tuple[Conversation, list[Message]]:
    """A question, two versions of the answer (the second is shown), a follow-up on v1."""
    conversation = Conversation(
        id="c1",
        title="Trip to Lisbon",
        created_at=T0,
        updated_at=T0 + timedelta(minutes=9),
        assistant_id="travel",
        pinned=True,
        active_leaf_id="a2",
        summary=RollingSummary("They planned day one.", ("u1",)),
        workspace="/home/me/trip",
    )
    question = Message(
        id="u1",
        conversation_id="c1",
        parent_id=None,
        role=Role.USER,
        parts=[TextPart("Plan **day one**\n\n- museums\n- food")],
        created_at=T0,
        context=ContextSnapshot(("att1",), "notes.md", context_captured=True),
    )
    first = Message(
        id="a1",
        conversation_id="c1",
        parent_id="u1",
        role=Role.ASSISTANT,
        parts=[
            ReasoningPart("They like museums.", 1500),
            TextPart("Start in Belém."),
            NoticePart("images were transcribed with OCR"),
        ],
        status=MessageStatus.CANCELLED,
        model=ModelRef("openai", "gpt-4o"),
        usage=Usage(12, 34, 5),
        first_token_ms=250,
        created_at=T0 + timedelta(seconds=5),
        finished_at=T0 + timedelta(seconds=8),
    )
    follow_up = Message(
        id="u2",
        conversation_id="c1",
        parent_id="a1",
        role=Role.USER,
        parts=[TextPart("And day two?")],
        created_at=T0 + timedelta(seconds=60),
    )
    second = Message(
        id="a2",
        conversation_id="c1",
        parent_id="u1",
        role=Role.ASSISTANT,
        parts=[TextPart("Alfama first."), ErrorPart("rate limited\ntry later", 429)],
        status=MessageStatus.ERROR,
        model=ModelRef("local", "llama3:8b"),
        created_at=T0 + timedelta(seconds=90),
    )
    return conversation, [question, first, follow_up, second]


def _file() -> dict[str, Any]:
    conversation, messages = _tree()
    data: dict[str, Any] = json.loads(json.dumps(to_json(conversation, messages)))
    return data


# --- JSON: writing and round trips ---------------------------------------------------


def test_json_has_the_format_header_and_every_node_with_its_parent() -> None:
    data = _file()
    assert (data["format"], data["version"]) == (FORMAT, VERSION) == ("parley.conversation", 1)
    assert data["conversation"]["active_leaf_id"] == "a2"
    assert data["conversation"]["created_at"] == "2024-05-01T12:30:15.123Z"
    assert [(m["id"], m["parent_id"]) for m in data["messages"]] == [
        ("u1", None),
        ("a1", "u1"),
        ("u2", "a1"),
        ("a2", "u1"),
    ]
    first = data["messages"][1]
    assert first["parts"][0] == {
        "type": "reasoning",
        "text": "They like museums.",
        "duration_ms": 1500,
    }
    assert first["usage"] == {"input_tokens": 12, "output_tokens": 34, "reasoning_tokens": 5}
    assert first["model"] == {"provider_id": "openai", "model": "gpt-4o"}
    assert first["status"] == "cancelled"


def test_json_round_trips_every_field() -> None:
    conversation, messages = _tree()
    assert from_json(_file()) == (conversation, messages)


def test_a_part_from_a_newer_parley_survives_the_round_trip() -> None:
    data = _file()
    future = {"type": "image", "attachment_id": "x1", "alt": "a cat"}
    data["messages"][0]["parts"].append(future)
    _, messages = from_json(data)
    kept = messages[0].parts[-1]
    assert isinstance(kept, UnknownPart)
    conversation, _ = _tree()
    again = to_json(conversation, messages)
    assert again["messages"][0]["parts"][-1] == future


def test_a_branch_export_keeps_its_leaf_and_a_dangling_leaf_falls_back_to_the_newest() -> None:
    conversation, messages = _tree()
    branch = [messages[0], messages[3]]
    assert to_json(conversation, branch)["conversation"]["active_leaf_id"] == "a2"
    assert from_json(json.loads(json.dumps(to_json(conversation, branch))))[1] == branch

    conversation.active_leaf_id = "deleted-long-ago"
    assert effective_leaf(conversation, messages) == "a2"  # the newest leaf
    assert effective_leaf(conversation, []) is None


def test_times_may_use_any_offset_and_are_kept_to_the_millisecond() -> None:
    data = _file()
    data["messages"][0]["created_at"] = "2024-05-01T14:30:15.123999+02:00"
    _, messages = from_json(data)
    assert messages[0].created_at == T0
    assert messages[0].created_at.tzinfo is not None


def test_unknown_keys_are_ignored_and_optional_ones_may_be_missing() -> None:
    data = _file()
    data["exported_by"] = "Parley 9"
    data["conversation"]["colour"] = "teal"
    for key in ("assistant_id", "pinned", "archived", "summary", "workspace"):
        del data["conversation"][key]
    for key in ("model", "usage", "first_token_ms", "finished_at", "context", "parts"):
        del data["messages"][0][key]
    conversation, messages = from_json(data)
    assert conversation.pinned is False and conversation.summary is None
    assert messages[0].parts == [] and messages[0].context == ContextSnapshot()


# --- JSON: validation ----------------------------------------------------------------


def _broken(edit: Any) -> dict[str, Any]:
    data = _file()
    edit(data)
    return data


def _set(path: list[Any], value: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _delete(path: list[Any]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return edit


@pytest.mark.parametrize(
    ("edit", "where", "says"),
    [
        (_set(["format"], "chatbox.export"), "format", "not a Parley"),
        (_delete(["format"]), "format", "not a Parley"),
        (_set(["version"], 2), "version", "newer Parley"),
        (_set(["version"], "1"), "version", "whole number"),
        (_set(["version"], True), "version", "whole number"),
        (_delete(["conversation"]), "conversation", "missing"),
        (_set(["conversation"], []), "conversation", "object"),
        (_delete(["conversation", "id"]), "conversation.id", "text"),
        (_set(["conversation", "id"], ""), "conversation.id", "id"),
        (_set(["conversation", "id"], " c1"), "conversation.id", "id"),
        (_set(["conversation", "title"], "   "), "conversation.title", "empty"),
        (_set(["conversation", "pinned"], "yes"), "conversation.pinned", "true or false"),
        (_set(["conversation", "created_at"], "yesterday"), "conversation.created_at", "ISO"),
        (
            _set(["conversation", "updated_at"], "2024-05-01T12:00:00"),
            "conversation.updated_at",
            "time zone",
        ),
        (
            _set(["conversation", "summary"], {"text": "s", "covered_ids": [1]}),
            "conversation.summary.covered_ids[0]",
            "text",
        ),
        (
            _set(["conversation", "active_leaf_id"], "nope"),
            "conversation.active_leaf_id",
            "no message",
        ),
        (_set(["messages"], {}), "messages", "list"),
        (_set(["messages", 2], "hello"), "messages[2]", "object"),
        (_delete(["messages", 3, "id"]), "messages[3].id", "text"),
        (_set(["messages", 3, "id"], "a1"), "messages[3].id", "also used by messages[1]"),
        (
            _set(["messages", 3, "parent_id"], "ghost"),
            "messages[3].parent_id",
            "no message with the id ghost",
        ),
        (_set(["messages", 1, "role"], "robot"), "messages[1].role", "user, assistant, system"),
        (_set(["messages", 1, "status"], "done"), "messages[1].status", "one of"),
        (_set(["messages", 1, "created_at"], 1714566615), "messages[1].created_at", "text"),
        (_set(["messages", 1, "finished_at"], "soon"), "messages[1].finished_at", "ISO"),
        (_set(["messages", 1, "parts"], "text"), "messages[1].parts", "list"),
        (
            _set(["messages", 1, "parts", 1], {"type": "text", "text": 5}),
            "messages[1].parts[1].text",
            "string",
        ),
        (
            _set(
                ["messages", 1, "parts", 0], {"type": "reasoning", "text": "x", "duration_ms": "1s"}
            ),
            "messages[1].parts[0].duration_ms",
            "whole number",
        ),
        (_set(["messages", 1, "parts", 1], ["text"]), "messages[1].parts[1]", "object"),
        (
            _set(["messages", 1, "parts", 1], {"text": "no type"}),
            "messages[1].parts[1].type",
            "string",
        ),
        (
            _set(["messages", 1, "usage", "input_tokens"], -1),
            "messages[1].usage.input_tokens",
            "0 or more",
        ),
        (
            _set(["messages", 1, "first_token_ms"], 2.5),
            "messages[1].first_token_ms",
            "whole number",
        ),
        (
            _set(["messages", 1, "model"], {"provider_id": "openai"}),
            "messages[1].model.model",
            "text",
        ),
        (
            _set(["messages", 0, "context", "attachment_ids"], [None]),
            "messages[0].context.attachment_ids[0]",
            "text",
        ),
        (
            _set(["messages", 0, "context", "context_captured"], 1),
            "messages[0].context.context_captured",
            "true or false",
        ),
    ],
)
def test_a_bad_field_is_named_by_its_path(edit: Any, where: str, says: str) -> None:
    with pytest.raises(ConversationFileError) as caught:
        from_json(_broken(edit))
    assert caught.value.path == where
    assert says in caught.value.problem
    assert str(caught.value).startswith(f"{where}: ")
    assert isinstance(caught.value, ParleyError)


@pytest.mark.parametrize("data", [None, [], "parley", 42])
def test_something_that_is_not_an_object_is_refused(data: Any) -> None:
    with pytest.raises(ConversationFileError, match="must be an object"):
        from_json(data)


def test_a_parent_cycle_is_refused() -> None:
    data = _file()
    data["messages"][0]["parent_id"] = "u2"  # u1 -> u2 -> a1 -> u1
    with pytest.raises(ConversationFileError, match="loop") as caught:
        from_json(data)
    assert caught.value.path == "messages[0].parent_id"
    assert "(u1 → u2 → a1 → u1)" in caught.value.problem


def test_a_message_that_is_its_own_parent_is_refused() -> None:
    data = _file()
    data["messages"][0]["parent_id"] = "u1"
    with pytest.raises(ConversationFileError, match="loop"):
        from_json(data)


def test_validation_does_not_modify_the_input() -> None:
    data = _file()
    before = copy.deepcopy(data)
    from_json(data)
    assert data == before


# --- Markdown ------------------------------------------------------------------------


def test_markdown_of_the_active_branch() -> None:
    conversation, messages = _tree()
    text = to_markdown(conversation, [messages[0], messages[3]], branch_only=True)
    assert text.startswith("# Trip to Lisbon\n")
    assert "## User · 2024-05-01 12:30 UTC\n\nPlan **day one**\n\n- museums\n- food\n" in text
    assert "## Assistant (local/llama3:8b) · 2024-05-01 12:31 UTC · failed\n" in text
    assert "> **Error (429):** rate limited\n> try later\n" in text
    assert "Version" not in text
    assert "Start in Belém" not in text
    assert text.endswith("\n") and not text.endswith("\n\n")


def test_markdown_of_the_whole_tree_labels_versions_depth_first() -> None:
    conversation, messages = _tree()
    text = to_markdown(conversation, messages, branch_only=False)
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == [
        "## User · 2024-05-01 12:30 UTC",
        "## Assistant (openai/gpt-4o) · 2024-05-01 12:30 UTC · Version 1 of 2 · stopped",
        "## User · 2024-05-01 12:31 UTC",
        "## Assistant (local/llama3:8b) · 2024-05-01 12:31 UTC · Version 2 of 2 (current) · failed",
    ]
    assert "_Another version, replying to: “Plan **day one** - museums - food”_" in text
    assert (
        "<details>\n<summary>Reasoning (1.5 s)</summary>\n\nThey like museums.\n\n</details>"
        in text
    )
    assert "> **Note:** images were transcribed with OCR" in text


def test_markdown_title_is_one_line_and_empty_parts_are_skipped() -> None:
    conversation = Conversation(id="c", title="Multi\nline   title", created_at=T0, updated_at=T0)
    empty = Message(id="m", conversation_id="c", parent_id=None, role=Role.SYSTEM, created_at=T0)
    text = to_markdown(conversation, [empty], branch_only=False)
    assert text.splitlines()[0] == "# Multi line title"
    assert text.rstrip().endswith("## System · 2024-05-01 12:30 UTC")


def _tool_answer() -> tuple[Conversation, list[Message]]:
    conversation = Conversation(id="c", title="Tools", created_at=T0, updated_at=T0)
    answer = Message(
        id="a",
        conversation_id="c",
        parent_id=None,
        role=Role.ASSISTANT,
        parts=[
            ReasoningPart("Need data.", 300, signature="sig-xyz"),
            TextPart("Looking it up."),
            ToolCallPart("call_1", "search", '{"q": "lisbon trams"}', result="Tram 28 ```x```"),
            ToolCallPart("call_2", "fetch", "not json", result="404", is_error=True),
            ToolCallPart("call_3", "get_time", ""),
        ],
        created_at=T0,
    )
    return conversation, [answer]


def test_tool_calls_and_signatures_round_trip_through_json() -> None:
    conversation, messages = _tool_answer()
    data = json.loads(json.dumps(to_json(conversation, messages)))
    assert data["messages"][0]["parts"][2] == {
        "type": "tool_call",
        "call_id": "call_1",
        "name": "search",
        "arguments": '{"q": "lisbon trams"}',
        "result": "Tram 28 ```x```",
        "is_error": False,
    }
    assert from_json(data)[1] == messages


def test_markdown_shows_each_tool_call_with_its_arguments_and_result() -> None:
    conversation, messages = _tool_answer()
    text = to_markdown(conversation, messages, branch_only=True)
    assert (
        '**Tool call:** `search`\n\n```json\n{"q": "lisbon trams"}\n```\n\n'
        "**Result:**\n\n````\nTram 28 ```x```\n````"  # a longer fence than the content's
    ) in text
    assert "**Tool call:** `fetch`\n\n```\nnot json\n```\n\n**Error:**\n\n```\n404\n```" in text
    assert "**Tool call:** `get_time`\n\n_No result: the tool did not run._" in text
    assert "sig-xyz" not in text  # an opaque token, not for people


# --- citations ----------------------------------------------------------------------


def _cited_answer() -> tuple[Conversation, list[Message]]:
    conversation = Conversation(id="c", title="Sources", created_at=T0, updated_at=T0)
    guide = CitationPart(
        1,
        "lib",
        "/home/me/docs/guide.pdf",
        "docs/guide.pdf",
        "Belém at dawn.",
        page=3,
        char_start=40,
        char_end=54,
        source_sha256="a" * 64,
        chunk_id=5,
    )
    trams = CitationPart(
        2,
        "lib",
        "/home/me/docs/trams.md",
        "docs/trams.md",
        "Tram 28.",
        heading_path="Lisbon › Trams",
        char_start=7,
        char_end=15,
    )
    unused = CitationPart(3, "lib", "/home/me/docs/food.md", "docs/food.md", "Pastéis.")
    answer = Message(
        id="a",
        conversation_id="c",
        parent_id=None,
        role=Role.ASSISTANT,
        parts=[
            TextPart("Take tram 28 [2], then Belém [1][2]; not `[3]`."),
            guide,
            trams,
            unused,
        ],
        created_at=T0,
    )
    return conversation, [answer]


def test_citation_parts_round_trip_through_json() -> None:
    conversation, messages = _cited_answer()
    data = json.loads(json.dumps(to_json(conversation, messages)))
    parts = data["messages"][0]["parts"]
    assert [p["type"] for p in parts] == ["text", "citation", "citation", "citation"]
    assert parts[1]["relative_path"] == "docs/guide.pdf" and parts[1]["page"] == 3
    assert from_json(data)[1] == messages


def test_a_bad_citation_in_a_file_is_named_by_its_path() -> None:
    conversation, messages = _cited_answer()
    data = json.loads(json.dumps(to_json(conversation, messages)))
    data["messages"][0]["parts"][2]["number"] = -1
    with pytest.raises(ConversationFileError) as caught:
        from_json(data)
    assert caught.value.path == "messages[0].parts[2].number"


def test_markdown_lists_the_cited_sources_after_the_answer_in_citation_order() -> None:
    conversation, messages = _cited_answer()
    text = to_markdown(conversation, messages, branch_only=True)
    assert text.endswith(
        "Take tram 28 [2], then Belém [1][2]; not `[3]`.\n\n"
        "**Sources:**\n\n"
        "- [2] `docs/trams.md`, Lisbon › Trams\n"
        "- [1] `docs/guide.pdf`, p. 3\n"
    )
    assert "food.md" not in text and "/home/me" not in text  # uncited; no absolute paths


def test_an_answer_given_sources_it_does_not_cite_lists_none() -> None:
    conversation, messages = _cited_answer()
    answer = messages[0]
    quiet = replace(answer, parts=[TextPart("No citations."), *answer.parts[1:]])
    text = to_markdown(conversation, [quiet], branch_only=True)
    assert "**Sources:**" not in text
