"""Conversation export as Markdown: a readable document (the active branch, or every
version of every message, labelled). Pure functions, no I/O."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.models import (
    CitationPart,
    Conversation,
    ErrorPart,
    Message,
    MessageStatus,
    NoticePart,
    ReasoningPart,
    Role,
    SourceKind,
    TextPart,
    ToolCallPart,
)
from desktop.engine.export.parley_json import effective_leaf
from desktop.render.markdown import cited_numbers

_ONE_LINE_ARGUMENTS = 80  # characters of JSON arguments kept on one line as written


def _when(value: datetime) -> str:
    return f"{value.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _quote(label: str, text: str) -> str:
    lines = text.splitlines() or [""]
    return "\n".join([f"> **{label}** {lines[0]}", *(f"> {line}" for line in lines[1:])])


def _fenced(text: str, language: str = "") -> str:
    """A code block whose fence no run of backticks in `text` can close early."""
    run = longest = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def _arguments(text: str) -> tuple[str, str]:
    """Arguments as the model wrote them, indented when they are valid JSON."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, ValueError):
        return text, ""
    if isinstance(value, dict | list) and value and len(text) > _ONE_LINE_ARGUMENTS:
        return json.dumps(value, ensure_ascii=False, indent=2), "json"
    return text, "json"


# The record's values, in English as stored (an export reads as it always has), in the
# person's language otherwise.
_RECORD_WORDS = {
    "pending": QT_TR_NOOP("pending"),
    "running": QT_TR_NOOP("running"),
    "done": QT_TR_NOOP("done"),
    "error": QT_TR_NOOP("error"),
    "denied": QT_TR_NOOP("denied"),
    "answered": QT_TR_NOOP("answered"),
    "interrupted": QT_TR_NOOP("interrupted"),
    "auto": QT_TR_NOOP("auto"),
    "approved_once": QT_TR_NOOP("approved_once"),
    "always_allowed": QT_TR_NOOP("always_allowed"),
    "disabled": QT_TR_NOOP("disabled"),
    "policy": QT_TR_NOOP("policy"),
    "person": QT_TR_NOOP("person"),
    "recovery": QT_TR_NOOP("recovery"),
}


def _record_word(value: str) -> str:
    return tr(_RECORD_WORDS[value]) if value in _RECORD_WORDS else value


def _call_record(part: ToolCallPart) -> str:
    """One line of what happened to the call: state, who decided, time, size, file."""
    facts: list[str] = []
    if part.state is not None:
        facts.append(tr("state: {state}").format(state=_record_word(part.state.value)))
    if part.decision is not None:
        decision = _record_word(part.decision.value)
        who = f" ({_record_word(part.decided_by.value)})" if part.decided_by is not None else ""
        facts.append(tr("decision: {decision}").format(decision=decision) + who)
    if part.duration_ms is not None:
        facts.append(tr("{ms} ms").format(ms=part.duration_ms))
    if part.result_size is not None:
        facts.append(tr("{size} bytes").format(size=part.result_size))
    if part.output_path:
        facts.append(tr("full output: {path}").format(path=part.output_path))
    if part.error:
        facts.append(tr("error: {error}").format(error=part.error))
    return " · ".join(facts)


def _tool_call(part: ToolCallPart) -> str:
    """The call, its arguments and its result (or that it did not run)."""
    lines = [tr("**Tool call:** `{name}`").format(name=part.name or "?")]
    if part.arguments.strip():
        arguments, language = _arguments(part.arguments)
        lines += ["", _fenced(arguments, language)]
    record = _call_record(part)
    if record:
        lines += ["", "_" + record + "_"]
    if part.result is None:
        lines += ["", "_" + tr("No result: the tool did not run.") + "_"]
    else:
        label = tr("**Error:**") if part.is_error else tr("**Result:**")
        lines += ["", label, "", _fenced(part.result)]
    return "\n".join(lines)


def _role(message: Message) -> str:
    label = {Role.USER: tr("User"), Role.ASSISTANT: tr("Assistant"), Role.SYSTEM: tr("System")}
    return label[message.role] + (f" ({message.model})" if message.model else "")


def _status(status: MessageStatus) -> str | None:
    return {
        MessageStatus.STREAMING: tr("still being written when exported"),
        MessageStatus.CANCELLED: tr("stopped"),
        MessageStatus.INTERRUPTED: tr("interrupted"),
        MessageStatus.ERROR: tr("failed"),
        MessageStatus.AWAITING_APPROVAL: tr("waiting for approval"),
    }.get(status)


def _body(message: Message) -> list[str]:
    blocks: list[str] = []
    for part in message.parts:
        if isinstance(part, ReasoningPart):
            seconds = "" if part.duration_ms is None else f" ({part.duration_ms / 1000:.1f} s)"
            summary = tr("Reasoning") + seconds
            blocks.append(f"<details>\n<summary>{summary}</summary>\n\n{part.text}\n\n</details>")
        elif isinstance(part, TextPart):
            blocks.append(part.text)
        elif isinstance(part, ToolCallPart):
            blocks.append(_tool_call(part))
        elif isinstance(part, ErrorPart):
            code = "" if part.status_code is None else f" ({part.status_code})"
            blocks.append(_quote(tr("Error") + code + ":", part.message))
        elif isinstance(part, NoticePart):  # UnknownPart included: its text explains
            blocks.append(_quote(tr("Note:"), part.text))
    sources = _sources(message)
    if sources:
        blocks.append(sources)
    return [block for block in blocks if block.strip()]


def _code_span(text: str) -> str:
    """`text` as inline code that no backtick in it can close early."""
    text = _one_line(text)
    run = longest = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    ticks = "`" * (longest + 1)
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{padding}{text}{padding}{ticks}"


def _location(part: CitationPart) -> str:
    """Where the passage is in its file: its page, else its headings ("" if neither)."""
    if part.page is not None:
        return tr("p. {page}").format(page=part.page)
    return _one_line(part.heading_path)


def _source_line(part: CitationPart) -> str:
    """A document by its file and place, a chat by its title and day, a page by its
    title and address (as a code span: an export never makes a link of its own)."""
    if part.kind is SourceKind.CHAT:
        title = _one_line(part.title) or tr("Untitled chat")
        return f"{_code_span(title)}, {part.date[:10]}" if part.date else _code_span(title)
    if part.kind is SourceKind.WEB:
        title = _one_line(part.title)
        return f"{_code_span(title)}, {_code_span(part.url)}" if title else _code_span(part.url)
    location = _location(part)
    line = _code_span(part.relative_path or part.path)
    return line + (f", {location}" if location else "")


def _sources(message: Message) -> str:
    """The sources the answer cites, in the order it first cites them: "[1] file, place".
    Sources it was given but does not cite are left out, as the cards leave them out."""
    given: dict[int, CitationPart] = {}
    for part in message.parts:
        if isinstance(part, CitationPart):
            given.setdefault(part.number, part)
    if not given:
        return ""
    lines = []
    for number in cited_numbers(message.text, given):
        lines.append(f"- [{number}] {_source_line(given[number])}")
    if not lines:
        return ""
    title = tr("Sources:")
    return "\n".join([f"**{title}**", "", *lines])


def _tree_order(messages: Sequence[Message]) -> list[tuple[Message, int, int]]:
    """Depth first, versions in creation order: (message, version k, of n)."""
    ids = {m.id for m in messages}
    children: dict[str | None, list[Message]] = {}
    for message in messages:  # a parent outside the given set makes a root
        parent = message.parent_id if message.parent_id in ids else None
        children.setdefault(parent, []).append(message)
    ordered: list[tuple[Message, int, int]] = []
    seen: set[str] = set()
    stack = [(m, k, len(children[None])) for k, m in enumerate(children.get(None, []), 1)]
    stack.reverse()
    while stack:
        message, k, n = stack.pop()
        if message.id in seen:
            continue
        seen.add(message.id)
        ordered.append((message, k, n))
        kids = children.get(message.id, [])
        stack.extend(reversed([(m, i, len(kids)) for i, m in enumerate(kids, 1)]))
    return ordered


def to_markdown(
    conversation: Conversation, messages: Sequence[Message], *, branch_only: bool
) -> str:
    """Title, then each message with its role and time; text as written, reasoning
    folded in <details>, tool calls with their arguments and results in code blocks,
    notices and errors quoted, the sources an answer cites listed after it ("[1] file,
    p. 3"). With `branch_only=False` every version is included,
    depth first, labelled "Version k of n"."""
    count = len(messages)
    lines = [
        f"# {_one_line(conversation.title)}",
        "",
        "_"
        + tr("Exported from Parley · started {when} · {count} messages").format(
            when=_when(conversation.created_at), count=count
        )
        + "_",
    ]
    if branch_only:
        entries = [(m, 1, 1) for m in messages]
        current: set[str] = set()
    else:
        entries = _tree_order(messages)
        current = _active_path(conversation, messages)
        if any(n > 1 for _, _, n in entries):
            lines += ["", "_" + tr("Every version of every message is included.") + "_"]
    by_id = {m.id: m for m in messages}
    for message, k, n in entries:
        heading = [_role(message), _when(message.created_at)]
        if n > 1:
            version = tr("Version {k} of {n}").format(k=k, n=n)
            heading.append(version + (" (" + tr("current") + ")" if message.id in current else ""))
        status = _status(message.status)
        if status:
            heading.append(status)
        lines += ["", "## " + " · ".join(heading)]
        if n > 1 and k > 1:
            parent = by_id.get(message.parent_id or "")
            reply_to = _one_line(parent.text)[:60] if parent else ""
            note = (
                tr("Another version, replying to: “{text}”").format(text=reply_to)
                if reply_to
                else tr("Another version of the first message")
            )
            lines += ["", f"_{note}_"]
        for block in _body(message):
            lines += ["", block]
    return "\n".join(lines) + "\n"


def _active_path(conversation: Conversation, messages: Sequence[Message]) -> set[str]:
    by_id = {m.id: m for m in messages}
    path: set[str] = set()
    node = by_id.get(effective_leaf(conversation, messages) or "")
    while node is not None and node.id not in path:
        path.add(node.id)
        node = by_id.get(node.parent_id or "")
    return path
