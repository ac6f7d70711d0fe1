"""Searching the person's earlier chats as a tool, end to end: offered only by an
assistant that allows it, leaving the chat asking out, bounded by dates, and numbered
with the answer's other sources as citations that open the chat at that message."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from desktop.core.models import CitationPart, Message, Role, SourceKind, TextPart, new_id
from tests.support.chat_wire import call_answer, delta_chunk, streamed_call, tool_messages
from tests.support.engine_harness import TOOLS_MODEL, ToolHarness, run_tools
from tests.support.knowledge import HashingEmbedder, code_library, indexed_codes
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, default_stream, sse_response, usage_chunk

SEARCH = "search_conversations"


def _settings(h: ToolHarness, **assistant: Any) -> None:
    write_settings(
        h.root,
        h.server.base_url,
        ("gpt-4o",),
        assistants=[{"id": "default", "name": "Parley", **assistant}],
        libraries=[code_library(h.root.parent / "docs")],
    )


def _earlier_chat(h: ToolHarness, title: str, text: str, when: datetime) -> tuple[str, str]:
    conversation = h.chat.create_conversation(title)
    message = Message(new_id(), conversation.id, None, Role.USER, [TextPart(text)], created_at=when)
    h.repo.add_message(message)
    return conversation.id, message.id


def _offered(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools", [])]


def test_an_assistant_without_the_switch_does_not_offer_past_chats(tmp_path, sse_server):
    sse_server.script(default_stream("Hello."))

    async def body(h: ToolHarness) -> None:
        await h.chat.send(None, "Hi", TOOLS_MODEL)
        await h.wait_finished()
        assert SEARCH not in _offered(sse_server.requests[0].json)

    run_tools(tmp_path, sse_server, body, setup=_settings)


def test_past_chats_are_numbered_cited_and_the_current_chat_left_out(tmp_path, sse_server):
    sse_server.script(
        call_answer("call_1", SEARCH, {"query": "lighthouse", "since": "2026-01-01"}),
        default_stream("You planned the lighthouse walk in March [1]."),
    )

    async def body(h: ToolHarness) -> None:
        march = datetime(2026, 3, 14, 10, tzinfo=UTC)
        walk, said = _earlier_chat(h, "Weekend plans", "A walk to the lighthouse", march)
        _earlier_chat(h, "Old trip", "The lighthouse in 2025", datetime(2025, 6, 1, tzinfo=UTC))
        sent = await h.chat.send(None, "When did I plan the lighthouse walk?", TOOLS_MODEL)
        await h.wait_finished()
        first, second = (r.json for r in sse_server.requests)
        assert _offered(first)[0] == SEARCH
        results = json.loads(tool_messages(second)["call_1"])["results"]
        assert results == [
            {
                "number": 1,
                "conversation": "Weekend plans",
                "date": march.astimezone().date().isoformat(),
                "snippet": "A walk to the lighthouse",
            }
        ]  # the 2025 chat is before `since`; the chat asking is left out
        wire = json.dumps(second)
        assert walk not in wire and said not in wire and sent.conversation_id not in wire

        answer = h.repo.get_message(sent.assistant_message_id)
        assert answer is not None
        (cited,) = [p for p in answer.parts if isinstance(p, CitationPart)]
        assert cited.kind is SourceKind.CHAT and cited.number == 1
        assert (cited.conversation_id, cited.message_id) == (walk, said)
        assert cited.title == "Weekend plans" and cited.excerpt == "A walk to the lighthouse"

    run_tools(tmp_path, sse_server, body, setup=lambda h: _settings(h, past_chats=True))


def test_a_document_and_a_chat_found_in_one_step_share_one_numbering(tmp_path, sse_server):
    both = sse_response(
        *streamed_call(0, "call_1", "knowledge_search", json.dumps({"query": "ERR_7734"})),
        *streamed_call(1, "call_2", SEARCH, json.dumps({"query": "quota"})),
        delta_chunk({}, "tool_calls"),
        usage_chunk(10, 5),
        DONE,
    )
    sse_server.script(both, default_stream("The quota [1] you asked about before [2]."))

    async def body(h: ToolHarness) -> None:
        service = await indexed_codes(h.root, h.settings, h.chat, HashingEmbedder())
        try:
            _earlier_chat(h, "Storage", "My quota ran out", datetime(2026, 2, 1, tzinfo=UTC))
            sent = await h.chat.send(None, "What is ERR_7734?", TOOLS_MODEL)
            await h.wait_finished()
        finally:
            await service.close()
        second = sse_server.requests[1].json
        documents = json.loads(tool_messages(second)["call_1"])["results"]
        chats = json.loads(tool_messages(second)["call_2"])["results"]
        assert [d["number"] for d in documents] == list(range(1, len(documents) + 1))
        assert chats[0]["number"] == len(documents) + 1  # on from the documents
        answer = h.repo.get_message(sent.assistant_message_id)
        assert answer is not None
        kinds = [(p.number, p.kind) for p in answer.parts if isinstance(p, CitationPart)]
        assert kinds[-1] == (len(documents) + 1, SourceKind.CHAT)

    run_tools(
        tmp_path,
        sse_server,
        body,
        setup=lambda h: _settings(h, past_chats=True, libraries=["docs"]),
    )


def test_bad_dates_are_a_clear_tool_error(tmp_path, sse_server):
    sse_server.script(
        call_answer("call_1", SEARCH, {"query": "x", "since": "last week"}),
        default_stream("Sorry."),
    )

    async def body(h: ToolHarness) -> None:
        await h.chat.send(None, "x", TOOLS_MODEL)
        await h.wait_finished()
        sent = tool_messages(sse_server.requests[1].json)["call_1"]
        assert sent.startswith("Error: ") and "2026-03-31" in sent

    run_tools(tmp_path, sse_server, body, setup=lambda h: _settings(h, past_chats=True))
