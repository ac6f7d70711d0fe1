"""What a tool card shows for one `ToolCallPart`: plain, already worded data.

Arguments and results are shown up to `MAX_CARD_CHARS` each (a model can write megabytes
of arguments, and a label's layout of that would freeze the window); the card says how
much more there is. The message keeps all of it, and a large result is in its output file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QLocale

from desktop.core.models import CallState, DecidedBy, Decision, Message, ToolCallPart
from desktop.ui.viewmodels.long_text import hidden_note

MAX_CARD_CHARS = 8_000
MAX_PRETTY_CHARS = 32_768  # longer arguments are shown as written, not parsed


def _tr(text: str) -> str:
    return QCoreApplication.translate("ToolCard", text)


@dataclass(frozen=True, slots=True)
class ToolCard:
    call_id: str
    name: str
    state: str  # "running", "done", "denied", "error", "answered", "interrupted", "pending"…
    state_label: str
    summary: str  # decision and who made it, duration, result size, on one line
    arguments: str  # pretty JSON (or the raw text when it is not JSON), as shown
    result: str  # the result, or its preview when the output was large, as shown
    is_error: bool
    output_path: str  # relative to the data folder; "" when the result is complete
    attachment_ids: tuple[str, ...] = ()  # images the tool returned, in the attachment store


def _state_labels() -> dict[CallState, str]:
    return {
        CallState.PENDING: _tr("waiting for approval"),
        CallState.RUNNING: _tr("running"),
        CallState.DONE: _tr("done"),
        CallState.ERROR: _tr("error"),
        CallState.DENIED: _tr("denied"),
        CallState.ANSWERED: _tr("answered"),
        CallState.INTERRUPTED: _tr("interrupted"),
        CallState.CANCELLED: _tr("cancelled"),
    }


def _decision_label(part: ToolCallPart) -> str:
    if part.decision is None:
        return ""
    text = {
        Decision.AUTO: _tr("allowed"),
        Decision.APPROVED_ONCE: _tr("approved once"),
        Decision.ALWAYS_ALLOWED: _tr("always allowed"),
        Decision.DENIED: _tr("denied"),
        Decision.ANSWERED: _tr("answered instead"),
        Decision.DISABLED: _tr("turned off"),
        Decision.INTERRUPTED: _tr("interrupted"),
    }[part.decision]
    by = (
        {
            DecidedBy.POLICY: _tr("by policy"),
            DecidedBy.PERSON: _tr("by you"),
            DecidedBy.RECOVERY: _tr("by Parley"),
        }.get(part.decided_by)
        if part.decided_by
        else None
    )
    return f"{text} {by}" if by else text


def size_text(size: int) -> str:
    if size < 1024:
        return _tr("%n B").replace("%n", str(size))
    if size < 1024 * 1024:
        return _tr("%n KiB").replace("%n", QLocale().toString(size / 1024, "f", 1))
    return _tr("%n MiB").replace("%n", QLocale().toString(size / (1024 * 1024), "f", 1))


def pretty_json(text: str) -> str:
    if len(text) > MAX_PRETTY_CHARS:
        return text
    try:
        return json.dumps(json.loads(text or "{}"), ensure_ascii=False, indent=2)
    except ValueError:
        return text


def shown_text(text: str) -> str:
    """`text`, or its first `MAX_CARD_CHARS` and a line saying how much more there is."""
    hidden = len(text) - MAX_CARD_CHARS
    if hidden <= 0:
        return text
    return f"{text[:MAX_CARD_CHARS]}\n{hidden_note(hidden)}"


def tool_card(part: ToolCallPart) -> ToolCard:
    state = part.state or (CallState.DONE if part.result is not None else CallState.PENDING)
    bits = [_decision_label(part)]
    if part.duration_ms is not None:
        bits.append(
            _tr("%n ms").replace("%n", str(part.duration_ms))
            if part.duration_ms < 1000
            else _tr("%n s").replace("%n", QLocale().toString(part.duration_ms / 1000, "f", 1))
        )
    if part.result_size is not None:
        bits.append(size_text(part.result_size))
    result = part.result or ""
    if part.error and part.error not in result:
        result = f"{part.error}\n{result}".strip()
    return ToolCard(
        call_id=part.call_id,
        name=part.name,
        state=state.value,
        state_label=_state_labels()[state],
        summary=" · ".join(b for b in bits if b),
        arguments=shown_text(pretty_json(part.arguments)),
        result=shown_text(result),
        is_error=part.is_error or state is CallState.ERROR,
        output_path=part.output_path or "",
        attachment_ids=part.attachment_ids,
    )


def tool_cards(message: Message) -> tuple[ToolCard, ...]:
    return tuple(tool_card(p) for p in message.parts if isinstance(p, ToolCallPart))
