"""Conversations written straight into a Parley's repository, as a past session left
them: the chats a test opens without sending anything."""

from __future__ import annotations

from desktop.core.models import Message, ModelRef, Role, TextPart, new_id

MODEL = ModelRef("local", "test-model")


def seed_chat(parley, count: int = 10) -> tuple[str, list[str]]:
    """A conversation of `count` short messages, written as a past session left it."""
    repo = parley.repository
    conversation = repo.create_conversation("Planning")
    parent: str | None = None
    ids: list[str] = []
    for index in range(count):
        role = Role.USER if index % 2 == 0 else Role.ASSISTANT
        message = Message(
            f"m{index}",
            conversation.id,
            parent,
            role,
            [TextPart(f"Message number {index}")],
            model=MODEL if role is Role.ASSISTANT else None,
        )
        parent = repo.add_message(message).id
        ids.append(parent)
    return conversation.id, ids


def chat_with(repo, *messages: tuple[Role, list[object]]) -> tuple[str, list[Message]]:
    """A conversation of `messages` (role, parts), each answering the one before: its id
    and the stored messages."""
    conversation = repo.create_conversation("Long text").id
    saved: list[Message] = []
    for role, parts in messages:
        parent = saved[-1].id if saved else None
        model = ModelRef("local", "test-model") if role is Role.ASSISTANT else None
        message = Message(new_id(), conversation, parent, role, parts, model=model)
        saved.append(repo.add_message(message))
    return conversation, saved
