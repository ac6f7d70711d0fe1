"""What the chat view shows for one message: plain data, already rendered to HTML."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from PySide6.QtCore import QCoreApplication, QLocale, QTime

from desktop.core.i18n import tr  # lupdate files a count's plural only from tr()
from desktop.core.models import (
    ErrorPart,
    Message,
    MessageStatus,
    NoticePart,
    ReasoningPart,
    RetryWait,
)
from desktop.render.citations import cited_in_html
from desktop.render.guard import MAX_SHOWN_CHARS as MAX_SHOWN_CHARS  # what views lay out
from desktop.ui.viewmodels.citation_card import CitationCard
from desktop.ui.viewmodels.tool_card import ToolCard


@dataclass(frozen=True, slots=True)
class Notice:
    """A line under the answer; `detail` is text the person can open from it."""

    text: str
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class TextSegment:
    """A run of an answer's text between tool calls: its HTML, or what renders it."""

    html_source: str | Callable[[], str]

    @property
    def html(self) -> str:
        source = self.html_source
        return source if isinstance(source, str) else source()


@dataclass(frozen=True, slots=True)
class ToolSegment:
    """Tool calls made one after another: `MessageItem.tools[start:stop]`."""

    start: int
    stop: int


Segment = TextSegment | ToolSegment


@dataclass(frozen=True)
class MessageItem:
    """One message as the transcript shows it.

    `html_source` is the rendered HTML, or a function that renders it: a long chat opens
    with thousands of items, and only the few the transcript lays out are ever rendered.
    """

    id: str
    is_user: bool
    markdown: str  # the source, for "copy"
    html_source: str | Callable[[], str]
    reasoning_source: str | Callable[[], str]  # its HTML, or what renders it when opened
    reasoning_label: str
    reasoning_live: bool  # still thinking: the section is open and streams
    notices: tuple[Notice, ...]
    error: str
    status_label: str
    meta: str
    streaming: bool
    version_index: int = 1  # 1-based position among the sibling versions
    version_count: int = 1
    can_continue: bool = False  # stopped, interrupted or broken off: it can be continued
    can_retry: bool = False  # failed: a new attempt can be made
    tools: tuple[ToolCard, ...] = ()  # the tool calls, as cards
    awaiting_approval: bool = False  # tool calls wait for the person
    cut_note: str = ""  # the text is too long to show all of it: says how much is shown
    sources: tuple[CitationCard, ...] = ()  # every source the answer was given, by number
    # An answer that called tools, in the order it was written: its text between the
    # calls and the calls themselves. Empty for every other message (one text: `html`).
    segments: tuple[Segment, ...] = ()

    @cached_property
    def html(self) -> str:
        if self.segments:
            return "\n".join(s.html for s in self.segments if isinstance(s, TextSegment))
        source = self.html_source
        return source if isinstance(source, str) else source()

    @cached_property
    def reasoning_html(self) -> str:
        source = self.reasoning_source
        return source if isinstance(source, str) else source()

    @cached_property
    def citations(self) -> tuple[CitationCard, ...]:
        """The cards under the answer: the sources its text cites, in the order it first
        cites them, each once. Read from the citation links in `html`, so they follow the
        same rules as the links (none in code, none for an unknown number), a streaming
        answer gets a card once a complete ``[n]`` is in, and a reopened chat shows the
        same cards."""
        if not self.sources:
            return ()
        by_number = {card.number: card for card in self.sources}
        return tuple(by_number[n] for n in cited_in_html(self.html) if n in by_number)

    def source(self, number: int) -> CitationCard | None:
        """The source numbered `number` (what a ``[n]`` link in the text opens)."""
        return next((card for card in self.sources if card.number == number), None)


def reasoning_label(message: Message) -> str:
    # An empty part only carries a provider's signature: nothing to show.
    parts = [p for p in message.parts if isinstance(p, ReasoningPart) and p.text]
    if not parts:
        return ""
    if any(p.duration_ms is None for p in parts):
        return QCoreApplication.translate("MessageItem", "Thinking…")
    seconds = max(1, round(sum(p.duration_ms or 0 for p in parts) / 1000))
    return QCoreApplication.translate("MessageItem", "Thought for %n s").replace("%n", str(seconds))


_UNLABELLED = frozenset({MessageStatus.COMPLETE, MessageStatus.STREAMING, MessageStatus.ERROR})


def retry_label(wait: RetryWait) -> str:
    """E.g. "Rate limited — retrying in 4 s (try 2 of 3)"."""
    if wait.seconds_left > 0:
        text = QCoreApplication.translate(
            "MessageItem", "%1 — retrying in %2 s (try %3 of %4)"
        ).replace("%2", str(wait.seconds_left))
    else:
        text = QCoreApplication.translate("MessageItem", "%1 — trying again (try %3 of %4)")
    return (
        text.replace("%3", str(wait.attempt))
        .replace("%4", str(wait.max_attempts))
        .replace("%1", wait.reason)
    )


def status_label(
    status: MessageStatus, retry: RetryWait | None = None, activity: str | None = None
) -> str:
    if retry is not None:
        return retry_label(retry)
    if activity:
        return activity
    if status in _UNLABELLED:
        return ""  # most messages: no translation lookups for them
    return {
        MessageStatus.CANCELLED: QCoreApplication.translate("MessageItem", "Stopped"),
        MessageStatus.INTERRUPTED: QCoreApplication.translate(
            "MessageItem", "Interrupted — Parley closed before the answer finished"
        ),
        MessageStatus.AWAITING_APPROVAL: QCoreApplication.translate(
            "MessageItem", "Waiting for your approval"
        ),
    }.get(status, "")


def meta_line(message: Message, cost: str = "") -> str:
    """A compact footer: model · time · tokens · cost · first-token latency."""
    bits: list[str] = []
    if message.model is not None:
        bits.append(message.model.model)
    local = message.created_at.astimezone()
    time = QTime(local.hour, local.minute, local.second, local.microsecond // 1000)
    bits.append(QLocale().toString(time, QLocale.FormatType.ShortFormat))
    if message.usage is not None and message.usage.output_tokens:
        bits.append(tr("%Ln token(s)", "", message.usage.output_tokens))
    if cost:
        bits.append(cost)
    if message.first_token_ms is not None:
        bits.append(
            QCoreApplication.translate("MessageItem", "first token %n ms").replace(
                "%n", str(message.first_token_ms)
            )
        )
    return " · ".join(bits)


def reasoning_text(message: Message) -> str:
    return "\n\n".join(p.text for p in message.parts if isinstance(p, ReasoningPart) and p.text)


def is_reasoning_live(message: Message) -> bool:
    return message.status is MessageStatus.STREAMING and any(
        isinstance(p, ReasoningPart) and p.duration_ms is None for p in message.parts
    )


def error_text(message: Message) -> str:
    """The error on the message, and why it is not saved (if it is not)."""
    error = message.error
    lines = [error.message] if isinstance(error, ErrorPart) else []
    if message.save_error:
        lines.append(message.save_error)
    return "\n".join(lines)


def notices(message: Message) -> tuple[Notice, ...]:
    return tuple(Notice(p.text, p.detail) for p in message.parts if isinstance(p, NoticePart))
