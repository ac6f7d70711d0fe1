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
_KIB = 1024
_MS_PER_S = 1000


@dataclass(frozen=True, slots=True)
class ToolCard:
    call_id: str
    name: str
    state: str  # "running", "done", "denied", "error", "answered", "interrupted", "pending"…
    state_label: str
    headline: str  # the arguments on one line ("du -sh ~", "query: lisbon trams")
    summary: str  # decision and who made it, duration, result size, on one line
    arguments: str  # pretty JSON (or the raw text when it is not JSON), as shown
    result: str  # the result, or its preview when the output was large, as shown
    is_error: bool
    output_path: str  # relative to the data folder; "" when the result is complete
    attachment_ids: tuple[str, ...] = ()  # images the tool returned, in the attachment store
    memory_saved: str = ""  # what a memory_save kept (the card offers Edit and Undo)


def _state_labels() -> dict[CallState, str]:
    return {
        CallState.PENDING: QCoreApplication.translate("ToolCard", "waiting for approval"),
        CallState.RUNNING: QCoreApplication.translate("ToolCard", "running"),
        CallState.DONE: QCoreApplication.translate("ToolCard", "done"),
        CallState.ERROR: QCoreApplication.translate("ToolCard", "error"),
        CallState.DENIED: QCoreApplication.translate("ToolCard", "denied"),
        CallState.ANSWERED: QCoreApplication.translate("ToolCard", "answered"),
        CallState.INTERRUPTED: QCoreApplication.translate("ToolCard", "interrupted"),
        CallState.CANCELLED: QCoreApplication.translate("ToolCard", "cancelled"),
    }


def _decision_label(part: ToolCallPart) -> str:
    if part.decision is None:
        return ""
    text = {
        Decision.AUTO: QCoreApplication.translate("ToolCard", "allowed"),
        Decision.APPROVED_ONCE: QCoreApplication.translate("ToolCard", "approved once"),
        Decision.ALWAYS_ALLOWED: QCoreApplication.translate("ToolCard", "always allowed"),
        Decision.DENIED: QCoreApplication.translate("ToolCard", "denied"),
        Decision.ANSWERED: QCoreApplication.translate("ToolCard", "answered instead"),
        Decision.DISABLED: QCoreApplication.translate("ToolCard", "turned off"),
        Decision.INTERRUPTED: QCoreApplication.translate("ToolCard", "interrupted"),
    }[part.decision]
    by = (
        {
            DecidedBy.POLICY: QCoreApplication.translate("ToolCard", "by policy"),
            DecidedBy.PERSON: QCoreApplication.translate("ToolCard", "by you"),
            DecidedBy.RECOVERY: QCoreApplication.translate("ToolCard", "by Parley"),
        }.get(part.decided_by)
        if part.decided_by
        else None
    )
    if by is None:
        return text
    # One template, so a language can join the two as it does (Chinese: no space).
    return QCoreApplication.translate("ToolCard", "%1 %2").replace("%1", text).replace("%2", by)


def size_text(size: int) -> str:
    if size < _KIB:
        return QCoreApplication.translate("ToolCard", "%n B").replace("%n", str(size))
    if size < _KIB * _KIB:
        return QCoreApplication.translate("ToolCard", "%n KiB").replace(
            "%n", QLocale().toString(size / _KIB, "f", 1)
        )
    return QCoreApplication.translate("ToolCard", "%n MiB").replace(
        "%n", QLocale().toString(size / (_KIB * _KIB), "f", 1)
    )


def pretty_json(text: str) -> str:
    if len(text) > MAX_PRETTY_CHARS:
        return text
    try:
        return json.dumps(json.loads(text or "{}"), ensure_ascii=False, indent=2)
    except (ValueError, RecursionError):  # nested too deep for the parser: as written
        return text


# Arguments that say most about a call, shown alone when a call has one.
_TELLING_KEYS = ("command", "cmd", "query", "q", "url", "path", "file", "filename", "text", "name")
MAX_HEADLINE_CHARS = 160


def headline(arguments: str) -> str:
    """The arguments on one line, for the card's header: a telling argument's value
    alone (a command, a query, a path), else ``key: value`` pairs. Control characters
    and runs of spaces become one space; what a model wrote is shown, never run."""
    if len(arguments) > MAX_PRETTY_CHARS:
        return _one_line(arguments)
    try:
        value = json.loads(arguments or "{}")
    except (ValueError, RecursionError):  # nested too deep for the parser: as written
        return _one_line(arguments)
    if not isinstance(value, dict):
        return _one_line(json.dumps(value, ensure_ascii=False))
    for key in _TELLING_KEYS:
        telling = value.get(key)
        if isinstance(telling, str) and telling.strip():
            return _one_line(telling)
        if isinstance(telling, list) and telling and all(isinstance(v, str) for v in telling):
            return _one_line(" ".join(telling))
    pairs = (f"{key}: {_scalar(item)}" for key, item in value.items())
    return _one_line(", ".join(pairs))


def _scalar(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _one_line(text: str) -> str:
    cut = text[: MAX_HEADLINE_CHARS * 4]
    line = " ".join("".join(c if c.isprintable() else " " for c in cut).split())
    return line if len(line) <= MAX_HEADLINE_CHARS else line[: MAX_HEADLINE_CHARS - 1] + "…"


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
            QCoreApplication.translate("ToolCard", "%n ms").replace("%n", str(part.duration_ms))
            if part.duration_ms < _MS_PER_S
            else QCoreApplication.translate("ToolCard", "%n s").replace(
                "%n", QLocale().toString(part.duration_ms / _MS_PER_S, "f", 1)
            )
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
        headline=headline(part.arguments),
        summary=" · ".join(b for b in bits if b),
        arguments=shown_text(pretty_json(part.arguments)),
        result=shown_text(result),
        is_error=part.is_error or state is CallState.ERROR,
        output_path=part.output_path or "",
        attachment_ids=part.attachment_ids,
        memory_saved=_memory_saved(part, state),
    )


def _memory_saved(part: ToolCallPart, state: CallState) -> str:
    """The text a successful `memory_save` kept (not a duplicate it found)."""
    if part.name != "memory_save" or state is not CallState.DONE or not part.result:
        return ""
    try:
        result = json.loads(part.result)
    except (ValueError, RecursionError):  # nested too deep for the parser: as written
        return ""
    if not isinstance(result, dict) or result.get("saved") is not True:
        return ""
    text = result.get("text")
    return text if isinstance(text, str) else ""


def tool_cards(message: Message) -> tuple[ToolCard, ...]:
    return tuple(tool_card(p) for p in message.parts if isinstance(p, ToolCallPart))
