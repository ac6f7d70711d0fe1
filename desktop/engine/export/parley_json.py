"""Conversation export and import formats: pure functions, no I/O.

- `to_markdown` (in `export_markdown`): a readable document, branch or every version.
- `to_json`: the Parley JSON format, lossless: {"format": "parley.conversation",
  "version": 1, "conversation": {...}, "messages": [...]}. Each message carries its
  `parent_id`, so the file holds a tree; the conversation its `active_leaf_id`.
  Whatever messages it is given (the whole tree, or just the active path) are written.
- `from_json`: the reverse, validating every field; a bad file raises
  `ConversationFileError` naming the exact place, e.g. `messages[3].parent_id`.

Parts are encoded by `storage.mapping` (the one part codec): a part type this version
does not know survives an import/export round trip as raw JSON, as it does in the
database. Times are ISO 8601 UTC with milliseconds, the precision the database keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Final, TypeVar

from desktop.core.errors import ParleyError
from desktop.core.i18n import tr
from desktop.core.models import (
    ContextSnapshot,
    Conversation,
    Message,
    MessageStatus,
    ModelRef,
    Part,
    Role,
    RollingSummary,
    Usage,
)
from desktop.storage import mapping

FORMAT: Final = "parley.conversation"
VERSION: Final = 1
MAX_ID_CHARS: Final = 200

E = TypeVar("E", bound=StrEnum)


class ConversationFileError(ParleyError):
    """The file is not a valid Parley conversation; `path` says where (may be "")."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path}: {problem}" if path else problem)
        self.path = path
        self.problem = problem


# --- writing --------------------------------------------------------------------------


def _time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _optional_time(value: datetime | None) -> str | None:
    return None if value is None else _time(value)


def effective_leaf(conversation: Conversation, messages: Sequence[Message]) -> str | None:
    """The conversation's active leaf if it is among `messages`, else the newest leaf
    (what `ChatRepository.active_path` falls back to), else None."""
    ids = {m.id for m in messages}
    if conversation.active_leaf_id in ids:
        return conversation.active_leaf_id
    parents = {m.parent_id for m in messages}
    leaves = [m for m in messages if m.id not in parents]
    return leaves[-1].id if leaves else None


def _message_to_json(message: Message) -> dict[str, Any]:
    model, usage, context = message.model, message.usage, message.context
    return {
        "id": message.id,
        "parent_id": message.parent_id,
        "role": message.role.value,
        "status": message.status.value,
        "parts": [mapping.part_to_json(p) for p in message.parts],
        "model": None
        if model is None
        else {"provider_id": model.provider_id, "model": model.model},
        "usage": None
        if usage is None
        else {
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "reasoning_tokens": usage.reasoning_tokens,
        },
        "first_token_ms": message.first_token_ms,
        "created_at": _time(message.created_at),
        "finished_at": _optional_time(message.finished_at),
        "context": {
            "attachment_ids": list(context.attachment_ids),
            "workspace_file": context.workspace_file,
            "context_captured": context.context_captured,
        },
    }


def to_json(conversation: Conversation, messages: Sequence[Message]) -> dict[str, Any]:
    """A JSON-ready dict of the conversation and the given messages (tree or branch)."""
    summary = conversation.summary
    return {
        "format": FORMAT,
        "version": VERSION,
        "conversation": {
            "id": conversation.id,
            "title": conversation.title,
            "created_at": _time(conversation.created_at),
            "updated_at": _time(conversation.updated_at),
            "assistant_id": conversation.assistant_id,
            "pinned": conversation.pinned,
            "archived": conversation.archived,
            "active_leaf_id": effective_leaf(conversation, messages),
            "summary": None
            if summary is None
            else {"text": summary.text, "covered_ids": list(summary.covered_ids)},
            "workspace": conversation.workspace,
        },
        "messages": [_message_to_json(m) for m in messages],
    }


# --- reading --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Obj:
    """A JSON object and where it is in the file, with typed, path-reporting getters."""

    data: dict[str, Any]
    path: str

    @classmethod
    def of(cls, value: Any, path: str) -> _Obj:
        if not isinstance(value, dict):
            raise ConversationFileError(path, tr("must be an object"))
        return cls(value, path)

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def fail(self, key: str, problem: str) -> ConversationFileError:
        return ConversationFileError(self.at(key), problem)

    def present(self, key: str) -> bool:
        """Absent and null mean the same: the optional field is not set."""
        return self.data.get(key) is not None

    def text(self, key: str) -> str:
        value = self.data.get(key)
        if not isinstance(value, str):
            raise self.fail(key, tr("must be text"))
        return value

    def opt_text(self, key: str) -> str | None:
        return self.text(key) if self.present(key) else None

    def ident(self, key: str) -> str:
        value = self.text(key)
        if not 0 < len(value) <= MAX_ID_CHARS or value != value.strip():
            raise self.fail(key, tr("must be an id (1 to 200 characters, no spaces around)"))
        return value

    def opt_ident(self, key: str) -> str | None:
        return self.ident(key) if self.present(key) else None

    def flag(self, key: str) -> bool:
        value = self.data.get(key)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.fail(key, tr("must be true or false"))
        return value

    def count(self, key: str) -> int | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail(key, tr("must be a whole number, 0 or more"))
        return value

    def time(self, key: str) -> datetime:
        value = self.text(key)
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            raise self.fail(key, tr("must be a date and time (ISO 8601)")) from None
        if parsed.tzinfo is None:
            raise self.fail(key, tr("must include a time zone (e.g. a final Z)"))
        return mapping.truncate_to_ms(parsed)

    def opt_time(self, key: str) -> datetime | None:
        return self.time(key) if self.present(key) else None

    def choice(self, key: str, kind: type[E]) -> E:
        value = self.text(key)
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(member.value for member in kind)
            raise self.fail(key, tr("must be one of: {allowed}").format(allowed=allowed)) from None

    def obj(self, key: str) -> _Obj | None:
        value = self.data.get(key)
        return None if value is None else _Obj.of(value, self.at(key))

    def array(self, key: str, *, required: bool = True) -> list[Any]:
        value = self.data.get(key)
        if value is None and not required:
            return []
        if not isinstance(value, list):
            raise self.fail(key, tr("must be a list"))
        return value

    def ids(self, key: str) -> tuple[str, ...]:
        values = self.array(key, required=False)
        for index, value in enumerate(values):
            if not isinstance(value, str):
                raise ConversationFileError(f"{self.at(key)}[{index}]", tr("must be text"))
        return tuple(values)


def _conversation(node: _Obj) -> Conversation:
    title = node.text("title").strip()
    if not title:
        raise node.fail("title", tr("must not be empty"))
    summary = node.obj("summary")
    return Conversation(
        id=node.ident("id"),
        title=title,
        created_at=node.time("created_at"),
        updated_at=node.time("updated_at"),
        assistant_id=node.opt_text("assistant_id"),
        pinned=node.flag("pinned"),
        archived=node.flag("archived"),
        active_leaf_id=node.opt_ident("active_leaf_id"),
        summary=None
        if summary is None
        else RollingSummary(summary.text("text"), summary.ids("covered_ids")),
        workspace=node.opt_text("workspace"),
    )


def _parts(node: _Obj) -> list[Part]:
    parts: list[Part] = []
    for index, item in enumerate(node.array("parts", required=False)):
        try:
            parts.append(mapping.decode_part(item))
        except mapping.PartFormatError as error:
            path = f"{node.at('parts')}[{index}]" + (f".{error.field}" if error.field else "")
            raise ConversationFileError(path, error.problem) from None
    return parts


def _message(node: _Obj, conversation_id: str) -> Message:
    model = node.obj("model")
    usage = node.obj("usage")
    context = node.obj("context")
    return Message(
        id=node.ident("id"),
        conversation_id=conversation_id,
        parent_id=node.opt_ident("parent_id"),
        role=node.choice("role", Role),
        parts=_parts(node),
        status=node.choice("status", MessageStatus),
        model=None if model is None else ModelRef(model.text("provider_id"), model.text("model")),
        usage=None
        if usage is None
        else Usage(
            usage.count("input_tokens") or 0,
            usage.count("output_tokens") or 0,
            usage.count("reasoning_tokens") or 0,
        ),
        first_token_ms=node.count("first_token_ms"),
        created_at=node.time("created_at"),
        finished_at=node.opt_time("finished_at"),
        context=ContextSnapshot()
        if context is None
        else ContextSnapshot(
            attachment_ids=context.ids("attachment_ids"),
            workspace_file=context.opt_text("workspace_file"),
            context_captured=context.flag("context_captured"),
        ),
    )


def _check_tree(messages: list[Message], leaf: str | None) -> None:
    """Unique ids, parents present in the file, no cycles, a leaf that exists."""
    index_of: dict[str, int] = {}
    for index, message in enumerate(messages):
        if message.id in index_of:
            raise ConversationFileError(
                f"messages[{index}].id",
                tr("the id {id} is also used by messages[{other}]").format(
                    id=message.id, other=index_of[message.id]
                ),
            )
        index_of[message.id] = index
    for index, message in enumerate(messages):
        if message.parent_id is not None and message.parent_id not in index_of:
            raise ConversationFileError(
                f"messages[{index}].parent_id",
                tr("no message with the id {id} in this file").format(id=message.parent_id),
            )
    parent_of = {m.id: m.parent_id for m in messages}
    done: set[str] = set()
    for message in messages:
        trail: list[str] = []
        node: str | None = message.id
        while node is not None and node not in done:
            if node in trail:
                loop = " → ".join([*trail[trail.index(node) :], node])
                raise ConversationFileError(
                    f"messages[{index_of[node]}].parent_id",
                    tr("the messages' parents form a loop ({loop})").format(loop=loop),
                )
            trail.append(node)
            node = parent_of[node]
        done.update(trail)
    if leaf is not None and leaf not in index_of:
        raise ConversationFileError(
            "conversation.active_leaf_id",
            tr("no message with the id {id} in this file").format(id=leaf),
        )


def from_json(data: Any) -> tuple[Conversation, list[Message]]:
    """Validate a parsed Parley JSON export and build the domain objects.

    Unknown keys are ignored (a newer Parley may add some without a new version);
    an unknown format or a newer version is refused.
    """
    root = _Obj.of(data, "")
    if root.data.get("format") != FORMAT:
        raise ConversationFileError("format", tr("this is not a Parley conversation export"))
    version = root.data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ConversationFileError("version", tr("must be a whole number, 1 or more"))
    if version > VERSION:
        raise ConversationFileError(
            "version",
            tr(
                "the file was made by a newer Parley (format version {found}; this one reads "
                "up to {known}). Update Parley to import it."
            ).format(found=version, known=VERSION),
        )
    conversation_node = root.obj("conversation")
    if conversation_node is None:
        raise ConversationFileError("conversation", tr("is missing"))
    conversation = _conversation(conversation_node)
    messages = [
        _message(_Obj.of(item, f"messages[{index}]"), conversation.id)
        for index, item in enumerate(root.array("messages"))
    ]
    _check_tree(messages, conversation.active_leaf_id)
    return conversation, messages
