"""Turn the active branch of a conversation into a provider request."""

from __future__ import annotations

from collections.abc import Sequence

from desktop.core.models import Message, Role
from desktop.providers.base import ChatRequest, RequestMessage


def history_messages(path: Sequence[Message]) -> tuple[RequestMessage, ...]:
    """The branch as the model should see it.

    Messages with nothing to say (an error with no text, a stopped answer that never
    started) are left out: sending an empty assistant turn confuses most models.
    """
    messages: list[RequestMessage] = []
    for message in path:
        text = message.text
        if not text.strip():
            continue
        messages.append(RequestMessage(role=message.role, text=text))
    return tuple(messages)


def build_request(path: Sequence[Message], model: str) -> ChatRequest:
    if not path or path[-1].role is not Role.USER:
        raise ValueError("a request must end with the person's message")
    return ChatRequest(model=model, messages=history_messages(path))
