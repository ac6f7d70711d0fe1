"""LobeChat's export file (Settings → Data → Export): one JSON document
`{exportType, state: {sessions, topics, messages, sessionGroups, settings?}, version}`.

The shape was pinned against lobehub/lobe-chat: `src/types/exportConfig.ts` (the
`ConfigFile*` types), `src/types/message` (`ChatMessage`, `ModelReasoning`,
`ChatToolPayload`) and the migration fixtures (`src/migrations/FromV4ToV5`, `FromV6ToV7`),
which are real exports. What matters here:

- a *session* is an agent (`meta.title`, `config.systemRole`); the default one ("inbox")
  is not listed. A *topic* belongs to a session and is one conversation here. Messages
  with no topic are the session's default conversation: one per session.
- `parentId` links an answer to what it answers, but LobeChat shows a topic in time
  order and leaves it unset on most user messages. So a message whose parent is missing
  follows the message before it in time: the chat reads as LobeChat showed it, and a
  regenerated answer (a second answer to the same message) becomes a sibling, a branch.
  The newest leaf is the active one (the export records no chosen branch).
- a tool call is an assistant message with `tools[{id, apiName, identifier, arguments}]`,
  then one `role: "tool"` message per call (`tool_call_id`, its output as `content`,
  `pluginError` when it failed), then the answer whose parent is the tool message. The
  results are folded into the calls; the tool messages themselves are not kept. Older
  exports have `role: "function"` messages carrying the call in `plugin`.
- `createdAt` is epoch milliseconds; `reasoning.duration` milliseconds.

The server-database edition exports a table dump instead (`{data, mode, schemaHash}`);
it is not this format and is not recognised here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from desktop.core.i18n import tr
from desktop.core.models import (
    CallState,
    Conversation,
    ErrorPart,
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
from desktop.engine.importers.files import MAX_JSON_BYTES, ExportError, ExportFiles
from desktop.engine.importers.model import (
    ImportedConversation,
    Skipped,
    derived_id,
    from_epoch,
    from_iso,
)

CLIENT = "lobechat"
LABEL = "LobeChat"

_INBOX = "inbox"  # LobeChat's default session, never listed among the sessions
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_LOADING = "..."  # what LobeChat leaves as the content of an answer that failed
_CANDIDATES = 8  # JSON files of a folder or zip looked at, the shallowest first
_LONGEST_THOUGHT_MS = 7 * 24 * 3600 * 1000  # longer is not a duration but garbage
_KNOWN_ROLES = frozenset({"user", "assistant", "system", "tool", "function"})


# ---------------------------------------------------------------- recognising the file


def detect(files: ExportFiles) -> bool:
    return _find_export(files) is not None


def _candidates(files: ExportFiles) -> list[str]:
    if len(files.names) == 1:
        return list(files.names)  # a lone file: whatever the person named it
    named = [n for n in files.names if n.lower().endswith(".json")]
    return sorted(named, key=lambda n: (n.count("/"), n))[:_CANDIDATES]


def _looks_like_export(data: object) -> bool:
    if not isinstance(data, dict) or not ("version" in data or "exportType" in data):
        return False
    state = data.get("state")
    return (
        isinstance(state, dict)
        and isinstance(state.get("messages"), list)
        and ("sessions" in state or "topics" in state)
    )


def _find_export(files: ExportFiles) -> dict[str, Any] | None:
    for name in _candidates(files):
        try:
            raw = files.read(name)
        except ExportError:
            continue
        # A cheap look before parsing: every LobeChat export names these keys.
        if len(raw) > MAX_JSON_BYTES or b'"state"' not in raw or b'"messages"' not in raw:
            continue
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            continue
        if _looks_like_export(data):
            return data  # type: ignore[no-any-return]
    return None


# ---------------------------------------------------------------- reading it


def read(files: ExportFiles) -> Iterator[ImportedConversation | Skipped]:
    data = _find_export(files)
    if data is None:
        raise ExportError(tr("This is not a LobeChat export file."))
    state = data["state"]
    sessions = _sessions(state.get("sessions"))
    topics: dict[str, dict[str, Any]] = {}
    for number, topic in enumerate(_as_list(state.get("topics")), start=1):
        if isinstance(topic, dict) and isinstance(topic.get("id"), str) and topic["id"]:
            topics.setdefault(topic["id"], topic)
        else:
            title = topic.get("title") if isinstance(topic, dict) else None
            where = title if isinstance(title, str) and title else None
            yield Skipped(
                where or tr("topic {n}").format(n=number),
                tr("This topic is not in a form Parley can read."),
            )

    # Messages grouped by conversation: a topic, or a session's messages without one.
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for topic_key in topics:
        groups[("topic", topic_key)] = []
    for number, raw in enumerate(_as_list(state.get("messages")), start=1):
        if not isinstance(raw, dict):
            yield Skipped(
                tr("message {n}").format(n=number),
                tr("This message is not in a form Parley can read."),
            )
            continue
        topic_id = raw.get("topicId")
        session_id = raw.get("sessionId")
        if isinstance(topic_id, str) and topic_id:
            group = ("topic", topic_id)
        else:
            group = (
                "session",
                session_id if isinstance(session_id, str) and session_id else _INBOX,
            )
        groups.setdefault(group, []).append(raw)

    seen_ids: set[str] = set()  # a message id belongs to one conversation only
    noted_sessions: set[str] = set()
    for (kind, key), raws in groups.items():
        topic = topics.get(key) if kind == "topic" else None
        session_id = _session_of(kind, key, topic, raws)
        session = sessions.get(session_id)
        title = _title(kind, topic, session)
        try:
            item = _conversation(kind, key, title, topic, session, raws, seen_ids)
        except Exception as error:  # odd data this reader did not foresee: skip, go on
            yield Skipped(title, tr("It could not be read: {error}").format(error=error))
            continue
        if isinstance(item, ImportedConversation) and session_id not in noted_sessions:
            note = _system_prompt_note(session)
            if note:
                noted_sessions.add(session_id)
                item = replace(item, notes=(*item.notes, note))
        yield item


def _as_list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _sessions(value: object) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for session in _as_list(value):
        if isinstance(session, dict) and isinstance(session.get("id"), str):
            found.setdefault(session["id"], session)
    return found


def _session_of(
    kind: str, key: str, topic: dict[str, Any] | None, raws: list[dict[str, Any]]
) -> str:
    if kind == "session":
        return key
    if topic is not None and isinstance(topic.get("sessionId"), str) and topic["sessionId"]:
        return str(topic["sessionId"])
    for raw in raws:
        if isinstance(raw.get("sessionId"), str) and raw["sessionId"]:
            return str(raw["sessionId"])
    return _INBOX


def _session_title(session: dict[str, Any] | None) -> str:
    meta = session.get("meta") if session is not None else None
    title = meta.get("title") if isinstance(meta, dict) else None
    return title.strip() if isinstance(title, str) and title.strip() else tr("Default")


def _title(kind: str, topic: dict[str, Any] | None, session: dict[str, Any] | None) -> str:
    if kind == "topic" and topic is not None:
        title = topic.get("title")
        if isinstance(title, str) and title.strip():
            return title.strip()
    return _session_title(session)


def _system_prompt_note(session: dict[str, Any] | None) -> str | None:
    config = session.get("config") if session is not None else None
    role = config.get("systemRole") if isinstance(config, dict) else None
    if not isinstance(role, str) or not role.strip():
        return None
    return tr(
        "The agent “{name}” had a system prompt; Parley did not create an assistant for it."
    ).format(name=_session_title(session))


def _time(value: object) -> datetime | None:
    """LobeChat's times: epoch milliseconds, or ISO text in newer data."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return from_epoch(value / 1000)
    return from_iso(value)


# ---------------------------------------------------------------- one conversation


@dataclass
class _Node:
    """One source message, before it becomes a Parley message (or is folded away)."""

    position: int  # in the export's order, within the conversation
    source_id: str
    role: str
    raw: dict[str, Any]
    created: datetime
    parent_source: str | None
    parent: _Node | None = None  # resolved: the message it follows
    message: Message | None = None  # when it is kept as a Parley message
    children: list[_Node] = field(default_factory=list)


def _conversation(
    kind: str,
    key: str,
    title: str,
    topic: dict[str, Any] | None,
    session: dict[str, Any] | None,
    raws: list[dict[str, Any]],
    seen_ids: set[str],
) -> ImportedConversation | Skipped:
    source = key if kind == "topic" else f"session:{key}"
    conversation_id = derived_id(CLIENT, "conversation", source)
    if not raws:
        return Skipped(title, tr("no messages"))
    skipped: list[Skipped] = []

    def where(position: int) -> str:
        return tr("message {n} of “{title}”").format(n=position + 1, title=title)

    times = [t for t in (_time(r.get("createdAt")) for r in raws) if t is not None]
    started = (
        (_time(topic.get("createdAt")) if topic is not None else None)
        or (min(times) if times else None)
        or (_time(session.get("createdAt")) if session is not None else None)
        or _EPOCH
    )

    nodes: list[_Node] = []
    for position, raw in enumerate(raws):
        role = raw.get("role")
        content = raw.get("content")
        if role not in _KNOWN_ROLES:
            skipped.append(
                Skipped(
                    where(position),
                    tr("Its role “{role}” is not one Parley knows.").format(role=str(role)[:40]),
                )
            )
            continue
        if content is not None and not isinstance(content, str):
            skipped.append(Skipped(where(position), tr("Its content is not text.")))
            continue
        raw_id = raw.get("id")
        source_id = raw_id if isinstance(raw_id, str) and raw_id else f"{source}#{position}"
        if source_id in seen_ids:
            skipped.append(Skipped(where(position), tr("Its id appears twice in the export.")))
            continue
        seen_ids.add(source_id)
        parent = raw.get("parentId")
        nodes.append(
            _Node(
                position=position,
                source_id=source_id,
                role=str(role),
                raw=raw,
                created=_time(raw.get("createdAt")) or started + timedelta(microseconds=position),
                parent_source=parent if isinstance(parent, str) and parent else None,
            )
        )

    ordered = _parents_first(nodes)
    _link(ordered)

    messages: list[Message] = []
    calls: dict[str, tuple[Message, int]] = {}  # call id -> the message and its part
    images = 0
    for node in ordered:
        if node.role in ("user", "assistant"):
            message, found = _message(node, conversation_id, calls)
            images += found
            node.message = message
            messages.append(message)
        elif node.role in ("tool", "function"):
            if not _fold_tool_result(node, calls):
                skipped.append(
                    Skipped(
                        where(node.position),
                        tr("A tool result with no assistant message before it."),
                    )
                )
        else:
            skipped.append(
                Skipped(where(node.position), tr("A system message; Parley does not import them."))
            )
    if not messages:
        return Skipped(title, tr("no messages"))

    kept_children: dict[str, int] = {}
    for message in messages:
        if message.parent_id is not None:
            kept_children[message.parent_id] = kept_children.get(message.parent_id, 0) + 1
    leaves = [m for m in messages if m.id not in kept_children]
    active = max(leaves, key=lambda m: m.created_at) if leaves else messages[-1]
    updated = max(
        [m.created_at for m in messages]
        + [t for t in [_time(topic.get("updatedAt")) if topic else None] if t is not None]
    )
    conversation = Conversation(
        id=conversation_id,
        title=title,
        created_at=min(started, *(m.created_at for m in messages)),
        updated_at=updated,
        active_leaf_id=active.id,
    )
    return ImportedConversation(
        conversation=conversation,
        messages=tuple(messages),
        skipped=tuple(skipped),
        branches=sum(1 for count in kept_children.values() if count > 1),
        images=images,
        files_left_out=images,  # the export holds none of them
    )


def _parents_first(nodes: list[_Node]) -> list[_Node]:
    """Time order, except that a message comes after the message it names as its
    parent; a parent cycle is broken where it closes."""
    by_source = {node.source_id: node for node in nodes}
    placed: set[str] = set()
    ordered: list[_Node] = []
    for node in sorted(nodes, key=lambda n: (n.created, n.position)):
        chain: list[_Node] = []
        in_chain: set[str] = set()
        current: _Node | None = node
        while current is not None and current.source_id not in placed:
            if current.source_id in in_chain:
                break
            chain.append(current)
            in_chain.add(current.source_id)
            current = by_source.get(current.parent_source or "")
        for item in reversed(chain):
            placed.add(item.source_id)
            ordered.append(item)
    return ordered


def _link(ordered: list[_Node]) -> None:
    """Each node's parent: the one it names when that came before it, else the message
    before it in time (LobeChat shows a topic as one line)."""
    done: dict[str, _Node] = {}
    previous: _Node | None = None
    for node in ordered:
        named = done.get(node.parent_source or "")
        node.parent = named if named is not None else previous
        if node.parent is not None:
            node.parent.children.append(node)
        done[node.source_id] = node
        previous = node


def _kept_ancestor(node: _Node) -> Message | None:
    """The nearest message above `node` that is kept (system and tool nodes are not)."""
    current = node.parent  # parents always come earlier (`_link`): this ends
    while current is not None and current.message is None:
        current = current.parent
    return current.message if current is not None else None


def _message(
    node: _Node, conversation_id: str, calls: dict[str, tuple[Message, int]]
) -> tuple[Message, int]:
    """The Parley message of a user or assistant node, and the attachments it had."""
    raw = node.raw
    parts: list[Part] = []
    reasoning = raw.get("reasoning")
    thought = reasoning.get("content") if isinstance(reasoning, dict) else None
    if isinstance(thought, str) and thought.strip():
        assert isinstance(reasoning, dict)
        parts.append(ReasoningPart(thought, duration_ms=_duration(reasoning.get("duration"))))
    content = raw.get("content") or ""
    error = raw.get("error")
    error_text = error.get("message") if isinstance(error, dict) else None
    if content and not (error_text is not None and content == _LOADING):
        parts.append(TextPart(content))
    tools = raw.get("tools") if node.role == "assistant" else None
    for number, tool in enumerate(_as_list(tools)):
        if not isinstance(tool, dict):
            continue
        given = tool.get("id")
        call_id = given if isinstance(given, str) and given else f"call-{number}"
        parts.append(
            ToolCallPart(
                call_id=call_id,
                name=_tool_name(tool),
                arguments=_arguments(tool.get("arguments")),
                state=CallState.INTERRUPTED,  # until its result is found below
            )
        )
    images, notices = _attachments(raw)
    parts.extend(notices)
    if isinstance(error_text, str) and error_text:
        parts.append(ErrorPart(error_text))
    if not parts:
        parts.append(TextPart(""))
    model = _model(raw) if node.role == "assistant" else None
    parent = _kept_ancestor(node)
    message = Message(
        id=derived_id(CLIENT, "message", node.source_id),
        conversation_id=conversation_id,
        parent_id=parent.id if parent is not None else None,
        role=Role.USER if node.role == "user" else Role.ASSISTANT,
        parts=parts,
        status=MessageStatus.COMPLETE,
        model=ModelRef(CLIENT, model) if model else None,
        created_at=node.created,
        finished_at=_time(raw.get("updatedAt")) if node.role == "assistant" else None,
    )
    for index, part in enumerate(parts):
        if isinstance(part, ToolCallPart):
            calls.setdefault(part.call_id, (message, index))
    return message, images


def _fold_tool_result(node: _Node, calls: dict[str, tuple[Message, int]]) -> bool:
    """Put a tool message's output on the call it answers; False when there is no
    assistant message to put it on."""
    raw = node.raw
    output = raw.get("content") or ""
    failed = bool(raw.get("pluginError")) or bool(raw.get("error"))
    call_id = raw.get("tool_call_id")
    if isinstance(call_id, str) and call_id in calls:
        message, index = calls[call_id]
        call = message.parts[index]
        assert isinstance(call, ToolCallPart)
        message.parts[index] = _with_result(call, output, failed)
        return True
    target = _kept_ancestor(node)
    if target is None or target.role != Role.ASSISTANT:
        return False
    plugin = raw.get("plugin")
    if isinstance(plugin, dict):  # an older export: the call travels with its result
        call = ToolCallPart(
            call_id=call_id if isinstance(call_id, str) and call_id else node.source_id,
            name=_tool_name(plugin),
            arguments=_arguments(plugin.get("arguments")),
        )
        target.parts.append(_with_result(call, output, failed))
        return True
    target.parts.append(
        NoticePart(
            tr("A tool result was here in LobeChat; Parley could not tell which call it answered."),
            detail=output or None,
        )
    )
    return True


def _duration(value: object) -> int:
    """Milliseconds of thinking; 0 (finished, length unknown) for anything unreadable."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value) if 0 <= value < _LONGEST_THOUGHT_MS else 0


def _with_result(call: ToolCallPart, output: str, failed: bool) -> ToolCallPart:
    return replace(
        call,
        result=output,
        is_error=failed,
        state=CallState.ERROR if failed else CallState.DONE,
        result_size=len(output.encode("utf-8")),
    )


def _tool_name(payload: dict[str, Any]) -> str:
    for key in ("apiName", "identifier"):
        value = payload.get(key)
        if isinstance(value, str) and value:
            return value
    return "tool"


def _arguments(value: object) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return ""


def _model(raw: dict[str, Any]) -> str | None:
    extra = raw.get("extra")
    for value in (
        raw.get("fromModel"),
        raw.get("model"),
        extra.get("fromModel") if isinstance(extra, dict) else None,
    ):
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _attachments(raw: dict[str, Any]) -> tuple[int, list[NoticePart]]:
    """How many images and files the message had, and the notices that say so: the
    export holds only their ids and links, never the files."""
    notices: list[NoticePart] = []
    images = len(_as_list(raw.get("imageList"))) or len(_as_list(raw.get("files")))
    if images:
        notices.append(
            NoticePart(
                tr(
                    "%n image(s) were attached here in LobeChat; they were not imported.",
                    "",
                    images,
                )
            )
        )
    files = _as_list(raw.get("fileList"))
    for item in files:
        name = item.get("name") if isinstance(item, dict) else None
        notices.append(
            NoticePart(
                tr("The file “{name}” was attached here in LobeChat; it was not imported.").format(
                    name=name if isinstance(name, str) and name else "?"
                )
            )
        )
    return images + len(files), notices
