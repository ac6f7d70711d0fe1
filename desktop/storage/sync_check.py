"""Whether a received change record is well formed, before anything of it is applied.

A record comes from another device through the storage. Its encryption says a vault
member wrote it, not that the member runs a sound Parley: a bug, a newer or a hostile
client could send a message without a role, a stamp in the year 30000, or an attached
file whose "hash" is a path. One such record must neither stop sync for good (every
later sync would meet it again) nor reach the database, the clock or the file system,
so each is checked here by type and range, and one that fails is passed over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from desktop.core import hlc
from desktop.core.attachments import AttachmentKind
from desktop.core.models import Role
from desktop.storage import sync_records as rec

# A computer whose clock is wrong by days must still sync (its changes then win or lose
# by that clock), but a stamp past the year 3000 is no clock at all: ticking on from it
# would leave SQLite's integers.
_LATEST: Final = hlc.pack(32_503_680_000_000)
_MAX_INT: Final = 2**53  # beyond any time or count, and far inside SQLite's integers
_MAX_ID: Final = 200
SAFE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")  # names a folder of the file store
SHA256: Final = re.compile(r"[0-9a-f]{64}")
_ROLES: Final = frozenset(role.value for role in Role)
_KINDS: Final = frozenset(kind.value for kind in AttachmentKind)

Check = Callable[[Any], bool]


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _MAX_INT


def _optional_int(value: Any) -> bool:
    return value is None or _int(value)


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _optional_text(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _id(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= _MAX_ID


def _optional_id(value: Any) -> bool:
    return value is None or _id(value)


def _flag(value: Any) -> bool:
    return isinstance(value, bool) or value in (0, 1)


def _ids(value: Any) -> bool:
    return isinstance(value, list) and all(_id(item) for item in value)


_FIELD_CHECKS: Final[Mapping[str, Check]] = {
    "title": _text,
    "pinned": _flag,
    "archived": _flag,
    "assistant_id": _optional_text,
    "system_prompt": _optional_text,
    "pinned_message_ids": _ids,
    "active_leaf_id": _optional_id,
}
_MESSAGE_CHECKS: Final[Mapping[str, Check]] = {
    "role": lambda v: v in _ROLES,
    "parts": _text,
    "status": lambda v: v in rec.FINAL_STATUSES,
    "provider_id": _optional_text,
    "model": _optional_text,
    "input_tokens": _optional_int,
    "output_tokens": _optional_int,
    "reasoning_tokens": _optional_int,
    "first_token_ms": _optional_int,
    "created_at": _int,
    "finished_at": _optional_int,
    "context": _text,
}
_MEMORY_CHECKS: Final[Mapping[str, Check]] = {
    "scope": _text,
    "text": _text,
    "created_at": _int,
    "updated_at": _int,
    "source_conversation_id": _optional_text,
    "source_message_id": _optional_text,
    "deleted_at": _optional_int,
    "restored_at": _optional_int,
}
_ATTACHMENT_CHECKS: Final[Mapping[str, Check]] = {
    "id": lambda v: isinstance(v, str) and SAFE_ID.fullmatch(v) is not None,
    "sha256": lambda v: isinstance(v, str) and SHA256.fullmatch(v) is not None,
    "name": _text,
    "mime": _text,
    "size": _int,
    "kind": lambda v: v in _KINDS,
    "created_at": _int,
    "text_chars": _optional_int,
    "truncated": _flag,
    "width": _optional_int,
    "height": _optional_int,
}


def well_formed(record: Any) -> bool:
    """Whether `record` can be applied: the right keys, with values of the right types
    and in range."""
    if not isinstance(record, dict):
        return False

    def stamp(value: Any) -> bool:  # milliseconds above a counter: past 2**53, below 2**63
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _LATEST

    kind = record.get("t")
    if kind == rec.CONVERSATION:
        fields, activity = record.get("fields"), record.get("updated_at")
        return (
            _id(record.get("id"))
            and _int(record.get("created_at"))
            and _register(activity, _int, stamp)
            and isinstance(fields, dict)
            and all(
                name not in _FIELD_CHECKS or _register(value, _FIELD_CHECKS[name], stamp)
                for name, value in fields.items()
            )
        )
    if kind == rec.MESSAGE:
        return (
            _id(record.get("id"))
            and _id(record.get("conversation_id"))
            and _optional_id(record.get("parent_id"))
            and _row(record.get("row"), _MESSAGE_CHECKS)
            and stamp(record.get("stamp"))
            and _text(record.get("device"))
        )
    if kind == rec.DELETE:
        named = record.get("messages")
        return (
            record.get("kind") in ("conversation", "message")
            and _id(record.get("conversation_id"))
            and isinstance(named, dict)
            and all(_id(key) and _optional_id(value) for key, value in named.items())
        )
    if kind == rec.MEMORY:
        return (
            _id(record.get("id"))
            and _row(record.get("row"), _MEMORY_CHECKS)
            and stamp(record.get("stamp"))
            and _text(record.get("device"))
        )
    if kind == rec.ATTACHMENT:
        return _row(record.get("row"), _ATTACHMENT_CHECKS)
    if kind == rec.REMOVED:
        return _id(record.get("device")) and _int(record.get("after"))
    return isinstance(kind, str)  # a kind from a newer Parley: passed over when applied


def _register(value: Any, check: Check, stamp: Check) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3  # noqa: PLR2004 (value, stamp, device)
        and check(value[0])
        and stamp(value[1])
        and _text(value[2])
    )


def _row(row: Any, checks: Mapping[str, Check]) -> bool:
    return isinstance(row, dict) and all(check(row.get(name)) for name, check in checks.items())
