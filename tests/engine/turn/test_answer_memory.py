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
from desktop.engine.turn.answer_memory import handle_for
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
        sent = await h.chat.send(None, "Hi", TOOLS_MODEL)
        await h.wait_finished()
        system = _system(sse_server.requests[0].json)
        handle = handle_for(sent.conversation_id, own.id)
        assert f"<{TAG}>" in system and f"[{handle}] The person's name is Ana" in system
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
        default_stream("Saved."),
    )

    async def body(h: ToolHarness) -> None:
        service = _memory(h)
        other = (await service.save(OWN, "The person's name is Ana")).memory
        sent = await h.chat.send(None, "Remember my cat is Miso", TOOLS_MODEL)
        await h.wait_finished()
        requests = [r.json for r in sse_server.requests]
        offered = [t["function"]["name"] for t in requests[0]["tools"]]
        assert {"memory_search", "memory_save", "memory_update", "memory_delete"} <= set(offered)
        saved = json.loads(tool_messages(requests[1])["call_1"])
        handle = saved["handle"]
        assert saved == {"handle": handle, "text": fact, "saved": True}
        assert handle != handle_for(sent.conversation_id, other.id)
        again = json.loads(tool_messages(requests[2])["call_2"])
        assert again["handle"] == handle and again["saved"] is False  # a near-duplicate

        # A later answer of the same chat names the memory by the handle it was given
        # then: the same memory, never another one.
        sse_server.script(
            call_answer("call_3", "memory_update", {"handle": handle, "text": fact + " (tabby)"}),
            call_answer("call_4", "memory_delete", {"handle": "m9"}),
            call_answer("call_5", "memory_delete", {"handle": f"[{handle.upper()}]"}),
            default_stream("Done."),
            default_stream("Nothing remembered."),
        )
        second = await h.chat.send(
            sent.conversation_id, "Make it a tabby, then forget it", TOOLS_MODEL
        )
        await h.wait_finished(2)
        requests = [r.json for r in sse_server.requests]
        updated = json.loads(tool_messages(requests[4])["call_3"])
        assert updated == {"handle": handle, "text": fact + " (tabby)", "updated": True}
        unknown = tool_messages(requests[5])["call_4"]
        assert unknown.startswith("Error: ") and "m9" in unknown
        assert json.loads(tool_messages(requests[6])["call_5"])["deleted"] is True

        answer = h.repo.get_message(second.assistant_message_id)
        assert answer is not None
        states = [c.state for c in h.calls(answer.id)]
        assert states == [CallState.DONE, CallState.ERROR, CallState.DONE]
        assert [m.text for m in await service.list()] == ["The person's name is Ana"]
        for request in requests:
            wire = json.dumps(request)
            assert other.id not in wire and sent.assistant_message_id not in wire

        await h.chat.send(sent.conversation_id, "What is my cat called?", TOOLS_MODEL)
        await h.wait_finished(3)
        assert "Miso" not in _system(sse_server.requests[-1].json)  # deleted stays deleted

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
