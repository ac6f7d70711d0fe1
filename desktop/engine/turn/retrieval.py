"""The passages of the person's libraries an answer is given, found once as it starts.

The query is the person's latest message as they wrote it (its text parts; files and
earlier turns are not searched for). A continued answer is given the passages it was
given before, from its citation parts, so its numbers keep pointing at the same
sources. A search by words only (no embedding model, or the embedder failed) says so
on the answer; a search that fails altogether says so and the answer goes on without
passages: the documents help an answer, they never stop one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from desktop.core.assistants import Assistant
from desktop.core.errors import ParleyError
from desktop.core.i18n import tr
from desktop.core.models import CitationPart, Message, NoticePart, Role
from desktop.engine.knowledge.context import citations_for, citations_of
from desktop.engine.turn.ports import KnowledgeRetriever

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Retrieved:
    citations: tuple[CitationPart, ...] = ()
    notice: NoticePart | None = None
    new: bool = False  # found now (to be added to the answer), not kept from before


def latest_question(window: Sequence[Message]) -> str:
    for message in reversed(window):
        if message.role is Role.USER:
            return message.text.strip()
    return ""


def wants_knowledge(assistant: Assistant, knowledge: KnowledgeRetriever | None) -> bool:
    return knowledge is not None and bool(assistant.libraries)


async def retrieve(
    assistant: Assistant,
    window: Sequence[Message],
    knowledge: KnowledgeRetriever | None,
    answer: Message,
    *,
    resume: bool,
) -> Retrieved:
    """What the answer is given from the assistant's libraries (nothing when it has
    none, or nothing was asked)."""
    if resume:
        return Retrieved(citations_of(answer.parts))
    if knowledge is None or not assistant.libraries:
        return Retrieved()
    query = latest_question(window)
    if not query:
        return Retrieved()
    started = time.monotonic()
    try:
        outcome = await knowledge.retrieve(assistant.libraries, query)
    except ParleyError as error:
        log.warning("knowledge search failed: %s", type(error).__name__)
        text = tr("Your documents could not be searched: {reason}").format(reason=error)
        return Retrieved(notice=NoticePart(text))
    log.info(
        "knowledge search: %d passages in %d ms%s",
        len(outcome.passages),
        round((time.monotonic() - started) * 1000),
        " (words only)" if outcome.words_only_reason else "",
    )
    notice = None
    if outcome.words_only_reason:
        notice = NoticePart(
            tr("Your documents were searched by words only: {reason}").format(
                reason=outcome.words_only_reason
            )
        )
    return Retrieved(tuple(citations_for(outcome.passages)), notice, new=True)
