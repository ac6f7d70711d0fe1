"""Chatbox's backup file ("Settings → Data Backup → Export Selected Data"): one JSON
document of Chatbox's whole store.

Shape (chatboxai/chatbox `src/renderer/routes/settings/general.tsx` writes it,
`src/shared/types/session.ts` types it):

- top level: `__exported_items`, `__exported_at` (ISO), `configVersion`, `settings`,
  `chat-sessions-list` (`[{id, name, starred, hidden, …}]`, the chats in the sidebar) and
  one `session:<id>` key per chat; stores from before the split (config version < 8)
  hold every chat in one `chat-sessions` array instead, and may keep it after the split.
- a session: `{id, name, messages[], threads[{id, name, messages[], createdAt}],
  threadName, messageForksHash{messageId: {position, lists[{id, messages[]}]}}, starred,
  hidden}`.
- a message: `{id, role: system/user/assistant/tool, contentParts[{type: text, image
  (storageKey, ocrResult), info, reasoning (duration ms), tool-call (state call/result/
  error, toolCallId, toolName, args, result)}], timestamp (epoch ms), model, usage,
  files[{name, storageKey}], links[{url, title}], error}`; older messages carry the
  text in `content`, images in `pictures`, a web search in `webBrowsing` and reasoning
  in `reasoningContent` (Chatbox's own `migrateMessage` reads them the same way).

How it maps, following what Chatbox shows:
- Threads: "new thread" in Chatbox moves the messages into `threads` and starts afresh,
  but its chat view still shows every thread, in order, above the current one (in
  `getAllMessageList`), each under a thread label. So the threads are the earlier part
  of the same conversation here (one line), and the first message of each later thread
  carries a notice that Chatbox started a new thread there (its context began again).
- Forks: the messages after a forked message are the shown branch; each other list of
  `messageForksHash[id]` is a hidden alternative continuation. They become siblings
  (children of the forked message), the shown one on the active line.
- System messages are Chatbox's system prompt for the chat (repeated at each new
  thread): not a turn of the conversation, so not a message here; the first message
  after one carries a notice holding its text (once per distinct prompt).
- Images and files live in Chatbox's blob store under a `storageKey`, which the backup
  does not include: each is counted and leaves a notice (with the OCR text if any).

Message ids are derived from the chat's id and the message's id together: Chatbox's
preset chats reuse message ids across chats, and a message id may not be in two
conversations here.
"""

from __future__ import annotations

import json
import math
from collections import deque
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from weakref import WeakKeyDictionary

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
    Usage,
)
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import (
    ImportedConversation,
    Skipped,
    derived_id,
    from_epoch,
    from_iso,
)

CLIENT = "chatbox"
LABEL = "Chatbox"

_LIST = "chat-sessions-list"
_OLD_LIST = "chat-sessions"
_SESSION = "session:"
_MARKERS = ("__exported_items", _LIST, _OLD_LIST)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ROLES = {"user": Role.USER, "assistant": Role.ASSISTANT}

# detect() parses the whole document (its marker keys may come anywhere in it); read()
# takes that parse instead of reading a large backup twice.
_parsed: WeakKeyDictionary[ExportFiles, Any] = WeakKeyDictionary()


class _Malformed(Exception):
    """A message (or a part of one) that cannot be read; the text says why."""


def _document_name(files: ExportFiles) -> str | None:
    """The backup inside the export: the file itself, or the one JSON file of a zip or
    folder someone put it in."""
    if len(files.names) == 1:
        return files.names[0]
    found = [n for n in files.names if n.lower().endswith(".json")]
    return found[0] if len(found) == 1 else None


def _load(files: ExportFiles) -> Any:
    if files in _parsed:
        return _parsed[files]
    name = _document_name(files)
    return None if name is None else files.json(name)


def _is_backup(data: object) -> bool:
    return (
        isinstance(data, dict)
        and any(key in data for key in _MARKERS)
        and "indexedDB" not in data  # Cherry Studio's backups
    )


def detect(files: ExportFiles) -> bool:
    try:
        data = _load(files)
    except ExportError:
        return False
    if not _is_backup(data):
        return False  # not kept: another importer reads this export
    _parsed[files] = data
    return True


def read(files: ExportFiles) -> Iterator[ImportedConversation | Skipped]:
    data = _load(files)
    _parsed.pop(files, None)
    if not isinstance(data, dict):
        raise ExportError(tr("This is not a Chatbox backup file."))
    exported = _exported_at(data.get("__exported_at"))
    found = False
    for item in _sessions(data):
        found = True
        if isinstance(item, Skipped):
            yield item
            continue
        session, meta = item
        where = _name(session, meta) or str(session.get("id") or "")
        try:
            yield _Conversation(session, meta, exported).build()
        except (TypeError, ValueError, AttributeError, KeyError, OverflowError) as error:
            # Unforeseen shapes: this chat is left out, the others still come.
            yield Skipped(
                where or tr("A chat"),
                tr("It could not be read: {error}").format(error=error),
            )
    if not found:
        raise ExportError(
            tr(
                "This Chatbox backup holds no chats. Export it again in Chatbox with "
                "“Chat History” selected."
            )
        )


def _exported_at(value: object) -> datetime:
    """When the backup was made: the time of a chat whose messages carry none."""
    return from_iso(value) or _EPOCH


def _name(session: dict[str, Any], meta: dict[str, Any]) -> str:
    for source in (session, meta):
        name = source.get("name")
        if isinstance(name, str) and name.strip():
            return name.strip()
    return ""


def _sessions(
    data: dict[str, Any],
) -> Iterator[tuple[dict[str, Any], dict[str, Any]] | Skipped]:
    """Each chat with its sidebar entry, in the sidebar's order; the old single array
    too unless it is a stale copy of chats already split into `session:` keys (Chatbox
    keeps the array after migrating; its own recovery step reads it only when no chat
    id is shared, and so does this)."""
    seen: set[str] = set()
    listed = data.get(_LIST)
    old = data.get(_OLD_LIST)
    old_sessions = [s for s in old if isinstance(s, dict)] if isinstance(old, list) else []
    if isinstance(listed, list):
        for position, meta in enumerate(listed, start=1):
            if not isinstance(meta, dict) or not isinstance(meta.get("id"), str):
                yield Skipped(
                    tr("Chat {number} of the chat list").format(number=position),
                    tr("It is not a chat entry."),
                )
                continue
            session_id = meta["id"]
            if session_id in seen:
                continue
            seen.add(session_id)
            session = data.get(_SESSION + session_id)
            if session is None:
                session = next((s for s in old_sessions if s.get("id") == session_id), None)
            if not isinstance(session, dict):
                yield Skipped(
                    _name({}, meta) or session_id,
                    tr("The backup holds no messages for it.")
                    if session is None
                    else tr("Its data is not a chat."),
                )
                continue
            yield session, meta
        old_ids = {s.get("id") for s in old_sessions}
        if old_ids & seen:
            return
    else:  # no sidebar list: every chat stored under its own key
        for key in sorted(k for k in data if isinstance(k, str) and k.startswith(_SESSION)):
            session_id = key[len(_SESSION) :]
            session = data[key]
            seen.add(session_id)
            if isinstance(session, dict):
                yield session, {}
            else:
                yield Skipped(session_id, tr("Its data is not a chat."))
    if isinstance(old, list):
        for position, session in enumerate(old, start=1):
            if not isinstance(session, dict):
                yield Skipped(
                    tr("Chat {number} of the chat list").format(number=position),
                    tr("Its data is not a chat."),
                )
                continue
            session_id = session.get("id")
            if isinstance(session_id, str) and session_id in seen:
                continue
            if isinstance(session_id, str):
                seen.add(session_id)
            yield session, {}


def _millis(value: object) -> datetime | None:
    """Chatbox's epoch milliseconds as a time; None for a missing or absurd one."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value) or value <= 0:
        return None
    return from_epoch(value / 1000)


def _whole(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value) or value < 0 or value > 2**53:
        return None
    return int(value)


def _json_text(value: object) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return str(value)


def _message_text(item: dict[str, Any]) -> str:
    """The text of a message (a system prompt), from its parts or its legacy content."""
    parts = item.get("contentParts")
    texts = []
    if isinstance(parts, list):
        texts = [
            p["text"]
            for p in parts
            if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
        ]
    text = "".join(texts)
    if not text.strip() and isinstance(item.get("content"), str):
        text = item["content"]
    return text.strip()


class _Conversation:
    """One Chatbox session turned into a Parley conversation (see the module doc)."""

    def __init__(self, session: dict[str, Any], meta: dict[str, Any], exported: datetime) -> None:
        self.session = session
        self.meta = meta
        self.source_id = session.get("id") if isinstance(session.get("id"), str) else None
        self.title = _name(session, meta)
        self.exported = exported
        self.id = derived_id(CLIENT, "conversation", self.source_id or "")
        forks = session.get("messageForksHash")
        self.forks: dict[str, Any] = forks if isinstance(forks, dict) else {}
        self.messages: list[Message] = []
        self.times: dict[str, datetime] = {}
        self.skipped: list[Skipped] = []
        self.seen: set[str] = set()
        self.forks_walked: set[str] = set()
        self.waiting: deque[tuple[list[Any], str | None]] = deque()
        self.position = 0
        self.images = 0
        self.last_prompt: str | None = None
        self.start = exported

    def build(self) -> ImportedConversation | Skipped:
        where = self.title or tr("A chat")
        if not self.source_id:
            return Skipped(where, tr("It has no id."))
        messages = self.session.get("messages", [])
        if not isinstance(messages, list):
            return Skipped(where, tr("Its messages are not a list."))
        threads = self.session.get("threads") or []
        if not isinstance(threads, list):
            threads = []
            self.skipped.append(Skipped(where, tr("Its earlier threads could not be read.")))
        segments: list[tuple[str, list[Any]]] = []
        for position, thread in enumerate(threads, start=1):
            if not isinstance(thread, dict) or not isinstance(thread.get("messages"), list):
                self.skipped.append(
                    Skipped(
                        tr("Thread {number} of “{title}”").format(number=position, title=where),
                        tr("It is not a thread."),
                    )
                )
                continue
            name = thread.get("name") if isinstance(thread.get("name"), str) else ""
            segments.append((name or "", thread["messages"]))
        current = self.session.get("threadName")
        segments.append((current if isinstance(current, str) else "", messages))
        self.start = self._earliest(threads, segments)

        leaf: str | None = None
        for index, (name, items) in enumerate(segments):
            pending: list[Part] = []
            if index > 0:
                pending.append(
                    NoticePart(
                        tr(
                            "Chatbox started a new thread here ({name}); the messages above "
                            "were not part of its context."
                        ).format(name=name or self.title or "—")
                    )
                )
            leaf = self._chain(items, leaf, pending)
        self._walk_branches()
        if not self.messages:
            return Skipped(where, tr("no messages"))
        return self._result(leaf)

    def _earliest(self, threads: list[Any], segments: list[tuple[str, list[Any]]]) -> datetime:
        """The chat's start: its first known time (Chatbox keeps none for the chat itself)."""
        times = [
            t
            for thread in threads
            if isinstance(thread, dict)
            for t in [_millis(thread.get("createdAt"))]
            if t is not None
        ]
        for _thread_name, items in segments:
            times.extend(
                t
                for item in items
                if isinstance(item, dict)
                for t in [_millis(item.get("timestamp"))]
                if t is not None
            )
        return min(times) if times else self.exported

    def _result(self, leaf: str | None) -> ImportedConversation:
        children: dict[str, int] = {}
        for message in self.messages:
            if message.parent_id is not None:
                children[message.parent_id] = children.get(message.parent_id, 0) + 1
        created = min(m.created_at for m in self.messages)
        updated = max(m.created_at for m in self.messages)
        conversation = Conversation(
            id=self.id,
            title=self.title or tr("Untitled chat"),
            created_at=min(created, self.start),
            updated_at=updated,
            pinned=self.session.get("starred") is True or self.meta.get("starred") is True,
            archived=self.session.get("hidden") is True or self.meta.get("hidden") is True,
            active_leaf_id=leaf,
        )
        notes: tuple[str, ...] = ()
        if self.images:
            notes = (
                tr(
                    "%n image(s) or file(s) were attached in Chatbox, but its backup does not "
                    "hold them; a notice marks each place.",
                    "",
                    self.images,
                ),
            )
        return ImportedConversation(
            conversation=conversation,
            messages=tuple(self.messages),
            skipped=tuple(self.skipped),
            branches=sum(1 for n in children.values() if n > 1),
            images=self.images,
            notes=notes,
            files_left_out=self.images,  # the backup holds none of them
        )

    def _chain(self, items: list[Any], parent: str | None, pending: list[Part]) -> str | None:
        """Add `items` as a line under `parent`; the last message kept (or `parent`).
        A forked message's other branches wait in `self.branches` for `_walk_branches`,
        so the shown line is numbered as Chatbox shows it."""
        for item in items:
            kept = self._message(item, parent, pending)
            if kept is not None:
                parent = kept
            source = item.get("id") if isinstance(item, dict) else None
            if isinstance(source, str) and source in self.forks and source not in self.forks_walked:
                self.forks_walked.add(source)
                self.waiting.extend((branch, parent) for branch in _branches(self.forks[source]))
        return parent

    def _walk_branches(self) -> None:
        """Each stored branch as a line under its forked message (a sibling of the shown
        continuation); branches forked inside them join the queue (no recursion)."""
        while self.waiting:
            branch, parent = self.waiting.popleft()
            self._chain(branch, parent, [])

    def _skip(self, reason: str) -> None:
        where = tr("Message {number} of “{title}”").format(
            number=self.position, title=self.title or tr("Untitled chat")
        )
        self.skipped.append(Skipped(where, reason))

    def _message(self, item: object, parent: str | None, pending: list[Part]) -> str | None:
        self.position += 1
        if not isinstance(item, dict):
            self._skip(tr("It is not a message."))
            return None
        source = item.get("id")
        key = source if isinstance(source, str) and source else f"#{self.position}"
        message_id = derived_id(CLIENT, "message", f"{self.source_id}/{key}")
        if message_id in self.seen:
            self._skip(tr("Its id appears twice."))
            return None
        role = item.get("role")
        if role == "system":
            self.seen.add(message_id)
            text = _message_text(item)
            if text and text != self.last_prompt:
                self.last_prompt = text
                pending.append(
                    NoticePart(
                        tr(
                            "This chat had a system prompt in Chatbox; it was not imported "
                            "as Parley's system prompt. Open this notice to read it."
                        ),
                        detail=text,
                    )
                )
            return None
        if role == "tool":
            self._skip(tr("Chatbox's separate tool messages are not imported."))
            return None
        if role not in _ROLES:
            self._skip(tr("Its role ({role}) is not one Parley has.").format(role=str(role)[:40]))
            return None
        try:
            parts = self._parts(item)
        except _Malformed as error:
            self._skip(str(error))
            return None
        self.seen.add(message_id)
        created = _millis(item.get("timestamp")) or self._fallback_time(parent)
        self.times[message_id] = created
        model = item.get("model")
        self.messages.append(
            Message(
                id=message_id,
                conversation_id=self.id,
                parent_id=parent,
                role=_ROLES[role],
                parts=[*pending, *parts],
                status=MessageStatus.COMPLETE,
                model=ModelRef(CLIENT, model) if isinstance(model, str) and model else None,
                usage=_usage(item.get("usage")),
                first_token_ms=_whole(item.get("firstTokenLatency")),
                created_at=created,
            )
        )
        pending.clear()
        return message_id

    def _fallback_time(self, parent: str | None) -> datetime:
        """A message without a time: the chat's start plus its position, in milliseconds
        (storage keeps milliseconds, so microseconds would not stay distinct), and never
        before its parent."""
        time = self.start + timedelta(milliseconds=self.position)
        parent_time = self.times.get(parent or "")
        if parent_time is not None and time <= parent_time:
            time = parent_time + timedelta(milliseconds=1)
        return time

    def _parts(self, item: dict[str, Any]) -> list[Part]:
        raw = item.get("contentParts")
        if raw is not None and not isinstance(raw, list):
            raise _Malformed(tr("Its content is not a list."))
        parts: list[Part] = []
        parts.extend(self._attachments(item))
        reasoning = item.get("reasoningContent")
        content_parts: list[Any] = raw or []
        has_reasoning = any(
            isinstance(p, dict) and p.get("type") == "reasoning" for p in content_parts
        )
        if isinstance(reasoning, str) and reasoning.strip() and not has_reasoning:
            parts.append(ReasoningPart(reasoning, duration_ms=0))
        web = item.get("webBrowsing")
        if isinstance(web, dict):
            parts.append(self._web_browsing(item, web))
        legacy = "content" in item and not _message_text({"contentParts": content_parts})
        if legacy:  # as Chatbox's migrateMessage: the old text, then the old pictures
            content = item.get("content")
            if content is not None and (text := _json_text(content)):
                parts.append(TextPart(text))
            pictures = item.get("pictures")
            has_images = any(
                isinstance(p, dict) and p.get("type") == "image" for p in content_parts
            )
            for picture in pictures if isinstance(pictures, list) and not has_images else []:
                if isinstance(picture, dict) and (picture.get("storageKey") or picture.get("url")):
                    parts.append(self._image(None))
            # Other parts stay (Chatbox would drop them; the data is worth more).
            content_parts = [
                p for p in content_parts if not (isinstance(p, dict) and p.get("type") == "text")
            ]
        for number, part in enumerate(content_parts):
            converted = self._part(part, item, number)
            if converted is not None:
                parts.append(converted)
        error = item.get("error")
        if isinstance(error, str) and error.strip():
            parts.append(ErrorPart(error))
        return parts

    def _attachments(self, item: dict[str, Any]) -> list[Part]:
        parts: list[Part] = []
        files = item.get("files")
        for file in files if isinstance(files, list) else []:
            if not isinstance(file, dict):
                continue
            name = file.get("name") if isinstance(file.get("name"), str) else ""
            self.images += 1
            parts.append(
                NoticePart(
                    tr("A file ({name}) was attached here in Chatbox; it was not imported.").format(
                        name=name or "—"
                    )
                )
            )
        links = item.get("links")
        for link in links if isinstance(links, list) else []:
            if not isinstance(link, dict) or not isinstance(link.get("url"), str):
                continue
            parts.append(
                NoticePart(
                    tr(
                        "A web page was attached here in Chatbox ({url}); its text was not "
                        "imported."
                    ).format(url=link["url"])
                )
            )
        return parts

    def _image(self, ocr: object) -> NoticePart:
        self.images += 1
        return NoticePart(
            tr("An image was attached here in Chatbox; it was not imported."),
            detail=ocr if isinstance(ocr, str) and ocr.strip() else None,
        )

    def _part(self, part: object, item: dict[str, Any], number: int) -> Part | None:
        if not isinstance(part, dict):
            return None
        kind = part.get("type")
        text = part.get("text")
        if kind == "text":
            return TextPart(text) if isinstance(text, str) and text else None
        if kind == "image":
            return self._image(part.get("ocrResult"))
        if kind == "info":
            return NoticePart(text) if isinstance(text, str) and text.strip() else None
        if kind == "reasoning":
            if not isinstance(text, str) or not text:
                return None
            return ReasoningPart(text, duration_ms=_whole(part.get("duration")) or 0)
        if kind == "tool-call":
            return _tool_call(part, f"{item.get('id')}-{number}")
        return NoticePart(
            tr(
                "A part of this message that Parley does not know ({kind}) was not imported."
            ).format(kind=str(kind)[:40])
        )

    @staticmethod
    def _web_browsing(item: dict[str, Any], web: dict[str, Any]) -> ToolCallPart:
        """Chatbox's old web search record, as its `migrateMessage` turns it into a call."""
        query = web.get("query")
        links = web.get("links")
        query_text = (
            ", ".join(q for q in query if isinstance(q, str)) if isinstance(query, list) else ""
        )
        results = [
            {"title": link.get("title"), "link": link.get("url")}
            for link in (links if isinstance(links, list) else [])
            if isinstance(link, dict)
        ]
        return ToolCallPart(
            call_id=f"web_search_{item.get('id')}",
            name="web_search",
            arguments=_json_text({"query": query_text}),
            result=_json_text({"query": query_text, "searchResults": results}),
            state=CallState.DONE,
        )


def _tool_call(part: dict[str, Any], fallback_id: str) -> ToolCallPart:
    """A tool call: `result` state → done, `error` → error, `call` (no result ever came) →
    interrupted."""
    call_id = part.get("toolCallId")
    name = part.get("toolName")
    args = part.get("args")
    result = part.get("result")
    state = part.get("state")
    result_text = None if result is None else _json_text(result)
    if state == "error":
        call_state = CallState.ERROR
    elif state == "result" or result is not None:
        call_state = CallState.DONE
    else:
        call_state = CallState.INTERRUPTED
    return ToolCallPart(
        call_id=call_id if isinstance(call_id, str) and call_id else fallback_id,
        name=name if isinstance(name, str) and name else "tool",
        arguments="" if args is None else _json_text(args),
        result=result_text,
        is_error=call_state is CallState.ERROR,
        state=call_state,
        error=result_text if call_state is CallState.ERROR else None,
    )


def _branches(fork: object) -> list[list[Any]]:
    if not isinstance(fork, dict) or not isinstance(fork.get("lists"), list):
        return []
    return [
        branch["messages"]
        for branch in fork["lists"]
        if isinstance(branch, dict) and isinstance(branch.get("messages"), list)
    ]


def _usage(value: object) -> Usage | None:
    if not isinstance(value, dict):
        return None
    usage = Usage(
        input_tokens=_whole(value.get("inputTokens")) or 0,
        output_tokens=_whole(value.get("outputTokens")) or 0,
        reasoning_tokens=_whole(value.get("reasoningTokens")) or 0,
    )
    return usage if usage != Usage() else None
