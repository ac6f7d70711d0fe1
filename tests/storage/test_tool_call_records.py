"""A tool call's record is stored, exported and imported with it; older parts still load."""

from __future__ import annotations

import json

from desktop.core.models import (
    CallState,
    Conversation,
    DecidedBy,
    Decision,
    Message,
    Role,
    ToolCallPart,
)
from desktop.engine.export.markdown import to_markdown
from desktop.engine.export.parley_json import from_json, to_json
from desktop.storage import mapping
from desktop.storage.mapping import UnknownPart

RECORDED = ToolCallPart(
    "call_1",
    "run_command",
    '{"command": "ls"}',
    "exit code 0\n...",
    False,
    state=CallState.DONE,
    decision=Decision.APPROVED_ONCE,
    decided_by=DecidedBy.PERSON,
    duration_ms=42,
    result_size=40_000,
    output_path="tool_outputs/call_1.txt",
)


def test_the_record_round_trips_through_the_part_codec():
    data = json.loads(json.dumps(mapping.part_to_json(RECORDED)))
    assert data["state"] == "done" and data["decided_by"] == "person"
    assert mapping.decode_part(data) == RECORDED


def test_a_part_stored_before_records_existed_still_loads_and_is_stored_the_same():
    old = {
        "type": "tool_call",
        "call_id": "c",
        "name": "get_time",
        "arguments": "{}",
        "result": None,
        "is_error": False,
    }
    part = mapping.decode_part(old)
    assert part == ToolCallPart("c", "get_time", "{}") and part.state is None
    assert mapping.part_to_json(part) == old


def test_an_unknown_state_is_kept_verbatim_not_dropped():
    data = {**mapping.part_to_json(RECORDED), "state": "teleported"}
    part = mapping.part_from_json(data)
    assert isinstance(part, UnknownPart) and json.loads(part.raw) == json.loads(json.dumps(data))


def test_export_keeps_the_record_and_markdown_shows_it():
    conversation = Conversation("conv", "Tools")
    messages = [
        Message("u", "conv", None, Role.USER, []),
        Message("a", "conv", "u", Role.ASSISTANT, [RECORDED]),
    ]
    data = json.loads(json.dumps(to_json(conversation, messages)))
    _, imported = from_json(data)
    assert imported[1].parts == [RECORDED]
    markdown = to_markdown(conversation, messages, branch_only=True)
    assert "state: done · decision: approved_once (person) · 42 ms · 40000 bytes" in markdown
    assert "full output: tool_outputs/call_1.txt" in markdown
