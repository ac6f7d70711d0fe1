"""Turn the active branch of a conversation into a provider request.

What the model can do (`Capabilities`) decides what is sent: no system role, the
system text becomes a leading user turn; no reasoning, no effort is asked for; no
tools, no tool definitions. The person's per-provider headers and JSON body ride along
for the adapter to merge last. Attached files arrive already read (`AttachmentInput`):
images go as images, documents and OCR transcriptions as bounded text before the
person's words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from desktop.core.models import Message, Part, ReasoningPart, Role, ToolCallPart
from desktop.engine.attachment_text import AttachmentInput, inputs_for, with_files
from desktop.providers.base import (
    Capabilities,
    ChatRequest,
    ReasoningEffort,
    RequestMessage,
    ToolCall,
    ToolResult,
    ToolSpec,
    with_system_as_user,
)

# Sent, never stored, after a partial answer being continued. English on purpose: it
# is read by the model, not the person, and models follow English instructions best.
CONTINUE_PROMPT = (
    "Your previous answer was cut off. Continue it exactly where it stopped, "
    "mid-sentence or mid-word if need be. Do not repeat anything you already wrote, "
    "do not apologise and do not add a preamble."
)


@dataclass(frozen=True, slots=True)
class RequestOptions:
    """Everything about a request that does not come from the conversation itself."""

    capabilities: Capabilities = field(default_factory=Capabilities)
    system: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    max_output_tokens: int | None = None
    reasoning_effort: ReasoningEffort | None = None
    tools: tuple[ToolSpec, ...] = ()
    extra_headers: Mapping[str, str] = field(default_factory=dict)
    extra_body: Mapping[str, Any] = field(default_factory=dict)
    attachments: Mapping[str, AttachmentInput] = field(default_factory=dict)


def _tool_calls(
    calls: Sequence[ToolCallPart],
) -> tuple[tuple[ToolCall, ...], tuple[ToolResult, ...]]:
    """Calls as the model made them, and the results of those that ran. A call with no
    result (it never ran) is answered by each adapter the way its wire requires."""
    sent = tuple(ToolCall(c.call_id, c.name, c.arguments.strip() or "{}") for c in calls)
    results = tuple(
        ToolResult(c.call_id, c.name, c.result, c.is_error) for c in calls if c.result is not None
    )
    return sent, results


def _reasoning(message: Message) -> tuple[str | None, str | None]:
    """The reasoning to send back with an answer's tool calls, and its signature.

    A signature vouches for exactly one reasoning block, so when one exists, that
    block's text goes with it (the latest signed one: the one before the calls);
    otherwise all the reasoning, joined (DeepSeek wants its `reasoning_content` back).
    """
    parts = [p for p in message.parts if isinstance(p, ReasoningPart)]
    signed = [p for p in parts if p.signature]
    if signed:
        return signed[-1].text, signed[-1].signature
    text = "\n\n".join(p.text for p in parts if p.text)
    return text or None, None


def _user_message(
    message: Message, attachments: Mapping[str, AttachmentInput]
) -> RequestMessage | None:
    items = inputs_for(message.context, attachments)
    text = with_files(message.text, items)
    images = tuple(item.image for item in items if item.image is not None)
    if not text.strip() and not images:
        return None
    return RequestMessage(role=message.role, text=text, images=images)


def request_message(
    message: Message, attachments: Mapping[str, AttachmentInput] | None = None
) -> RequestMessage | None:
    """One stored message as the model should see it, or None for one with nothing to
    say (an error with no text, a stopped answer that never started): an empty
    assistant turn confuses most models."""
    if message.role is Role.USER:
        return _user_message(message, attachments or {})
    text = message.text
    calls = [p for p in message.parts if isinstance(p, ToolCallPart)]
    if message.role is not Role.ASSISTANT or not calls:
        return RequestMessage(role=message.role, text=text) if text.strip() else None
    reasoning, signature = _reasoning(message)
    tool_calls, tool_results = _tool_calls(calls)
    return RequestMessage(
        role=message.role,
        text=text,
        reasoning=reasoning,
        reasoning_signature=signature,
        tool_calls=tool_calls,
        tool_results=tool_results,
    )


def _steps(message: Message) -> list[Message]:
    """An answer that used tools over several model steps, one message per step.

    A step is what the model wrote before its calls, then the calls; text or reasoning
    after a call starts the next step. Sent as separate turns, each step's calls are
    followed by their results, where the model put them."""
    if message.role is not Role.ASSISTANT:
        return [message]
    steps: list[list[Part]] = [[]]
    for part in message.parts:
        after_call = steps[-1] and isinstance(steps[-1][-1], ToolCallPart)
        if after_call and not isinstance(part, ToolCallPart):
            steps.append([])
        steps[-1].append(part)
    if len(steps) == 1:
        return [message]
    return [replace(message, parts=parts) for parts in steps]


def history_messages(
    path: Sequence[Message], attachments: Mapping[str, AttachmentInput] | None = None
) -> tuple[RequestMessage, ...]:
    """The branch as the model should see it."""
    messages = (request_message(step, attachments) for message in path for step in _steps(message))
    return tuple(m for m in messages if m is not None)


def _request(
    messages: tuple[RequestMessage, ...], model: str, options: RequestOptions
) -> ChatRequest:
    caps = options.capabilities
    request = ChatRequest(
        model=model,
        messages=messages,
        system=options.system or None,
        temperature=options.temperature,
        top_p=options.top_p,
        max_output_tokens=options.max_output_tokens,
        reasoning_effort=options.reasoning_effort if caps.supports_reasoning else None,
        tools=options.tools if caps.supports_tools else (),
        extra_headers=dict(options.extra_headers),
        extra_body=dict(options.extra_body),
    )
    return request if caps.supports_system_role else with_system_as_user(request)


def build_request(
    path: Sequence[Message], model: str, options: RequestOptions | None = None
) -> ChatRequest:
    if not path or path[-1].role is not Role.USER:
        raise ValueError("a request must end with the person's message")
    options = options or RequestOptions()
    return _request(history_messages(path, options.attachments), model, options)


def build_continue_request(
    path: Sequence[Message], model: str, options: RequestOptions | None = None
) -> ChatRequest:
    """The branch up to and including a partial answer, then a request-only nudge.

    A partial answer with no text yet has nothing to continue: the request is then the
    plain one for the question before it, so "continue" simply starts the answer.
    """
    if not path or path[-1].role is not Role.ASSISTANT:
        raise ValueError("a continue request must end with the partial answer")
    if not path[-1].text.strip():
        return build_request(path[:-1], model, options)
    options = options or RequestOptions()
    nudge = RequestMessage(role=Role.USER, text=CONTINUE_PROMPT)
    return _request((*history_messages(path, options.attachments), nudge), model, options)


def build_tool_request(
    path: Sequence[Message], model: str, options: RequestOptions | None = None
) -> ChatRequest:
    """The next model step of an answer that called tools: the branch up to and
    including that answer so far, its calls followed by their results."""
    if not path or path[-1].role is not Role.ASSISTANT:
        raise ValueError("a tool step request must end with the answer that called tools")
    options = options or RequestOptions()
    return _request(history_messages(path, options.attachments), model, options)
