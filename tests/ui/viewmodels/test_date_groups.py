from datetime import UTC, datetime, timedelta, timezone

from desktop.core.models import Conversation
from desktop.ui.viewmodels.conversation_rows import sectioned
from desktop.ui.viewmodels.date_groups import DateGroup, date_group

BERLIN_WINTER = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 29, 0, 30, tzinfo=BERLIN_WINTER)  # just after local midnight


def conversation(hours_ago: float, pinned: bool = False) -> Conversation:
    updated = (NOW - timedelta(hours=hours_ago)).astimezone(UTC)
    return Conversation(id=str(hours_ago), title="t", updated_at=updated, pinned=pinned)


def test_sections_follow_local_calendar_days():
    assert date_group(conversation(0.25), NOW) is DateGroup.TODAY
    # 23:45 the evening before is "Yesterday" locally, although under 24 hours ago.
    assert date_group(conversation(0.75), NOW) is DateGroup.YESTERDAY
    assert date_group(conversation(24 * 3), NOW) is DateGroup.PREVIOUS_7_DAYS
    assert date_group(conversation(24 * 8), NOW) is DateGroup.OLDER
    assert date_group(conversation(24 * 30, pinned=True), NOW) is DateGroup.PINNED


def test_a_header_precedes_each_section_once():
    items = [conversation(1, pinned=True), conversation(0.1), conversation(0.2), conversation(200)]
    rows = sectioned(items, NOW)
    assert rows == [
        DateGroup.PINNED,
        items[0],
        DateGroup.TODAY,
        items[1],
        items[2],
        DateGroup.OLDER,
        items[3],
    ]
