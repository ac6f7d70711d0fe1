"""Writing a rolling summary with a model.

The summary replaces old messages in what is sent, so it must keep what later answers
depend on: facts, decisions, open questions, names and numbers, in the conversation's
own language. A previous summary is merged, not appended, so it stays compact however
long the chat grows.
"""

from __future__ import annotations

from collections.abc import Sequence

from desktop.core.errors import ProviderError
from desktop.core.i18n import tr
from desktop.core.models import Message, Role, ToolCallPart
from desktop.providers.base import ChatProvider, ChatRequest, RequestMessage

INSTRUCTION = (
    "You maintain the running summary of an earlier part of a conversation between a "
    "person and an assistant. The summary will replace those messages when the "
    "conversation continues, so write a faithful, compact summary: keep the facts, "
    "decisions, open questions, names, numbers, code identifiers and anything the "
    "person asked to remember; drop pleasantries and repetition. Never invent "
    "anything. If a previous summary is given, merge it with the new messages into "
    "one summary (do not just append). Write in the language of the conversation. "
    "Reply with the summary only."
)
TOOL_RESULT_CHARS = 2_000  # of each tool result: enough to summarise, not a whole file
MAX_OUTPUT_TOKENS = 2_048


def transcript(messages: Sequence[Message]) -> str:
    """The messages as plain text for the summarising model, tool calls included."""
    blocks: list[str] = []
    for message in messages:
        speaker = "User" if message.role is Role.USER else "Assistant"
        lines = [f"{speaker}: {message.text.strip()}"]
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                result = (part.result or "")[:TOOL_RESULT_CHARS]
                lines.append(f"[tool {part.name}({part.arguments}) -> {result}]")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def summary_request(
    model: str, previous: str | None, messages: Sequence[Message], instructions: str | None
) -> ChatRequest:
    # The instruction goes in the user turn: every model has one, not every model has
    # a system role.
    sections: list[str] = [INSTRUCTION]
    if previous:
        sections.append(f"<previous_summary>\n{previous.strip()}\n</previous_summary>")
    if messages:
        sections.append(f"<messages>\n{transcript(messages)}\n</messages>")
    if instructions and instructions.strip():
        sections.append(f"Extra instructions from the person: {instructions.strip()}")
    sections.append("Write the updated summary now.")
    return ChatRequest(
        model=model,
        messages=(RequestMessage(role=Role.USER, text="\n\n".join(sections)),),
        max_output_tokens=MAX_OUTPUT_TOKENS,
    )


async def summarise(
    provider: ChatProvider,
    model: str,
    previous: str | None,
    messages: Sequence[Message],
    instructions: str | None = None,
) -> str:
    """The merged summary. Raises ProviderError when the model fails or says nothing."""
    request = summary_request(model, previous, messages, instructions)
    completion = await provider.complete(request)
    text = completion.text.strip()
    if not text:
        raise ProviderError(tr("The model returned an empty summary."))
    return text
