"""The tool loop end to end: a real SQLite file, real tools, and a loopback OpenAI server
whose recorded requests show what the model was told."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from desktop.core.events import ApprovalsChanged
from desktop.core.models import (
    CallState,
    DecidedBy,
    Decision,
    Message,
    MessageStatus,
    ModelRef,
    NoticePart,
    Role,
    TextPart,
    ToolCallPart,
    new_id,
)
from desktop.engine.prompt.system_prompt import NO_TOOLS_NOTE
from tests.support.chat_wire import call_answer, delta_chunk, streamed_call, tool_messages, turns
from tests.support.engine_harness import TOOLS_MODEL, ToolHarness, run_tools
from tests.support.sse_server import DONE, default_stream, sse_response
from tests.support.waiting import wait_for

PLAIN_MODEL = ModelRef("local", "test-model")  # not known to call tools


def refusal(content: str) -> dict[str, Any]:
    """A structured error result as the OpenAI wire carries it (after "Error: ")."""
    assert content.startswith("Error: ")
    return json.loads(content.removeprefix("Error: "))


# --- the loop ---------------------------------------------------------------------------


def test_an_auto_tool_runs_and_the_next_request_carries_its_result(tmp_path, sse_server):
    sse_server.script(call_answer("call_1", "current_time", {}), default_stream("It is noon."))

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(None, "What time is it?", TOOLS_MODEL)
        await h.wait_finished()
        first, second = (r.json for r in sse_server.requests)
        offered = {t["function"]["name"] for t in first["tools"]}
        assert {"current_time", "get_session_capabilities"} <= offered
        assert "search_conversations" not in offered  # only for assistants that allow it
        assert "write_file" not in offered  # no workspace folder in this conversation
        assert turns(second)[1]["tool_calls"][0]["id"] == "call_1"
        sent = json.loads(tool_messages(second)["call_1"])
        assert {"iso", "weekday", "timezone"} <= set(sent)

        answer = h.repo.get_message(result.assistant_message_id)
        assert answer.status is MessageStatus.COMPLETE
        assert answer.text == "It is noon."
        (call,) = h.calls(answer.id)
        assert call.state is CallState.DONE
        assert (call.decision, call.decided_by) == (Decision.AUTO, DecidedBy.POLICY)
        assert call.duration_ms is not None and call.result_size == len(call.result.encode())
        assert h.finished()[-1].status is MessageStatus.COMPLETE
        assert answer.usage is not None and answer.usage.input_tokens == 10 + 12  # both steps

    run_tools(tmp_path, sse_server, body)


def test_a_write_waits_for_approval_and_runs_once_approved(tmp_path, sse_server):
    args = {"path": "notes/hello.txt", "content": "hi there"}
    sse_server.script(call_answer("call_w", "write_file", args), default_stream("Done."))

    async def body(h: ToolHarness) -> None:
        conversation_id = await h.conversation()
        result = await h.chat.send(conversation_id, "Write a note", TOOLS_MODEL)
        request = await h.wait_approval()
        assert any(isinstance(e, ApprovalsChanged) for e in h.events)
        assert request.message_id == result.assistant_message_id
        (pending,) = request.calls
        assert (pending.name, pending.risk.value, pending.source) == (
            "write_file",
            "write",
            "built-in",
        )
        assert json.loads(pending.pretty_arguments) == args
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.AWAITING_APPROVAL
        assert h.calls(stored.id)[0].state is CallState.PENDING
        assert not (h.workspace / "notes").exists()
        assert len(sse_server.requests) == 1 and not h.finished()

        assert request.approve_once("call_w")
        await h.wait_finished()
        assert (h.workspace / "notes" / "hello.txt").read_text() == "hi there"
        (call,) = h.calls(result.assistant_message_id)
        assert call.state is CallState.DONE
        assert (call.decision, call.decided_by) == (Decision.APPROVED_ONCE, DecidedBy.PERSON)
        assert "8 bytes" in tool_messages(sse_server.requests[1].json)["call_w"]
        assert h.chat.pending_approvals() == []

    run_tools(tmp_path, sse_server, body)


def test_a_denied_write_leaves_the_file_untouched_and_the_model_is_told(tmp_path, sse_server):
    args = {"path": "keep.txt", "content": "overwritten"}
    sse_server.script(call_answer("call_w", "write_file", args), default_stream("Fine."))

    async def body(h: ToolHarness) -> None:
        (h.workspace / "keep.txt").write_text("original")
        result = await h.chat.send(await h.conversation(), "Overwrite it", TOOLS_MODEL)
        request = await h.wait_approval()
        assert request.deny("call_w")
        await h.wait_finished()
        assert (h.workspace / "keep.txt").read_text() == "original"
        sent = refusal(tool_messages(sse_server.requests[1].json)["call_w"])
        assert sent["error"] == "denied"
        (call,) = h.calls(result.assistant_message_id)
        assert (call.state, call.decided_by, call.is_error) == (
            CallState.DENIED,
            DecidedBy.PERSON,
            True,
        )

    run_tools(tmp_path, sse_server, body)


def test_the_persons_answer_instead_reaches_the_model(tmp_path, sse_server):
    args = {"command": "date"}
    sse_server.script(call_answer("call_c", "run_command", args), default_stream("Thanks."))

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(await h.conversation(), "What day is it?", TOOLS_MODEL)
        request = await h.wait_approval()
        assert request.answer("call_c", "It is Tuesday, trust me.")
        await h.wait_finished()
        assert tool_messages(sse_server.requests[1].json)["call_c"] == "It is Tuesday, trust me."
        (call,) = h.calls(result.assistant_message_id)
        assert (call.state, call.decision) == (CallState.ANSWERED, Decision.ANSWERED)

    run_tools(tmp_path, sse_server, body)


def test_several_pending_calls_are_decided_together(tmp_path, sse_server):
    two = sse_response(
        *streamed_call(0, "call_a", "write_file", '{"path": "a.txt", "content": "A"}'),
        *streamed_call(1, "call_b", "write_file", '{"path": "b.txt", "content": "B"}'),
        delta_chunk({}, "tool_calls"),
        DONE,
    )
    sse_server.script(two, default_stream("ok"))

    async def body(h: ToolHarness) -> None:
        await h.chat.send(await h.conversation(), "Write two", TOOLS_MODEL)
        request = await h.wait_approval()
        assert [c.call_id for c in request.undecided()] == ["call_a", "call_b"]
        assert request.approve_once("call_a")
        await asyncio.sleep(0.05)
        assert not (h.workspace / "a.txt").exists()  # nothing runs while one still waits
        assert request.deny("call_b")
        await h.wait_finished()
        assert (h.workspace / "a.txt").read_text() == "A"
        assert not (h.workspace / "b.txt").exists()

    run_tools(tmp_path, sse_server, body)


def test_always_allow_saves_a_grant_and_the_next_call_does_not_ask(tmp_path, sse_server):
    sse_server.script(
        call_answer("call_1", "write_file", {"path": "one.txt", "content": "1"}),
        call_answer("call_2", "write_file", {"path": "two.txt", "content": "2"}),
        default_stream("Both written."),
    )

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(await h.conversation(), "Write both", TOOLS_MODEL)
        request = await h.wait_approval()
        assert request.always_allow("call_1")
        await h.wait_finished()
        definition = h.tools.definition("write_file")
        grants = h.settings.settings.tools.always_allow
        assert grants == {"write_file": definition.definition_hash}
        first, second = h.calls(result.assistant_message_id)
        assert first.decision is Decision.ALWAYS_ALLOWED
        assert (second.decision, second.decided_by) == (Decision.AUTO, DecidedBy.POLICY)
        assert (h.workspace / "two.txt").read_text() == "2"

    run_tools(tmp_path, sse_server, body)


def test_a_tool_turned_off_returns_a_structured_error(tmp_path, sse_server):
    sse_server.script(call_answer("call_1", "current_time", {}), default_stream("Sorry."))

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(None, "Time?", TOOLS_MODEL)
        await h.wait_finished()
        offered = {t["function"]["name"] for t in sse_server.requests[0].json["tools"]}
        assert "current_time" not in offered
        assert refusal(tool_messages(sse_server.requests[1].json)["call_1"])["error"] == (
            "tool_disabled"
        )
        (call,) = h.calls(result.assistant_message_id)
        assert (call.state, call.decision) == (CallState.ERROR, Decision.DISABLED)

    run_tools(tmp_path, sse_server, body, tools={"policies": {"current_time": "off"}})


def test_a_model_without_tools_gets_no_definitions_and_a_note(tmp_path, sse_server):
    sse_server.script(default_stream("Hello."))

    async def body(h: ToolHarness) -> None:
        await h.chat.send(None, "hi", PLAIN_MODEL)
        await h.wait_finished()
        sent = sse_server.requests[0].json
        assert "tools" not in sent
        system = sent["messages"][0]
        assert system["role"] == "system" and system["content"].startswith(NO_TOOLS_NOTE)

    run_tools(tmp_path, sse_server, body)


def test_the_step_cap_stops_the_loop_with_a_visible_notice(tmp_path, sse_server):
    sse_server.script(*(call_answer(f"call_{n}", "current_time", {}) for n in range(5)))

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(None, "Loop forever", TOOLS_MODEL)
        await h.wait_finished()
        assert len(sse_server.requests) == 3
        answer = h.repo.get_message(result.assistant_message_id)
        assert answer.status is MessageStatus.COMPLETE
        assert any(isinstance(p, NoticePart) and "3 model steps" in p.text for p in answer.parts)
        calls = h.calls(answer.id)
        assert [c.state for c in calls] == [CallState.DONE, CallState.DONE, CallState.ERROR]
        assert json.loads(calls[-1].result)["error"] == "not_run"

    run_tools(tmp_path, sse_server, body, max_steps=3)


# --- safety -----------------------------------------------------------------------------


def test_a_pending_call_never_runs_across_a_restart_and_is_shown_again(tmp_path, sse_server):
    args = {"path": "later.txt", "content": "approved after restart"}
    sse_server.script(call_answer("call_w", "write_file", args), default_stream("Written."))

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(await h.conversation(), "Write later", TOOLS_MODEL)
        await h.wait_approval()
        await h.restart()
        await asyncio.sleep(0.05)
        assert not (h.workspace / "later.txt").exists()
        stored = h.repo.get_message(result.assistant_message_id)
        assert stored.status is MessageStatus.AWAITING_APPROVAL
        (request,) = h.chat.pending_approvals()
        assert request.message_id == stored.id and request.calls[0].name == "write_file"
        assert h.chat.approval(result.conversation_id) is request

        assert request.approve_once("call_w")
        await h.wait_finished()
        assert (h.workspace / "later.txt").read_text() == "approved after restart"
        answer = h.repo.get_message(stored.id)
        assert answer.status is MessageStatus.COMPLETE and answer.text == "Written."
        assert "call_w" in tool_messages(sse_server.requests[1].json)

    run_tools(tmp_path, sse_server, body)


def test_a_new_send_resolves_restored_pending_calls_as_interrupted(tmp_path, sse_server):
    args = {"path": "never.txt", "content": "x"}
    sse_server.script(call_answer("call_w", "write_file", args), default_stream("OK."))

    async def body(h: ToolHarness) -> None:
        first = await h.chat.send(await h.conversation(), "Write", TOOLS_MODEL)
        await h.wait_approval()
        await h.restart()
        (request,) = h.chat.pending_approvals()
        await h.chat.send(first.conversation_id, "Never mind", TOOLS_MODEL)
        assert not request.approve_once("call_w")  # too late: refused
        await h.wait_finished()
        assert not (h.workspace / "never.txt").exists()
        old = h.repo.get_message(first.assistant_message_id)
        assert old.status is MessageStatus.INTERRUPTED
        (call,) = h.calls(old.id)
        assert (call.state, call.decided_by) == (CallState.INTERRUPTED, DecidedBy.RECOVERY)
        sent = tool_messages(sse_server.requests[1].json)
        assert refusal(sent["call_w"])["error"] == "interrupted"
        assert h.chat.pending_approvals() == []

    run_tools(tmp_path, sse_server, body)


def test_a_new_send_while_waiting_interrupts_the_pending_call(tmp_path, sse_server):
    args = {"path": "never.txt", "content": "x"}
    sse_server.script(call_answer("call_w", "write_file", args), default_stream("OK."))

    async def body(h: ToolHarness) -> None:
        first = await h.chat.send(await h.conversation(), "Write", TOOLS_MODEL)
        request = await h.wait_approval()
        await h.chat.send(first.conversation_id, "Actually, don't", TOOLS_MODEL)
        assert not request.approve_once("call_w")  # an approval after the stop is refused
        await h.wait_finished(2)
        await asyncio.sleep(0.05)
        assert not (h.workspace / "never.txt").exists()
        old = h.repo.get_message(first.assistant_message_id)
        assert old.status is MessageStatus.CANCELLED
        assert h.calls(old.id)[0].state is CallState.INTERRUPTED

    run_tools(tmp_path, sse_server, body)


def test_an_approval_racing_a_stop_never_runs_the_call(tmp_path, sse_server):
    args = {"path": "race.txt", "content": "x"}
    sse_server.script(call_answer("call_w", "write_file", args))

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(await h.conversation(), "Write", TOOLS_MODEL)
        request = await h.wait_approval()
        stopping = asyncio.ensure_future(h.chat.stop(result.conversation_id))
        await asyncio.sleep(0)  # the stop has cancelled the task, not yet awaited it
        request.approve_once("call_w")
        await stopping
        await asyncio.sleep(0.05)
        assert not (h.workspace / "race.txt").exists()
        assert h.calls(result.assistant_message_id)[0].state is CallState.INTERRUPTED
        assert h.finished()[-1].status is MessageStatus.CANCELLED

    run_tools(tmp_path, sse_server, body)


def _alive(pid: int) -> bool:
    """Running, not merely a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_stop_kills_a_running_command_and_is_not_a_tool_error(tmp_path, sse_server):
    command = "sleep 30 & echo $! > child.pid; wait"
    sse_server.script(call_answer("call_c", "run_command", {"command": command}))

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(await h.conversation(), "Run it", TOOLS_MODEL)
        pid_file = h.workspace / "child.pid"
        await wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
        child = int(pid_file.read_text())
        assert _alive(child)
        await h.chat.stop(result.conversation_id)
        await wait_for(lambda: not _alive(child))
        (call,) = h.calls(result.assistant_message_id)
        assert call.state is CallState.CANCELLED
        assert h.repo.get_message(result.assistant_message_id).status is MessageStatus.CANCELLED
        assert h.finished()[-1].status is MessageStatus.CANCELLED
        assert len(sse_server.requests) == 1  # cancellation did not go on to the model

    run_tools(tmp_path, sse_server, body, tools={"policies": {"run_command": "auto"}})


def test_output_over_32_kib_goes_to_a_file_that_read_file_reads(tmp_path, sse_server):
    command = "i=0; while [ $i -lt 1000 ]; do echo line-$i-$(printf '%040d' 0); i=$((i+1)); done"
    sse_server.script(
        call_answer("call_big", "run_command", {"command": command}),
        call_answer(
            "call_read",
            "read_file",
            {"path": "tool-output:call_big", "start_line": 501, "end_line": 502},
        ),
        default_stream("Read it."),
    )

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(await h.conversation(), "Big output", TOOLS_MODEL)
        await h.wait_finished()
        big, read = h.calls(result.assistant_message_id)
        assert big.output_path == "tool_outputs/call_big.txt"
        saved = (h.root / big.output_path).read_text()
        assert saved.startswith("exit code 0\nline-0-") and "line-999-" in saved
        assert big.result_size == len(saved.encode()) > 32 * 1024
        assert len(big.result.encode()) < 4 * 1024 + 400
        assert "line-999-" not in big.result
        assert tool_messages(sse_server.requests[1].json)["call_big"] == big.result
        assert read.result.splitlines()[0].startswith("line-499-")  # line 1 is the exit code
        assert read.state is CallState.DONE

    run_tools(tmp_path, sse_server, body, tools={"policies": {"run_command": "auto"}})


def test_a_tool_failure_is_reported_to_the_model_and_the_loop_goes_on(tmp_path, sse_server):
    sse_server.script(
        call_answer("call_r", "read_file", {"path": "../outside.txt"}), default_stream("I see.")
    )

    async def body(h: ToolHarness) -> None:
        (h.workspace.parent / "outside.txt").write_text("secret")
        result = await h.chat.send(await h.conversation(), "Read outside", TOOLS_MODEL)
        await h.wait_finished()
        sent = refusal(tool_messages(sse_server.requests[1].json)["call_r"])
        assert sent["error"] == "tool_error" and "outside the workspace" in sent["message"]
        (call,) = h.calls(result.assistant_message_id)
        assert call.state is CallState.ERROR and "secret" not in (call.result or "")
        assert h.repo.get_message(result.assistant_message_id).status is MessageStatus.COMPLETE

    run_tools(tmp_path, sse_server, body)


def test_calls_a_crash_left_running_or_pending_end_interrupted(tmp_path, sse_server):
    async def body(h: ToolHarness) -> None:
        conversation_id = await h.conversation()
        question = Message(new_id(), conversation_id, None, Role.USER, [TextPart("Run it")])
        h.repo.add_message(question)
        running = ToolCallPart("call_r", "run_command", '{"command": "sleep 100"}')
        waiting = ToolCallPart("call_p", "write_file", "{}")
        answer = Message(
            new_id(),
            conversation_id,
            question.id,
            Role.ASSISTANT,
            [
                replace(running, state=CallState.RUNNING),
                replace(waiting, state=CallState.PENDING),
            ],
            MessageStatus.STREAMING,
        )
        h.repo.add_message(answer)
        await h.restart()  # as after a crash: the answer was still streaming
        stored = h.repo.get_message(answer.id)
        assert stored.status is MessageStatus.INTERRUPTED
        states = [(p.call_id, p.state, p.is_error) for p in stored.parts]
        assert states == [
            ("call_r", CallState.INTERRUPTED, True),
            ("call_p", CallState.INTERRUPTED, True),
        ]
        assert h.chat.pending_approvals() == []

    run_tools(tmp_path, sse_server, body)
