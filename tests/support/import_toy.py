"""A tiny importer of a made-up client ("Toy Chat"), with the contract of
`desktop.engine.importers` (CLIENT, LABEL, detect, read), and a writer of its exports:
the import runner and the import window are tested on it without depending on any one
real client's format.

Export shape: one JSON file `{"toy_chat_export": 1, "chats": [{"id", "title",
"created", "images", "notes", "left_out", "messages": [{"id", "parent", "role", "text",
"call", "files"}]}]}`; a chat that is not an object with an id is skipped with a reason.
A message's `call` gives it a tool call card with that id; its `files` are
`{"member", "name", "call"}`: a file beside toy.json in the export folder, attached to
the message (or to its call's card).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from desktop.core.models import (
    CallState,
    Conversation,
    Message,
    MessageStatus,
    Part,
    Role,
    TextPart,
    ToolCallPart,
)
from desktop.engine.importers.files import ExportFiles
from desktop.engine.importers.model import ImportedConversation, ImportedFile, Skipped, derived_id

CLIENT = "toy"
LABEL = "Toy Chat"
_START = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)


def detect(files: ExportFiles) -> bool:
    name = files.find("toy.json")
    return name is not None and isinstance(files.json(name), dict)


def read(files: ExportFiles) -> Iterator[ImportedConversation | Skipped]:
    data = files.json(files.find("toy.json") or "toy.json")
    for position, chat in enumerate(data.get("chats", [])):
        if not isinstance(chat, dict) or not isinstance(chat.get("id"), str):
            yield Skipped(f"chat {position + 1}", "not a chat")
            continue
        yield _conversation(chat)


def _conversation(chat: dict[str, Any]) -> ImportedConversation:
    conversation_id = derived_id(CLIENT, "conversation", chat["id"])
    start = _START + timedelta(days=int(chat.get("created", 0)))
    messages: list[Message] = []
    files: list[ImportedFile] = []
    children: dict[str | None, int] = {}
    for position, item in enumerate(chat.get("messages", [])):
        parent = item.get("parent")
        children[parent] = children.get(parent, 0) + 1
        message_id = derived_id(CLIENT, "message", item["id"])
        parts: list[Part] = [TextPart(item.get("text", ""))]
        if item.get("call"):
            parts.append(ToolCallPart(item["call"], "draw", state=CallState.DONE, result=""))
        files += [
            ImportedFile(
                message_id,
                file["member"],
                file["member"],
                file.get("name") or file["member"].rpartition("/")[2],
                call_id=file.get("call"),
            )
            for file in item.get("files", [])
        ]
        messages.append(
            Message(
                id=message_id,
                conversation_id=conversation_id,
                parent_id=derived_id(CLIENT, "message", parent) if parent else None,
                role=Role.USER if item.get("role") == "user" else Role.ASSISTANT,
                parts=parts,
                status=MessageStatus.COMPLETE,
                created_at=start + timedelta(microseconds=position),
            )
        )
    return ImportedConversation(
        conversation=Conversation(
            id=conversation_id,
            title=chat.get("title", ""),
            created_at=start,
            updated_at=start + timedelta(microseconds=len(messages)),
            active_leaf_id=messages[-1].id if messages else None,
        ),
        messages=tuple(messages),
        branches=sum(1 for parent, n in children.items() if parent and n > 1),
        images=int(chat.get("images", 0)),
        notes=tuple(chat.get("notes", ())),
        files=tuple(files),
        files_left_out=int(chat.get("left_out", 0)),
    )


def chat(chat_id: str, title: str, turns: int, **extra: Any) -> dict[str, Any]:
    """A linear chat of `turns` question/answer pairs."""
    messages = []
    parent = None
    for turn in range(turns):
        for role in ("user", "assistant"):
            message_id = f"{chat_id}-{turn}-{role}"
            text = f"{title}: {role} {turn}"
            messages.append({"id": message_id, "parent": parent, "role": role, "text": text})
            parent = message_id
    return {"id": chat_id, "title": title, "messages": messages, **extra}


def write_export(folder: Path, chats: list[Any]) -> Path:
    """An export file holding `chats`; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "toy.json"
    path.write_text(json.dumps({"toy_chat_export": 1, "chats": chats}), encoding="utf-8")
    return path
