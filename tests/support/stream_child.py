"""Parley's engine in a process of its own, streaming one answer until it is killed.

    python -m tests.support.stream_child DATA_DIR

The real `Database`, `ChatService`, `SettingsService` and OpenAI-compatible provider, on
the loopback server named in DATA_DIR/settings.json; no Qt, as a crash test needs only
what writes the answer. Prints "sent <assistant message id>" once the question and the
answer's placeholder are saved, then streams until the test kills it, printing
"saved <began> <done> <characters>" after each save of the streaming answer has
committed: when the save began and ended on this process's event-loop clock, and how
much text it holds.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import httpx

from desktop.core.models import Message, MessageStatus, ModelRef
from desktop.engine.settings_service import SettingsService
from desktop.engine.turn.chat_service import ChatService
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.secrets import SecretStore


class ReportingRepository(ChatRepository):
    """The real repository, saying when each streaming save began and committed."""

    def save_message(self, message: Message) -> None:
        clock = asyncio.get_running_loop().time
        began = clock()
        super().save_message(message)
        if message.status is MessageStatus.STREAMING:
            print(f"saved {began:.6f} {clock():.6f} {len(message.text)}", flush=True)


async def main(data_dir: Path) -> None:
    db = Database.open(data_dir / "parley.db")
    async with httpx.AsyncClient() as http:
        settings = SettingsService(data_dir / "settings.json", SecretStore(), http)
        chat = ChatService(ReportingRepository(db), settings)
        result = await chat.send(None, "Stream until I am killed", ModelRef("local", "test-model"))
        print(f"sent {result.assistant_message_id}", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
