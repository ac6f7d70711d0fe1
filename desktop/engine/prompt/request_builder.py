"""Turn the active branch of a conversation into a provider request.

What the model can do (`Capabilities`) decides what is sent: no system role, the
system text becomes a leading user turn; no reasoning, no effort is asked for; no
tools, no tool definitions. The person's per-provider headers and JSON body ride along
for the adapter to merge last. Attached files arrive already read (`AttachmentInput`):
images go as images, documents and OCR transcriptions as bounded text before the
person's words.

`assemble` is the first stage of the prompt pipeline (`engine/prompt/pipeline.py`): each
person's message carries only their own words and images, `BuiltRequest.files` says
which inputs belong to which message, and the system text stays in `system`, so the
request transformers can add to both. `build_request` and its siblings are the same
request finished without the transformers: file blocks added, system text moved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from desktop.core.capabilities import Capabilities, ReasoningEffort
from desktop.core.models import Message, Part, ReasoningPart, Role, ToolCallPart
from desktop.engine.attachments.text import (
    AttachmentInput,
    input_ids,
    inputs_for,
    kind_of,
    with_files,
)
from desktop.providers.base import (
    ChatRequest,
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


def _user_turn(
    message: Message, attachments: Mapping[str, AttachmentInput]
) -> tuple[RequestMessage, tuple[str, ...]] | None:
    """The person's own words and images, and the ids of the inputs whose text goes
    before them; None for a message with none of these."""
    ids = input_ids(message.context, attachments)
    images = tuple(image for i in ids if (image := attachments[i].image) is not None)
    files = tuple(i for i in ids if kind_of(attachments[i]) is not None)
    if not message.text.strip() and not images and not files:
        return None
    return RequestMessage(role=message.role, text=message.text, images=images), files


def _user_message(
    message: Message, attachments: Mapping[str, AttachmentInput]
) -> RequestMessage | None:
    turn = _user_turn(message, attachments)
    if turn is None:
        return None
    text = with_files(message.text, inputs_for(message.context, attachments))
    return replace(turn[0], text=text)


def _other_message(message: Message) -> RequestMessage | None:
    text = message.text
    calls = [p for p in message.parts if isinstance(p, ToolCallPart)]
    if message.role is not Role.ASSISTANT or not calls:
        if not text.strip():
            return None
        # An answer's signature goes back with it even without calls (Gemini asks for
        # every signature back); each wire decides where it goes, or whether at all.
        signature = _reasoning(message)[1] if message.role is Role.ASSISTANT else None
        return RequestMessage(role=message.role, text=text, reasoning_signature=signature)
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


def request_message(
    message: Message, attachments: Mapping[str, AttachmentInput] | None = None
) -> RequestMessage | None:
    """One stored message as the model should see it (file blocks included), or None
    for one with nothing to say (an error with no text, a stopped answer that never
    started): an empty assistant turn confuses most models."""
    if message.role is Role.USER:
        return _user_message(message, attachments or {})
    return _other_message(message)


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


def _turns(
    path: Sequence[Message], attachments: Mapping[str, AttachmentInput]
) -> list[tuple[RequestMessage, tuple[str, ...]]]:
    turns: list[tuple[RequestMessage, tuple[str, ...]]] = []
    for message in path:
        for step in _steps(message):
            if step.role is Role.USER:
                turn = _user_turn(step, attachments)
            else:
                other = _other_message(step)
                turn = None if other is None else (other, ())
            if turn is not None:
                turns.append(turn)
    return turns


class Step(StrEnum):
    """Which model step a request is for; each expects the branch to end differently."""

    ANSWER = "answer"  # a new answer: the branch ends with the person's message
    CONTINUE = "continue"  # carry on a partial answer, the branch's last message
    TOOLS = "tools"  # the next step of an answer that called tools, its last message


@dataclass(frozen=True, slots=True)
class BuiltRequest:
    """A request before the transformers.

    Each person's message has only their own words and images; `files[i]` holds the ids
    (keys of `RequestOptions.attachments`) of the inputs whose text blocks belong before
    the words of `request.messages[i]`. `system` is not yet moved into a user turn for
    models without a system role.
    """

    request: ChatRequest
    files: tuple[tuple[str, ...], ...]


def _check(path: Sequence[Message], step: Step) -> None:
    if step is Step.ANSWER and (not path or path[-1].role is not Role.USER):
        raise ValueError("a request must end with the person's message")
    if step is Step.CONTINUE and (not path or path[-1].role is not Role.ASSISTANT):
        raise ValueError("a continue request must end with the partial answer")
    if step is Step.TOOLS and (not path or path[-1].role is not Role.ASSISTANT):
        raise ValueError("a tool step request must end with the answer that called tools")


def assemble(
    path: Sequence[Message],
    model: str,
    options: RequestOptions | None = None,
    step: Step = Step.ANSWER,
) -> BuiltRequest:
    """The branch `path` as a request for `step`, before the transformers.

    A partial answer with no text yet has nothing to continue: the request is then the
    plain one for the question before it, so "continue" simply starts the answer.
    """
    _check(path, step)
    options = options or RequestOptions()
    if step is Step.CONTINUE and not path[-1].text.strip():
        return assemble(path[:-1], model, options, Step.ANSWER)
    turns = _turns(path, options.attachments)
    if step is Step.CONTINUE:
        turns.append((RequestMessage(role=Role.USER, text=CONTINUE_PROMPT), ()))
    caps = options.capabilities
    request = ChatRequest(
        model=model,
        messages=tuple(message for message, _ in turns),
        system=options.system or None,
        temperature=options.temperature,
        top_p=options.top_p,
        max_output_tokens=options.max_output_tokens,
        reasoning_effort=options.reasoning_effort if caps.supports_reasoning else None,
        tools=options.tools if caps.supports_tools else (),
        extra_headers=dict(options.extra_headers),
        extra_body=dict(options.extra_body),
    )
    return BuiltRequest(request, tuple(files for _, files in turns))


def for_the_wire(request: ChatRequest, capabilities: Capabilities) -> ChatRequest:
    """The last stage: the system text as a leading user turn for a model without a
    system role."""
    return request if capabilities.supports_system_role else with_system_as_user(request)


def _finished(built: BuiltRequest, options: RequestOptions) -> ChatRequest:
    """`built` with its file blocks and the system text where the model takes it."""
    inputs = options.attachments
    messages = tuple(
        replace(m, text=with_files(m.text, [inputs[i] for i in ids])) if ids else m
        for m, ids in zip(built.request.messages, built.files, strict=True)
    )
    return for_the_wire(replace(built.request, messages=messages), options.capabilities)


def _build(
    path: Sequence[Message], model: str, options: RequestOptions | None, step: Step
) -> ChatRequest:
    options = options or RequestOptions()
    return _finished(assemble(path, model, options, step), options)


def build_request(
    path: Sequence[Message], model: str, options: RequestOptions | None = None
) -> ChatRequest:
    return _build(path, model, options, Step.ANSWER)


def build_continue_request(
    path: Sequence[Message], model: str, options: RequestOptions | None = None
) -> ChatRequest:
    """The branch up to and including a partial answer, then a request-only nudge."""
    return _build(path, model, options, Step.CONTINUE)


def build_tool_request(
    path: Sequence[Message], model: str, options: RequestOptions | None = None
) -> ChatRequest:
    """The next model step of an answer that called tools: the branch up to and
    including that answer so far, its calls followed by their results."""
    return _build(path, model, options, Step.TOOLS)
