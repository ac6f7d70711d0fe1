"""Sizes and times as the person's locale writes them, for every window to share."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QDateTime, QLocale


def human_size(size: int) -> str:
    """E.g. "1.2 MB", in the person's locale (1024-based, like the limits)."""
    return QLocale().formattedDataSize(size, 1, QLocale.DataSizeFormat.DataSizeTraditionalFormat)


def local_time(moment: datetime) -> str:
    """`moment` in this computer's time zone, as the locale writes a short date and time."""
    local = QDateTime.fromSecsSinceEpoch(int(moment.timestamp())).toLocalTime()
    return QLocale().toString(local, QLocale.FormatType.ShortFormat)
