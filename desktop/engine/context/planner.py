"""Which messages a request carries in full, and what the rolling summary must cover.

A pure function of the active branch, the stored summary and the pinned ids, so every
rule is testable without storage or a model:

- the whole branch fits under the threshold (or has fewer than 4 messages): everything
  is sent, no summary;
- otherwise the recent window takes the newest messages up to 55% of the threshold,
  at least 4 of them, and its start moves back to a user message, so an answer never
  loses its question and a tool result (stored on the answer that called it) never
  loses its turn;
- the summary covers exactly the messages before the window, in order; pinned ones are
  sent in full instead (before the window, in their place) and never summarised;
- a stored summary is reused only while its ids are still the branch's prefix (an
  edit, a delete or a branch switch changes the prefix: the summary is rebuilt from
  scratch); when the window has moved on, the refresh merges the old summary with the
  messages it does not cover yet.

A valid stored summary that already covers more than the window leaves out (the person
pressed "Compress now") is kept as it is: the person asked for it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from desktop.core.models import Message, Role, RollingSummary
from desktop.engine.context.tokens import message_tokens

DEFAULT_THRESHOLD = 32_000
MIN_MESSAGES = 4  # fewer than this is never summarised, and the window keeps this many
WINDOW_SHARE = 0.55  # of the threshold, for the recent window


class PlanReason(StrEnum):
    FITS = "fits"  # under the threshold: everything in full
    TOO_FEW = "too_few"  # fewer than MIN_MESSAGES
    NOTHING_BEFORE = "nothing_before"  # the window reaches back to the first message
    REUSED = "reused"  # the stored summary still covers exactly the prefix (or more)
    MERGE = "merge"  # the stored summary is valid, newer messages join it
    REBUILD = "rebuild"  # no valid summary: summarise the whole prefix


@dataclass(frozen=True, slots=True)
class Refresh:
    """A summary to write: `previous` (a valid summary's text, or None) merged with
    `messages`; the result covers `covered_ids`."""

    previous: str | None
    messages: tuple[Message, ...]
    covered_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ContextPlan:
    """`window`: the messages sent in full, in branch order (pinned ones first).
    `summary`: the valid stored summary to send, None when there is none or `refresh`
    must write a new one first."""

    window: tuple[Message, ...]
    summary: RollingSummary | None
    refresh: Refresh | None
    reason: PlanReason


def plan(
    path: Sequence[Message],
    summary: RollingSummary | None,
    *,
    threshold: int = DEFAULT_THRESHOLD,
    pinned: Collection[str] = (),
    force: bool = False,
) -> ContextPlan:
    """The plan for sending `path` (the active branch, oldest first).

    `force` is "Compress now": the threshold is ignored and the window keeps only its
    minimum, so everything before the last few messages is summarised (again, with the
    previous summary merged, even when nothing new joined it).
    """
    messages = tuple(path)
    if len(messages) < MIN_MESSAGES:
        return ContextPlan(messages, None, None, PlanReason.TOO_FEW)
    valid_end = covered_count([m.id for m in messages], summary, pinned)
    if not force and not _exceeds(messages, threshold):
        if valid_end:  # kept on purpose (Compress now): it stands for what it covers
            return _with_summary(messages, valid_end, summary, pinned)
        return ContextPlan(messages, None, None, PlanReason.FITS)
    budget = 0 if force else int(threshold * WINDOW_SHARE)
    start = _window_start(messages, budget)
    if not force and valid_end >= start and valid_end:
        return _with_summary(messages, valid_end, summary, pinned)
    prefix = messages[:start]
    to_cover = tuple(m for m in prefix if m.id not in pinned)
    kept = tuple(m for m in prefix if m.id in pinned)
    window = kept + messages[start:]
    if not to_cover:
        return ContextPlan(messages, None, None, PlanReason.NOTHING_BEFORE)
    covered_ids = tuple(m.id for m in to_cover)
    if summary is not None and valid_end and valid_end <= start:
        done = set(summary.covered_ids)
        new = tuple(m for m in to_cover if m.id not in done)
        if not new and not force:
            return ContextPlan(window, summary, None, PlanReason.REUSED)
        refresh = Refresh(summary.text, new, covered_ids)
        return ContextPlan(window, None, refresh, PlanReason.MERGE)
    return ContextPlan(window, None, Refresh(None, to_cover, covered_ids), PlanReason.REBUILD)


def _exceeds(messages: Sequence[Message], threshold: int) -> bool:
    """Whether the messages cost more than `threshold`, counted from the newest and
    stopping there: a long chat's old messages are never estimated again."""
    total = 0
    for message in reversed(messages):
        total += message_tokens(message)
        if total > threshold:
            return True
    return False


def _window_start(messages: Sequence[Message], budget: int) -> int:
    """The first index of the recent window: newest messages within `budget` tokens,
    at least MIN_MESSAGES, moved back to a user message."""
    start = len(messages)
    used = 0
    while start > 0:
        cost = message_tokens(messages[start - 1])
        if len(messages) - start >= MIN_MESSAGES and used + cost > budget:
            break
        used += cost
        start -= 1
    while start > 0 and messages[start].role is not Role.USER:
        start -= 1
    return start


def covered_count(
    ids: Sequence[str], summary: RollingSummary | None, pinned: Collection[str] = ()
) -> int:
    """How many of the branch's first messages (`ids`, root first) a stored summary
    accounts for; 0 when it is not valid for this branch.

    Valid: walking the branch from its start, each message is the next covered id, or a
    pinned one that was left out of the summary, until every covered id has been met.
    Any other message in between (an edited version, a switched branch) or a covered id
    missing (deleted) makes it invalid.
    """
    if summary is None or not summary.covered_ids:
        return 0
    covered = summary.covered_ids
    matched = 0
    for index, message_id in enumerate(ids):
        if message_id == covered[matched]:
            matched += 1
            if matched == len(covered):
                return index + 1
        elif message_id not in pinned:
            return 0
    return 0


def _with_summary(
    messages: tuple[Message, ...],
    end: int,
    summary: RollingSummary | None,
    pinned: Collection[str],
) -> ContextPlan:
    """The stored summary for `messages[:end]`; pinned ones of that prefix go in full
    all the same (one pinned after the summary was written is in both: harmless)."""
    kept = tuple(m for m in messages[:end] if m.id in pinned)
    return ContextPlan(kept + messages[end:], summary, None, PlanReason.REUSED)
