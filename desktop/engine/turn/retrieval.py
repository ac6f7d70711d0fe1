"""How an answer reaches the person's libraries, and the passages it is given when it
is given them up front (pre-retrieval: found once, as it starts).

`knowledge_path` picks the way: a model that can call tools searches on demand
(`knowledge_search`, see `search_ledger.py`) unless the assistant asks for
pre-retrieval; any other model is given the passages up front, unless the assistant
wants on-demand search only, and then the answer says it could not search.

For pre-retrieval:
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
from enum import Enum

from desktop.core.assistants import Assistant, RetrievalMode
from desktop.core.errors import ParleyError
from desktop.core.i18n import tr
from desktop.core.models import CitationPart, Message, NoticePart, Role, SourceKind
from desktop.engine.knowledge.context import citations_for, citations_of
from desktop.engine.tools.builtin.knowledge import KNOWLEDGE_SEARCH
from desktop.engine.tools.registry import Toolbox
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


class KnowledgePath(Enum):
    NONE = "none"  # no libraries (or Parley has no index): nothing to search
    BEFORE = "before"  # passages found before the request, in the system text
    ON_DEMAND = "on_demand"  # `knowledge_search` offered, first in the tools
    UNAVAILABLE = "unavailable"  # on demand only, and the model cannot call tools


def knowledge_path(
    assistant: Assistant, searchable: bool, offered: Toolbox | None
) -> KnowledgePath:
    """How this answer reaches the assistant's libraries. `searchable`: Parley has an
    index to search; `offered`: the tools the request may carry (None when the model
    cannot call tools), where the person may have turned `knowledge_search` off."""
    if not searchable or not assistant.libraries:
        return KnowledgePath.NONE
    if assistant.retrieval is RetrievalMode.PRE_RETRIEVE:
        return KnowledgePath.BEFORE
    if offered is not None and offered.get(KNOWLEDGE_SEARCH) is not None:
        return KnowledgePath.ON_DEMAND
    if assistant.retrieval is RetrievalMode.TOOL_ONLY:
        return KnowledgePath.UNAVAILABLE
    return KnowledgePath.BEFORE


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
    if resume:  # the passages it was given (not the pages or chats its tools found)
        given = citations_of(answer.parts)
        return Retrieved(tuple(c for c in given if c.kind is SourceKind.DOCUMENT))
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
    notice = words_only_notice(outcome.words_only_reason) if outcome.words_only_reason else None
    return Retrieved(tuple(citations_for(outcome.passages)), notice, new=True)


def words_only_notice(reason: str) -> NoticePart:
    return NoticePart(
        tr("Your documents were searched by words only: {reason}").format(reason=reason)
    )


def cannot_search_notice() -> NoticePart:
    return NoticePart(
        tr(
            "This model cannot call tools, and this assistant searches your documents only "
            "on demand, so this answer did not use them. Choose a model with tool calling, "
            "or let the assistant give the documents up front (Settings → Assistants)."
        )
    )
