"""The system prompt's parts in SPEC order, blank ones left out."""

from __future__ import annotations

from desktop.engine.prompt.system_prompt import (
    NO_TOOLS_NOTE,
    SUMMARY_HEADING,
    compose,
    tool_instructions,
)
from desktop.providers.base import ToolSpec


def _compose(**parts: object) -> str | None:
    defaults: dict[str, object] = {
        "conversation_prompt": None,
        "assistant_prompt": "",
        "allow_override": True,
        "capability_note": None,
        "summary": None,
        "tool_instructions": None,
    }
    return compose(**{**defaults, **parts})  # type: ignore[arg-type]


def test_every_part_in_order():
    text = _compose(
        conversation_prompt="CONVERSATION",
        assistant_prompt="ASSISTANT",
        capability_note="NOTE",
        summary="SUMMARY",
        tool_instructions="TOOLS",
    )
    assert text == f"CONVERSATION\n\nNOTE\n\n{SUMMARY_HEADING}\nSUMMARY\n\nTOOLS"


def test_the_conversation_prompt_replaces_the_assistant_prompt_only_when_allowed():
    allowed = _compose(conversation_prompt="mine", assistant_prompt="theirs")
    refused = _compose(conversation_prompt="mine", assistant_prompt="theirs", allow_override=False)
    assert allowed == "mine"
    assert refused == "theirs"


def test_a_blank_conversation_prompt_falls_back_to_the_assistant():
    assert _compose(conversation_prompt="  \n", assistant_prompt="theirs") == "theirs"


def test_blank_parts_are_skipped_and_nothing_at_all_is_none():
    assert _compose(assistant_prompt=" ", capability_note="NOTE", summary="\n") == "NOTE"
    assert _compose(assistant_prompt="", summary="  ", tool_instructions="") is None


def test_the_summary_is_introduced_as_earlier_conversation():
    text = _compose(summary="  They agreed on Tuesday.\n")
    assert text == (
        "Summary of the earlier conversation (the messages it covers are not repeated "
        "below):\nThey agreed on Tuesday."
    )


def test_tool_instructions_name_the_tools_and_mention_approval():
    assert tool_instructions(()) is None
    text = tool_instructions([ToolSpec("read_file", "Read"), ToolSpec("web_search", "Search")])
    assert text is not None
    assert "read_file, web_search" in text
    assert "approves" in text


def test_the_capability_note_tells_the_model_it_has_no_tools():
    assert "cannot call tools" in NO_TOOLS_NOTE
