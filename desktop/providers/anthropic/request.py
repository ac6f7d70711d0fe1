"""Anthropic Messages requests: a `ChatRequest` as the JSON body of `POST /v1/messages`.

Pure functions, no I/O. Choices made here (the rest of Parley relies on them):

- Sampling and thinking follow the model's family (`models.claude_family`). While
  thinking is on, temperature and top_p are left out: the API rejects them with thinking.
- Reasoning signature: with one thinking block (the usual case) the signature is
  Anthropic's own, and the reasoning text must be stored verbatim for it to verify. When
  an answer has several reasoning blocks, or redacted thinking, the signature is
  `BLOCKS_PREFIX` + the JSON list of those blocks exactly as received, sent back
  unchanged (`stream.signature_for` makes it).
- Thinking goes back only for the turn in progress (assistant turns after the last user
  turn, i.e. a tool continuation), first in each assistant turn, where the API requires
  it; older turns' thinking is ignored by the API anyway, and leaving it out means a
  signature from another provider or model can never get a conversation rejected.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from desktop.core.models import Role
from desktop.providers.anthropic.models import ClaudeFamily, Sampling, claude_family, plan_tokens
from desktop.providers.base import ChatRequest, RequestMessage, ToolCall, ToolResult

BLOCKS_PREFIX = "anthropic-blocks:"
MISSING_RESULT = "No result was recorded for this call."


def build_body(request: ChatRequest, *, stream: bool) -> dict[str, Any]:
    """The JSON body; optional parameters are sent only when set, so server defaults hold."""
    family = claude_family(request.model)
    plan = plan_tokens(request, family)
    body: dict[str, Any] = {"model": request.model, "max_tokens": plan.max_tokens}
    system = _system_text(request)
    if system:
        body["system"] = system
    body["messages"] = build_messages(request.messages)
    if request.tools:
        body["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.parameters}
            for t in request.tools
        ]
    if plan.thinking is not None:
        body["thinking"] = plan.thinking
        if plan.effort is not None:
            body["output_config"] = {"effort": plan.effort}
    else:
        body.update(_sampling(request, family))
    body["stream"] = stream
    return body


def _system_text(request: ChatRequest) -> str:
    """The top-level `system`: the request's, then any system turns (the wire has none)."""
    parts = [request.system or ""]
    parts += [m.text for m in request.messages if m.role is Role.SYSTEM]
    return "\n\n".join(part for part in parts if part.strip())


def _sampling(request: ChatRequest, family: ClaudeFamily) -> dict[str, float]:
    if family.sampling == Sampling.NONE:
        return {}
    params: dict[str, float] = {}
    if request.temperature is not None:
        params["temperature"] = request.temperature
    if request.top_p is not None and not (family.sampling == Sampling.ONE and params):
        params["top_p"] = request.top_p
    return params


def build_messages(messages: tuple[RequestMessage, ...]) -> list[dict[str, Any]]:
    """Turns as the wire wants them: alternating roles, tool results in a user turn."""
    last_user = max((i for i, m in enumerate(messages) if m.role is Role.USER), default=-1)
    turns: list[dict[str, Any]] = []
    for position, message in enumerate(messages):
        if message.role is Role.USER:
            _append(turns, "user", _user_blocks(message))
        elif message.role is Role.ASSISTANT:
            _append(turns, "assistant", _assistant_blocks(message, position > last_user))
            if message.tool_calls:
                _append(turns, "user", _result_blocks(message.tool_calls, message.tool_results))
    _trim_final_assistant(turns)
    return turns


def _append(turns: list[dict[str, Any]], role: str, blocks: list[dict[str, Any]]) -> None:
    """Consecutive turns of one role become one; empty turns are left out."""
    if not blocks:
        return
    if turns and turns[-1]["role"] == role:
        turns[-1]["content"].extend(blocks)
    else:
        turns.append({"role": role, "content": blocks})


def _user_blocks(message: RequestMessage) -> list[dict[str, Any]]:
    """Images first, then the text: Anthropic's advice for the best answers."""
    blocks: list[dict[str, Any]] = [
        {
            "type": "image",
            "source": {
                "type": "base64",
                "media_type": image.mime,
                "data": base64.b64encode(image.data).decode("ascii"),
            },
        }
        for image in message.images
    ]
    if message.text.strip():  # the API rejects empty text blocks
        blocks.append({"type": "text", "text": message.text})
    return blocks


def _assistant_blocks(message: RequestMessage, in_progress: bool) -> list[dict[str, Any]]:
    with_thinking = in_progress and bool(message.tool_calls)
    blocks = (
        thinking_blocks(message.reasoning, message.reasoning_signature) if with_thinking else []
    )
    if message.text.strip():
        blocks.append({"type": "text", "text": message.text})
    blocks += [
        {
            "type": "tool_use",
            "id": _tool_id(call.call_id),
            "name": call.name,
            "input": _arguments(call.arguments),
        }
        for call in message.tool_calls
    ]
    return blocks


def thinking_blocks(reasoning: str | None, signature: str | None) -> list[dict[str, Any]]:
    """The reasoning blocks to send back: unsigned reasoning cannot go back at all."""
    if not signature:
        return []
    if signature.startswith(BLOCKS_PREFIX):
        try:
            blocks = json.loads(signature[len(BLOCKS_PREFIX) :])
        except json.JSONDecodeError:
            return []
        if not isinstance(blocks, list):
            return []
        return [b for b in blocks if isinstance(b, dict) and b.get("type") in _REASONING_TYPES]
    return [{"type": "thinking", "thinking": reasoning or "", "signature": signature}]


_REASONING_TYPES = ("thinking", "redacted_thinking")


def _result_blocks(
    calls: tuple[ToolCall, ...], results: tuple[ToolResult, ...]
) -> list[dict[str, Any]]:
    """One result per call, in call order: the API refuses a `tool_use` left unanswered
    and a result for a call it has not seen."""
    by_id = {result.call_id: result for result in results}
    blocks: list[dict[str, Any]] = []
    for call in calls:
        result = by_id.get(call.call_id)
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": _tool_id(call.call_id)}
        content = result.content if result is not None else MISSING_RESULT
        if content:
            block["content"] = content
        if result is None or result.is_error:
            block["is_error"] = True
        blocks.append(block)
    return blocks


_TOOL_ID_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


def _tool_id(call_id: str) -> str:
    """Ids must match [a-zA-Z0-9_-]+; a call made through another provider may not."""
    return _TOOL_ID_UNSAFE.sub("_", call_id) or "call"


def _arguments(text: str) -> dict[str, Any]:
    """`input` must be an object; arguments the model garbled are sent as `{}` (the
    tool's error result already told it so)."""
    try:
        value = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _trim_final_assistant(turns: list[dict[str, Any]]) -> None:
    """A final assistant turn is a prefill (Continue): it must not end in whitespace."""
    if not turns or turns[-1]["role"] != "assistant":
        return
    content = turns[-1]["content"]
    if content[-1].get("type") == "text":
        content[-1]["text"] = content[-1]["text"].rstrip()
