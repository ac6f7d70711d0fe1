"""Fold provider stream events into message parts: `fold(draft, event, now) -> draft`.

Pure: the same events at the same times always give the same draft, so it is tested
without a network and replayed identically on every provider. The open (still growing)
segment is a persistent linked list of chunks, so each event costs O(1) however long
the answer grows; `parts()` joins it when the UI or the database needs the text.

Segments are text, reasoning or one tool call. Parts keep the order the stream gave
them: text written before a call stays before it. A tool call's pieces share the wire's
`index` within one model step (a `Finished` ends the step, so the next step's index 0
is a new call); the usual stream sends one call after the other and each piece is O(1).
A piece for a call that is no longer the open segment (a wire interleaving two calls)
updates that call where it stands, which costs O(parts) but keeps it in its place.

`Folding` is what the engine feeds while an answer streams: a run of text (or
reasoning) deltas costs a list append each, and is folded as one delta when the draft
is next read (a UI update, a save), not once per chunk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
    Retrying,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.models import Part, ReasoningPart, TextPart, ToolCallPart, Usage

# A cons list of chunks, newest first: (chunk, rest) or None.
Chunks = tuple[str, "Chunks"] | None
SegmentKind = Literal["text", "reasoning", "tool"]


def _join(chunks: Chunks) -> str:
    pieces: list[str] = []
    while chunks is not None:
        pieces.append(chunks[0])
        chunks = chunks[1]
    return "".join(reversed(pieces))


@dataclass(frozen=True, slots=True)
class CallHead:
    """What is known of the tool call being streamed, besides its arguments.

    `number` counts the calls of the whole answer (all steps), so an id made up for a
    call whose wire gave none is unique within the message.
    """

    index: int
    number: int
    call_id: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Draft:
    """An answer under construction.

    `closed` holds finished parts; the open segment is the text, reasoning or tool call
    still growing. Times are monotonic seconds supplied by the caller. `retrying` is
    the provider's latest `Retrying` while it waits to send the request again: a
    status, not content, dropped by the next event of the new attempt.
    `call_id_prefix` makes ids for calls that arrive without one (Gemini, Ollama):
    give each answer its own, so ids stay unique across a conversation.
    """

    closed: tuple[Part, ...] = ()
    open_kind: SegmentKind | None = None
    open_chunks: Chunks = None
    open_since: float | None = None
    open_signature: str | None = None  # for an open reasoning segment
    open_call: CallHead | None = None  # for an open tool segment
    # (wire index, position in `closed`) of this step's calls that are no longer open.
    step_calls: tuple[tuple[int, int], ...] = ()
    # Where in `closed` the model step being streamed began: its signature is its own.
    step_start: int = 0
    call_count: int = 0
    call_id_prefix: str = "call"
    usage: Usage | None = None
    finish_reason: str | None = None
    first_token_at: float | None = None
    retrying: Retrying | None = None

    @property
    def has_content(self) -> bool:
        return bool(self.closed) or self.open_kind is not None

    def parts(self) -> list[Part]:
        """All parts in order; an open reasoning part has `duration_ms=None`."""
        parts = list(self.closed)
        if self.open_kind == "text":
            parts.append(TextPart(_join(self.open_chunks)))
        elif self.open_kind == "reasoning":
            parts.append(ReasoningPart(_join(self.open_chunks), signature=self.open_signature))
        elif self.open_kind == "tool" and self.open_call is not None:
            parts.append(_call_part(self, self.open_call, _join(self.open_chunks)))
        return parts

    def tool_calls(self) -> list[ToolCallPart]:
        return [p for p in self.parts() if isinstance(p, ToolCallPart)]


def _call_part(draft: Draft, head: CallHead, arguments: str) -> ToolCallPart:
    call_id = head.call_id or f"{draft.call_id_prefix}_{head.number}"
    return ToolCallPart(call_id=call_id, name=head.name or "", arguments=arguments)


def close_open(draft: Draft, now: float) -> Draft:
    """Close the growing segment; reasoning gets its duration."""
    if draft.open_kind is None:
        return draft
    text = _join(draft.open_chunks)
    part: Part
    step_calls = draft.step_calls
    if draft.open_kind == "reasoning":
        since = draft.open_since if draft.open_since is not None else now
        duration = round((now - since) * 1000)
        part = ReasoningPart(text, duration_ms=duration, signature=draft.open_signature)
    elif draft.open_kind == "tool" and draft.open_call is not None:
        part = _call_part(draft, draft.open_call, text)
        step_calls = (*step_calls, (draft.open_call.index, len(draft.closed)))
    else:
        part = TextPart(text)
    return replace(
        draft,
        closed=(*draft.closed, part),
        open_kind=None,
        open_chunks=None,
        open_since=None,
        open_signature=None,
        open_call=None,
        step_calls=step_calls,
    )


def _first_token(draft: Draft, now: float) -> float:
    return draft.first_token_at if draft.first_token_at is not None else now


def _append(draft: Draft, kind: SegmentKind, text: str, now: float) -> Draft:
    if not text:
        return draft
    if draft.open_kind != kind:
        draft = close_open(draft, now)
        draft = replace(draft, open_kind=kind, open_since=now)
    return replace(
        draft, open_chunks=(text, draft.open_chunks), first_token_at=_first_token(draft, now)
    )


def _tool_piece(draft: Draft, piece: ToolCallDelta, now: float) -> Draft:
    head = draft.open_call
    if draft.open_kind == "tool" and head is not None and head.index == piece.index:
        if (piece.call_id and not head.call_id) or (piece.name and not head.name):
            head = replace(
                head, call_id=head.call_id or piece.call_id, name=head.name or piece.name
            )
        chunks = (piece.arguments, draft.open_chunks) if piece.arguments else draft.open_chunks
        return replace(draft, open_call=head, open_chunks=chunks)
    position = next((at for index, at in draft.step_calls if index == piece.index), None)
    if position is not None:
        return _grow_closed_call(draft, position, piece)
    draft = close_open(draft, now)
    head = CallHead(piece.index, draft.call_count, piece.call_id or None, piece.name or None)
    return replace(
        draft,
        open_kind="tool",
        open_call=head,
        open_chunks=(piece.arguments, None) if piece.arguments else None,
        open_since=now,
        call_count=draft.call_count + 1,
        first_token_at=_first_token(draft, now),
    )


def _grow_closed_call(draft: Draft, position: int, piece: ToolCallDelta) -> Draft:
    call = draft.closed[position]
    assert isinstance(call, ToolCallPart)
    grown = replace(
        call,
        name=call.name or piece.name or "",
        arguments=call.arguments + piece.arguments,
    )
    closed = (*draft.closed[:position], grown, *draft.closed[position + 1 :])
    return replace(draft, closed=closed)


def _sign(draft: Draft, signature: str) -> Draft:
    """The signature belongs to the model step being streamed, never to an earlier one
    (each step of a tool-using answer goes back with its own): it goes on the step's
    reasoning, the open segment or else its latest reasoning part. A wire may sign a
    step that showed no reasoning (Gemini signs its function calls even with thoughts
    hidden, or sends the signature last, on a part of its own): an empty reasoning part
    at the start of the step keeps it, so the step's text and calls stay together."""
    if draft.open_kind == "reasoning":
        return replace(draft, open_signature=signature)
    start = min(draft.step_start, len(draft.closed))
    for position in range(len(draft.closed) - 1, start - 1, -1):
        part = draft.closed[position]
        if isinstance(part, ReasoningPart):
            signed = replace(part, signature=signature)
            closed = (*draft.closed[:position], signed, *draft.closed[position + 1 :])
            return replace(draft, closed=closed)
    # Inserted without closing the open segment (a call may still be growing); the
    # step's calls already closed move one place on.
    closed = (*draft.closed[:start], ReasoningPart("", 0, signature), *draft.closed[start:])
    step_calls = tuple((index, at + 1 if at >= start else at) for index, at in draft.step_calls)
    return replace(draft, closed=closed, step_calls=step_calls)


def fold(draft: Draft, event: StreamEvent, now: float) -> Draft:
    if draft.retrying is not None and not isinstance(event, Retrying):
        draft = replace(draft, retrying=None)  # the new attempt is answering
    match event:
        case TextDelta(text=text):
            return _append(draft, "text", text, now)
        case ReasoningDelta(text=text):
            return _append(draft, "reasoning", text, now)
        case ToolCallDelta():
            return _tool_piece(draft, event, now)
        case ReasoningSignature(signature=signature):
            return _sign(draft, signature) if signature else draft
        case Retrying():
            return replace(draft, retrying=event)
        case UsageReport(usage=usage):
            return replace(draft, usage=usage)
        case Finished(reason=reason):
            # The end of a model step: a later step numbers its calls from 0 again, and
            # what it streams (its signature too) is its own.
            draft = close_open(draft, now)
            return replace(draft, finish_reason=reason, step_calls=(), step_start=len(draft.closed))
    raise TypeError(f"not a stream event: {event!r}")


class Folding:
    """A draft fed event by event, folding runs of deltas when it is read.

    Text and reasoning deltas in a row are held, and folded as one delta (their texts
    joined, at the time the first text of the run arrived) before anything reads
    `draft` or another event is folded: the parts, times and first-token time are the
    ones folding each delta on arrival gives, while a delta costs a list append instead
    of a new `Draft`. A run of empty deltas still clears `retrying`, as any does.
    """

    __slots__ = ("_draft", "_held", "_since", "_texts")

    def __init__(self, draft: Draft) -> None:
        self._draft = draft
        self._held: type[TextDelta] | type[ReasoningDelta] | None = None
        self._texts: list[str] = []
        self._since = 0.0  # when the first text of the held run arrived

    @property
    def draft(self) -> Draft:
        if self._held is not None:
            self._fold_held()
        return self._draft

    @draft.setter
    def draft(self, draft: Draft) -> None:
        """Replace the draft by one made from `draft` (reading it folded what was held)."""
        assert self._held is None, "deltas held since the draft was read would be lost"
        self._draft = draft

    def add(self, event: StreamEvent, now: float) -> None:
        if isinstance(event, TextDelta | ReasoningDelta):
            kind = type(event)
            if kind is not self._held:
                if self._held is not None:
                    self._fold_held()
                self._held = kind
            if event.text:
                if not self._texts:
                    self._since = now
                self._texts.append(event.text)
            return
        self._draft = fold(self.draft, event, now)

    def _fold_held(self) -> None:
        assert self._held is not None
        delta = self._held("".join(self._texts))
        self._held, self._texts = None, []
        self._draft = fold(self._draft, delta, self._since)


def seeded_draft(parts: Sequence[Part], call_id_prefix: str = "call") -> Draft:
    """A draft that already holds `parts`, for continuing an answer.

    A trailing text part stays open, so the continuation grows the same paragraph
    (one text part, not two) and each new delta still costs O(1). Calls already made
    count, so an id made up for a new call does not repeat one of theirs.
    """
    calls = sum(isinstance(p, ToolCallPart) for p in parts)
    # The continuation is a model step of its own: a signature it brings starts there.
    base = Draft(call_count=calls, call_id_prefix=call_id_prefix, step_start=len(parts))
    if parts and isinstance(parts[-1], TextPart) and parts[-1].text:
        return replace(
            base,
            closed=tuple(parts[:-1]),
            open_kind="text",
            open_chunks=(parts[-1].text, None),
            step_start=len(parts) - 1,
        )
    return replace(base, closed=tuple(parts))


def added_usage(before: Usage | None, now: Usage | None) -> Usage | None:
    """Tokens of the earlier attempt plus those of the continuation."""
    if before is None or now is None:
        return now or before
    return Usage(
        before.input_tokens + now.input_tokens,
        before.output_tokens + now.output_tokens,
        before.reasoning_tokens + now.reasoning_tokens,
    )
