"""Turn the active branch of a conversation into a provider request."""

from __future__ import annotations

from collections.abc import Sequence

from desktop.core.models import Message, Role
from desktop.providers.base import ChatRequest, RequestMessage

# Sent, never stored, after a partial answer being continued. English on purpose: it
# is read by the model, not the person, and models follow English instructions best.
CONTINUE_PROMPT = (
    "Your previous answer was cut off. Continue it exactly where it stopped, "
    "mid-sentence or mid-word if need be. Do not repeat anything you already wrote, "
    "do not apologise and do not add a preamble."
)


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


def build_continue_request(path: Sequence[Message], model: str) -> ChatRequest:
    """The branch up to and including a partial answer, then a request-only nudge.

    A partial answer with no text yet has nothing to continue: the request is then the
    plain one for the question before it, so "continue" simply starts the answer.
    """
    if not path or path[-1].role is not Role.ASSISTANT:
        raise ValueError("a continue request must end with the partial answer")
    if not path[-1].text.strip():
        return build_request(path[:-1], model)
    nudge = RequestMessage(role=Role.USER, text=CONTINUE_PROMPT)
    return ChatRequest(model=model, messages=(*history_messages(path), nudge))
