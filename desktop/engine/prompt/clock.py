"""The person's local time, named the way models and people read it.

Times are given with an explicit zone name and UTC offset because "today" and "now" in a
model's answer must be the person's, not the server's or UTC.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def in_zone(now: datetime, timezone_name: str) -> datetime:
    """`now` in the named IANA zone; unchanged when the name is not a known zone (it is
    then only a label, and `now`'s own offset is the truth)."""
    try:
        return now.astimezone(ZoneInfo(timezone_name))
    except (ZoneInfoNotFoundError, ValueError):
        return now


def utc_offset(moment: datetime) -> str:
    """ "UTC+01:00", "UTC-03:30", "UTC+00:00"."""
    offset = moment.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{rest:02d}"


def local_zone_name() -> str:
    """The IANA name of this computer's zone ("Europe/Berlin") where it can be found (the
    TZ variable, then /etc/localtime's link into the zone database), else the short name
    the system gives ("CET")."""
    tz = os.environ.get("TZ", "").lstrip(":")
    if tz and "/" in tz and not tz.startswith("/"):
        return tz
    try:
        target = Path("/etc/localtime").resolve(strict=True)
    except OSError:
        target = None
    if target is not None and "zoneinfo" in target.parts:
        parts = target.parts
        name = "/".join(parts[len(parts) - parts[::-1].index("zoneinfo") :])
        name = name.removeprefix("posix/").removeprefix("right/")
        if name:
            return name
    return datetime.now().astimezone().tzname() or "UTC"
