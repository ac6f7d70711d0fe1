"""The system prompt of a request, composed from its parts in one fixed order.

The order matters: the persona comes first so everything after it reads as its rules; the
capability note follows so the persona cannot promise what the model cannot do; the
summary stands in for the messages it covers; tool instructions come last, next to the
tool definitions the provider appends. Everything here is read by the model, not the
person, so it is English, like every instruction to a model.
"""

from __future__ import annotations

from collections.abc import Sequence

from desktop.providers.base import ToolSpec

NO_TOOLS_NOTE = (
    "Tools are not available with this model: you cannot call tools, run code, read "
    "files or search; do not pretend to."
)

SUMMARY_HEADING = (
    "Summary of the earlier conversation (the messages it covers are not repeated below):"
)


def summary_section(summary: str) -> str:
    """The rolling summary, introduced so the model takes it as history, not as rules."""
    return f"{SUMMARY_HEADING}\n{summary.strip()}"


def tool_instructions(tool_specs: Sequence[ToolSpec]) -> str | None:
    """A short paragraph for a request that offers tools; None when it offers none.

    Without it models either ignore the tools or keep retrying a call the person denied.
    """
    if not tool_specs:
        return None
    names = ", ".join(spec.name for spec in tool_specs)
    return (
        f"You may call these tools when they help answer: {names}. Some of them run only "
        "after the person approves the call; a denied call returns an error, so do not "
        "repeat it: carry on without it or ask the person."
    )


def compose(
    *,
    conversation_prompt: str | None,
    assistant_prompt: str,
    allow_override: bool,
    capability_note: str | None,
    summary: str | None,
    tool_instructions: str | None,
) -> str | None:
    """The system text: the conversation's own prompt when the assistant allows it (and
    it says something), else the assistant's; then the capability note, the summary and
    the tool instructions. Blank parts are left out; None when nothing is left."""
    override = conversation_prompt if allow_override else None
    base = override if override and override.strip() else assistant_prompt
    parts = [
        base,
        capability_note,
        summary_section(summary) if summary and summary.strip() else None,
        tool_instructions,
    ]
    text = "\n\n".join(part.strip() for part in parts if part and part.strip())
    return text or None
