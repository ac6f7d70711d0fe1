"""Memories in answers, end to end: the real memory service on the chat database, the
tool loop and a loopback model. What the request carries (the block, handles, never
ids), the scope rules, and the memory tools' save / duplicate / update / delete."""

from __future__ import annotations

import json
from typing import Any

from desktop.core.memory import GLOBAL_SCOPE, scope_for
from desktop.core.models import CallState
from desktop.engine.memory.block import TAG
from desktop.engine.memory.service import MemoryService
from tests.support.chat_wire import call_answer, tool_messages
from tests.support.engine_harness import TOOLS_MODEL, ToolHarness, run_tools
from tests.support.settings_files import write_settings
from tests.support.sse_server import default_stream

OWN = scope_for("default")


def _settings(h: ToolHarness, **assistant: Any) -> None:
    write_settings(
        h.root,
        h.server.base_url,
        ("gpt-4o", "test-model"),
        assistants=[{"id": "default", "name": "Parley", **assistant}],
    )


def _system(body: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "system")


def _memory(h: ToolHarness) -> MemoryService:
    service = MemoryService(h.db)
    h.chat.memory = service
    return service


def test_all_memories_go_in_the_system_text_by_handle_and_scope(tmp_path, sse_server):
    sse_server.script(default_stream("Hello Ana."), default_stream("Hello again."))

    async def body(h: ToolHarness) -> None:
        service = _memory(h)
        own = (await service.save(OWN, "The person's name is Ana")).memory
        shared = (await service.save(GLOBAL_SCOPE, "The person lives in Porto")).memory
        other = (await service.save(scope_for("writer"), "Prefers British spelling")).memory
        await h.chat.send(None, "Hi", TOOLS_MODEL)
        await h.wait_finished()
        system = _system(sse_server.requests[0].json)
        assert f"<{TAG}>" in system and "[m1] The person's name is Ana" in system
        assert "Porto" not in system  # global memories only for assistants that opt in
        assert "British" not in system  # another assistant's memory
        wire = json.dumps(sse_server.requests[0].json)
        assert own.id not in wire and shared.id not in wire and other.id not in wire

    run_tools(tmp_path, sse_server, body, setup=lambda h: _settings(h, memory="all"))


def test_global_memories_reach_an_assistant_that_opts_in(tmp_path, sse_server):
    sse_server.script(default_stream("Hello."))

    async def body(h: ToolHarness) -> None:
        service = _memory(h)
        await service.save(GLOBAL_SCOPE, "The person lives in Porto")
        await h.chat.send(None, "Hi", TOOLS_MODEL)
        await h.wait_finished()
        assert "The person lives in Porto" in _system(sse_server.requests[0].json)

    run_tools(
        tmp_path,
        sse_server,
        body,
        setup=lambda h: _settings(h, memory="all", global_memories=True),
    )


def test_the_memory_tools_save_find_duplicates_update_and_delete(tmp_path, sse_server):
    fact = "The person's cat is called Miso"
    sse_server.script(
        call_answer("call_1", "memory_save", {"text": fact}),
        call_answer("call_2", "memory_save", {"text": "the person's cat is called miso."}),
        call_answer("call_3", "memory_update", {"handle": "m1", "text": fact + " (a tabby)"}),
        call_answer("call_4", "memory_delete", {"handle": "m9"}),
        call_answer("call_5", "memory_delete", {"handle": "m1"}),
        default_stream("Done."),
        default_stream("Nothing remembered."),
    )

    async def body(h: ToolHarness) -> None:
        service = _memory(h)
        sent = await h.chat.send(None, "Remember my cat is Miso", TOOLS_MODEL)
        await h.wait_finished()
        requests = [r.json for r in sse_server.requests]
        offered = [t["function"]["name"] for t in requests[0]["tools"]]
        assert {"memory_search", "memory_save", "memory_update", "memory_delete"} <= set(offered)
        saved = json.loads(tool_messages(requests[1])["call_1"])
        assert saved == {"handle": "m1", "text": fact, "saved": True}
        again = json.loads(tool_messages(requests[2])["call_2"])
        assert again["handle"] == "m1" and again["saved"] is False  # a near-duplicate
        updated = json.loads(tool_messages(requests[3])["call_3"])
        assert updated == {"handle": "m1", "text": fact + " (a tabby)", "updated": True}
        unknown = tool_messages(requests[4])["call_4"]
        assert unknown.startswith("Error: ") and "m9" in unknown
        assert json.loads(tool_messages(requests[5])["call_5"])["deleted"] is True

        answer = h.repo.get_message(sent.assistant_message_id)
        assert answer is not None
        states = [c.state for c in h.calls(answer.id)]
        assert states == [CallState.DONE] * 3 + [CallState.ERROR, CallState.DONE]
        assert await service.list() == []  # deleted stays deleted
        for request in requests:
            assert sent.assistant_message_id not in json.dumps(request)

        await h.chat.send(None, "What is my cat called?", TOOLS_MODEL)
        await h.wait_finished(2)
        assert "Miso" not in _system(sse_server.requests[-1].json)

    run_tools(tmp_path, sse_server, body, setup=lambda h: _settings(h, memory="all"))


def test_a_saved_memory_keeps_where_it_came_from(tmp_path, sse_server):
    sse_server.script(
        call_answer("call_1", "memory_save", {"text": "Ana takes her coffee black"}),
        default_stream("Noted."),
    )

    async def body(h: ToolHarness) -> None:
        service = _memory(h)
        sent = await h.chat.send(None, "I take my coffee black", TOOLS_MODEL)
        await h.wait_finished()
        (memory,) = await service.list()
        assert memory.scope == OWN
        assert memory.source_conversation_id == sent.conversation_id
        assert memory.source_message_id == sent.assistant_message_id

    run_tools(tmp_path, sse_server, body, setup=lambda h: _settings(h, memory="retrieve"))


def test_memory_off_offers_no_memory_tool_and_no_block(tmp_path, sse_server):
    sse_server.script(default_stream("Hello."))

    async def body(h: ToolHarness) -> None:
        service = _memory(h)
        await service.save(OWN, "The person's name is Ana")
        await h.chat.send(None, "Hi", TOOLS_MODEL)
        await h.wait_finished()
        request = sse_server.requests[0].json
        assert "Ana" not in _system(request)
        assert not [t for t in request["tools"] if t["function"]["name"].startswith("memory_")]

    run_tools(tmp_path, sse_server, body, setup=_settings)
