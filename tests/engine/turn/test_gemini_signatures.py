"""Gemini's thought signatures through the whole engine: streamed by the loopback server
speaking Gemini's wire, folded, stored, and sent back in the next request exactly where
Google's rules put them (ai.google.dev, "Thought signatures")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from desktop.core.models import MessageStatus, ModelRef
from tests.support import gemini_wire as g
from tests.support.engine_harness import ToolHarness, run_tools
from tests.support.sse_server import SSEServer

MODEL = ModelRef("gemini", "gemini-2.5-flash")


def use_gemini(h: ToolHarness) -> None:
    """The harness's settings, with the loopback server as the one (Gemini) provider."""
    data = {
        "version": 1,
        "providers": [
            {
                "id": "gemini",
                "name": "Gemini",
                "kind": "gemini",
                "base_url": h.server.url,
                "models": [MODEL.model],
            }
        ],
    }
    (h.root / "settings.json").write_text(json.dumps(data), encoding="utf-8")


def contents(server: SSEServer, index: int) -> list[dict[str, Any]]:
    return server.requests[index].json["contents"]


def model_turns(server: SSEServer, index: int) -> list[list[dict[str, Any]]]:
    return [turn["parts"] for turn in contents(server, index) if turn["role"] == "model"]


def time_call(signature: str | None = None) -> dict[str, Any]:
    return g.call("current_time", {}, signature=signature)


def sent_call(signature: str | None = None) -> dict[str, Any]:
    part: dict[str, Any] = {"functionCall": {"name": "current_time", "args": {}}}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def test_every_step_of_a_tool_turn_goes_back_with_its_own_signature(
    tmp_path: Path, sse_server: SSEServer
) -> None:
    """Step 1 signs its call on an empty text part in the last chunk, step 2 on the call
    itself, step 3 (the answer) on an empty part again. Gemini 3 refuses a continuation
    whose steps' first calls lack their signatures."""
    sse_server.script(
        g.stream_response(
            g.chunk(time_call()),
            g.chunk(g.text("", signature="c2lnLTE="), finish_reason="STOP"),
        ),
        g.stream_response(g.chunk(time_call("c2lnLTI="), finish_reason="STOP")),
        g.stream_response(
            g.chunk(g.text("It is noon.")),
            g.chunk(g.text("", signature="c2lnLTM="), finish_reason="STOP"),
        ),
        g.stream_response(g.chunk(g.text("You are welcome."), finish_reason="STOP")),
    )

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(None, "What time is it?", MODEL)
        await h.wait_finished()
        answer = h.repo.get_message(result.assistant_message_id)
        assert answer.status is MessageStatus.COMPLETE and answer.text == "It is noon."
        # The third request continues the turn: each earlier step with its signature.
        assert model_turns(sse_server, 2) == [[sent_call("c2lnLTE=")], [sent_call("c2lnLTI=")]]

        await h.chat.send(result.conversation_id, "Thanks", MODEL)
        await h.wait_finished(2)
        assert model_turns(sse_server, 3) == [
            [sent_call("c2lnLTE=")],
            [sent_call("c2lnLTI=")],
            [{"text": "It is noon.", "thoughtSignature": "c2lnLTM="}],
        ]

    run_tools(tmp_path, sse_server, body, setup=use_gemini)


def test_an_answer_signed_in_its_last_chunk_goes_back_on_the_next_turn(
    tmp_path: Path, sse_server: SSEServer
) -> None:
    sse_server.script(
        g.stream_response(
            g.chunk(g.thought("The person greets me.")),
            g.chunk(g.text("Hello!")),
            g.chunk(g.text("", signature="c2lnLXRleHQ="), finish_reason="STOP"),
        ),
        g.stream_response(g.chunk(g.text("Sure."), finish_reason="STOP")),
    )

    async def body(h: ToolHarness) -> None:
        result = await h.chat.send(None, "Hi", MODEL)
        await h.wait_finished()
        await h.chat.send(result.conversation_id, "More", MODEL)
        await h.wait_finished(2)
        assert contents(sse_server, 1)[1] == {
            "role": "model",
            "parts": [{"text": "Hello!", "thoughtSignature": "c2lnLXRleHQ="}],
        }

    run_tools(tmp_path, sse_server, body, setup=use_gemini)


def test_every_signature_of_one_step_goes_back_where_it_came(
    tmp_path: Path, sse_server: SSEServer
) -> None:
    """The text signed on its own part, and a last part that is nothing but a signature
    (no text at all) after unsigned calls: each goes back, neither on the other's part;
    the bare one on the first call, where Gemini validates a step's signature."""
    sse_server.script(
        g.stream_response(
            g.chunk(g.text("Let me look.", signature="c2lnLXQ=")),
            g.chunk(time_call(), time_call()),
            g.event(
                {
                    "candidates": [
                        {
                            "content": {"parts": [{"thoughtSignature": "c2lnLWU="}]},
                            "role": "model",
                            "finishReason": "STOP",
                        }
                    ]
                }
            ),
        ),
        g.stream_response(g.chunk(g.text("Noon."), finish_reason="STOP")),
    )

    async def body(h: ToolHarness) -> None:
        await h.chat.send(None, "What time is it?", MODEL)
        await h.wait_finished()
        assert model_turns(sse_server, 1) == [
            [
                {"text": "Let me look.", "thoughtSignature": "c2lnLXQ="},
                sent_call("c2lnLWU="),
                sent_call(),
            ]
        ]

    run_tools(tmp_path, sse_server, body, setup=use_gemini)
