"""The change records devices exchange, as plain JSON objects (design E3).

- `conversation`: its creation time, activity time (a max register) and one
  last-writer-wins register per field the person sets, `[value, stamp, device]`.
- `message`: a finished message as stored, with a stamp: the first copy of an id is
  inserted, a later change (an approval settled after it was sent) wins by stamp.
- `delete`: the exact ids deleted, each with the parent it was written under, so every
  device re-attaches a reply it did not name to the same surviving ancestor.
- `memory`: one row, last writer wins; `attachment`: one row, never changed.
- `removed`: a device taken out of the vault; its segments after `after` are ignored.

What stays on this device: the workspace folder and the path of a workspace file (only
its name is sent), the rolling summary (derived, checked again on every device) and the
memories' embeddings (made again by each device's own model).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from desktop.core.models import MessageStatus
from desktop.storage import mapping

CONVERSATION: Final = "conversation"
MESSAGE: Final = "message"
DELETE: Final = "delete"
MEMORY: Final = "memory"
ATTACHMENT: Final = "attachment"
REMOVED: Final = "removed"

# The conversation fields that sync, each a last-writer-wins register.
FIELDS: Final = (
    "title",
    "pinned",
    "archived",
    "assistant_id",
    "system_prompt",
    "pinned_message_ids",
    "active_leaf_id",
)
# Every column a message is read from but its id, conversation and parent (the record
# carries those apart), in `mapping.MessageReader.read`'s order.
MESSAGE_COLUMNS: Final = mapping.MESSAGE_COLUMNS[3:]
MEMORY_COLUMNS: Final = (
    "scope",
    "text",
    "created_at",
    "updated_at",
    "source_conversation_id",
    "source_message_id",
    "deleted_at",
    "restored_at",
)
ATTACHMENT_COLUMNS: Final = (
    "id",
    "sha256",
    "name",
    "mime",
    "size",
    "kind",
    "created_at",
    "text_chars",
    "truncated",
    "width",
    "height",
)
FINAL_STATUSES: Final = tuple(s.value for s in MessageStatus if s.is_final)


def canonical(value: Any) -> str:
    """One spelling per value, so equal values have equal digests everywhere."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def shared_context(context: str) -> str:
    """A message's context column as it leaves this device: a workspace file is named,
    not located (its folder says where the person keeps their work)."""
    try:
        data = json.loads(context or "{}")
    except json.JSONDecodeError:
        return "{}"
    if not isinstance(data, dict):
        return "{}"
    path = data.get("workspace_file")
    if isinstance(path, str) and path:
        data["workspace_file"] = path.replace("\\", "/").rsplit("/", 1)[-1]
    return canonical(data)


def attachment_ids(row: Mapping[str, Any]) -> list[str]:
    """The attachment ids a message row refers to (as `attachments.py`'s collector
    reads them): its context's files and workspace copy, and any part's files."""
    found: list[str] = []
    try:
        context = json.loads(row.get("context") or "{}")
        parts = json.loads(row.get("parts") or "[]")
    except json.JSONDecodeError:
        return found
    if isinstance(context, dict):
        found.extend(_strings(context.get("attachment_ids")))
        snapshot = context.get("workspace_snapshot_id")
        if isinstance(snapshot, str):
            found.append(snapshot)
    if isinstance(parts, list):
        for part in parts:
            if isinstance(part, dict):
                found.extend(_strings(part.get("attachment_ids")))
    return found


def _strings(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def children_first_order(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Message records with each parent before its children (they are applied in this
    order; a child whose parent comes later would wait for it)."""
    by_id = {record["id"]: record for record in records}
    placed: set[str] = set()
    ordered: list[dict[str, Any]] = []
    for record in sorted(records, key=lambda r: (r["row"]["created_at"], r["id"])):
        chain = []
        current: dict[str, Any] | None = record
        while current is not None and current["id"] not in placed:
            chain.append(current)
            placed.add(current["id"])
            parent = current.get("parent_id")
            current = by_id.get(parent) if parent else None
        ordered.extend(reversed(chain))
    return ordered
