"""How sync stands, as plain data for the window (`SyncService.status`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    device_id: str
    name: str
    last_seen: datetime | None  # when it last sent changes
    this_device: bool
    removed: bool = False


@dataclass(frozen=True, slots=True)
class SyncStatus:
    joined: bool = False
    paused: bool = False
    running: bool = False
    stage: str = ""  # "receiving" or "sending" while running
    done: int = 0
    total: int = 0
    last_sync: datetime | None = None
    last_error: str = ""
    pending: int | None = None  # changes here not sent yet; None: not counted yet
    devices: tuple[DeviceInfo, ...] = ()
    refused: tuple[str, ...] = ()  # per-device problems of the last sync
    revived: tuple[str, ...] = ()  # titles of chats a reply from elsewhere brought back
    key_in_keyring: bool = True


@dataclass(frozen=True, slots=True)
class SyncReport:
    received: int
    sent: int
    refused: tuple[str, ...]
    revived: tuple[str, ...]
