"""The domain model: conversations, message nodes and their parts.

Plain, immutable-by-convention dataclasses. Storage converts them to rows in one place
(`storage/mapping.py`); nothing else knows how they are persisted.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum


def new_id() -> str:
    """Random ids: messages may be created by two windows at once, so no counters."""
    return uuid.uuid4().hex


def utc_now() -> datetime:
    return datetime.now(UTC)


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"


class MessageStatus(StrEnum):
    STREAMING = "streaming"
    COMPLETE = "complete"
    CANCELLED = "cancelled"
    ERROR = "error"
    INTERRUPTED = "interrupted"
    AWAITING_APPROVAL = "awaiting_approval"

    @property
    def is_final(self) -> bool:
        return self not in (MessageStatus.STREAMING, MessageStatus.AWAITING_APPROVAL)


@dataclass(frozen=True, slots=True)
class TextPart:
    text: str


@dataclass(frozen=True, slots=True)
class ReasoningPart:
    """Model reasoning. `duration_ms` stays None while the reasoning is still streaming."""

    text: str
    duration_ms: int | None = None
    # Opaque proof from the provider, sent back with the reasoning on tool continuations.
    signature: str | None = None


class CallState(StrEnum):
    """Where a tool call stands. Only `PENDING` waits for the person; nothing in that
    state is ever run, and every other state is final except `RUNNING`."""

    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    ERROR = "error"  # it ran and failed, or it was refused (disabled, bad arguments)
    DENIED = "denied"
    ANSWERED = "answered"  # the person's text stands in for the result
    INTERRUPTED = "interrupted"  # never ran: the run ended while it was pending
    CANCELLED = "cancelled"  # Stop arrived while it was running


class Decision(StrEnum):
    AUTO = "auto"  # the tool's policy allows it
    APPROVED_ONCE = "approved_once"
    ALWAYS_ALLOWED = "always_allowed"
    DENIED = "denied"
    ANSWERED = "answered"
    DISABLED = "disabled"  # the tool's policy is off
    INTERRUPTED = "interrupted"


class DecidedBy(StrEnum):
    POLICY = "policy"
    PERSON = "person"
    RECOVERY = "recovery"  # Parley closed it: Stop, a new send, or a restart


@dataclass(frozen=True, slots=True)
class ToolCallPart:
    """A tool call the model made, its result once there is one, and its record.

    `arguments` is the JSON text exactly as the model wrote it (it may be invalid: the
    model is told so instead of the call being dropped). `result` stays None until the
    call ran; `is_error` marks a result that reports a failure or a refusal.

    The record (`state` onwards) is what the tool card shows; `state` None means the
    tool loop never handled the call (no tools were offered, or an older Parley).
    `result` of a large output is a preview; `output_path` (relative to the data
    folder) holds the whole text, `result_size` its size in bytes.
    """

    call_id: str
    name: str
    arguments: str = ""
    result: str | None = None
    is_error: bool = False
    state: CallState | None = None
    decision: Decision | None = None
    decided_by: DecidedBy | None = None
    duration_ms: int | None = None
    result_size: int | None = None
    output_path: str | None = None
    error: str | None = None
    # Images (and other files) the tool returned, kept in the attachment store.
    attachment_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NoticePart:
    """Something the person should know about how the answer was made.

    `detail` is longer text the person can open from the notice (what OCR read).
    """

    text: str
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class ErrorPart:
    """A failure shown on the message, carrying the server's own words when it sent any."""

    message: str
    status_code: int | None = None


class SourceKind(StrEnum):
    """What a cited source is: a passage of the person's files, a message of one of
    their earlier chats, or a web page."""

    DOCUMENT = "document"
    CHAT = "chat"
    WEB = "web"


@dataclass(frozen=True, slots=True)
class CitationPart:
    """A source this answer was given, under the number the model cites it by (`[n]`):
    a passage from the person's libraries, an earlier chat's message or a web page.
    Stored with the answer, so its cards, export and import never depend on the index
    (or the page) still holding it; `source_sha256` tells whether a file changed since.

    A document has `library_id`, `path` (absolute, on this computer) and the
    `relative_path` the model saw; a chat has `conversation_id`, `message_id` (empty
    for a title match), its `title` and `date`; a web page its `url`, `title` and
    `date` (published, when the engine said). `excerpt` is what the model read."""

    number: int
    library_id: str
    path: str
    relative_path: str
    excerpt: str
    heading_path: str = ""
    page: int | None = None
    char_start: int = 0
    char_end: int = 0
    source_sha256: str = ""
    chunk_id: int | None = None
    kind: SourceKind = SourceKind.DOCUMENT
    title: str = ""
    url: str = ""
    conversation_id: str = ""
    message_id: str = ""
    date: str = ""  # ISO 8601, as known


Part = TextPart | ReasoningPart | ToolCallPart | NoticePart | ErrorPart | CitationPart


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0


@dataclass(frozen=True, slots=True)
class RetryWait:
    """A request that failed before any answer and will be sent again: what the message
    shows meanwhile ("Rate limited — retrying in 4 s"). Transient, never stored."""

    reason: str
    seconds_left: int
    attempt: int  # the try about to start
    max_attempts: int


@dataclass(frozen=True, slots=True)
class ModelRef:
    """Which provider and which of its models; the pair the model picker shows."""

    provider_id: str
    model: str

    def __str__(self) -> str:
        return f"{self.provider_id}/{self.model}"


@dataclass(frozen=True, slots=True)
class ContextSnapshot:
    """What a message was generated with, so regenerate can use the same inputs."""

    attachment_ids: tuple[str, ...] = ()
    # The workspace file at send: its path, the stored copy of its content then (an
    # attachment id), or why it could not be read. `context_captured` says the snapshot
    # was taken, so "no file" (all None) is a recorded fact, not a missing one.
    workspace_file: str | None = None
    workspace_snapshot_id: str | None = None
    workspace_error: str | None = None
    context_captured: bool = False


@dataclass(slots=True)
class Message:
    id: str
    conversation_id: str
    parent_id: str | None
    role: Role
    parts: list[Part] = field(default_factory=list)
    status: MessageStatus = MessageStatus.COMPLETE
    model: ModelRef | None = None
    usage: Usage | None = None
    first_token_ms: int | None = None
    created_at: datetime = field(default_factory=utc_now)
    finished_at: datetime | None = None
    context: ContextSnapshot = field(default_factory=ContextSnapshot)
    # Set only on the live updates of a streaming answer; storage never reads or writes it.
    retry: RetryWait | None = None
    # Likewise: what the answer waits for before it starts ("Reading 2 images with OCR…").
    activity: str | None = None
    # Likewise: why what is shown is not (all) on disk yet, e.g. the disk is full.
    save_error: str | None = None

    @property
    def text(self) -> str:
        """The visible answer text (reasoning and notices excluded)."""
        return "".join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def error(self) -> ErrorPart | None:
        return next((p for p in self.parts if isinstance(p, ErrorPart)), None)


@dataclass(frozen=True, slots=True)
class RollingSummary:
    text: str
    covered_ids: tuple[str, ...]


@dataclass(slots=True)
class Conversation:
    id: str
    title: str
    created_at: datetime = field(default_factory=utc_now)
    updated_at: datetime = field(default_factory=utc_now)
    assistant_id: str | None = None
    pinned: bool = False
    archived: bool = False
    active_leaf_id: str | None = None
    summary: RollingSummary | None = None
    workspace: str | None = None  # the folder the workspace tools work in
    workspace_file: str | None = None  # read fresh and sent with each message
    system_prompt: str | None = None  # replaces the assistant's, if it allows that
    pinned_message_ids: tuple[str, ...] = ()  # always sent in full, never summarised


@dataclass(frozen=True, slots=True)
class ConversationSummary:
    """What a list of conversations shows of one, and enough to place it in the list.

    Lists are ordered pinned first, then newest `updated_at` first, then newest
    `sequence` first: `sequence` grows with creation and breaks ties between
    conversations updated in the same millisecond, exactly as storage orders them, so a
    list can place one changed conversation without reloading the others.
    """

    id: str
    title: str
    updated_at: datetime
    pinned: bool
    sequence: int
