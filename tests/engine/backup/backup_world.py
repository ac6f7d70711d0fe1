"""A data folder with the services a backup needs, as the app builds them."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

import httpx

from desktop.core.backup_settings import BackupSettings
from desktop.core.dispatch import EventBus
from desktop.core.events import EngineEvent
from desktop.core.models import Message, MessageStatus, Role, TextPart, new_id
from desktop.core.paths import DataPaths
from desktop.core.remote_target import RemoteTarget
from desktop.engine.backup.service import BackupService
from desktop.engine.remote.base import DEFAULT_TIMEOUT
from desktop.engine.settings_service import SettingsService
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.secrets import SecretStore

T = TypeVar("T")
PASSPHRASE = "correct horse battery staple"


def run(coro: Awaitable[T]) -> T:
    async def main() -> T:
        return await coro

    return asyncio.run(main())


@dataclass
class Clock:
    now: datetime = field(default_factory=lambda: datetime(2026, 12, 6, 8, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


class Device:
    """One computer's Parley data folder and its backup service."""

    def __init__(
        self,
        root: Path,
        name: str,
        clock: Clock,
        *,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> None:
        self.paths = DataPaths(root)
        self.paths.ensure()
        self.db = Database.open(self.paths.database)
        self.repo = ChatRepository(self.db, clock=clock)
        self.store = AttachmentStore(self.paths.attachments, self.db.engine)
        self.settings = SettingsService(self.paths.settings, SecretStore())
        self.events: EventBus[EngineEvent] = EventBus()
        self.service = BackupService(
            self.paths,
            self.db,
            self.store,
            self.settings,
            self.events,
            device=name,
            clock=clock,
            timeout=timeout,
        )

    def use(self, target: RemoteTarget, *, keep: int = 7, daily: bool = False) -> None:
        backup = BackupSettings(target, keep, daily)
        self.settings.save(replace(self.settings.settings, backup=backup))

    def chat(self, title: str, *texts: str) -> str:
        """A conversation whose messages alternate user / assistant, one branch."""
        conversation = self.repo.create_conversation(title)
        parent = None
        for i, text in enumerate(texts):
            message = Message(
                id=new_id(),
                conversation_id=conversation.id,
                parent_id=parent,
                role=Role.USER if i % 2 == 0 else Role.ASSISTANT,
                parts=[TextPart(text)],
                status=MessageStatus.COMPLETE,
            )
            self.repo.add_message(message)
            parent = message.id
        return conversation.id

    def texts(self) -> dict[str, list[str]]:
        """title -> every message's text, the whole tree, oldest first."""
        return {
            c.title: sorted(m.text for m in self.repo.messages(c.id))
            for c in self.repo.list_conversations()
        }

    def digest(self) -> str:
        """A hash of every row of the database and every file in the attachment store:
        equal before and after an operation that must change nothing."""
        hashed = hashlib.sha256()
        with self.db.read() as conn:
            tables = conn.exec_driver_sql(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            ).scalars()
            for table in list(tables):
                rows = conn.exec_driver_sql(f'SELECT * FROM "{table}"').fetchall()
                hashed.update(table.encode())
                for row in sorted(repr(tuple(row)) for row in rows):
                    hashed.update(row.encode() + b"\n")
        for path in sorted(self.paths.attachments.rglob("*")):
            if path.is_file():
                hashed.update(path.relative_to(self.paths.attachments).as_posix().encode())
                hashed.update(hashlib.sha256(path.read_bytes()).digest())
        return hashed.hexdigest()

    async def aclose(self) -> None:
        """Close on the event loop the device's requests ran on (the HTTP client's
        connections belong to it), then the database."""
        await self.settings.aclose()
        self.db.close()

    def close(self) -> None:
        run(self.settings.aclose())
        self.db.close()
