"""SectionedRows against a fresh sectioning, and its announced changes replayed."""

from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest

from desktop.core.models import ConversationSummary
from desktop.ui.viewmodels.conversation_rows import (
    Change,
    Inserted,
    Moved,
    Removed,
    SectionedRows,
    Updated,
    sectioned,
)
from desktop.ui.viewmodels.date_groups import DateGroup

NOW = datetime(2026, 11, 29, 0, 30, tzinfo=timezone(timedelta(hours=1)))


def storage_order(summaries: list[ConversationSummary]) -> list[ConversationSummary]:
    """What `list_conversation_summaries` returns: pinned, newest, newest created first."""
    return sorted(summaries, key=lambda s: (not s.pinned, -s.updated_at.timestamp(), -s.sequence))


class Replay:
    """A second copy of the rows that sees only the announced changes, as a view does.

    It reads the new row contents from the rows after each change, at the row the
    change names, so a wrong row number or a wrong move destination shows up as a
    difference between the two copies."""

    def __init__(self, rows: SectionedRows) -> None:
        self.rows = rows
        self.seen = list(rows.rows)
        self.changes: list[Change] = []

    @contextmanager
    def announce(self, change: Change):
        before = len(self.rows.rows)
        match change:
            case Removed(row) | Updated(row) | Moved(source=row):
                assert 0 <= row < before
            case Inserted(row):
                assert 0 <= row <= before
        yield
        self.changes.append(change)
        match change:
            case Inserted(row):
                self.seen.insert(row, self.rows.rows[row])
            case Removed(row):
                del self.seen[row]
            case Moved(source, destination):
                assert destination not in (source, source + 1)  # Qt refuses those
                item = self.seen.pop(source)
                self.seen.insert(destination if destination < source else destination - 1, item)
            case Updated(row):
                self.seen[row] = self.rows.rows[row]
        assert len(self.seen) == len(self.rows.rows)


def random_time(rng: random.Random) -> datetime:
    # Few distinct values, so that ties (broken by `sequence`) are common.
    hours = rng.choice([0.1, 0.2, 0.6, 1, 20, 30, 24 * 3, 24 * 6, 24 * 9, 24 * 40])
    return (NOW - timedelta(hours=hours)).astimezone(UTC)


@pytest.mark.parametrize("seed", range(20))
def test_random_changes_keep_the_rows_equal_to_a_fresh_sectioning(seed):
    rng = random.Random(seed)
    live: dict[str, ConversationSummary] = {}
    sequence = 0
    for _ in range(rng.randint(0, 12)):
        sequence += 1
        live[f"c{sequence}"] = ConversationSummary(
            f"c{sequence}", "t", random_time(rng), rng.random() < 0.2, sequence
        )
    rows = SectionedRows(storage_order(list(live.values())), NOW)
    replay = Replay(rows)
    for _ in range(150):
        action = rng.choice(["create", "touch", "rename", "pin", "delete", "same", "gone"])
        target = rng.choice(sorted(live)) if live else None
        if action == "create" or target is None:
            sequence += 1
            summary = ConversationSummary(f"c{sequence}", "new", random_time(rng), False, sequence)
            live[summary.id] = summary
            rows.update(summary.id, summary, replay.announce)
        elif action == "delete":
            del live[target]
            rows.update(target, None, replay.announce)
        elif action == "gone":  # an event for a conversation deleted long ago
            rows.update("c0", None, replay.announce)
        else:
            old = live[target]
            new = {
                "touch": replace(old, updated_at=random_time(rng)),
                "rename": replace(old, title=f"title {rng.random()}"),
                "pin": replace(old, pinned=not old.pinned),
                "same": old,
            }[action]
            live[target] = new
            rows.update(target, new, replay.announce)
        expected = sectioned(storage_order(list(live.values())), NOW)
        assert rows.rows == expected
        assert replay.seen == expected
        assert rows.conversation_count() == len(live)
        for summary in live.values():
            assert rows.rows[rows.row_of(summary.id)] == summary


def summary(name: str, hours_ago: float, sequence: int, pinned: bool = False):
    return ConversationSummary(
        name, name, (NOW - timedelta(hours=hours_ago)).astimezone(UTC), pinned, sequence
    )


def test_a_header_comes_with_its_first_chat_and_goes_with_its_last():
    old = summary("old", 24 * 30, 1)
    rows = SectionedRows([old], NOW)
    replay = Replay(rows)
    today = summary("old", 0.1, 1)
    rows.update("old", today, replay.announce)
    assert rows.rows == [DateGroup.TODAY, today]
    # The Today header is inserted above, the chat moves under it, Older goes.
    assert replay.changes == [Inserted(0), Moved(2, 1), Updated(1), Removed(2)]
    rows.update("old", None, replay.announce)
    assert rows.rows == [] and replay.seen == []


def test_a_change_that_keeps_the_place_is_an_update_not_a_move():
    first, second = summary("a", 1, 1), summary("b", 2, 2)
    rows = SectionedRows([first, second], NOW)
    replay = Replay(rows)
    rows.update(
        "a", replace(first, updated_at=first.updated_at + timedelta(minutes=5)), replay.announce
    )
    rows.update("b", replace(second, title="renamed"), replay.announce)
    rows.update("b", replace(second, title="renamed"), replay.announce)  # nothing changed
    assert replay.changes == [Updated(1), Updated(2)]
