"""The engine as the chat tests drive it, with no window: a real ChatService on a real
SQLite file, talking to the loopback server, with the events it announced kept.

`Harness` is a chat service with one provider; `ToolHarness` adds the tool service and
a workspace. `run`, `run_tools` and `run_harness` run a test body with one of them
entered, on a fresh event loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, TypeVar

import httpx

from desktop.core.events import GenerationFinished, MessageChanged
from desktop.core.models import Message, MessageStatus, ModelRef, ToolCallPart
from desktop.core.paths import DataPaths
from desktop.engine.settings_service import SettingsService
from desktop.engine.tools.service import ToolService, conversation_search
from desktop.engine.turn.chat_service import ChatService
from desktop.engine.web.access import WebAccess
from desktop.providers.retry import RetryPolicy
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.secrets import SecretStore
from tests.support.early_timers import run_with_early_timers
from tests.support.settings_files import write_settings
from tests.support.sse_server import SSEServer
from tests.support.waiting import CEILING_S, wait_for

H = TypeVar("H")

MODEL = ModelRef("local", "test-model")
TOOLS_MODEL = ModelRef("local", "gpt-4o")  # known to call tools
# Real retries (three tries, doubling waits with jitter), in hundredths of a second.
FAST_RETRIES = RetryPolicy(base_delay_s=0.01, max_delay_s=0.05)


def run_harness(
    harness: AbstractAsyncContextManager[H],
    body: Callable[[H], Awaitable[None]],
    *,
    early_timers: bool = False,
) -> None:
    """Run `body` with `harness` entered, on a fresh event loop; `early_timers` runs it
    on a loop whose timers fire after half their delay."""

    async def main() -> None:
        async with harness as entered:
            await body(entered)

    if early_timers:
        run_with_early_timers(main())
    else:
        asyncio.run(main())


class CountingRepository(ChatRepository):
    """The real repository, counting how often a streaming message is written."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.streaming_saves = 0

    def save_message(self, message):  # type: ignore[no-untyped-def]
        if message.status is MessageStatus.STREAMING:
            self.streaming_saves += 1
        super().save_message(message)


class Harness:
    """A chat service on `tmp_path` (settings.json and parley.db) with one provider."""

    def __init__(self, tmp_path: Path, server: SSEServer) -> None:
        self.tmp_path = tmp_path
        self.server = server
        write_settings(tmp_path / "settings.json", server.base_url)
        self.db = Database.open(tmp_path / "parley.db")
        self.repo = CountingRepository(self.db)
        self.events: list[object] = []

    async def __aenter__(self) -> Harness:
        self.http = httpx.AsyncClient()
        self.settings = SettingsService(
            self.tmp_path / "settings.json", SecretStore(), self.http, retry_policy=FAST_RETRIES
        )
        self.chat = ChatService(self.repo, self.settings)
        self.chat.events.subscribe(self.events.append)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.chat.shutdown()
        await self.http.aclose()
        self.db.close()

    def finished(self) -> list[GenerationFinished]:
        return [e for e in self.events if isinstance(e, GenerationFinished)]

    def latest_text(self, message_id: str) -> str:
        """The text of the newest update the listeners heard for `message_id`."""
        updates = [
            e.message
            for e in self.events
            if isinstance(e, MessageChanged) and e.message.id == message_id
        ]
        return updates[-1].text if updates else ""

    async def wait_finished(self, count: int = 1, timeout: float = CEILING_S) -> None:
        await wait_for(lambda: len(self.finished()) >= count, timeout)


def run(
    tmp_path: Path,
    server: SSEServer,
    body: Callable[[Harness], Awaitable[None]],
    *,
    provider: dict[str, Any] | None = None,
    early_timers: bool = False,
    **top: Any,
) -> None:
    """Run `body` with a `Harness`; `provider` adds to the provider's settings, `top`
    to the top-level ones; `early_timers` as in `run_harness`."""
    harness = Harness(tmp_path, server)
    if provider or top:
        path = tmp_path / "settings.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        data["providers"][0].update(provider or {})
        data.update(top)
        path.write_text(json.dumps(data), encoding="utf-8")
    run_harness(harness, body, early_timers=early_timers)


def updates(h: Harness, message_id: str) -> list[Message]:
    """Every version of `message_id` the listeners heard, oldest first."""
    return [
        e.message for e in h.events if isinstance(e, MessageChanged) and e.message.id == message_id
    ]


class ToolHarness:
    """A Parley with tools on; `restart()` makes a new chat service on the same data."""

    def __init__(
        self,
        tmp_path: Path,
        server: SSEServer,
        *,
        tools: dict[str, Any] | None = None,
        max_steps: int = 256,
    ) -> None:
        self.root = tmp_path / "data"
        self.root.mkdir()
        self.workspace = tmp_path / "workspace"
        self.workspace.mkdir()
        self.server = server
        self.max_steps = max_steps
        write_settings(self.root, server.base_url, ("gpt-4o", "test-model"), tools=tools)
        self.db = Database.open(self.root / "parley.db")
        self.repo = CountingRepository(self.db)
        self.events: list[object] = []
        self.keys: dict[str, str] = {}  # the web engines' keys, as the keyring holds them

    async def __aenter__(self) -> ToolHarness:
        self.http = httpx.AsyncClient()
        self._start()
        return self

    def _start(self) -> None:
        self.settings = SettingsService(
            self.root / "settings.json", SecretStore(), self.http, retry_policy=FAST_RETRIES
        )
        self.tools = ToolService(
            DataPaths(self.root),
            self.settings,
            search=conversation_search(self.db),
            web=WebAccess(
                lambda: self.settings.settings.web_search, lambda: self.http, self.keys.get
            ),
        )
        self.chat = ChatService(
            self.repo, self.settings, tools=self.tools, max_tool_steps=self.max_steps
        )
        self.events.clear()
        self.chat.events.subscribe(self.events.append)

    async def restart(self) -> None:
        await self.chat.shutdown()
        self._start()
        self.chat.recover()

    async def __aexit__(self, *exc: object) -> None:
        await self.chat.shutdown()
        await self.http.aclose()
        self.db.close()

    async def conversation(self) -> str:
        conversation = self.chat.create_conversation("Tools")
        self.chat.set_workspace(conversation.id, str(self.workspace))
        return conversation.id

    def finished(self) -> list[GenerationFinished]:
        return [e for e in self.events if isinstance(e, GenerationFinished)]

    async def wait_finished(self, count: int = 1) -> None:
        await wait_for(lambda: len(self.finished()) >= count)

    async def wait_approval(self) -> Any:
        await wait_for(lambda: bool(self.chat.pending_approvals()))
        return self.chat.pending_approvals()[0]

    def calls(self, message_id: str) -> list[ToolCallPart]:
        message = self.repo.get_message(message_id)
        assert message is not None
        return [p for p in message.parts if isinstance(p, ToolCallPart)]


def run_tools(
    tmp_path: Path,
    server: SSEServer,
    body: Callable[[ToolHarness], Awaitable[None]],
    *,
    setup: Callable[[ToolHarness], None] | None = None,
    **options: Any,
) -> None:
    """Run `body` with a `ToolHarness` made with `options`; `setup` changes it (its
    settings file, say) before it starts."""
    harness = ToolHarness(tmp_path, server, **options)
    if setup is not None:
        setup(harness)
    run_harness(harness, body)
