"""Jan's threads: its data folder's `threads/` (the folder itself, the data folder that
holds it, or a zip of either).

Each thread is a folder `threads/<thread id>/` with `thread.json` (`id`, `title`,
`created`/`updated` as epoch seconds — older versions wrote milliseconds —, the model in
`assistants[0].model.id`) and `messages.jsonl`, one message a line (`id`, `role`,
`content[]` of text / reasoning / image / image_url / pdf / tool_call items, `status`,
`created_at`/`completed_at` in milliseconds or seconds, `metadata`). Pinned against
janhq/jan `extensions/conversational-extension/src/index.ts`, `src-tauri/src/core/threads/`
(the Tauri versions keep the same files), `core/src/types/message/messageEntity.ts` and
`web-app/src/lib/messages.ts`, `web-app/src/lib/message-branching.ts`.

A thread is linear, except in recent Jan versions that keep edits and regenerations as
versions: then `metadata.parentId` links each message to the one it follows (None for a
first message) and `metadata.activeChildId` names the version shown. Reasoning is either
its own content item or, in older files, a `<think>…</think>` head of the text. An
image or PDF the person attached is kept in the thread's `files/` folder, named by the
item's annotation (`threads/<id>/files/<message id>.png`): it is attached to the message
again. One that is not there, or that newer Jan kept only inside the message as a
`data:` URL, leaves a notice where it was; a file's text that Jan inlined
(`metadata.inline_file_contents`) is kept in a notice.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import PurePosixPath
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
)
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import (
    ImportedConversation,
    ImportedFile,
    Skipped,
    derived_id,
    from_epoch,
    json_text,
    tool_result_text,
)

CLIENT = "jan"
LABEL = "Jan"

_THREAD = "thread.json"
_MESSAGES = "messages.jsonl"
_MILLISECONDS_FROM = 1e11  # as seconds, the year 5138
_ROLES = {"user": Role.USER, "assistant": Role.ASSISTANT}
_THINK = re.compile(r"^\s*<think>(.*?)(?:</think>|$)(.*)$", re.DOTALL)
_CHANNEL = re.compile(
    r"^\s*<\|channel\|>analysis<\|message\|>(.*?)"
    r"(?:<\|start\|>assistant<\|channel\|>final<\|message\|>|$)(.*)$",
    re.DOTALL,
)


def detect(files: ExportFiles) -> bool:
    folders = _thread_folders(files)
    if any(PurePosixPath(folder).parent.name == "threads" for folder in folders):
        return True
    # The `threads` folder itself was chosen: its folders have no "threads" above them,
    # so look inside a few.
    for members in list(folders.values())[:3]:
        try:
            if "thread" in members:
                data = files.json(members["thread"])
                if isinstance(data, dict) and (
                    data.get("object") == "thread" or isinstance(data.get("assistants"), list)
                ):
                    return True
            if "messages" in members:
                first = next(files.lines(members["messages"]), None)
                if isinstance(first, dict) and first.get("object") == "thread.message":
                    return True
        except ExportError:
            continue
    return False


def read(files: ExportFiles) -> Iterator[ImportedConversation | Skipped]:
    for folder, members in sorted(_thread_folders(files).items()):
        name = PurePosixPath(folder).name
        try:
            yield _read_thread(files, name, members, folder)
        except ExportError as error:
            yield Skipped(name, str(error))
        except (TypeError, ValueError, AttributeError, KeyError, RecursionError) as error:
            yield Skipped(
                name, tr("Its files are not shaped as Jan writes them: {error}").format(error=error)
            )


def _thread_folders(files: ExportFiles) -> dict[str, dict[str, str]]:
    """Each thread folder inside the export -> {"thread": name, "messages": name}."""
    folders: dict[str, dict[str, str]] = {}
    for name in files.names:
        path = PurePosixPath(name)
        if path.parent == PurePosixPath(".") or path.name not in (_THREAD, _MESSAGES):
            continue
        key = "thread" if path.name == _THREAD else "messages"
        folders.setdefault(str(path.parent), {})[key] = name
    return folders


@dataclass
class _Thread:
    """What reading one thread gathers: messages by the source's id, and the source id
    each source message stands for in Parley (itself, or its nearest kept ancestor)."""

    source_id: str
    title: str
    model: ModelRef | None
    export: ExportFiles | None = None
    folder: str = ""  # the thread's folder among the export's names
    messages: dict[str, Message] = field(default_factory=dict)
    anchors: dict[str, str | None] = field(default_factory=dict)
    meta: dict[str, dict[str, Any]] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    images: int = 0
    files: list[ImportedFile] = field(default_factory=list)
    left_out: int = 0

    def locate(self, item: dict[str, Any]) -> str | None:
        """The export's copy of an image or PDF item's file (in the thread's `files/`),
        or None when the export does not hold it."""
        value = item.get("text")
        annotations = value.get("annotations") if isinstance(value, dict) else None
        paths = (
            [a for a in annotations if isinstance(a, str)] if isinstance(annotations, list) else []
        )
        url = _dict(item.get("image_url")).get("url")
        if isinstance(url, str) and not url.startswith("data:"):
            paths.append(url)
        for path in paths:
            head, marker, rest = path.replace("\\", "/").rpartition("files/")
            if not marker or (head and not head.endswith("/")) or not rest:
                continue
            member = f"{self.folder}/files/{rest}" if self.folder else f"files/{rest}"
            if self.export is not None and self.export.has(member):
                return member
        return None


def _read_thread(
    files: ExportFiles, name: str, members: dict[str, str], folder: str = ""
) -> ImportedConversation | Skipped:
    if "thread" not in members:
        return Skipped(name, tr("It has no thread.json; Jan does not show such a folder either."))
    data = files.json(members["thread"])
    if not isinstance(data, dict):
        return Skipped(name, tr("Its thread.json is not a Jan thread."))
    source_id = _text(data.get("id")) or name
    title = (_text(data.get("title")) or "").strip() or tr("Untitled Jan thread")
    if "messages" not in members:
        return Skipped(title, tr("no messages"))
    thread = _Thread(source_id, title, _thread_model(data), files, "" if folder == "." else folder)
    conversation_id = derived_id(CLIENT, "conversation", source_id)
    rows = list(files.lines(members["messages"]))
    times = [_time(row.get("created_at")) for row in rows if isinstance(row, dict)]
    known = [t for t in times if t is not None]
    created = _earliest(_time(data.get("created")), min(known, default=None))
    updated = _latest(_time(data.get("updated")), max(known, default=None)) or created
    base = created or datetime.fromtimestamp(0, UTC)
    branched = any(
        isinstance(row, dict)
        and isinstance(row.get("metadata"), dict)
        and ("parentId" in row["metadata"] or "activeChildId" in row["metadata"])
        for row in rows
    )
    previous: str | None = None
    last: datetime | None = None
    for position, row in enumerate(rows, start=1):
        where = tr("message {number} of “{title}”").format(number=position, title=title)
        if not isinstance(row, dict):
            thread.skipped.append(Skipped(where, tr("The line is not readable JSON.")))
            continue
        key = _text(row.get("id")) or f"{source_id}#{position}"
        if key in thread.anchors:
            thread.skipped.append(Skipped(where, tr("A message with the same id came earlier.")))
            continue
        meta = _dict(row.get("metadata"))
        parent = _source_parent(meta, branched, previous, thread.anchors)
        anchor = thread.anchors.get(parent) if parent is not None else None
        # No time: just after the line before it, so a parent stays before its child.
        time = _time(row.get("created_at")) or (last or base) + timedelta(microseconds=1)
        last = max(last, time) if last else time
        message = _message(row, key, conversation_id, anchor, time, thread, where)
        thread.anchors[key] = key if message is not None else anchor
        if message is not None:
            thread.messages[key] = message
            thread.meta[key] = meta
        previous = key
    if not thread.messages:
        return Skipped(title, tr("no messages"))
    messages = tuple(thread.messages.values())
    children: dict[str | None, list[Message]] = {}
    for message in messages:
        children.setdefault(message.parent_id, []).append(message)
    branches = sum(1 for parent, kids in children.items() if parent is not None and len(kids) > 1)
    conversation = Conversation(
        id=conversation_id,
        title=title,
        created_at=created or messages[0].created_at,
        updated_at=updated or messages[-1].created_at,
        active_leaf_id=_active_leaf(thread, children, branched),
    )
    notes: tuple[str, ...] = ()
    if thread.left_out:
        notes = (
            tr(
                "%n image(s) or file(s) attached in Jan are not among the thread's files; "
                "they were not imported.",
                "",
                thread.left_out,
            ),
        )
    return ImportedConversation(
        conversation,
        messages,
        tuple(thread.skipped),
        branches,
        thread.images,
        notes,
        files=tuple(thread.files),
        files_left_out=thread.left_out,
    )


def _source_parent(
    meta: dict[str, Any], branched: bool, previous: str | None, seen: dict[str, str | None]
) -> str | None:
    """The source id this message follows. Only an earlier line can be a parent (Jan
    appends a message after the one it answers), which also rules out cycles."""
    if branched and "parentId" in meta:
        linked = meta["parentId"]
        if linked is None:
            return None
        if isinstance(linked, str) and linked in seen:
            return linked
    return previous


def _message(
    row: dict[str, Any],
    key: str,
    conversation_id: str,
    parent_key: str | None,
    time: datetime,
    thread: _Thread,
    where: str,
) -> Message | None:
    """The Parley message for one line, or None when it is left out of the tree (its
    children then follow its parent)."""
    role = row.get("role") if isinstance(row.get("role"), str) else None
    if role == "tool":
        if not _fold_tool_result(row, parent_key, thread):
            thread.skipped.append(
                Skipped(where, tr("A tool result whose call is not in the thread."))
            )
        return None
    if role not in _ROLES:
        reason = (
            tr("A system message; Parley keeps the system prompt with the assistant.")
            if role == "system"
            else tr("The role {role} is not one Parley shows.").format(
                role=str(row.get("role"))[:40]
            )
        )
        thread.skipped.append(Skipped(where, reason))
        return None
    # Parley shows files on the person's messages, as the ones sent in Parley.
    found: list[str] = []
    locate = thread.locate if role == "user" else None
    parts, images = _parts(row.get("content"), role == "assistant", locate, found)
    meta = _dict(row.get("metadata"))
    parts += _legacy_tool_calls(meta.get("tool_calls"))
    parts += _inline_files(meta.get("inline_file_contents"))
    message_id = derived_id(CLIENT, "message", f"{thread.source_id}/{key}")
    thread.images += images
    thread.left_out += images - len(found)
    thread.files += [
        ImportedFile(message_id, member, member, PurePosixPath(member).name)
        for member in dict.fromkeys(found)
    ]
    finished = _time(row.get("completed_at")) if role == "assistant" else None
    return Message(
        id=message_id,
        conversation_id=conversation_id,
        parent_id=thread.messages[parent_key].id if parent_key is not None else None,
        role=_ROLES[role],
        parts=parts,
        status=MessageStatus.COMPLETE,
        model=thread.model if role == "assistant" else None,
        created_at=time,
        finished_at=finished if finished is not None and finished >= time else None,
    )


def _parts(
    content: object,
    assistant: bool,
    locate: Callable[[dict[str, Any]], str | None] | None = None,
    found: list[str] | None = None,
) -> tuple[list[Part], int]:
    """The parts of a message's `content` and how many images/files it showed. The
    files `locate` finds in the export are added to `found` instead of a notice."""
    if isinstance(content, str):
        return _text_parts(content, assistant), 0
    if not isinstance(content, list):
        return [], 0
    parts: list[Part] = []
    images = 0
    for item in content:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        value = _value(item.get("text"))
        if kind == "text":
            parts += _text_parts(value, assistant)
        elif kind == "reasoning":
            if value.strip():
                parts.append(ReasoningPart(value, duration_ms=0))
        elif kind in ("image", "image_url", "pdf"):
            # Older Jan kept the person's words in an image/pdf item's text.
            parts += _text_parts(value, assistant)
            images += 1
            member = locate(item) if locate is not None else None
            if member is not None and found is not None:
                found.append(member)
                continue
            parts.append(
                NoticePart(tr("A PDF file was attached here in Jan; it was not imported."))
                if kind == "pdf"
                else NoticePart(tr("An image was attached here in Jan; it was not imported."))
            )
        elif kind == "tool_call":
            parts.append(
                _tool_call(
                    item.get("tool_call_id"),
                    item.get("tool_name"),
                    item.get("input"),
                    item.get("output"),
                )
            )
        else:
            parts.append(
                NoticePart(
                    tr("A part of type {kind} was here in Jan; it was not imported.").format(
                        kind=str(kind)[:40]
                    )
                )
            )
    return parts, images


def _text_parts(text: str, assistant: bool) -> list[Part]:
    """Text, with reasoning that older Jan wrote in front of the answer split off."""
    if not text:
        return []
    if assistant:
        match = _THINK.match(text) or _CHANNEL.match(text)
        if match:
            thought, answer = match.group(1).strip(), match.group(2).strip()
            parts: list[Part] = [ReasoningPart(thought, duration_ms=0)] if thought else []
            return parts + ([TextPart(answer)] if answer else [])
    return [TextPart(text)]


def _tool_call(call_id: object, name: object, arguments: object, output: object) -> ToolCallPart:
    result = tool_result_text(output)
    failed = isinstance(output, dict) and bool(output.get("isError") or output.get("error"))
    return ToolCallPart(
        call_id=_text(call_id) or "",
        name=_text(name) or tr("unknown tool"),
        arguments=arguments if isinstance(arguments, str) else json_text(arguments),
        result=result,
        is_error=failed or result is None,
        state=CallState.ERROR if failed or result is None else CallState.DONE,
        error=tr("Jan recorded no result for this call.") if result is None else None,
    )


def _legacy_tool_calls(calls: object) -> list[Part]:
    """Tool calls as Jan 0.5/0.6 kept them: `metadata.tool_calls[{tool{id, function{name,
    arguments}}, state, response}]`."""
    if not isinstance(calls, list):
        return []
    parts: list[Part] = []
    for call in calls:
        if not isinstance(call, dict):
            continue
        tool = _dict(call.get("tool"))
        function = _dict(tool.get("function"))
        parts.append(
            _tool_call(
                tool.get("id") or call.get("id"),
                function.get("name") or call.get("name"),
                function.get("arguments"),
                call.get("response"),
            )
        )
    return parts


def _fold_tool_result(row: dict[str, Any], parent_key: str | None, thread: _Thread) -> bool:
    """A `tool` message carries the result of an assistant's call: put it on that call."""
    call_id = _text(row.get("tool_call_id"))
    owner = thread.messages.get(parent_key) if parent_key is not None else None
    if not call_id or owner is None:
        return False
    for index, part in enumerate(owner.parts):
        if isinstance(part, ToolCallPart) and part.call_id == call_id and part.result is None:
            parts, _ = _parts(row.get("content"), assistant=False)
            text = "\n".join(p.text for p in parts if isinstance(p, TextPart))
            owner.parts[index] = replace(
                part, result=text, is_error=False, state=CallState.DONE, error=None
            )
            return True
    return False


def _inline_files(files: object) -> list[Part]:
    if not isinstance(files, list):
        return []
    parts: list[Part] = []
    for item in files:
        if isinstance(item, dict) and isinstance(item.get("content"), str) and item["content"]:
            name = _text(item.get("name")) or tr("attachment")
            parts.append(
                NoticePart(
                    tr("The file {name} was attached here in Jan; its text is kept here.").format(
                        name=name
                    ),
                    detail=item["content"],
                )
            )
    return parts


def _active_leaf(thread: _Thread, children: dict[str | None, list[Message]], branched: bool) -> str:
    """Jan shows the newest first message, then at each message the child its
    `activeChildId` names (the newest child when it names none)."""
    messages = list(thread.messages.values())
    if not branched:
        return messages[-1].id
    by_id = {m.id: key for key, m in thread.messages.items()}
    current = max(children.get(None, messages[:1]), key=lambda m: m.created_at)
    seen: set[str] = set()
    while current.id not in seen and children.get(current.id):
        seen.add(current.id)
        kids = children[current.id]
        wanted = thread.meta.get(by_id[current.id], {}).get("activeChildId")
        chosen = thread.messages.get(wanted) if isinstance(wanted, str) else None
        current = chosen if chosen in kids else max(kids, key=lambda m: m.created_at)
    return current.id


def _thread_model(data: dict[str, Any]) -> ModelRef | None:
    assistants = data.get("assistants")
    candidates = [assistants[0] if isinstance(assistants, list) and assistants else None, data]
    for holder in candidates:
        model = holder.get("model") if isinstance(holder, dict) else None
        name = _text(model.get("id")) if isinstance(model, dict) else None
        if name and name != "*":
            return ModelRef(CLIENT, name)
    return None


def _time(value: object) -> datetime | None:
    """Jan's epoch times: seconds in thread.json and older files, milliseconds in
    messages (`Date.now()`); anything past the year 5138 in seconds is milliseconds."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return from_epoch(value / 1000 if value > _MILLISECONDS_FROM else value)


def _earliest(a: datetime | None, b: datetime | None) -> datetime | None:
    # Jan rewrites `created` on every change of the thread: a message can be older.
    return min(a, b) if a and b else a or b


def _latest(a: datetime | None, b: datetime | None) -> datetime | None:
    return max(a, b) if a and b else a or b


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _value(text: object) -> str:
    """A content item's `text`: `{value, annotations}`, or plain text in odd files."""
    if isinstance(text, dict):
        text = text.get("value")
    return text if isinstance(text, str) else ""
