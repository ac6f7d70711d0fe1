"""What a search of the person's chats finds: plain data that storage produces, the
engine passes on and the sidebar shows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One result. `message_id` is None for a title match.

    `snippet` is plain text around the first match ("…" where cut); `highlights` are
    (start, end) character ranges of the matches inside `snippet`, sorted, disjoint.
    """

    conversation_id: str
    conversation_title: str
    message_id: str | None
    snippet: str
    highlights: tuple[tuple[int, int], ...]
    updated_at: datetime
    written_at: datetime | None = None  # the message's own time (None for a title)


@dataclass(frozen=True, slots=True)
class SearchScope:
    """Which chats a search looks in: those (and messages) dated from `since` up to
    `until` (UTC-aware datetimes; None: no bound), without one conversation (the one
    asking, say)."""

    since: datetime | None = None
    until: datetime | None = None
    exclude_conversation_id: str | None = None


EVERYWHERE = SearchScope()
