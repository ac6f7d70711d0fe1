"""Sidebar sections: Pinned, Today, Yesterday, Previous 7 days, Older (in local time)."""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import IntEnum
from typing import Protocol

from PySide6.QtCore import QCoreApplication


class Dated(Protocol):
    """A conversation or its summary: all a section depends on."""

    @property
    def pinned(self) -> bool: ...

    @property
    def updated_at(self) -> datetime: ...


class DateGroup(IntEnum):
    PINNED = 0
    TODAY = 1
    YESTERDAY = 2
    PREVIOUS_7_DAYS = 3
    OLDER = 4

    @property
    def label(self) -> str:
        labels = {
            DateGroup.PINNED: QCoreApplication.translate("DateGroup", "Pinned"),
            DateGroup.TODAY: QCoreApplication.translate("DateGroup", "Today"),
            DateGroup.YESTERDAY: QCoreApplication.translate("DateGroup", "Yesterday"),
            DateGroup.PREVIOUS_7_DAYS: QCoreApplication.translate("DateGroup", "Previous 7 days"),
            DateGroup.OLDER: QCoreApplication.translate("DateGroup", "Older"),
        }
        return labels[self]


def date_group(conversation: Dated, now: datetime) -> DateGroup:
    """Which section a conversation belongs in; `now` is timezone-aware local time."""
    if conversation.pinned:
        return DateGroup.PINNED
    day = conversation.updated_at.astimezone(now.tzinfo).date()
    today = now.date()
    if day >= today:
        return DateGroup.TODAY
    if day == today - timedelta(days=1):
        return DateGroup.YESTERDAY
    if day > today - timedelta(days=7):
        return DateGroup.PREVIOUS_7_DAYS
    return DateGroup.OLDER
