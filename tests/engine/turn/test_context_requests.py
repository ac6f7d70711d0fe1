"""The rolling context on the wire: what a long conversation's next request carries
when its summary is written, and when writing it fails."""

from __future__ import annotations

import json

from desktop.core.models import Message, MessageStatus, NoticePart, Role, TextPart, new_id
from desktop.engine.context.service import failure_notice
from tests.support.chat_wire import turns
from tests.support.engine_harness import MODEL, Harness, run, updates
from tests.support.sse_server import completion_body, default_stream, error_response, json_response

SMALL = [{"id": "default", "name": "Parley", "context_threshold": 1000}]
LINE = "The migration plan moves the archive to the new cluster in stages. "


def long_history(h: Harness, exchanges: int = 10) -> str:
    """A conversation well over 1,000 estimated tokens, written straight to storage."""
    conversation = h.chat.create_conversation("Long")
    parent = None
    for n in range(exchanges):
        for role, text in (
            (Role.USER, f"Question {n}: " + LINE * 6),
            (Role.ASSISTANT, f"Answer {n}."),
        ):
            message = Message(new_id(), conversation.id, parent, role, [TextPart(text)])
            if role is Role.ASSISTANT:
                message.model = MODEL
            h.repo.add_message(message)
            parent = message.id
    return conversation.id


def test_a_failed_summary_sends_only_the_recent_window_and_says_so(tmp_path, sse_server):
    sse_server.script(error_response(400, "summaries are not allowed"), default_stream("Ok."))

    async def body(h: Harness) -> None:
        conversation_id = long_history(h)
        result = await h.chat.send(conversation_id, "Where are we?", MODEL)
        await h.wait_finished()
        summary_request, chat_request = sse_server.requests
        assert "stream" not in summary_request.json or not summary_request.json["stream"]
        sent = turns(chat_request.json)
        texts = json.dumps(sent)
        assert "Question 0:" not in texts  # never silently the full history
        assert sent[-1] == {"role": "user", "content": "Where are we?"}
        assert 4 <= len(sent) < 21
        assert "Summary of the earlier conversation" not in json.dumps(chat_request.json)
        answer = h.repo.get_message(result.assistant_message_id)
        assert answer is not None and answer.status is MessageStatus.COMPLETE
        notices = [p.text for p in answer.parts if isinstance(p, NoticePart)]
        assert notices == [failure_notice()]
        assert h.chat.conversation(conversation_id).summary is None

    run(tmp_path, sse_server, body, assistants=SMALL)


def test_a_written_summary_stands_for_the_older_messages(tmp_path, sse_server):
    sse_server.script(
        json_response(completion_body("They planned the archive migration.")),
        default_stream("Ok."),
    )

    async def body(h: Harness) -> None:
        conversation_id = long_history(h)
        sent = await h.chat.send(conversation_id, "Where are we?", MODEL)
        await h.wait_finished()
        # While the summary is written, the answer says what it waits for.
        waits = {m.activity for m in updates(h, sent.assistant_message_id)}
        assert "Summarising earlier messages…" in waits
        chat_request = sse_server.requests[1].json
        system = chat_request["messages"][0]
        assert system["role"] == "system"
        assert "They planned the archive migration." in system["content"]
        assert "Question 0:" not in json.dumps(turns(chat_request))
        stored = h.chat.conversation(conversation_id).summary
        assert stored is not None and stored.text == "They planned the archive migration."
        path = h.repo.active_path(conversation_id)
        # The summary covers exactly the oldest messages, in order.
        assert stored.covered_ids == tuple(m.id for m in path[: len(stored.covered_ids)])

    run(tmp_path, sse_server, body, assistants=SMALL)
