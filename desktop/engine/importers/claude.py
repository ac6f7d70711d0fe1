"""Claude (claude.ai) data export: the zip's `conversations.json`, a list of chats.

Each chat is `{uuid, name, created_at, updated_at, chat_messages[…]}`; each message is
`{uuid, sender: "human"/"assistant", text, content[blocks], attachments[…], files[…],
created_at, parent_message_uuid}`. Newer exports keep abandoned branches (edits and
retries) in the same list, tied together by `parent_message_uuid` (the first message's
parent is the all-zero sentinel); older ones have no parent field and are one line in
list order. The export names no chosen branch, so the newest leaf is the active one
(a `current_leaf_message_uuid`, when an export carries it, wins).

Content blocks: `text`, `thinking` (reasoning), `tool_use` and `tool_result` (paired by
`tool_use_id`, or by order when the export leaves the id out). Attachments arrive as
their extracted text only (no bytes): the text is kept in the person's message under the
file's name. Uploaded images and files (`files`) are not in the export: they are
counted and a notice marks where they were.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from desktop.core.i18n import tr
from desktop.core.models import (
    CallState,
    Conversation,
    Message,
    MessageStatus,
    ModelRef,
    NoticePart,
    Part,
    ReasoningPart,
    Role,
    TextPart,
    ToolCallPart,
    utc_now,
)
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import ImportedConversation, Skipped, derived_id, from_iso

CLIENT = "claude"
LABEL = "Claude"

ROOT_SENTINEL = "00000000-0000-4000-8000-000000000000"
MAX_TEXT_CHARS = 200_000  # one attachment's text, one tool result: enough to read, not a dump
_DETECT_SAMPLE = 20  # conversations looked at by detect()
_TITLE_CHARS = 80
# Block types that carry nothing a person reads (Claude's internal bookkeeping).
_QUIET_BLOCKS = frozenset({"token_budget"})
_ROLES = {"human": Role.USER, "user": Role.USER, "assistant": Role.ASSISTANT}


class _Absent:
    """A message without a `parent_message_uuid` field (an older export)."""


_ABSENT = _Absent()


@dataclasses.dataclass(slots=True)
class _Node:
    """One message of the source, kept or not (a system message still holds the tree)."""

    source_id: str
    position: int
    parent: str | _Absent | None
    created_at: datetime
    message: Message | None = None


def _conversations_file(files: ExportFiles) -> str | None:
    """`conversations.json` in a zip or folder; a lone JSON file whatever its name."""
    name = files.find("conversations.json")
    if name is None and len(files.names) == 1:
        name = files.names[0]
    return name


def detect(files: ExportFiles) -> bool:
    name = _conversations_file(files)
    if name is None:
        return False
    try:
        data = files.json(name)
    except ExportError:
        return False
    if not isinstance(data, list):
        return False
    sample = [item for item in data[:_DETECT_SAMPLE] if isinstance(item, dict)]
    return any("uuid" in item and "chat_messages" in item for item in sample)


def read(files: ExportFiles) -> Iterator[ImportedConversation | Skipped]:
    name = _conversations_file(files)
    if name is None:
        raise ExportError(tr("The export has no conversations.json."))
    data = files.json(name)
    if not isinstance(data, list):
        raise ExportError(tr("{name} does not hold a list of conversations.").format(name=name))
    for index, item in enumerate(data):
        try:
            yield _conversation(item, index)
        except (TypeError, ValueError, AttributeError, KeyError, RecursionError) as error:
            yield Skipped(
                _where(item, index),
                tr("it could not be read: {error}").format(error=error),
            )


def _where(item: object, index: int) -> str:
    if isinstance(item, dict):
        for key in ("name", "uuid"):
            value = item.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
    return tr("conversation {number}").format(number=index + 1)


def _conversation(item: object, index: int) -> ImportedConversation | Skipped:
    where = _where(item, index)
    if not isinstance(item, dict):
        return Skipped(where, tr("it is not a conversation"))
    source_id = item.get("uuid")
    if not isinstance(source_id, str) or not source_id:
        return Skipped(where, tr("it has no id"))
    raw_messages = item.get("chat_messages")
    if not isinstance(raw_messages, list):
        return Skipped(where, tr("it has no list of messages"))
    if not raw_messages:
        return Skipped(where, tr("no messages"))

    conversation_id = derived_id(CLIENT, "conversation", source_id)
    created = from_iso(item.get("created_at"))
    # A message without a time gets the chat's plus its position, in milliseconds: the
    # unit storage keeps, so the times stay distinct once stored.
    base = created or _first_time(raw_messages) or utc_now()
    model_name = item.get("model")
    model = ModelRef(CLIENT, model_name) if isinstance(model_name, str) and model_name else None

    skipped: list[Skipped] = []
    nodes: dict[str, _Node] = {}
    order: list[_Node] = []
    images = 0
    has_parent_field = False
    for position, raw in enumerate(raw_messages):
        label = tr("message {number} of “{title}”").format(number=position + 1, title=where)
        if not isinstance(raw, dict):
            skipped.append(Skipped(label, tr("it is not a message")))
            continue
        uuid = raw.get("uuid")
        node_source = uuid if isinstance(uuid, str) and uuid else f"{source_id}:{position}"
        if node_source in nodes:
            skipped.append(Skipped(label, tr("the same message appears twice")))
            continue
        has_parent_field = has_parent_field or "parent_message_uuid" in raw
        node = _Node(
            source_id=node_source,
            position=position,
            parent=_parent_reference(raw),
            created_at=from_iso(raw.get("created_at")) or base + timedelta(milliseconds=position),
        )
        nodes[node_source] = node
        order.append(node)
        sender = raw.get("sender")
        role = _ROLES.get(sender) if isinstance(sender, str) else None
        if role is None:
            reason = (
                tr("a {sender} message is not imported").format(sender=sender[:40])
                if isinstance(sender, str) and sender
                else tr("it says nobody sent it")
            )
            skipped.append(Skipped(label, reason))
            continue  # the node stays: its replies hang on its nearest kept ancestor
        parts, found = _message_parts(raw)
        images += found
        node.message = Message(
            id=derived_id(CLIENT, "message", node_source),
            conversation_id=conversation_id,
            parent_id=None,
            role=role,
            parts=parts or [TextPart("")],
            status=MessageStatus.COMPLETE,
            model=model if role is Role.ASSISTANT else None,
            created_at=node.created_at,
        )

    parents = _resolve_parents(order, nodes)
    kept = [node for node in order if node.message is not None]
    if not kept:
        return Skipped(where, tr("none of its messages could be imported"))
    kept_parent = _kept_parents(order, nodes, parents)
    children: dict[str | None, list[_Node]] = {}
    for node in kept:
        parent = kept_parent[node.source_id]
        assert node.message is not None
        node.message.parent_id = None if parent is None else derived_id(CLIENT, "message", parent)
        children.setdefault(parent, []).append(node)

    leaf = _active_leaf(item, nodes, kept_parent, children)
    title = _title(item, kept)
    times = [node.created_at for node in kept]
    updated = from_iso(item.get("updated_at")) or max(times)
    notes: list[str] = []
    if not has_parent_field and len(kept) > 1:
        notes.append(
            tr("This export keeps no branches for “{title}”; its messages follow in order.").format(
                title=title
            )
        )
    conversation = Conversation(
        id=conversation_id,
        title=title,
        created_at=created or min(times),
        updated_at=max(updated, created or updated),
        active_leaf_id=leaf.message.id if leaf.message is not None else None,
    )
    return ImportedConversation(
        conversation=conversation,
        messages=tuple(node.message for node in kept if node.message is not None),
        skipped=tuple(skipped),
        branches=sum(1 for siblings in children.values() if len(siblings) > 1),
        images=images,
        notes=tuple(notes),
        files_left_out=images,  # the export holds none of them
    )


def _first_time(raw_messages: list[Any]) -> datetime | None:
    for raw in raw_messages:
        if isinstance(raw, dict) and (time := from_iso(raw.get("created_at"))) is not None:
            return time
    return None


def _parent_reference(raw: dict[str, Any]) -> str | _Absent | None:
    """The parent the message names: None for the root, `_ABSENT` when it names none."""
    if "parent_message_uuid" not in raw:
        return _ABSENT
    parent = raw["parent_message_uuid"]
    if parent is None or parent in (ROOT_SENTINEL, ""):
        return None
    return parent if isinstance(parent, str) else _ABSENT


def _resolve_parents(order: list[_Node], nodes: dict[str, _Node]) -> dict[str, str | None]:
    """Each node's parent among `nodes`: the named one; the previous message in the list
    when it names none (an older export) or one that is not there (a message of the
    export that could not be read); and never a cycle (a hostile file): the edge that
    closes one is cut, making that node a root."""
    parents: dict[str, str | None] = {}
    previous: str | None = None
    for node in order:
        reference = node.parent
        if isinstance(reference, _Absent) or (
            reference is not None and (reference not in nodes or reference == node.source_id)
        ):
            parents[node.source_id] = previous
        else:
            parents[node.source_id] = reference
        previous = node.source_id
    state: dict[str, int] = {}  # 1: on the path being walked, 2: known to reach a root
    for node in order:
        path: list[str] = []
        current: str | None = node.source_id
        while current is not None and current not in state:
            state[current] = 1
            path.append(current)
            current = parents[current]
        if current is not None and state[current] == 1:
            parents[path[-1]] = None
        for walked in path:
            state[walked] = 2
    return parents


def _kept_parents(
    order: list[_Node], nodes: dict[str, _Node], parents: dict[str, str | None]
) -> dict[str, str | None]:
    """Each node's nearest ancestor that is imported (a system message is not)."""
    hidden: dict[str, str | None] = {}  # a node not imported -> its nearest kept ancestor
    nearest: dict[str, str | None] = {}
    for node in order:
        path: list[str] = []
        current = parents[node.source_id]
        while current is not None and nodes[current].message is None:
            if current in hidden:
                current = hidden[current]
                break
            path.append(current)
            current = parents[current]
        for walked in path:
            hidden[walked] = current
        nearest[node.source_id] = current
    return nearest


def _active_leaf(
    item: dict[str, Any],
    nodes: dict[str, _Node],
    kept_parent: dict[str, str | None],
    children: dict[str | None, list[_Node]],
) -> _Node:
    """The leaf the export chose, else the newest leaf (of the chosen message's subtree
    when the chosen one is not a leaf or was not imported)."""
    chosen = item.get("current_leaf_message_uuid")
    start: str | None = None
    if isinstance(chosen, str) and chosen in nodes:
        start = chosen if nodes[chosen].message is not None else kept_parent[chosen]
    leaves: list[_Node] = []
    stack = children.get(start, []) if start is None else [nodes[start]]
    while stack:
        node = stack.pop()
        below = children.get(node.source_id)
        if below:
            stack.extend(below)
        else:
            leaves.append(node)
    return max(leaves, key=lambda node: (node.created_at, node.position))


def _title(item: dict[str, Any], kept: list[_Node]) -> str:
    name = item.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    for node in kept:
        if node.message is not None and node.message.role is Role.USER:
            line = node.message.text.strip().split("\n", 1)[0].strip()
            if line:
                return line[:_TITLE_CHARS]
    return tr("Untitled Claude chat")


def _message_parts(raw: dict[str, Any]) -> tuple[list[Part], int]:
    """The message's parts and how many images or files it showed that were not imported."""
    content = raw.get("content")
    parts: list[Part]
    if isinstance(content, list) and content:
        parts = _content_parts(content)
    else:
        text = raw.get("text")
        parts = [TextPart(text)] if isinstance(text, str) and text else []
    kept_files: set[str] = set()
    attachments = raw.get("attachments")
    images = 0
    if isinstance(attachments, list):
        for attachment in attachments:
            images += _attachment(attachment, parts, kept_files)
    images += _files(raw, parts, kept_files)
    return parts, images


def _content_parts(blocks: list[Any]) -> list[Part]:
    parts: list[Part] = []
    open_calls: list[int] = []  # indexes in `parts` of tool calls still without a result
    anonymous: set[int] = set()  # those of calls the export gave no id
    for block in blocks:
        if not isinstance(block, dict):
            parts.append(NoticePart(tr("A part of this message could not be read.")))
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if isinstance(text, str) and text:
                parts.append(TextPart(text))
        elif kind == "thinking":
            reasoning = _reasoning(block)
            if reasoning is not None:
                parts.append(reasoning)
        elif kind == "tool_use":
            open_calls.append(len(parts))
            call_id = block.get("id")
            if not isinstance(call_id, str) or not call_id:
                anonymous.add(len(parts))
            parts.append(_tool_call(block, len(parts)))
        elif kind == "tool_result":
            _tool_result(block, parts, open_calls, anonymous)
        elif not (isinstance(kind, str) and kind in _QUIET_BLOCKS):
            name = kind[:40] if isinstance(kind, str) and kind else "?"
            parts.append(
                NoticePart(
                    tr("A “{kind}” part of this message in Claude was not imported.").format(
                        kind=name
                    )
                )
            )
    return parts


def _reasoning(block: dict[str, Any]) -> ReasoningPart | None:
    text = block.get("thinking")
    if not isinstance(text, str) or not text:
        summaries = block.get("summaries")
        lines = (
            [s.get("summary") for s in summaries if isinstance(s, dict)]
            if isinstance(summaries, list)
            else []
        )
        text = "\n\n".join(line for line in lines if isinstance(line, str) and line)
    if not text:
        return None
    start, stop = from_iso(block.get("start_timestamp")), from_iso(block.get("stop_timestamp"))
    duration = 0
    if start is not None and stop is not None and stop > start:
        duration = int((stop - start).total_seconds() * 1000)
    return ReasoningPart(text, duration_ms=duration)


def _tool_call(block: dict[str, Any], index: int) -> ToolCallPart:
    call_id = block.get("id")
    name = block.get("name")
    arguments = block.get("input")
    try:
        arguments_text = (
            "" if arguments is None else json.dumps(arguments, ensure_ascii=False, default=str)
        )
    except (ValueError, RecursionError):
        arguments_text = ""
    return ToolCallPart(
        call_id=call_id if isinstance(call_id, str) and call_id else f"call-{index}",
        name=name if isinstance(name, str) and name else "tool",
        arguments=arguments_text,
        state=CallState.DONE,
    )


def _tool_result(
    block: dict[str, Any], parts: list[Part], open_calls: list[int], anonymous: set[int]
) -> None:
    """Fill the result into its call: the one with its `tool_use_id`; else (the export
    left an id out) the last open call of the same name, else the last open call, among
    the calls without an id when the result names one. A result of no call stands alone."""
    text = _capped(_result_text(block.get("content")))
    is_error = block.get("is_error") is True
    state = CallState.ERROR if is_error else CallState.DONE
    use_id = block.get("tool_use_id")
    name = block.get("name")

    def call(index: int) -> ToolCallPart:
        part = parts[index]
        assert isinstance(part, ToolCallPart)
        return part

    match = next((i for i in open_calls if call(i).call_id == use_id), None)
    if match is None:
        pool = [i for i in open_calls if not isinstance(use_id, str) or i in anonymous]
        same_name = [i for i in pool if call(i).name == name]
        candidates = same_name or pool
        match = candidates[-1] if candidates else None
    if match is not None:
        open_calls.remove(match)
        parts[match] = dataclasses.replace(call(match), result=text, is_error=is_error, state=state)
        return
    parts.append(
        ToolCallPart(
            call_id=use_id if isinstance(use_id, str) and use_id else f"result-{len(parts)}",
            name=name if isinstance(name, str) and name else "tool",
            result=text,
            is_error=is_error,
            state=state,
        )
    )


def _result_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts = [
        item["text"]
        for item in content
        if isinstance(item, dict) and isinstance(item.get("text"), str)
    ]
    if not texts and content:
        return tr("(The result held no text.)")
    return "\n".join(texts)


def _capped(text: str) -> str:
    if len(text) <= MAX_TEXT_CHARS:
        return text
    return text[:MAX_TEXT_CHARS] + "\n…"


def _attachment(attachment: object, parts: list[Part], kept_files: set[str]) -> int:
    """Keep an attachment's extracted text under its name; 1 when nothing of it is kept."""
    if not isinstance(attachment, dict):
        return 0
    name = attachment.get("file_name")
    name = name if isinstance(name, str) and name else tr("a file")
    text = attachment.get("extracted_content")
    if not isinstance(text, str) or not text:
        parts.append(
            NoticePart(
                tr("The file {name} was attached here in Claude; it was not imported.").format(
                    name=name
                )
            )
        )
        return 1
    kept_files.add(name)
    separator = "\n\n" if any(isinstance(p, TextPart) and p.text for p in parts) else ""
    label = tr("Attached file {name}:").format(name=name)
    parts.append(TextPart(f"{separator}{label}\n\n{_capped(text)}"))
    if len(text) > MAX_TEXT_CHARS:
        notice = tr(
            "The file {name} was attached here in Claude. The first {count} characters of "
            "its text are kept; the file itself was not in the export."
        ).format(name=name, count=f"{MAX_TEXT_CHARS:,}")
    else:
        notice = tr(
            "The file {name} was attached here in Claude. Its text is kept; the file itself "
            "was not in the export."
        ).format(name=name)
    parts.append(NoticePart(notice))
    return 0


def _files(raw: dict[str, Any], parts: list[Part], kept_files: set[str]) -> int:
    """Uploaded images and files (`files`, `files_v2`): not in the export, so a notice
    each (once per file, whichever list names it)."""
    seen: set[str] = set(kept_files)  # names and file uuids already shown
    count = 0
    for key in ("files", "files_v2"):
        entries = raw.get(key)
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if not isinstance(entry, dict):
                continue
            name = entry.get("file_name")
            name = name if isinstance(name, str) and name else ""
            uuid = entry.get("file_uuid")
            keys = {k for k in (name, uuid if isinstance(uuid, str) else "") if k}
            if keys & seen:
                continue
            seen.update(keys)
            count += 1
            parts.append(
                NoticePart(
                    tr(
                        "An image or file ({name}) was attached here in Claude; it was not "
                        "imported."
                    ).format(name=name or "?")
                )
            )
    return count
