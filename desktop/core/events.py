"""Typed events: what a provider stream yields, and what the engine reports.

One vocabulary for every provider (vendor keys never leave `providers/`), and one for
the engine's listeners (view-models), so nothing downstream matches on strings.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop.core.knowledge import IndexProgress
from desktop.core.models import Message, MessageStatus, Usage

# --- provider stream events -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str


@dataclass(frozen=True, slots=True)
class ReasoningDelta:
    text: str


@dataclass(frozen=True, slots=True)
class ReasoningSignature:
    """Opaque proof attached to the reasoning just streamed (Anthropic's thinking
    signature, Gemini's thought signature, an OpenAI Responses reasoning item).

    Some providers refuse a tool continuation unless the reasoning comes back with it
    unchanged, so the engine stores it on the reasoning part and sends it back.
    """

    signature: str


@dataclass(frozen=True, slots=True)
class ToolCallDelta:
    """A piece of a tool call the model is making.

    Wires split a call across chunks: the first piece for an `index` usually carries the
    id and name, later ones only more of the JSON `arguments` text. `index` is the
    call's position within this model step; pieces with the same index belong together.
    """

    index: int
    call_id: str | None = None
    name: str | None = None
    arguments: str = ""


@dataclass(frozen=True, slots=True)
class Retrying:
    """The request failed before any answer arrived and will be sent again.

    `reason` is a short sentence for the person ("Rate limited"); `delay_s` is the wait
    before the next try, `attempt` the number of the try about to start.
    """

    reason: str
    delay_s: float
    attempt: int
    max_attempts: int


@dataclass(frozen=True, slots=True)
class UsageReport:
    usage: Usage


@dataclass(frozen=True, slots=True)
class Finished:
    """The provider said the answer is complete (`reason` as the wire gave it)."""

    reason: str | None = None


StreamEvent = (
    TextDelta
    | ReasoningDelta
    | ReasoningSignature
    | ToolCallDelta
    | Retrying
    | UsageReport
    | Finished
)


# --- engine events ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConversationsChanged:
    """The list of conversations (titles, order, membership) changed.

    `conversation_id` names the one conversation that changed (a deleted one included),
    so a list updates that row alone; None means many or unknown: reload them all.
    """

    conversation_id: str | None = None


@dataclass(frozen=True, slots=True)
class MessageChanged:
    """A message was created or updated; `message` is a snapshot safe to keep."""

    message: Message


@dataclass(frozen=True, slots=True)
class ActivePathChanged:
    """The visible branch of a conversation changed (version switch, edit, delete)."""

    conversation_id: str


@dataclass(frozen=True, slots=True)
class GenerationStarted:
    conversation_id: str
    message_id: str


@dataclass(frozen=True, slots=True)
class GenerationFinished:
    """Fired exactly once per generation, after the final state is persisted."""

    conversation_id: str
    message_id: str
    status: MessageStatus


@dataclass(frozen=True, slots=True)
class ApprovalsChanged:
    """Tool calls of a message wait for the person, or no longer do (decided, Stop, a
    new send). Listeners read the open requests from the chat service again."""

    conversation_id: str
    message_id: str


@dataclass(frozen=True, slots=True)
class SuggestionsReady:
    """Follow-up questions for the answer `message_id`, written in the background
    after it finished; shown as chips under it while it is the latest answer."""

    conversation_id: str
    message_id: str
    suggestions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DataReplaced:
    """This device's chats were replaced wholesale (a backup restored with "Replace
    This Computer's Data"): what sync had received no longer describes them, so it
    reads every device's changes again."""


EngineEvent = (
    ConversationsChanged
    | MessageChanged
    | ActivePathChanged
    | GenerationStarted
    | GenerationFinished
    | ApprovalsChanged
    | SuggestionsReady
    | IndexProgress  # a knowledge library's indexing (knowledge.py)
    | DataReplaced
)
