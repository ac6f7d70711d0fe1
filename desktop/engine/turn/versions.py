"""Message versions: the tree arithmetic behind "‹ 2/3 ›" and the rules for each action.

Edits and regenerations are siblings under the same parent; nothing is overwritten.
These helpers are pure (they work on `ChatRepository.children_map` and on messages
already read), so the chat service stays a thin sequence of "check, save, generate".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from desktop.core.errors import ParleyError
from desktop.core.i18n import tr
from desktop.core.models import (
    ContextSnapshot,
    ErrorPart,
    Message,
    MessageStatus,
    ModelRef,
    Part,
    Role,
    TextPart,
    new_id,
)

# Answers that stopped early and can be carried on (`continue`). A failed one (`error`)
# is tried again as a new version (`retry`), and when it broke off after some text
# arrived (a dropped connection, a stall) it can also be continued: see `can_continue`.
CONTINUABLE = frozenset({MessageStatus.CANCELLED, MessageStatus.INTERRUPTED})


def can_continue(message: Message) -> bool:
    """A stopped or interrupted answer, or a failed one with text to carry on."""
    if message.role is not Role.ASSISTANT:
        return False
    if message.status in CONTINUABLE:
        return True
    return message.status is MessageStatus.ERROR and bool(message.text.strip())


class VersionError(ParleyError):
    """The action does not apply to this message (its role or status rules it out)."""


class CannotContinueError(VersionError):
    """Only a stopped or interrupted answer can be continued."""


def user_message(
    conversation_id: str, parent_id: str | None, text: str, context: ContextSnapshot
) -> Message:
    """A new node for the person's words: a first send, a follow-up or an edit."""
    return Message(
        id=new_id(),
        conversation_id=conversation_id,
        parent_id=parent_id,
        role=Role.USER,
        parts=[TextPart(text)],
        context=context,
    )


def placeholder(conversation_id: str, parent_id: str, model: ModelRef) -> Message:
    """A new, empty `streaming` answer: saved before the request, so a crash shows it."""
    return Message(
        id=new_id(),
        conversation_id=conversation_id,
        parent_id=parent_id,
        role=Role.ASSISTANT,
        status=MessageStatus.STREAMING,
        model=model,
    )


def version_info(children: Mapping[str | None, Sequence[str]]) -> dict[str, tuple[int, int]]:
    """(1-based position among its siblings in creation order, number of siblings).

    Root messages are siblings of each other (an edit of the first message is a new
    root). O(n) over one `children_map`, so labelling a long chat stays cheap.
    """
    info: dict[str, tuple[int, int]] = {}
    for siblings in children.values():
        count = len(siblings)
        for index, message_id in enumerate(siblings, start=1):
            info[message_id] = (index, count)
    return info


def version_groups(
    children: Mapping[str | None, Sequence[str]], tip: str | None
) -> dict[str | None, list[str]]:
    """What labelling a branch needs of its children map: the parents with several
    children (every other node is "1/1") and the tip's, under which new nodes arrive.

    A long chat is mostly single children: this keeps a handful of lists, not one per
    message, alive while it is shown.
    """
    groups = {parent: list(ids) for parent, ids in children.items() if len(ids) > 1}
    groups.setdefault(tip, list(children.get(tip, ())))
    return groups


def version_of(
    children: Mapping[str | None, Sequence[str]], message_id: str, parent_id: str | None
) -> tuple[int, int]:
    """One message's entry of `version_info`, looked up when needed; (1, 1) for a node
    the map does not hold."""
    siblings = children.get(parent_id, ())
    if len(siblings) <= 1 or message_id not in siblings:
        return (1, 1)
    return (siblings.index(message_id) + 1, len(siblings))


def sibling_step(siblings: Sequence[str], message_id: str, step: int) -> str | None:
    """The sibling `step` places away, clamped to the ends; None when that is no move."""
    if message_id not in siblings:
        return None
    index = siblings.index(message_id)
    target = min(max(index + step, 0), len(siblings) - 1)
    return None if target == index else siblings[target]


def answer_parent(message: Message, parent: Message | None) -> Message:
    """The user message a regenerated answer hangs under.

    For an answer that is its parent; for a user message it is the message itself
    (its answer is generated again as a new child).
    """
    if message.role is Role.USER:
        return message
    if message.role is Role.ASSISTANT and parent is not None and parent.role is Role.USER:
        return parent
    raise VersionError(tr("Only answers and your own messages can be regenerated."))


def regenerate_model(message: Message, answers: Iterable[Message]) -> ModelRef:
    """The model to use when the caller names none: the regenerated answer's own, or
    for a user message the model of its newest answer."""
    if message.role is Role.ASSISTANT and message.model is not None:
        return message.model
    models = [m.model for m in answers if m.role is Role.ASSISTANT and m.model is not None]
    if models:
        return models[-1]
    raise VersionError(tr("Choose a model to answer with."))


def check_editable(message: Message) -> None:
    if message.role is not Role.USER:
        raise VersionError(tr("Only your own messages can be edited."))


def check_continuable(message: Message) -> ModelRef:
    """The model to continue with; raises CannotContinueError with the reason."""
    if message.role is not Role.ASSISTANT:
        raise CannotContinueError(tr("Only an answer can be continued."))
    if not can_continue(message):
        raise CannotContinueError(
            tr(
                "Only a stopped, interrupted or broken-off answer can be continued; "
                "this one is {status}."
            ).format(status=message.status.value)
        )
    if message.model is None:
        raise CannotContinueError(tr("This answer does not say which model wrote it."))
    return message.model


def reopened(message: Message) -> Message:
    """The answer as it is while being continued: streaming, earlier text kept.

    Error parts are dropped: they described an earlier attempt, not the answer.
    """
    parts: list[Part] = [p for p in message.parts if not isinstance(p, ErrorPart)]
    return replace(message, parts=parts, status=MessageStatus.STREAMING, finished_at=None)
