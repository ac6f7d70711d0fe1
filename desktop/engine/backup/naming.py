"""The names backups get at their target, and what a name says about a backup.

A name carries the time and the device, so a folder of backups from several computers
can be listed, sorted and pruned without decrypting anything: each device prunes only
its own (`parley-backup-20261206T074500Z-laptop.parley`). The name reveals no title and
no content; the device part is the host name, reduced to safe characters.
"""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

PREFIX: Final = "parley-backup-"
SUFFIX: Final = ".parley"
_STAMP: Final = "%Y%m%dT%H%M%SZ"
_NAME: Final = re.compile(r"^parley-backup-(\d{8}T\d{6}Z)-([a-z0-9-]{1,40})\.parley$")
_UNSAFE: Final = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True, slots=True)
class BackupName:
    name: str
    created: datetime
    device: str


def device_slug(host: str | None = None) -> str:
    """This computer's name as it appears in backup names ("my-laptop")."""
    slug = _UNSAFE.sub("-", (host if host is not None else socket.gethostname()).lower())
    return slug.strip("-")[:40].strip("-") or "device"


def backup_name(created: datetime, device: str) -> str:
    return f"{PREFIX}{created.astimezone(UTC).strftime(_STAMP)}-{device}{SUFFIX}"


def parse_backup_name(name: str) -> BackupName | None:
    """None for anything that is not a Parley backup's name (other files may share
    the folder; they are never listed, and never pruned)."""
    match = _NAME.match(name)
    if match is None:
        return None
    try:
        created = datetime.strptime(match.group(1), _STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None
    return BackupName(name, created, match.group(2))


def to_prune(names: list[str], device: str, keep: int) -> list[str]:
    """This device's backups beyond the newest `keep`, oldest first."""
    own = sorted(
        (parsed for n in names if (parsed := parse_backup_name(n)) and parsed.device == device),
        key=lambda b: b.created,
        reverse=True,
    )
    return [b.name for b in reversed(own[keep:])]
