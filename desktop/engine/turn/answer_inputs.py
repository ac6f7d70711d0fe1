"""What every model step of one answer is built from, decided once when it starts.

The conversation's assistant (its prompt, sampling and allowed tools), the window of
messages the rolling context sends with the summary that stands for the rest, and the
attached files read for the model. Each step then only adds the answer so far and
goes through the prompt pipeline (`prompt/pipeline.py`).

`answer_inputs` puts them together. A send (`Generation`) and the estimate of the next
one (`NextRequest`) gather the parts each in its own way (the send may write a summary,
run OCR, start MCP servers; the estimate only reads), then both call it: that is what
makes the estimate the size of the request a send makes.
"""

from __future__ import annotations

import getpass
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from desktop.core.assistants import Assistant
from desktop.core.memory import MemoryMode
from desktop.core.models import CitationPart, Conversation, Message
from desktop.engine.attachments.text import AttachmentInput
from desktop.engine.knowledge.context import ON_DEMAND_NOTE, WITHDRAWN_NOTE
from desktop.engine.prompt.assistants import allowed, options_for
from desktop.engine.prompt.clock import local_zone_name
from desktop.engine.prompt.pipeline import prepare_request
from desktop.engine.prompt.request_builder import RequestOptions, Step
from desktop.engine.tools.builtin.knowledge import KNOWLEDGE_SEARCH
from desktop.engine.tools.builtin.memory import MEMORY_TOOLS
from desktop.engine.tools.builtin.past_chats import SEARCH_CONVERSATIONS
from desktop.engine.tools.registry import Toolbox
from desktop.providers.base import ChatRequest


def person_name() -> str:
    """The account's name for `{{user}}`; "" when the system cannot say."""
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return ""


@dataclass(frozen=True, slots=True)
class AnswerInputs:
    assistant: Assistant
    conversation: Conversation | None
    window: tuple[Message, ...]  # what the context planner sends in full
    summary_text: str | None  # the validated rolling summary standing for the rest
    options: RequestOptions
    tools_wanted: bool  # tools would be offered if the model could call them
    knowledge: tuple[CitationPart, ...] = ()  # passages retrieved for this answer
    knowledge_note: str = ""  # while `knowledge_search` is offered, how to use it
    memory_text: str = ""  # the memories this answer starts with (`memory_block`)

    def request(self, path: Sequence[Message], model: str, step: Step) -> ChatRequest:
        return prepare_request(
            path,
            model,
            self.options,
            step=step,
            assistant=self.assistant,
            conversation=self.conversation,
            summary_text=self.summary_text,
            now=datetime.now().astimezone(),
            timezone_name=local_zone_name(),
            user=person_name(),
            tools_wanted=self.tools_wanted,
            knowledge=self.knowledge,
            knowledge_note=self.knowledge_note,
            memory_text=self.memory_text,
        )

    def without_search(self) -> AnswerInputs:
        """The inputs once the answer's document searches are used up: the tool is no
        longer offered and the model is asked to answer. It stays offered when it is
        the only tool, for wires that refuse earlier tool calls in a request without
        tools; a call to it is then refused as over the limit."""
        tools = tuple(t for t in self.options.tools if t.name != KNOWLEDGE_SEARCH)
        options = replace(self.options, tools=tools) if tools else self.options
        return replace(self, options=options, knowledge_note=WITHDRAWN_NOTE)


def answer_inputs(
    assistant: Assistant,
    conversation: Conversation | None,
    base: RequestOptions,
    *,
    window: Sequence[Message],
    summary_text: str | None,
    files: Mapping[str, AttachmentInput] | None,
    offered: Toolbox | None,
    has_tools: bool,
    search_on_demand: bool = False,
) -> tuple[AnswerInputs, Toolbox | None]:
    """The inputs of an answer, and the tools it may call, from what was gathered for
    it: the provider's `base` options for the model, the context `window` and its
    summary, the window's `files` as read for the model (None: no attachment store),
    the tools `offered` (None when the model cannot call tools) and whether Parley has
    tools at all (`has_tools`: without, no capability note is added). With
    `search_on_demand` the assistant's libraries are searched through
    `knowledge_search`, offered first whatever tools the assistant allows; otherwise
    that tool is not offered."""
    options = options_for(assistant, base)
    if files is not None:
        options = replace(options, attachments=dict(files))
    toolbox = None
    if offered is not None:
        toolbox = allowed_toolbox(offered, assistant, search_on_demand=search_on_demand)
        options = replace(options, tools=toolbox.specs())
    tools_wanted = has_tools and assistant.allowed_tools != ()
    inputs = AnswerInputs(
        assistant,
        conversation,
        tuple(window),
        summary_text,
        options,
        tools_wanted,
        knowledge_note=ON_DEMAND_NOTE if toolbox and toolbox.get(KNOWLEDGE_SEARCH) else "",
    )
    return inputs, toolbox


def allowed_toolbox(
    toolbox: Toolbox, assistant: Assistant, *, search_on_demand: bool = False
) -> Toolbox:
    """Only the tools the assistant may offer (a call to any other is refused): the
    document search first when the answer searches on demand, the search of past
    chats only when the assistant's switch allows it, and the memory tools only when
    it uses memories. The tools' context lists what
    is really offered (for `get_session_capabilities`)."""
    switched = (KNOWLEDGE_SEARCH, SEARCH_CONVERSATIONS, *MEMORY_TOOLS)
    others = {n: t for n, t in toolbox.tools.items() if n not in switched}
    names = allowed(assistant, others)
    tools = {n: t for n, t in others.items() if n in names}
    if assistant.memory is not MemoryMode.OFF:
        memory = {n: t for n in MEMORY_TOOLS if (t := toolbox.get(n)) is not None}
        tools = {**memory, **tools}
    if assistant.past_chats and (past := toolbox.get(SEARCH_CONVERSATIONS)) is not None:
        tools = {SEARCH_CONVERSATIONS: past, **tools}
    if search_on_demand and (search := toolbox.get(KNOWLEDGE_SEARCH)) is not None:
        tools = {KNOWLEDGE_SEARCH: search, **tools}
    context = toolbox.context
    if context is not None:
        context = replace(context, offered=tuple(t.definition for t in tools.values()))
    return Toolbox(tools, context)
