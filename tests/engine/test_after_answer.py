"""Titles and follow-up suggestions after an answer, end to end: a real ChatService on
a real SQLite file, and a loopback OpenAI server that records what each request got
and when."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from desktop.core.events import ConversationsChanged, GenerationFinished, SuggestionsReady
from desktop.core.models import ModelRef, utc_now
from desktop.engine import suggestions, titles
from desktop.engine.after_answer import AfterAnswer
from desktop.engine.settings_service import SettingsService
from desktop.engine.turn.chat_service import ChatService
from desktop.engine.utility import UtilityModel
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.secrets import SecretStore
from tests.support.chat_wire import kind_of
from tests.support.engine_harness import FAST_RETRIES, run_harness
from tests.support.sse_server import (
    RecordedRequest,
    Sleep,
    SSEServer,
    completion_body,
    default_stream,
    error_response,
    json_response,
    raw_response,
)
from tests.support.waiting import wait_for

MODEL = ModelRef("local", "test-model")


class Harness:
    def __init__(self, tmp_path: Path, server: SSEServer, utility_model: str | None) -> None:
        self.root = tmp_path
        self.server = server
        settings: dict[str, Any] = {
            "version": 1,
            "providers": [
                {
                    "id": "local",
                    "name": "Local",
                    "kind": "openai_chat",
                    "base_url": server.base_url,
                    "models": ["test-model", "mini"],
                }
            ],
            "utility_model": utility_model,
        }
        (tmp_path / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        self.db = Database.open(tmp_path / "parley.db")
        self.repo = ChatRepository(self.db)
        self.events: list[object] = []
        self.titles: list[tuple[datetime, str]] = []

    async def __aenter__(self) -> Harness:
        self.http = httpx.AsyncClient(trust_env=False)
        self.settings = SettingsService(
            self.root / "settings.json", SecretStore(), self.http, retry_policy=FAST_RETRIES
        )
        self.chat = ChatService(self.repo, self.settings)
        self.chat.events.subscribe(self.events.append)
        self.chat.events.subscribe(self._note_title)
        self.after = AfterAnswer(self.repo, UtilityModel(self.settings, timeout_s=5.0))
        self.after.start(self.chat)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.after.close()
        await self.chat.shutdown()
        await self.http.aclose()
        self.db.close()

    def _note_title(self, event: object) -> None:
        """When each title was first seen: a rename has no stored time of its own."""
        if isinstance(event, ConversationsChanged) and event.conversation_id:
            found = self.chat.conversation(event.conversation_id)
            if found is not None:
                self.titles.append((utc_now(), found.title))

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    async def idle(self, conversation_id: str) -> None:
        await wait_for(lambda: not self.after.running(conversation_id))


def run(
    tmp_path: Path,
    server: SSEServer,
    body: Callable[[Harness], Awaitable[None]],
    utility_model: str | None = None,
) -> None:
    run_harness(Harness(tmp_path, server, utility_model), body)


def answers(
    server: SSEServer,
    *,
    title: str = "Paris trip planning",
    suggested: str = '["What about trains?", "Best season?", "Where to stay?"]',
    delay: float = 0.0,
    seen: dict[str, list[Any]] | None = None,
    state: Callable[[], Any] | None = None,
) -> None:
    """Route each request by what it asks for; `seen[kind]` records `state()` at arrival."""

    def respond(request: RecordedRequest) -> Any:
        kind = kind_of(request)
        if seen is not None and state is not None:
            seen.setdefault(kind, []).append(state())
        if kind == "chat":
            return default_stream("Plan three days.")
        if kind == "title":
            steps = json_response(completion_body(title))
        elif kind == "suggestions":
            steps = json_response(completion_body(suggested))
        else:
            return None
        return [steps[0], Sleep(delay), *steps[1:]] if delay else steps

    server.route(respond)


def test_title_and_suggestions_come_after_the_finished_event(tmp_path, sse_server):
    seen: dict[str, list[Any]] = {}

    async def body(h: Harness) -> None:
        answers(sse_server, seen=seen, state=lambda: len(h.of(GenerationFinished)))
        result = await h.chat.send(None, "Help me plan a trip to Paris", MODEL)
        await wait_for(
            lambda: h.of(SuggestionsReady) and h.after.running(result.conversation_id) is False
        )
        conversation = h.chat.conversation(result.conversation_id)
        assert conversation is not None and conversation.title == "Paris trip planning"
        # When each utility request reached the server, the answer had finished.
        assert seen["title"] == [1] and seen["suggestions"] == [1]
        events = [type(e) for e in h.events]
        assert events.index(GenerationFinished) < events.index(SuggestionsReady)
        answer = h.repo.get_message(result.assistant_message_id)
        assert answer is not None and answer.finished_at is not None
        renamed = next(at for at, title in h.titles if title == "Paris trip planning")
        assert answer.finished_at <= renamed
        ready = h.of(SuggestionsReady)[0]
        assert ready.message_id == result.assistant_message_id
        assert ready.suggestions == ("What about trains?", "Best season?", "Where to stay?")

    run(tmp_path, sse_server, body)


def test_a_slow_title_does_not_delay_the_finished_event(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        answers(sse_server, delay=1.0)
        loop = asyncio.get_running_loop()
        started = loop.time()
        result = await h.chat.send(None, "Help me plan a trip to Paris", MODEL)
        await wait_for(lambda: h.of(GenerationFinished))
        finished_after = loop.time() - started
        assert h.after.running(result.conversation_id)  # title and suggestions still out
        conversation = h.chat.conversation(result.conversation_id)
        assert conversation is not None and conversation.title == "Help me plan a trip to Paris"
        await h.idle(result.conversation_id)
        assert loop.time() - started > 1.0 > finished_after
        conversation = h.chat.conversation(result.conversation_id)
        assert conversation is not None and conversation.title == "Paris trip planning"

    run(tmp_path, sse_server, body)


def test_the_persons_rename_wins_over_the_generated_title(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        answers(sse_server, delay=0.5)
        result = await h.chat.send(None, "Help me plan a trip to Paris", MODEL)
        await wait_for(lambda: h.of(GenerationFinished))
        # Renamed while the title is being written (its answer is 0.5 s late).
        await wait_for(lambda: "title" in [kind_of(r) for r in sse_server.requests])
        h.chat.rename_conversation(result.conversation_id, "My holiday")
        await h.idle(result.conversation_id)
        assert [kind_of(r) for r in sse_server.requests].count("title") == 1
        conversation = h.chat.conversation(result.conversation_id)
        assert conversation is not None and conversation.title == "My holiday"

    run(tmp_path, sse_server, body)


def test_only_the_first_answer_of_an_automatic_title_gets_a_title(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        answers(sse_server)
        conversation = h.chat.create_conversation("Named by me")
        await h.chat.send(conversation.id, "Help me plan a trip", MODEL)
        await wait_for(lambda: h.of(SuggestionsReady))
        await h.idle(conversation.id)
        await h.chat.send(conversation.id, "And Rome?", MODEL)
        await wait_for(lambda: len(h.of(SuggestionsReady)) == 2)
        await h.idle(conversation.id)
        kinds = [kind_of(r) for r in sse_server.requests]
        assert "title" not in kinds and kinds.count("suggestions") == 2
        found = h.chat.conversation(conversation.id)
        assert found is not None and found.title == "Named by me"

    run(tmp_path, sse_server, body)


def test_failures_are_quiet(tmp_path, sse_server, caplog):
    async def body(h: Harness) -> None:
        def respond(request: RecordedRequest) -> Any:
            kind = kind_of(request)
            if kind == "chat":
                return default_stream("Plan three days.")
            if kind == "title":
                return error_response(400, "no titles today")
            if kind == "suggestions":
                return raw_response(b"{not json")
            return None

        sse_server.route(respond)
        result = await h.chat.send(None, "Help me plan a trip to Paris", MODEL)
        await wait_for(lambda: h.of(GenerationFinished))
        await h.idle(result.conversation_id)
        conversation = h.chat.conversation(result.conversation_id)
        assert conversation is not None and conversation.title == "Help me plan a trip to Paris"
        assert h.of(SuggestionsReady) == []
        answer = h.repo.get_message(result.assistant_message_id)
        assert answer is not None and answer.error is None
        assert "could not write a title" in caplog.text
        assert "could not write suggestions" in caplog.text

    run(tmp_path, sse_server, body)


@pytest.mark.slow
def test_a_new_send_cancels_the_work_for_the_previous_answer(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        answers(sse_server, delay=2.0)
        first = await h.chat.send(None, "Help me plan a trip to Paris", MODEL)
        await wait_for(lambda: h.of(GenerationFinished))
        await asyncio.to_thread(sse_server.wait_for_requests, 3)
        assert h.after.running(first.conversation_id)
        answers(sse_server, delay=5.0)  # the second answer's extras outlast the test
        await h.chat.send(first.conversation_id, "And Rome?", MODEL)
        await wait_for(lambda: len(h.of(GenerationFinished)) == 2)
        await asyncio.sleep(2.5)  # past the first answer's delayed replies
        conversation = h.chat.conversation(first.conversation_id)
        assert conversation is not None and conversation.title == "Help me plan a trip to Paris"
        assert h.of(SuggestionsReady) == []

    run(tmp_path, sse_server, body)


def test_deleting_the_conversation_cancels_its_work(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        answers(sse_server, delay=5.0)
        result = await h.chat.send(None, "Help me plan a trip to Paris", MODEL)
        await wait_for(lambda: h.of(GenerationFinished))
        assert h.after.running(result.conversation_id)
        await h.chat.delete_conversation(result.conversation_id)
        assert not h.after.running(result.conversation_id)

    run(tmp_path, sse_server, body)


def test_the_utility_model_writes_them_when_one_is_set(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        answers(sse_server)
        result = await h.chat.send(None, "Help me plan a trip to Paris", MODEL)
        await wait_for(lambda: h.of(SuggestionsReady))
        await h.idle(result.conversation_id)
        models = {kind_of(r): r.json["model"] for r in sse_server.requests if r.json}
        assert models == {"chat": "test-model", "title": "mini", "suggestions": "mini"}

    run(tmp_path, sse_server, body, utility_model="local/mini")


def test_a_markdown_title_from_the_model_becomes_plain_text(tmp_path, sse_server):
    async def body(h: Harness) -> None:
        answers(sse_server, title="Hi! I am a **local mock** assistant, here to help.")
        result = await h.chat.send(None, "Hello", MODEL)
        await wait_for(lambda: h.of(GenerationFinished))
        await h.idle(result.conversation_id)
        assert [kind_of(r) for r in sse_server.requests].count("title") == 1
        conversation = h.chat.conversation(result.conversation_id)
        assert conversation is not None and conversation.title == "Hi! I am a local mock"

    run(tmp_path, sse_server, body)


@pytest.mark.parametrize(
    ("raw", "title"),
    [
        ("**Paris** trip _ideas_", "Paris trip ideas"),
        ("## Budget for 2025 ##", "Budget for 2025"),
        ("# Title: Weekend in Rome", "Weekend in Rome"),
        ("**Title:** `npm install` fails", "npm install fails"),
        ("See [the docs](https://example.com/a_b) and ![logo](x.png)", "See the docs and logo"),
        ("<https://example.com> explained", "https://example.com explained"),
        ("> - 1. ~~Old~~ New plan", "Old New plan"),
        ("- [x] Ship the release", "Ship the release"),
        ('"**Quoted** title"', "Quoted title"),
        ("Fixing snake_case and __init__ names", "Fixing snake_case and init names"),
        ("5 * 3 equals fifteen", "5 * 3 equals fifteen"),
        (r"Escaped \*stars\* stay", "Escaped *stars* stay"),
        (r"\*not\* emphasis", "*not* emphasis"),
        (r"\#1 priority: \*ship\*", "#1 priority: *ship*"),
        ("<b>Bold</b> move", "Bold move"),
        ("```\nDeploy checklist\n```", "Deploy checklist"),
        ("**\n\nTrip\tplanning\x1b[31m", "Trip planning [31m"),
    ],
)
def test_titles_are_plain_text(raw, title):
    assert titles.clean_title(raw) == title


def test_a_title_is_one_line_of_bounded_length_whatever_comes_back():
    title = titles.clean_title("Ü" * 5000 + " more\u2028second line")
    assert title == "Ü" * 60
    assert "\n" not in titles.clean_title("first\r\nsecond") == "first"
    # Hostile markup (unclosed links, endless emphasis runs) is cut before it is read.
    hostile = "[" * 200_000 + "(" * 200_000 + "*" * 200_000
    assert titles.clean_title(hostile) == "[" * 60
    assert titles.clean_title(" " * 100_000 + "#") == ""


def test_clean_title_keeps_one_short_line():
    assert (
        titles.clean_title('Title: "Planning a Paris Trip."\nMore text') == "Planning a Paris Trip"
    )
    assert titles.clean_title("one two three four five six seven eight") == (
        "one two three four five six"
    )
    assert titles.clean_title("「巴黎旅行计划」。") == "巴黎旅行计划"
    assert titles.clean_title("   \n ") == ""


def test_suggestions_are_read_from_fences_prose_and_lists():
    fenced = 'Sure!\n```json\n["A?", "B?", "A?", "C?", "D?"]\n```'
    assert suggestions.parse_suggestions(fenced) == ("A?", "B?", "C?")
    assert suggestions.parse_suggestions("1. First?\n2) Second?\n- Third?") == (
        "First?",
        "Second?",
        "Third?",
    )
    assert suggestions.parse_suggestions('["ok?", 3, ""]') == ("ok?",)
    assert suggestions.parse_suggestions("I cannot help with that.") == ()
