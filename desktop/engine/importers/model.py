"""What an importer of another client's export gives Parley: conversations as Parley
messages, ready for `storage.transfer.import_conversation`, and what it left out.

Ids are derived from the source's own ids (`derived_id`), never random: importing the
same export twice adds nothing, and a newer export of the same account adds only what is
new (the storage import keeps what it already has). A branch in the source is a set of
sibling messages here; `Conversation.active_leaf_id` is the leaf the source showed.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime

from desktop.core.models import Conversation, Message

# Fixed for ever: it makes the ids of every imported conversation and message.
_NAMESPACE = uuid.UUID("6f1c0f7e-3b7a-5c9e-9a51-2f0d3c1e8a47")


def derived_id(client: str, kind: str, original: str) -> str:
    """The Parley id of the source's `kind` ("conversation", "message") `original`."""
    return uuid.uuid5(_NAMESPACE, f"{client}:{kind}:{original}").hex


def from_epoch(seconds: float | int | None) -> datetime | None:
    """Epoch seconds (ChatGPT's floats) as a UTC time; None for a missing or absurd one."""
    if seconds is None or isinstance(seconds, bool):
        return None
    try:
        return datetime.fromtimestamp(float(seconds), UTC)
    except (OverflowError, OSError, ValueError):
        return None


def from_iso(text: object) -> datetime | None:
    """An ISO 8601 time ("2024-05-01T10:00:00.123Z") as an aware time; None if unreadable."""
    if not isinstance(text, str) or not text:
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def json_text(value: object) -> str:
    """A value of the export as text for a tool card: a string as it is, anything else
    as JSON ("" for None, or for what cannot be written as JSON)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return ""


def tool_result_text(result: object) -> str | None:
    """A tool's result as text: an MCP result's text items joined, else `json_text`
    (None when there is no result)."""
    if result is None:
        return None
    if isinstance(result, dict) and isinstance(result.get("content"), list):
        texts = [
            item["text"]
            for item in result["content"]
            if isinstance(item, dict) and isinstance(item.get("text"), str)
        ]
        if texts:
            return "\n".join(texts)
    return json_text(result)


@dataclass(frozen=True, slots=True)
class Skipped:
    """Something of the export not imported, and why, for the preview: `where` names it
    as the person knows it (a chat's title, "message 12 of “Trip”")."""

    where: str
    reason: str


@dataclass(frozen=True, slots=True)
class ImportedFile:
    """A file of the export that belongs on one message: where its bytes are, never the
    bytes themselves (an export of thousands of images is read one file at a time, and
    only when it is imported).

    `member` is its name among the export's files (`ExportFiles.names`); `key` is the
    source's own id for it, unique within its message. `call_id` names the tool call
    whose card shows it (an image the model made); None puts it with the message's own
    files, as a file the person attached in Parley. `mime` is what the source said it
    is; the import goes by the content.
    """

    message_id: str
    key: str
    member: str
    name: str
    mime: str = ""
    call_id: str | None = None

    @property
    def attachment_id(self) -> str:
        """Its attachment row's id, the same on every import of the export."""
        return derived_id("import", "attachment", f"{self.message_id}/{self.key}")


@dataclass(frozen=True)
class ImportedConversation:
    """One conversation of the export. `messages` may come in any order (the storage
    import inserts parents first); every parent id is one of them or None."""

    conversation: Conversation
    messages: tuple[Message, ...]
    skipped: tuple[Skipped, ...] = ()
    branches: int = 0  # messages with more than one child (a regenerate, an edit)
    images: int = 0  # images the source showed; the export does not always hold them
    notes: tuple[str, ...] = field(default=())  # what the preview should say about it
    files: tuple[ImportedFile, ...] = ()  # images and files the export holds, to attach
    # Images and files shown in the source that the export lacks, or that Parley has no
    # place for: each leaves a notice on its message.
    files_left_out: int = 0
