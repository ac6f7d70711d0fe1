"""Every conversion between domain objects and database rows lives here, and only here.

Row conventions:
- times: integer epoch milliseconds, UTC. Domain datetimes must be timezone-aware;
  reading gives UTC datetimes truncated to the millisecond.
- `parts`: a JSON list of objects with a "type" key (text, reasoning, tool_call, notice,
  error, citation). A citation is its own object after the text, so a Parley that
  predates citations keeps it verbatim as an unknown part (below) and reads the text
  exactly as before.
- `context`: a JSON object (attachment_ids, workspace_file, workspace_snapshot_id,
  workspace_error, context_captured).
- `summary_covered_ids`: a JSON list of message ids.
- model: the `provider_id` + `model` columns (both or neither); usage: the three token
  columns, all NULL when there is no usage.
- `search_text`: the message's visible text (`Message.text`: text parts joined, no
  reasoning or notices). It exists only for the full-text index (`search.py`); SQLite
  triggers copy it into the index, so filling it here keeps every write path searchable.

Forward compatibility: a part type this version does not know (written by a newer
Parley, which may add part types without a schema change) or a malformed part is read
as `UnknownPart`, a `NoticePart` subclass. Views show it as a notice instead of
crashing, and because it keeps the original JSON, saving the message writes that JSON
back unchanged, so an older Parley never erases what a newer one wrote.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from desktop.core.attachments import Attachment, AttachmentKind
from desktop.core.i18n import tr
from desktop.core.models import (
    CallState,
    CitationPart,
    ContextSnapshot,
    Conversation,
    ConversationSummary,
    DecidedBy,
    Decision,
    ErrorPart,
    Message,
    MessageStatus,
    ModelRef,
    NoticePart,
    Part,
    ReasoningPart,
    Role,
    RollingSummary,
    SourceKind,
    TextPart,
    ToolCallPart,
    Usage,
)

log = logging.getLogger(__name__)

# What SQLAlchemy's `RowMapping` satisfies (its keys may also be Column objects);
# plain dicts built by `*_to_row` fit too.
RowLike = Mapping[Any, Any]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


@dataclass(frozen=True, slots=True)
class UnknownPart(NoticePart):
    """A part this version cannot interpret; `raw` is its original JSON, kept verbatim."""

    raw: str = "{}"


# --- scalars ----------------------------------------------------------------------


def to_epoch_ms(value: datetime) -> int:
    """Exact integer arithmetic (no float rounding). Naive datetimes are refused:
    their meaning depends on the machine's time zone."""
    if value.tzinfo is None:
        raise ValueError("naive datetime: domain times must be timezone-aware (UTC)")
    return (value - _EPOCH) // _MS


def from_epoch_ms(value: int) -> datetime:
    # timedelta * int is exact and about twice as fast as timedelta(milliseconds=...),
    # which matters when listing 10,000 conversations.
    return _EPOCH + _MS * value


def truncate_to_ms(value: datetime) -> datetime:
    """The value as it will read back from the database."""
    return from_epoch_ms(to_epoch_ms(value))


def _optional_ms(value: datetime | None) -> int | None:
    return None if value is None else to_epoch_ms(value)


def _optional_dt(value: int | None) -> datetime | None:
    return None if value is None else from_epoch_ms(value)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# --- parts ------------------------------------------------------------------------


def part_to_json(part: Part) -> Any:
    """A JSON-ready value: a dict with "type" for every known part, the original
    value for an `UnknownPart` (checked first: it is a NoticePart subclass)."""
    if isinstance(part, UnknownPart):
        return json.loads(part.raw)
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    if isinstance(part, ReasoningPart):
        data = {"type": "reasoning", "text": part.text, "duration_ms": part.duration_ms}
        return data if part.signature is None else {**data, "signature": part.signature}
    if isinstance(part, ToolCallPart):
        return {
            "type": "tool_call",
            "call_id": part.call_id,
            "name": part.name,
            "arguments": part.arguments,
            "result": part.result,
            "is_error": part.is_error,
            **_call_record(part),
        }
    if isinstance(part, NoticePart):
        data = {"type": "notice", "text": part.text}
        return data if part.detail is None else {**data, "detail": part.detail}
    if isinstance(part, ErrorPart):
        return {"type": "error", "message": part.message, "status_code": part.status_code}
    if isinstance(part, CitationPart):
        return _citation_to_json(part)
    raise TypeError(f"cannot store part of type {type(part).__name__}")


def _call_record(part: ToolCallPart) -> dict[str, Any]:
    """The call's record, only the fields it has: a call the tool loop never handled
    is stored exactly as before the loop existed."""
    record = {
        "state": part.state,
        "decision": part.decision,
        "decided_by": part.decided_by,
        "duration_ms": part.duration_ms,
        "result_size": part.result_size,
        "output_path": part.output_path,
        "error": part.error,
        "attachment_ids": list(part.attachment_ids) or None,
    }
    return {key: value for key, value in record.items() if value is not None}


def _citation_to_json(part: CitationPart) -> dict[str, Any]:
    data: dict[str, Any] = {
        "type": "citation",
        "number": part.number,
        "library_id": part.library_id,
        "path": part.path,
        "relative_path": part.relative_path,
        "excerpt": part.excerpt,
        "heading_path": part.heading_path,
        "page": part.page,
        "char_start": part.char_start,
        "char_end": part.char_end,
        "source_sha256": part.source_sha256,
        "chunk_id": part.chunk_id,
    }
    if part.kind is not SourceKind.DOCUMENT:
        data["kind"] = part.kind.value
    for key in ("title", "url", "conversation_id", "message_id", "date"):
        if getattr(part, key):
            data[key] = getattr(part, key)
    return {key: value for key, value in data.items() if value is not None}


class PartFormatError(ValueError):
    """A part of a known type with a missing or mistyped field.

    `field` names the offending key ("" for the part itself), so an importer can point
    at `messages[3].parts[0].text` instead of rejecting the whole file vaguely.
    """

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise PartFormatError(key, "must be a string")
    return value


def _opt_str(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise PartFormatError(key, "must be a string or null")
    return value


def _opt_int(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise PartFormatError(key, "must be a whole number or null")
    return value


_E = TypeVar("_E", CallState, Decision, DecidedBy)


def _opt_enum(data: Mapping[str, Any], key: str, kind: type[_E]) -> _E | None:
    value = _opt_str(data, key)
    if value is None:
        return None
    try:
        return kind(value)
    except ValueError:
        raise PartFormatError(key, f"unknown value {value!r}") from None


def _str_tuple(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PartFormatError(key, "must be a list of strings")
    return tuple(value)


def _citation(data: Mapping[str, Any]) -> CitationPart:
    """Strict: the number and the passage's file are required; a missing optional field
    takes its default, as a newer Parley's extra keys are ignored. A kind this Parley
    does not know is read as a document (its excerpt still shows)."""
    number = _opt_int(data, "number")
    if number is None or number < 1:
        raise PartFormatError("number", "must be a whole number, 1 or more")
    start, end = _opt_int(data, "char_start") or 0, _opt_int(data, "char_end") or 0
    if start < 0 or end < start:
        raise PartFormatError("char_end", "must not be before char_start")
    return CitationPart(
        number=number,
        library_id=_str(data, "library_id"),
        path=_str(data, "path"),
        relative_path=_opt_str(data, "relative_path") or "",
        excerpt=_str(data, "excerpt"),
        heading_path=_opt_str(data, "heading_path") or "",
        page=_opt_int(data, "page"),
        char_start=start,
        char_end=end,
        source_sha256=_opt_str(data, "source_sha256") or "",
        chunk_id=_opt_int(data, "chunk_id"),
        kind=_source_kind(data),
        title=_opt_str(data, "title") or "",
        url=_opt_str(data, "url") or "",
        conversation_id=_opt_str(data, "conversation_id") or "",
        message_id=_opt_str(data, "message_id") or "",
        date=_opt_str(data, "date") or "",
    )


def _source_kind(data: Mapping[str, Any]) -> SourceKind:
    try:
        return SourceKind(_opt_str(data, "kind") or SourceKind.DOCUMENT.value)
    except ValueError:
        return SourceKind.DOCUMENT


def _unknown(data: Any) -> UnknownPart:
    kind = data.get("type") if isinstance(data, dict) else None
    if isinstance(kind, str):
        text = tr(
            "This part ({kind}) was made by a newer version of Parley and cannot be shown."
        ).format(kind=kind)
    else:
        text = tr("This part was made by a newer version of Parley and cannot be shown.")
    return UnknownPart(text=text, raw=_dumps(data))


def decode_part(data: Any) -> Part:
    """Strict decoding: raises `PartFormatError` for a malformed part.

    A well-formed part of a type this version does not know is not an error: it is
    kept as an `UnknownPart` (forward compatibility, see the module docstring).
    """
    if not isinstance(data, dict):
        raise PartFormatError("", "must be an object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise PartFormatError("type", "must be a string")
    if kind == "text":
        return TextPart(_str(data, "text"))
    if kind == "reasoning":
        return ReasoningPart(
            _str(data, "text"), _opt_int(data, "duration_ms"), _opt_str(data, "signature")
        )
    if kind == "tool_call":
        is_error = data.get("is_error", False)
        if not isinstance(is_error, bool):
            raise PartFormatError("is_error", "must be true or false")
        return ToolCallPart(
            _str(data, "call_id"),
            _str(data, "name"),
            _str(data, "arguments"),
            _opt_str(data, "result"),
            is_error,
            state=_opt_enum(data, "state", CallState),
            decision=_opt_enum(data, "decision", Decision),
            decided_by=_opt_enum(data, "decided_by", DecidedBy),
            duration_ms=_opt_int(data, "duration_ms"),
            result_size=_opt_int(data, "result_size"),
            output_path=_opt_str(data, "output_path"),
            error=_opt_str(data, "error"),
            attachment_ids=_str_tuple(data, "attachment_ids"),
        )
    if kind == "notice":
        return NoticePart(_str(data, "text"), _opt_str(data, "detail"))
    if kind == "error":
        return ErrorPart(_str(data, "message"), _opt_int(data, "status_code"))
    if kind == "citation":
        return _citation(data)
    return _unknown(data)


def part_from_json(data: Any) -> Part:
    """Never raises: anything unrecognised or malformed becomes an `UnknownPart`."""
    try:
        return decode_part(data)
    except PartFormatError:
        return _unknown(data)


def parts_to_json(parts: list[Part]) -> str:
    return _dumps([part_to_json(p) for p in parts])


def parts_from_json(text: str | None) -> list[Part]:
    try:
        items = json.loads(text or "[]")
    except json.JSONDecodeError:
        items = None
    if not isinstance(items, list):
        log.warning("Unreadable parts column; showing a notice instead")
        return [NoticePart(tr("The content of this message could not be read."))]
    return [part_from_json(item) for item in items]


# --- context, usage, model ----------------------------------------------------------


def context_to_json(context: ContextSnapshot) -> str:
    return _dumps(
        {
            "attachment_ids": list(context.attachment_ids),
            "workspace_file": context.workspace_file,
            "workspace_snapshot_id": context.workspace_snapshot_id,
            "workspace_error": context.workspace_error,
            "context_captured": context.context_captured,
        }
    )


def context_from_json(text: str | None) -> ContextSnapshot:
    try:
        data = json.loads(text or "{}")
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict):
        log.warning("Unreadable context column; using an empty snapshot")
        return ContextSnapshot()
    ids = data.get("attachment_ids")

    def string(key: str) -> str | None:
        value = data.get(key)
        return value if isinstance(value, str) else None

    return ContextSnapshot(
        attachment_ids=tuple(i for i in ids if isinstance(i, str)) if isinstance(ids, list) else (),
        workspace_file=string("workspace_file"),
        workspace_snapshot_id=string("workspace_snapshot_id"),
        workspace_error=string("workspace_error"),
        context_captured=bool(data.get("context_captured", False)),
    )


def usage_to_columns(usage: Usage | None) -> dict[str, int | None]:
    if usage is None:
        return {"input_tokens": None, "output_tokens": None, "reasoning_tokens": None}
    return {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "reasoning_tokens": usage.reasoning_tokens,
    }


def usage_from_columns(row: RowLike) -> Usage | None:
    return _usage(row["input_tokens"], row["output_tokens"], row["reasoning_tokens"])


def _usage(input_tokens: int | None, output: int | None, reasoning: int | None) -> Usage | None:
    if input_tokens is None and output is None and reasoning is None:
        return None
    return Usage(input_tokens or 0, output or 0, reasoning or 0)


def model_to_columns(model: ModelRef | None) -> dict[str, str | None]:
    if model is None:
        return {"provider_id": None, "model": None}
    return {"provider_id": model.provider_id, "model": model.model}


def _status(value: str) -> MessageStatus:
    try:
        return MessageStatus(value)
    except ValueError:
        # A status from a newer version: show the message as finished, don't crash.
        log.warning("Unknown message status %r read as complete", value)
        return MessageStatus.COMPLETE


# --- messages ---------------------------------------------------------------------


def message_to_row(message: Message) -> dict[str, Any]:
    """All columns of a `messages` row."""
    return {
        "id": message.id,
        "conversation_id": message.conversation_id,
        "parent_id": message.parent_id,
        "role": message.role.value,
        "created_at": to_epoch_ms(message.created_at),
        **message_update_values(message),
    }


def message_update_values(message: Message) -> dict[str, Any]:
    """The columns that change while a message streams (what `save_message` writes)."""
    return {
        "parts": parts_to_json(message.parts),
        "status": message.status.value,
        **model_to_columns(message.model),
        **usage_to_columns(message.usage),
        "first_token_ms": message.first_token_ms,
        "finished_at": _optional_ms(message.finished_at),
        "context": context_to_json(message.context),
        "search_text": message.text,
    }


def message_from_row(row: RowLike) -> Message:
    return MessageReader().read([row[name] for name in MESSAGE_COLUMNS])


# What a message is read from, in the order `MessageReader.read` takes the values: every
# column but `search_text`, a copy of the text that only the full-text index reads.
MESSAGE_COLUMNS = (
    "id",
    "conversation_id",
    "parent_id",
    "role",
    "parts",
    "status",
    "provider_id",
    "model",
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "first_token_ms",
    "created_at",
    "finished_at",
    "context",
)

_ROLES = {role.value: role for role in Role}
_STATUSES = {status.value: status for status in MessageStatus}


class MessageReader:
    """Turns the rows of one query into messages; values are taken by position.

    Opening a long chat reads thousands of rows at once, so the per-row cost is what
    the person waits for: enum values are looked up in a dict, and what most rows share
    (the context snapshot, usually empty, and the model) is decoded once per reader and
    the same frozen object is given to every message that has it.
    """

    def __init__(self) -> None:
        self._contexts: dict[str | None, ContextSnapshot] = {}
        self._models: dict[tuple[str, str], ModelRef] = {}

    def read(self, row: Sequence[Any]) -> Message:
        """`row` holds the `MESSAGE_COLUMNS`, in that order."""
        (
            message_id,
            conversation_id,
            parent_id,
            role,
            parts,
            status,
            provider_id,
            model,
            input_tokens,
            output_tokens,
            reasoning_tokens,
            first_token_ms,
            created_at,
            finished_at,
            context,
        ) = row
        return Message(
            id=message_id,
            conversation_id=conversation_id,
            parent_id=parent_id,
            role=_ROLES.get(role) or Role(role),
            parts=parts_from_json(parts),
            status=_STATUSES.get(status) or _status(status),
            model=self._model(provider_id, model),
            usage=_usage(input_tokens, output_tokens, reasoning_tokens),
            first_token_ms=first_token_ms,
            created_at=from_epoch_ms(created_at),
            finished_at=_optional_dt(finished_at),
            context=self._context(context),
        )

    def _model(self, provider_id: str | None, model: str | None) -> ModelRef | None:
        if provider_id is None or model is None:
            return None
        key = (provider_id, model)
        found = self._models.get(key)
        if found is None:
            found = self._models[key] = ModelRef(provider_id, model)
        return found

    def _context(self, text: str | None) -> ContextSnapshot:
        found = self._contexts.get(text)
        if found is None:
            found = self._contexts[text] = context_from_json(text)
        return found


# --- conversations ------------------------------------------------------------------


def conversation_to_row(conversation: Conversation) -> dict[str, Any]:
    summary = conversation.summary
    return {
        "id": conversation.id,
        "title": conversation.title,
        "assistant_id": conversation.assistant_id,
        "created_at": to_epoch_ms(conversation.created_at),
        "updated_at": to_epoch_ms(conversation.updated_at),
        "pinned": conversation.pinned,
        "archived": conversation.archived,
        "active_leaf_id": conversation.active_leaf_id,
        "summary_text": summary.text if summary else None,
        "summary_covered_ids": _dumps(list(summary.covered_ids)) if summary else None,
        "workspace": conversation.workspace,
        "workspace_file": conversation.workspace_file,
        "system_prompt": conversation.system_prompt,
        "pinned_message_ids": _dumps(list(conversation.pinned_message_ids))
        if conversation.pinned_message_ids
        else None,
    }


def _id_list(text: str | None) -> tuple[str, ...]:
    try:
        ids = json.loads(text or "[]")
    except json.JSONDecodeError:
        return ()
    return tuple(i for i in ids if isinstance(i, str)) if isinstance(ids, list) else ()


def _summary_from_columns(text: str | None, covered: str | None) -> RollingSummary | None:
    if text is None:
        return None
    try:
        ids = json.loads(covered or "[]")
    except json.JSONDecodeError:
        ids = []
    if not isinstance(ids, list):
        ids = []
    return RollingSummary(text, tuple(str(i) for i in ids))


def conversation_summary_from_row(row: Sequence[Any]) -> ConversationSummary:
    """`row` holds id, title, updated_at, pinned and the table's rowid, in that order:
    taken by position, which is cheaper than by name when listing 10,000 of them."""
    conversation_id, title, updated_at, pinned, sequence = row
    return ConversationSummary(
        conversation_id, title, from_epoch_ms(updated_at), bool(pinned), sequence
    )


def conversation_from_row(row: RowLike) -> Conversation:
    return Conversation(
        id=row["id"],
        title=row["title"],
        created_at=from_epoch_ms(row["created_at"]),
        updated_at=from_epoch_ms(row["updated_at"]),
        assistant_id=row["assistant_id"],
        pinned=bool(row["pinned"]),
        archived=bool(row["archived"]),
        active_leaf_id=row["active_leaf_id"],
        summary=_summary_from_columns(row["summary_text"], row["summary_covered_ids"]),
        workspace=row["workspace"],
        workspace_file=row["workspace_file"],
        system_prompt=row["system_prompt"],
        pinned_message_ids=_id_list(row["pinned_message_ids"]),
    )


# --- attachments ----------------------------------------------------------------------


def attachment_to_row(attachment: Attachment) -> dict[str, Any]:
    return {
        "id": attachment.id,
        "sha256": attachment.sha256,
        "name": attachment.name,
        "mime": attachment.mime,
        "size": attachment.size,
        "kind": attachment.kind.value,
        "created_at": to_epoch_ms(attachment.created_at),
        "text_chars": attachment.text_chars,
        "truncated": attachment.truncated,
        "width": attachment.width,
        "height": attachment.height,
    }


def attachment_from_row(row: RowLike) -> Attachment:
    return Attachment(
        id=row["id"],
        sha256=row["sha256"],
        name=row["name"],
        mime=row["mime"],
        size=row["size"],
        kind=AttachmentKind(row["kind"]),
        created_at=from_epoch_ms(row["created_at"]),
        text_chars=row["text_chars"],
        truncated=bool(row["truncated"]),
        width=row["width"],
        height=row["height"],
    )
