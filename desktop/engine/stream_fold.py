"""Fold provider stream events into message parts: `fold(draft, event, now) -> draft`.

Pure: the same events at the same times always give the same draft, so it is tested
without a network and replayed identically on every provider. The open (still growing)
segment is a persistent linked list of chunks, so each event costs O(1) however long
the answer grows; `parts()` joins it when the UI or the database needs the text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from desktop.core.events import Finished, ReasoningDelta, StreamEvent, TextDelta, UsageReport
from desktop.core.models import Part, ReasoningPart, TextPart, Usage

# A cons list of chunks, newest first: (chunk, rest) or None.
Chunks = tuple[str, "Chunks"] | None
SegmentKind = Literal["text", "reasoning"]


def _join(chunks: Chunks) -> str:
    pieces: list[str] = []
    while chunks is not None:
        pieces.append(chunks[0])
        chunks = chunks[1]
    return "".join(reversed(pieces))


@dataclass(frozen=True, slots=True)
class Draft:
    """An answer under construction.

    `closed` holds finished parts; the open segment is the text or reasoning still
    growing. Times are monotonic seconds supplied by the caller.
    """

    closed: tuple[Part, ...] = ()
    open_kind: SegmentKind | None = None
    open_chunks: Chunks = None
    open_since: float | None = None
    usage: Usage | None = None
    finish_reason: str | None = None
    first_token_at: float | None = None

    @property
    def has_content(self) -> bool:
        return bool(self.closed) or self.open_chunks is not None

    def parts(self) -> list[Part]:
        """All parts in order; an open reasoning part has `duration_ms=None`."""
        parts = list(self.closed)
        if self.open_kind == "text":
            parts.append(TextPart(_join(self.open_chunks)))
        elif self.open_kind == "reasoning":
            parts.append(ReasoningPart(_join(self.open_chunks)))
        return parts


def close_open(draft: Draft, now: float) -> Draft:
    """Close the growing segment; reasoning gets its duration."""
    if draft.open_kind is None:
        return draft
    text = _join(draft.open_chunks)
    part: Part
    if draft.open_kind == "reasoning":
        since = draft.open_since if draft.open_since is not None else now
        part = ReasoningPart(text, duration_ms=round((now - since) * 1000))
    else:
        part = TextPart(text)
    return replace(
        draft, closed=(*draft.closed, part), open_kind=None, open_chunks=None, open_since=None
    )


def _append(draft: Draft, kind: SegmentKind, text: str, now: float) -> Draft:
    if not text:
        return draft
    if draft.open_kind != kind:
        draft = close_open(draft, now)
        draft = replace(draft, open_kind=kind, open_since=now)
    return replace(
        draft,
        open_chunks=(text, draft.open_chunks),
        first_token_at=draft.first_token_at if draft.first_token_at is not None else now,
    )


def fold(draft: Draft, event: StreamEvent, now: float) -> Draft:
    match event:
        case TextDelta(text=text):
            return _append(draft, "text", text, now)
        case ReasoningDelta(text=text):
            return _append(draft, "reasoning", text, now)
        case UsageReport(usage=usage):
            return replace(draft, usage=usage)
        case Finished(reason=reason):
            return replace(draft, finish_reason=reason)
    raise TypeError(f"not a stream event: {event!r}")
