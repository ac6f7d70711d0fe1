"""The sidebar's rows (section headers and conversations), changed one at a time.

The rows are kept sorted by a key (section, header before its conversations, newest
update first, newest creation first) that reproduces the order storage lists them in,
so a changed conversation's place is found by bisection instead of by reloading the
list, and a section header comes with its section's first conversation and goes with
its last. Every change is applied inside a context the caller supplies: that is where
the Qt model announces it to its views (begin before, end after).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from desktop.core.models import ConversationSummary
from desktop.ui.viewmodels.date_groups import Dated, DateGroup, date_group

Row = ConversationSummary | DateGroup
Key = tuple[int, int, int, int]
T = TypeVar("T", bound=Dated)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class Inserted:
    row: int


@dataclass(frozen=True, slots=True)
class Removed:
    row: int


@dataclass(frozen=True, slots=True)
class Moved:
    """`destination` counts in the rows as they were before the move (Qt's convention)."""

    source: int
    destination: int


@dataclass(frozen=True, slots=True)
class Updated:
    row: int


Change = Inserted | Removed | Moved | Updated
Announce = Callable[[Change], AbstractContextManager[object]]


def sectioned(conversations: Iterable[T], now: datetime) -> list[T | DateGroup]:
    """The rows to show: a header before the first conversation of each section."""
    rows: list[T | DateGroup] = []
    current: DateGroup | None = None
    for conversation in conversations:
        group = date_group(conversation, now)
        if group != current:
            rows.append(group)
            current = group
        rows.append(conversation)
    return rows


class SectionedRows:
    """Rows for conversations listed in storage order, sectioned as of `now`.

    Sections depend on the day of `now`: once the local date has moved on, build a new
    instance rather than updating this one.
    """

    def __init__(self, summaries: Iterable[ConversationSummary], now: datetime) -> None:
        self.now = now
        self.rows: list[Row] = sectioned(summaries, now)
        self._by_id = {row.id: row for row in self.rows if not isinstance(row, DateGroup)}

    def __len__(self) -> int:
        return len(self.rows)

    def get(self, conversation_id: str) -> ConversationSummary | None:
        return self._by_id.get(conversation_id)

    def row_of(self, conversation_id: str) -> int:
        summary = self._by_id.get(conversation_id)
        return -1 if summary is None else self._position(summary)

    def conversation_count(self) -> int:
        return len(self._by_id)

    def update(
        self, conversation_id: str, summary: ConversationSummary | None, announce: Announce
    ) -> None:
        """Bring one conversation's row up to date: `summary` None means it left the list."""
        old = self._by_id.get(conversation_id)
        if old is None:
            if summary is not None:
                self._insert(summary, announce)
        elif summary is None:
            self._remove(old, announce)
        elif self._key(old) != self._key(summary):
            self._move(old, summary, announce)
        elif old != summary:
            self._replace(self._position(old), summary, announce)

    # --- the steps, each one announced change ----------------------------------------

    def _insert(self, summary: ConversationSummary, announce: Announce) -> None:
        self._add_header(date_group(summary, self.now), announce)
        row = self._position(summary)
        with announce(Inserted(row)):
            self.rows.insert(row, summary)
            self._by_id[summary.id] = summary

    def _remove(self, old: ConversationSummary, announce: Announce) -> None:
        row = self._position(old)
        with announce(Removed(row)):
            del self.rows[row]
            del self._by_id[old.id]
        self._drop_header_if_empty(date_group(old, self.now), announce)

    def _move(self, old: ConversationSummary, new: ConversationSummary, announce: Announce) -> None:
        self._add_header(date_group(new, self.now), announce)
        source = self._position(old)
        # Keys are unique, so this is the row `new` must end up just before.
        destination = self._position(new)
        if destination in (source, source + 1):  # already in the right place
            self._replace(source, new, announce)
        else:
            with announce(Moved(source, destination)):
                del self.rows[source]
                row = destination if destination < source else destination - 1
                self.rows.insert(row, old)
            self._replace(row, new, announce)
        self._drop_header_if_empty(date_group(old, self.now), announce)

    def _replace(self, row: int, summary: ConversationSummary, announce: Announce) -> None:
        with announce(Updated(row)):
            self.rows[row] = summary
            self._by_id[summary.id] = summary

    def _add_header(self, group: DateGroup, announce: Announce) -> None:
        row = self._header_position(group)
        if row < len(self.rows) and self.rows[row] is group:
            return
        with announce(Inserted(row)):
            self.rows.insert(row, group)

    def _drop_header_if_empty(self, group: DateGroup, announce: Announce) -> None:
        row = self._header_position(group)
        if row >= len(self.rows) or self.rows[row] is not group:
            return
        if row + 1 < len(self.rows) and not isinstance(self.rows[row + 1], DateGroup):
            return  # the section still has a conversation
        with announce(Removed(row)):
            del self.rows[row]

    # --- order ------------------------------------------------------------------------

    def _key(self, row: Row) -> Key:
        """Ascending keys give storage's order: pinned, then newest updated, then newest
        created; each header sorts just before its section's conversations."""
        if isinstance(row, DateGroup):
            return (row, 0, 0, 0)
        updated = (row.updated_at - _EPOCH) // _MICROSECOND
        return (date_group(row, self.now), 1, -updated, -row.sequence)

    def _position(self, summary: ConversationSummary) -> int:
        """Where `summary` is, or would go, among the current rows."""
        return bisect_left(self.rows, self._key(summary), key=self._key)

    def _header_position(self, group: DateGroup) -> int:
        key: Key = (group, 0, 0, 0)
        return bisect_left(self.rows, key, key=self._key)
