"""The context service against a loopback OpenAI server and a real SQLite file: what
the summarising model was asked, what was stored, and what a request would carry."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import pytest

from desktop.core.errors import ProviderError
from desktop.core.models import Message, ModelRef, Role, RollingSummary, TextPart
from desktop.engine.context.service import ContextService, failure_notice
from desktop.engine.context.summariser import INSTRUCTION
from desktop.engine.settings_service import SettingsService
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.secrets import SecretStore
from tests.support.engine_harness import FAST_RETRIES, run_harness
from tests.support.settings_files import write_settings
from tests.support.sse_server import SSEServer, completion_body, error_response, json_response

MODEL = ModelRef("local", "test-model")
UTILITY = ModelRef("local", "small-model")
THRESHOLD = 1_000  # twenty messages of ~100 tokens go over it


class Harness:
    def __init__(self, tmp_path: Path, server: SSEServer, utility: ModelRef | None) -> None:
        write_settings(tmp_path / "settings.json", server.base_url)
        self.tmp_path = tmp_path
        self.db = Database.open(tmp_path / "parley.db")
        self.repo = ChatRepository(self.db)
        self.utility = utility

    async def __aenter__(self) -> Harness:
        self.http = httpx.AsyncClient(trust_env=False)
        settings = SettingsService(
            self.tmp_path / "settings.json", SecretStore(), self.http, retry_policy=FAST_RETRIES
        )
        self.context = ContextService(self.repo, settings, lambda: self.utility)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()
        self.db.close()

    def long_chat(self, count: int = 20) -> tuple[str, list[Message]]:
        conversation = self.repo.create_conversation("Budget")
        parent: str | None = None
        for index in range(count):
            role = Role.USER if index % 2 == 0 else Role.ASSISTANT
            text = f"message {index}: " + "budget planning details " * 16
            message = Message(
                f"id{index:02d}",
                conversation.id,
                parent,
                role,
                [TextPart(text)],
                model=MODEL if role is Role.ASSISTANT else None,
            )
            parent = self.repo.add_message(message).id
        return conversation.id, self.repo.active_path(conversation.id)


def run(
    tmp_path: Path,
    server: SSEServer,
    body: Callable[[Harness], Awaitable[None]],
    utility: ModelRef | None = None,
) -> None:
    run_harness(Harness(tmp_path, server, utility), body)


def ids(messages) -> tuple[str, ...]:
    return tuple(m.id for m in messages)


def asked_text(server: SSEServer, index: int = 0) -> str:
    return json.dumps(server.requests[index].json, ensure_ascii=False)


def test_a_long_chat_is_summarised_and_the_summary_stored_with_the_exact_ids(tmp_path, sse_server):
    sse_server.script(json_response(completion_body("Budget is 40k; due in May.")))

    async def body(h: Harness) -> None:
        conversation_id, path = h.long_chat()
        conversation = h.repo.get_conversation(conversation_id)
        assert conversation is not None
        result = await h.context.window_for(conversation, path, MODEL, THRESHOLD)
        assert result.summary_text == "Budget is 40k; due in May." and result.notice is None
        sent = ids(result.messages)
        assert sent and sent == ids(path[-len(sent) :]) and len(sent) < len(path)
        assert path[-len(sent)].role is Role.USER
        stored = h.repo.get_conversation(conversation_id)
        assert stored is not None
        assert stored.summary == RollingSummary(
            "Budget is 40k; due in May.", ids(path[: len(path) - len(sent)])
        )
        request = sse_server.requests[0].json
        assert request["model"] == "test-model" and request["stream"] is False
        assert INSTRUCTION in asked_text(sse_server)
        assert "message 0:" in asked_text(sse_server)
        assert f"message {len(path) - 1}:" not in asked_text(sse_server)

    run(tmp_path, sse_server, body)


def test_the_utility_model_writes_the_summary_when_one_is_set(tmp_path, sse_server):
    sse_server.script(json_response(completion_body("Short.")))

    async def body(h: Harness) -> None:
        conversation_id, path = h.long_chat()
        conversation = h.repo.get_conversation(conversation_id)
        assert conversation is not None
        await h.context.window_for(conversation, path, MODEL, THRESHOLD)
        assert sse_server.requests[0].json["model"] == "small-model"

    run(tmp_path, sse_server, body, utility=UTILITY)


def test_a_failed_summary_sends_only_the_recent_window_and_says_so(tmp_path, sse_server):
    sse_server.script(error_response(400, "model overloaded"))

    async def body(h: Harness) -> None:
        conversation_id, path = h.long_chat()
        conversation = h.repo.get_conversation(conversation_id)
        assert conversation is not None
        result = await h.context.window_for(conversation, path, MODEL, THRESHOLD)
        assert result.summary_text is None
        assert result.notice == failure_notice()
        assert "could not be summarised" in result.notice
        sent = ids(result.messages)
        assert 4 <= len(sent) < len(path) and sent == ids(path[-len(sent) :])
        assert path[0].id not in sent  # never the full history
        stored = h.repo.get_conversation(conversation_id)
        assert stored is not None and stored.summary is None

    run(tmp_path, sse_server, body)


def test_a_valid_summary_is_reused_without_asking_a_model(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        conversation_id, path = h.long_chat()
        conversation = h.repo.get_conversation(conversation_id)
        assert conversation is not None
        covered = ids(path[:10])
        h.repo.set_summary(conversation_id, RollingSummary("kept", covered))
        # At 2,000 tokens the window is the newest ten messages: exactly what is left.
        result = await h.context.window_for(conversation, path, MODEL, 2_000)
        assert result.summary_text == "kept" and result.notice is None
        assert ids(result.messages) == ids(path[10:])
        assert sse_server.requests == []

    run(tmp_path, sse_server, body)


def test_a_refresh_merges_the_person_edited_summary_with_the_newer_messages(tmp_path, sse_server):
    sse_server.script(json_response(completion_body("Merged.")))

    async def body(h: Harness) -> None:
        conversation_id, path = h.long_chat()
        h.repo.set_summary(conversation_id, RollingSummary("Edited by hand: ACME", ids(path[:4])))
        conversation = h.repo.get_conversation(conversation_id)
        assert conversation is not None
        result = await h.context.window_for(conversation, path, MODEL, THRESHOLD)
        assert result.summary_text == "Merged."
        asked = asked_text(sse_server)
        assert "Edited by hand: ACME" in asked
        assert "message 4:" in asked and "message 3:" not in asked
        stored = h.repo.get_conversation(conversation_id)
        assert stored is not None and stored.summary is not None
        assert stored.summary.covered_ids[:4] == ids(path[:4])

    run(tmp_path, sse_server, body)


def test_compress_now_summarises_all_but_the_last_messages_with_instructions(tmp_path, sse_server):
    sse_server.script(json_response(completion_body("Compressed.")))

    async def body(h: Harness) -> None:
        conversation_id, path = h.long_chat(8)
        summary = await h.context.compress_now(conversation_id, "Keep every number.")
        assert summary == RollingSummary("Compressed.", ids(path[:4]))
        assert "Keep every number." in asked_text(sse_server)
        assert sse_server.requests[0].json["model"] == "test-model"
        stored = h.repo.get_conversation(conversation_id)
        assert stored is not None and stored.summary == summary

    run(tmp_path, sse_server, body)


def test_compress_now_reports_a_failure_and_stores_nothing(tmp_path, sse_server):
    sse_server.script(error_response(400, "no such model"))

    async def body(h: Harness) -> None:
        conversation_id, _ = h.long_chat(8)
        with pytest.raises(ProviderError):
            await h.context.compress_now(conversation_id, None)
        stored = h.repo.get_conversation(conversation_id)
        assert stored is not None and stored.summary is None

    run(tmp_path, sse_server, body)
