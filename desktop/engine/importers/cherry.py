"""Cherry Studio backups: its legacy `data.json` (backup versions 1 to 5), in a zip or bare.

`data.json` is `{time, version, localStorage, indexedDB}`: `localStorage` holds the app's
redux state under "persist:cherry-studio" (a JSON string whose values are JSON strings
again), where the assistants keep their topics' names and times; `indexedDB` is a dump of
Cherry's Dexie tables, where `topics` holds each topic's messages and `message_blocks`
their content (see `cherry_parts`). Version 1 dumped the tables as `{key, value}` rows.

A topic is a Parley conversation. Its messages form a list in display order, where the
replies to one question carry its id in `askId`: several replies to one question (a
regenerate, or several models asked at once) become sibling versions, and the one Cherry
uses going on — marked `useful`, else the one chosen in the folded view, else the
newest — is the one the conversation continues from and shows.

Version 6 and later "direct" backups copy Cherry's browser databases (Chromium's LevelDB
files) instead of writing `data.json`; they are recognised and refused with an
explanation, since nothing in them can be read without Chromium.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import PurePosixPath
from typing import Any

from desktop.core.i18n import tr
from desktop.core.models import Conversation, Message, MessageStatus, ModelRef, Role, Usage
from desktop.engine.importers.cherry_parts import blocks_by_id, content_of, legacy_blocks
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import (
    ImportedConversation,
    Skipped,
    derived_id,
    from_epoch,
    from_iso,
)

CLIENT = "cherry"
LABEL = "Cherry Studio"

_DATA = "data.json"
_PERSIST = "persist:cherry-studio"
_TITLE_LENGTH = 80  # a title made from the first question
# A parsed data.json, kept while its export is open: detect() parses it, read() reuses it.
_parsed: weakref.WeakKeyDictionary[ExportFiles, Any] = weakref.WeakKeyDictionary()


def detect(files: ExportFiles) -> bool:
    if _is_direct_backup(files):
        return True
    name = _data_name(files)
    if name is None:
        return False
    head = files.read(name)
    if b'"indexedDB"' not in head or (b'"topics"' not in head and b'"topic:' not in head):
        return False
    try:
        return _is_backup(_load(files, name))
    except ExportError:
        return False


def read(files: ExportFiles) -> Iterator[ImportedConversation | Skipped]:
    if _is_direct_backup(files):
        raise ExportError(
            tr(
                "This is a Cherry Studio “direct” backup (version 6 or later): a copy of "
                "Cherry Studio's databases as Chromium's LevelDB files, which Parley "
                "cannot read. Parley reads Cherry Studio's earlier backups, the ones "
                "with a data.json inside."
            )
        )
    name = _data_name(files)
    data = _load(files, name) if name is not None else None
    if not isinstance(data, dict) or not _is_backup(data):
        raise ExportError(
            tr("{name} is not a Cherry Studio backup: it has no topics.").format(
                name=files.path.name
            )
        )
    backup_time = _from_millis(data.get("time"))
    topics_info = _topics_info(data.get("localStorage"))
    blocks = _block_table(data["indexedDB"])
    seen: set[str] = set()
    for index, topic in enumerate(_topic_rows(data["indexedDB"]), start=1):
        if isinstance(topic, dict) and isinstance(topic.get("id"), str):
            seen.add(topic["id"])
        yield _conversation(topic, index, topics_info, blocks, backup_time)
    # Topics the assistants list but the database has no row for never had a message.
    for topic_id, info in topics_info.items():
        if topic_id not in seen:
            row = {"id": topic_id, "messages": info.messages}
            yield _conversation(row, 0, topics_info, blocks, backup_time)


@dataclass(slots=True)
class _TopicInfo:
    """What the persisted assistants say of a topic."""

    title: str | None
    created_at: datetime | None
    updated_at: datetime | None
    pinned: bool
    prompt: str | None
    messages: list[Any]


def _conversation(
    topic: object,
    index: int,
    topics_info: Mapping[str, _TopicInfo],
    blocks: Mapping[str, Mapping[str, Any]],
    backup_time: datetime | None,
) -> ImportedConversation | Skipped:
    if not isinstance(topic, dict) or not isinstance(topic.get("id"), str) or not topic["id"]:
        return Skipped(tr("topic {n}").format(n=index), tr("not a topic record"))
    topic_id: str = topic["id"]
    info = topics_info.get(topic_id)
    label = info.title if info is not None and info.title else topic_id
    rows = topic.get("messages")
    if not isinstance(rows, list):
        return Skipped(label, tr("its messages are not a list"))
    conversation_id = derived_id(CLIENT, "conversation", topic_id)
    first_time = next((t for t in map(_message_time, rows) if t is not None), None)
    created = (info.created_at if info else None) or first_time or backup_time
    created = created or datetime(1970, 1, 1, tzinfo=UTC)
    tree = _Tree(conversation_id, label, created)
    for position, row in enumerate(rows, start=1):
        tree.add(row, position, blocks)
    if not tree.messages:
        return Skipped(label, tr("no messages"))
    times = [m.created_at for m in tree.messages]
    title = (info.title if info else None) or _title_from(tree.messages) or tr("Untitled chat")
    conversation = Conversation(
        id=conversation_id,
        title=title,
        created_at=min([created, *times]),
        updated_at=max([(info.updated_at if info else None) or created, *times]),
        pinned=bool(info and info.pinned),
        active_leaf_id=tree.leaf(),
        system_prompt=info.prompt if info else None,
    )
    notes: tuple[str, ...] = ()
    if tree.attachments:
        notes = (
            tr(
                "%n image(s) or file(s) attached in Cherry Studio were not imported.",
                "",
                tree.attachments,
            ),
        )
    return ImportedConversation(
        conversation=conversation,
        messages=tuple(tree.messages),
        skipped=tuple(tree.skipped),
        branches=tree.branches(),
        images=tree.attachments,
        notes=notes,
        files_left_out=tree.attachments,  # none of them is carried over
    )


@dataclass(frozen=True, slots=True)
class _Reply:
    id: str
    useful: bool  # Cherry sends this one as the context of what follows
    folded: bool  # the one shown when the replies are folded into one


@dataclass
class _Group:
    """The replies to one question, in the order they came."""

    replies: list[_Reply] = field(default_factory=list)

    def chosen(self) -> str:
        for marked in (
            [r for r in self.replies if r.useful],
            [r for r in self.replies if r.folded],
        ):
            if marked:
                return marked[-1].id
        return self.replies[-1].id


class _Tree:
    """Builds one topic's messages as a tree while reading its list in order.

    `tail` is where the next message of the main line hangs: a message id, or the group
    of replies to a question (resolved to its chosen reply when something follows it).
    A message left out (hidden, unreadable) is mapped to its nearest kept ancestor, so
    what hung from it hangs there instead."""

    def __init__(self, conversation_id: str, label: str, start: datetime) -> None:
        self.conversation_id = conversation_id
        self.label = label
        self.start = start
        self.messages: list[Message] = []
        self.skipped: list[Skipped] = []
        self.attachments = 0
        self.kept: dict[str, str] = {}  # source id -> Parley id
        self.alias: dict[str, str | None] = {}  # left-out source id -> nearest kept
        self.groups: dict[str, _Group] = {}
        self.tail: tuple[str, str | None] = ("message", None)

    def resolve(self, tail: tuple[str, str | None]) -> str | None:
        kind, key = tail
        if kind == "group" and key is not None:
            return self.groups[key].chosen()
        return key

    def leaf(self) -> str | None:
        return self.resolve(self.tail)

    def branches(self) -> int:
        children: dict[str | None, int] = {}
        for message in self.messages:
            children[message.parent_id] = children.get(message.parent_id, 0) + 1
        return sum(1 for parent, n in children.items() if parent is not None and n > 1)

    def add(self, row: object, position: int, blocks: Mapping[str, Mapping[str, Any]]) -> None:
        where = tr("message {n} of “{title}”").format(n=position, title=self.label)
        if not isinstance(row, dict):
            self.skipped.append(Skipped(where, tr("not a message record")))
            return
        source_id = row.get("id") if isinstance(row.get("id"), str) and row["id"] else None
        source_id = source_id or f"{self.conversation_id}#{position}"
        if source_id in self.kept or source_id in self.alias:
            self.skipped.append(Skipped(where, tr("its id appears twice in the topic")))
            return
        role = row.get("role")
        if role == "system" or row.get("type") == "clear":  # hidden: a divider, a system note
            self.alias[source_id] = self.resolve(self.tail)
            return
        if role not in ("user", "assistant"):
            self.alias[source_id] = self.resolve(self.tail)
            self.skipped.append(
                Skipped(
                    where,
                    tr("its role “{role}” is not one Parley has").format(role=str(role)[:40]),
                )
            )
            return
        try:
            if isinstance(row.get("blocks"), list) and row["blocks"]:
                content = content_of(blocks_by_id(row["blocks"], blocks))
            else:
                content = content_of(legacy_blocks(row))
        except (TypeError, ValueError, AttributeError, KeyError, RecursionError):
            content = None
        if content is None or not content.parts:
            self.alias[source_id] = self.resolve(self.tail)
            self.skipped.append(Skipped(where, tr("its content is not in the backup")))
            return
        ask = row.get("askId")
        group_key: str | None = None
        if role == "assistant" and isinstance(ask, str) and (ask in self.kept or ask in self.alias):
            group_key = ask
            parent = self.kept.get(ask) or self.alias.get(ask)
        else:
            parent = self.resolve(self.tail)
        message_id = derived_id(CLIENT, "message", source_id)
        # No time in the source: just after the message before it, so parents come first.
        previous = self.messages[-1].created_at if self.messages else self.start
        created = _message_time(row) or previous + timedelta(microseconds=1)
        self.messages.append(
            Message(
                id=message_id,
                conversation_id=self.conversation_id,
                parent_id=parent,
                role=Role.USER if role == "user" else Role.ASSISTANT,
                parts=content.parts,
                status=MessageStatus.COMPLETE,
                model=_model(row) if role == "assistant" else None,
                usage=_usage(row.get("usage")),
                created_at=created,
            )
        )
        self.attachments += content.attachments
        self.kept[source_id] = message_id
        if group_key is None:
            self.tail = ("message", message_id)
            return
        group = self.groups.setdefault(group_key, _Group())
        group.replies.append(
            _Reply(message_id, row.get("useful") is True, row.get("foldSelected") is True)
        )
        # The replies continue the main line when they answer its latest question.
        if self.tail == ("group", group_key) or self.resolve(self.tail) == parent:
            self.tail = ("group", group_key)


def _message_time(row: object) -> datetime | None:
    return from_iso(row.get("createdAt")) if isinstance(row, dict) else None


def _model(row: Mapping[str, Any]) -> ModelRef | None:
    model = row.get("model")
    model = model if isinstance(model, dict) else {}
    for value in (model.get("id"), model.get("name"), row.get("modelId")):
        if isinstance(value, str) and value.strip():
            return ModelRef(CLIENT, value.strip())
    return None


def _usage(value: object) -> Usage | None:
    """Token counts, in either of Cherry's spellings (OpenAI's, or the AI SDK's)."""
    if not isinstance(value, dict):
        return None
    spent_in = value.get("inputTokens", value.get("prompt_tokens"))
    spent_out = value.get("outputTokens", value.get("completion_tokens"))
    if not (_count(spent_in) or _count(spent_out)):
        return None
    return Usage(input_tokens=_count(spent_in), output_tokens=_count(spent_out))


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _title_from(messages: list[Message]) -> str | None:
    for message in messages:
        if message.role is Role.USER and message.text.strip():
            line = message.text.strip().splitlines()[0].strip()
            return line if len(line) <= _TITLE_LENGTH else line[:_TITLE_LENGTH].rstrip() + "…"
    return None


# --- The backup's shape ---------------------------------------------------------------


def _is_direct_backup(files: ExportFiles) -> bool:
    """A version 6+ backup: `metadata.json` naming Cherry Studio, or Cherry's database
    folders (IndexedDB, Local Storage) with LevelDB files and no data.json."""
    meta = files.find("metadata.json")
    if meta is not None:
        try:
            metadata = files.json(meta)
        except ExportError:
            metadata = None
        if isinstance(metadata, dict) and metadata.get("appName") == "Cherry Studio":
            return True
    if files.find(_DATA) is not None:
        return False
    folders = {part for name in files.names for part in PurePosixPath(name).parts[:-1]}
    leveldb = any(part.endswith(".leveldb") or part == "leveldb" for part in folders)
    return leveldb and ("IndexedDB" in folders or "Local Storage" in folders)


def _data_name(files: ExportFiles) -> str | None:
    """The data.json of a zip or folder, or the one file given (sniffed, whatever its name)."""
    found = files.find(_DATA)
    if found is not None:
        return found
    if len(files.names) == 1 and files.path.is_file():
        return files.names[0]
    return None


def _load(files: ExportFiles, name: str) -> Any:
    if files in _parsed:
        cached_name, data = _parsed[files]
        if cached_name == name:
            return data
    data = files.json(name)
    _parsed[files] = (name, data)
    return data


def _is_backup(data: object) -> bool:
    if not isinstance(data, dict):
        return False
    database = data.get("indexedDB")
    if isinstance(database, list):  # version 1: {key, value} rows, one per topic
        return any(
            isinstance(row, dict) and str(row.get("key", "")).startswith("topic:")
            for row in database
        )
    if not isinstance(database, dict) or not isinstance(database.get("topics"), list):
        return False
    if isinstance(database.get("message_blocks"), list):
        return True
    storage = data.get("localStorage")
    if isinstance(storage, dict) and _PERSIST in storage:
        return True
    return any(
        isinstance(message, dict) and isinstance(message.get("content"), str)
        for topic in database["topics"]
        if isinstance(topic, dict) and isinstance(topic.get("messages"), list)
        for message in topic["messages"]
    )


def _topic_rows(database: object) -> list[Any]:
    if isinstance(database, list):
        return [
            row.get("value")
            for row in database
            if isinstance(row, dict) and str(row.get("key", "")).startswith("topic:")
        ]
    topics = database.get("topics") if isinstance(database, dict) else None
    return topics if isinstance(topics, list) else []


def _block_table(database: object) -> dict[str, Mapping[str, Any]]:
    rows = database.get("message_blocks") if isinstance(database, dict) else None
    if not isinstance(rows, list):
        return {}
    return {
        row["id"]: row for row in rows if isinstance(row, dict) and isinstance(row.get("id"), str)
    }


def _topics_info(storage: object) -> dict[str, _TopicInfo]:
    """Every topic the persisted assistants list, by id (the first listing wins)."""
    state = _json_value(storage.get(_PERSIST)) if isinstance(storage, dict) else None
    slice_ = _json_value(state.get("assistants")) if isinstance(state, dict) else None
    if not isinstance(slice_, dict):
        return {}
    assistants = slice_.get("assistants")
    assistants = list(assistants) if isinstance(assistants, list) else []
    assistants.insert(0, slice_.get("defaultAssistant"))
    found: dict[str, _TopicInfo] = {}
    for assistant in assistants:
        if not isinstance(assistant, dict) or not isinstance(assistant.get("topics"), list):
            continue
        for topic in assistant["topics"]:
            if not isinstance(topic, dict) or not isinstance(topic.get("id"), str):
                continue
            if topic["id"] in found:
                continue
            title = topic.get("name", topic.get("title"))
            prompt = topic.get("prompt")
            messages = topic.get("messages")
            found[topic["id"]] = _TopicInfo(
                title=title.strip() if isinstance(title, str) and title.strip() else None,
                created_at=from_iso(topic.get("createdAt")),
                updated_at=from_iso(topic.get("updatedAt")),
                pinned=topic.get("pinned") is True,
                prompt=prompt if isinstance(prompt, str) and prompt.strip() else None,
                messages=messages if isinstance(messages, list) else [],
            )
    return found


def _json_value(value: object) -> object:
    """redux-persist stores each value as JSON text; a value already parsed is kept."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            return None
    return value


def _from_millis(value: object) -> datetime | None:
    """The backup's `time` (JavaScript milliseconds); None when missing or absurd."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        return from_epoch(value / 1000)
    except OverflowError:
        return None
