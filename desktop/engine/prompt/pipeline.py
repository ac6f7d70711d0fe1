"""The whole outgoing request for one model step, from the branch to the wire.

Stages, in the order SPEC section 3 gives them: build the request from the messages
(`request_builder.assemble`), compose the system prompt (`system_prompt.compose`), run
the request-only transformers (`transformers.apply_transformers`), and last move the
system text into a user turn for models without a system role. Nothing here is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from desktop.core.assistants import Assistant
from desktop.core.models import CitationPart, Conversation, Message
from desktop.engine.prompt.request_builder import RequestOptions, Step, assemble, for_the_wire
from desktop.engine.prompt.system_prompt import NO_TOOLS_NOTE, compose, tool_instructions
from desktop.engine.prompt.transformers import TransformContext, apply_transformers
from desktop.providers.base import ChatRequest


def prepare_request(
    path: Sequence[Message],
    model: str,
    options: RequestOptions,
    *,
    step: Step = Step.ANSWER,
    assistant: Assistant,
    conversation: Conversation | None,
    summary_text: str | None,
    now: datetime,
    timezone_name: str,
    user: str = "",
    tools_wanted: bool = True,
    knowledge: tuple[CitationPart, ...] = (),
    knowledge_note: str = "",
    memory_text: str = "",
) -> ChatRequest:
    """The request for one model step of an answer.

    - `path`: the messages to send, oldest first, already chosen by the context planner
      (the recent window and pinned messages; not the part the summary covers). It ends
      with the person's message for `Step.ANSWER`, with the partial answer for
      `Step.CONTINUE`, and with the answer so far (its calls and results) for
      `Step.TOOLS`.
    - `model`: the model name as the provider knows it ("gpt-4o"); also `{{model}}`.
    - `options`: capabilities, sampling, tool definitions, the provider's extra headers
      and body, and the prepared attachment inputs of `path`. `options.system` is
      ignored: the system text is composed here.
    - `assistant`: its prompt, whether a conversation may replace it, and its name
      (`{{assistant}}`).
    - `conversation`: its own `system_prompt`, used instead of the assistant's when the
      assistant allows it; None for a request outside a conversation.
    - `summary_text`: the rolling summary, only when the planner validated it against
      the current branch; None otherwise.
    - `now`: the current time, timezone-aware; `timezone_name`: the person's IANA zone
      (`clock.local_zone_name()`), for the time reminder and `{{date}}`/`{{time}}`.
    - `user`: the person's name for `{{user}}` ("" leaves it as written).
    - `tools_wanted`: whether this answer would use tools if the model could; when the
      model cannot, the system prompt says so (`NO_TOOLS_NOTE`) so it does not pretend.
    - `knowledge`: the passages retrieved from the person's libraries for this answer.
    - `knowledge_note`: how to use the document search tool, while it is offered (and
      that it is used up, once withdrawn).
    - `memory_text`: the memories the answer starts with, in their `<memory>` element.
    """
    built = assemble(path, model, options, step)
    caps = options.capabilities
    system = compose(
        conversation_prompt=conversation.system_prompt if conversation is not None else None,
        assistant_prompt=assistant.system_prompt,
        allow_override=assistant.allow_prompt_override,
        capability_note=NO_TOOLS_NOTE if tools_wanted and not caps.supports_tools else None,
        summary=summary_text,
        tool_instructions=tool_instructions(built.request.tools),
    )
    ctx = TransformContext(
        now=now,
        timezone_name=timezone_name,
        model=model,
        assistant=assistant.name,
        user=user,
        attachments=options.attachments,
        message_files=built.files,
        knowledge=knowledge,
        knowledge_note=knowledge_note,
        memory_text=memory_text,
    )
    request = apply_transformers(replace(built.request, system=system), ctx)
    return for_the_wire(request, caps)
