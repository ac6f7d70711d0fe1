"""Searching the person's documents on demand, end to end: a model that calls tools is
offered `knowledge_search` (first) instead of being given passages up front; the real
knowledge service answers each call; the loopback server's recorded requests show
what the model read, round by round, up to the limit."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from desktop.core.models import CallState, CitationPart, MessageStatus, ModelRef, NoticePart
from desktop.engine.knowledge.context import ON_DEMAND_NOTE, TAG, WITHDRAWN_NOTE
from desktop.engine.turn.chat_service import SendResult
from desktop.engine.turn.search_ledger import MAX_CALLS_PER_ROUND, MAX_ROUNDS
from tests.support.chat_wire import delta_chunk, streamed_call, tool_messages
from tests.support.engine_harness import TOOLS_MODEL, ToolHarness, run_tools
from tests.support.knowledge import HashingEmbedder, code_library, indexed_codes
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, default_stream, sse_response, usage_chunk

SEARCH = "knowledge_search"


def searches(*queries: str, first_id: int = 1) -> list[Any]:
    """One model step asking for these searches at once, as OpenAI streams it."""
    pieces = []
    for index, query in enumerate(queries):
        call_id = f"call_{first_id + index}"
        pieces += streamed_call(index, call_id, SEARCH, json.dumps({"query": query}))
    return sse_response(*pieces, delta_chunk({}, "tool_calls"), usage_chunk(10, 5), DONE)


def _settings(h: ToolHarness, retrieval: str | None = None, models: tuple[str, ...] = ()) -> None:
    assistant: dict[str, Any] = {"id": "default", "name": "Parley", "libraries": ["docs"]}
    if retrieval is not None:
        assistant["retrieval"] = retrieval
    write_settings(
        h.root,
        h.server.base_url,
        models or ("gpt-4o", "test-model"),
        assistants=[assistant],
        libraries=[code_library(h.root.parent / "docs")],
    )


async def _ask(h: ToolHarness, question: str, model: ModelRef = TOOLS_MODEL) -> SendResult:
    """Ask with the code library indexed by the real knowledge service, and wait for
    the answer to finish."""
    service = await indexed_codes(h.root, h.settings, h.chat, HashingEmbedder())
    try:
        sent = await h.chat.send(None, question, model)
        await h.wait_finished()
    finally:
        await service.close()
    return sent


def _system(body: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "system")


def _offered(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools", [])]


def _results(body: dict[str, Any], call_id: str) -> dict[str, Any]:
    return json.loads(tool_messages(body)[call_id])


def test_the_model_searches_in_rounds_and_cites_numbers_that_stay_put(tmp_path, sse_server):
    sse_server.script(
        searches("ERR_7734 upload refused", "printer out of paper"),
        searches("ERR_7734 quota", first_id=3),
        searches("anything about quotas", first_id=4),
        searches("one more try", first_id=5),  # a fourth round: refused, answer ends
    )

    async def body(h: ToolHarness) -> None:
        sent = await _ask(h, "Why did my upload fail?")
        requests = [r.json for r in sse_server.requests]
        assert len(requests) == 1 + MAX_ROUNDS
        first = requests[0]
        # No passage was searched for before the first token: only the tool, first.
        assert _offered(first)[0] == SEARCH
        assert f"<{TAG}" not in _system(first) and ON_DEMAND_NOTE in _system(first)

        second = requests[1]
        quota = _results(second, "call_1")["results"]
        paper = _results(second, "call_2")["results"]
        assert [r["number"] for r in quota][:1] == [1]
        assert quota[0]["file"] == "codes.md" and "disk quota" in quota[0]["content"]
        numbers = {r["number"]: r for r in quota + paper if "content" in r}
        assert sorted(numbers) == list(range(1, len(numbers) + 1))  # numbered across calls
        printer = next(n for n, r in numbers.items() if "printer" in r["content"])

        # The same passage found again keeps its number, and is not sent twice.
        again = _results(requests[2], "call_3")["results"]
        assert {"number": 1, "already_found": True} in again

        # After the third round the tool is withdrawn (the others stay) and the model
        # is asked to answer.
        last = requests[3]
        assert SEARCH not in _offered(last) and "current_time" in _offered(last)
        assert WITHDRAWN_NOTE in _system(last)

        for request in requests:
            wire = json.dumps(request)
            assert str(tmp_path) not in wire  # no absolute path reaches the provider
            assert "chunk_id" not in wire and "library_id" not in wire and '"docs"' not in wire

        answer = h.repo.get_message(sent.assistant_message_id)
        assert answer is not None and answer.status is MessageStatus.COMPLETE
        cited = [p for p in answer.parts if isinstance(p, CitationPart)]
        assert [c.number for c in cited] == sorted(numbers)
        assert cited[0].relative_path == "codes.md" and "ERR_7734" in cited[0].excerpt
        assert "printer" in cited[printer - 1].excerpt
        calls = {c.call_id: c for c in h.calls(answer.id)}
        assert calls["call_5"].state is CallState.ERROR
        assert "limit" in calls["call_5"].result
        notices = [p.text for p in answer.parts if isinstance(p, NoticePart)]
        assert any("searches were used up" in n for n in notices)
        assert answer.usage is not None and answer.usage.input_tokens == 10 * (1 + MAX_ROUNDS)

    run_tools(tmp_path, sse_server, body, setup=_settings)


def test_a_round_runs_at_most_six_searches(tmp_path, sse_server):
    queries = [f"ERR_7734 try {n}" for n in range(MAX_CALLS_PER_ROUND + 1)]
    sse_server.script(searches(*queries), default_stream("The quota is spent [1]."))

    async def body(h: ToolHarness) -> None:
        sent = await _ask(h, "ERR_7734?")
        answer = h.repo.get_message(sent.assistant_message_id)
        assert answer is not None and answer.status is MessageStatus.COMPLETE
        states = [c.state for c in h.calls(answer.id)]
        assert states == [CallState.DONE] * MAX_CALLS_PER_ROUND + [CallState.ERROR]
        second = sse_server.requests[1].json
        over = tool_messages(second)[f"call_{MAX_CALLS_PER_ROUND + 1}"]
        assert "limit" in over and over.startswith("Error: ")
        assert SEARCH in _offered(second)  # one round used of three: still offered
        assert answer.text == "The quota is spent [1]."

    run_tools(tmp_path, sse_server, body, setup=_settings)


def test_a_failed_search_is_a_failed_tool_result_and_the_answer_goes_on(tmp_path, sse_server):
    sse_server.script(searches("ERR_7734"), default_stream("I could not read them."))

    async def body(h: ToolHarness) -> None:
        service = await indexed_codes(h.root, h.settings, h.chat, HashingEmbedder())
        try:
            with sqlite3.connect(h.root / "knowledge" / "index.db") as index:
                index.execute("DROP TABLE chunks_fts")
            sent = await h.chat.send(None, "ERR_7734?", TOOLS_MODEL)
            await h.wait_finished()
        finally:
            await service.close()
        answer = h.repo.get_message(sent.assistant_message_id)
        assert answer is not None and answer.status is MessageStatus.COMPLETE
        (call,) = h.calls(answer.id)
        assert call.state is CallState.ERROR and call.is_error
        sent_back = tool_messages(sse_server.requests[1].json)["call_1"]
        assert sent_back.startswith("Error: ") and "could not be searched" in sent_back
        assert "results" not in sent_back  # never an empty result standing for a failure
        assert not [p for p in answer.parts if isinstance(p, CitationPart)]

    run_tools(tmp_path, sse_server, body, setup=_settings)


def test_pre_retrieval_gives_passages_up_front_and_offers_no_search(tmp_path, sse_server):
    sse_server.script(default_stream("The quota is spent [1]."))

    async def body(h: ToolHarness) -> None:
        sent = await _ask(h, "What does ERR_7734 mean?")
        (request,) = [r.json for r in sse_server.requests]
        assert SEARCH not in _offered(request) and "current_time" in _offered(request)
        assert f'<{TAG} number="1" file="codes.md"' in _system(request)
        assert ON_DEMAND_NOTE not in _system(request)
        answer = h.repo.get_message(sent.assistant_message_id)
        assert answer is not None
        assert [p.number for p in answer.parts if isinstance(p, CitationPart)][:1] == [1]

    run_tools(tmp_path, sse_server, body, setup=lambda h: _settings(h, "pre_retrieve"))


def test_on_demand_only_with_a_model_without_tools_says_it_did_not_search(tmp_path, sse_server):
    sse_server.script(default_stream("I do not know."))

    async def body(h: ToolHarness) -> None:
        plain = ModelRef(TOOLS_MODEL.provider_id, "test-model")  # no tool calling
        sent = await _ask(h, "What does ERR_7734 mean?", plain)
        (request,) = [r.json for r in sse_server.requests]
        assert "tools" not in request and f"<{TAG}" not in _system(request)
        answer = h.repo.get_message(sent.assistant_message_id)
        assert answer is not None and answer.status is MessageStatus.COMPLETE
        notices = [p.text for p in answer.parts if isinstance(p, NoticePart)]
        assert any("cannot call tools" in n for n in notices)
        assert not [p for p in answer.parts if isinstance(p, CitationPart)]

    run_tools(tmp_path, sse_server, body, setup=lambda h: _settings(h, "tool_only"))


def test_a_person_who_turned_the_search_tool_off_gets_passages_up_front(tmp_path, sse_server):
    sse_server.script(default_stream("The quota is spent [1]."))

    def setup(h: ToolHarness) -> None:
        _settings(h)
        path = Path(h.root / "settings.json")
        data = json.loads(path.read_text(encoding="utf-8"))
        data["tools"] = {"policies": {SEARCH: "off"}}
        path.write_text(json.dumps(data), encoding="utf-8")

    async def body(h: ToolHarness) -> None:
        await _ask(h, "What does ERR_7734 mean?")
        (request,) = [r.json for r in sse_server.requests]
        assert SEARCH not in _offered(request)
        assert f'<{TAG} number="1" file="codes.md"' in _system(request)

    run_tools(tmp_path, sse_server, body, setup=setup)


def test_after_the_last_round_the_model_answers_with_what_it_found(tmp_path, sse_server):
    sse_server.script(
        searches("ERR_7734", "printer"),
        searches("ERR_7734 quota", first_id=3),
        searches("PRN_12", first_id=4),
        default_stream("The quota is spent [1]."),
    )

    async def body(h: ToolHarness) -> None:
        sent = await _ask(h, "Why did my upload fail?")
        last = sse_server.requests[-1].json
        assert len(sse_server.requests) == 1 + MAX_ROUNDS
        assert SEARCH not in _offered(last) and WITHDRAWN_NOTE in _system(last)
        answer = h.repo.get_message(sent.assistant_message_id)
        assert answer is not None and answer.status is MessageStatus.COMPLETE
        assert answer.text == "The quota is spent [1]."
        assert not [p for p in answer.parts if isinstance(p, NoticePart)]

    run_tools(tmp_path, sse_server, body, setup=_settings)
