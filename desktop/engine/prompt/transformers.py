"""Request-only transformers: small pure functions `(request, ctx) -> request`.

They run in a fixed order, each on the previous one's output, and touch only the
outgoing `ChatRequest` (a frozen value): the stored messages are never changed, so what
the person sees and what a later edit starts from stays exactly what they wrote.

1. `time_reminder` appends the current date, time and zone to the system text.
2. `placeholders` fills `{{date}}`, `{{model}}`... (see `placeholders.py`) in the system
   text and the person's messages.
3. `documents_as_prompt`, 4. `ocr_text`, 5. `workspace_context` put each kind of file's
   bounded blocks before the person's words, in that order, under one preamble.
6. `memory_context` appends the memories the answer is given (`engine/memory/block.py`).
7. `knowledge_context` appends the passages retrieved from the person's libraries to the
   system text, in boundary tags, as reference data (`knowledge/context.py`).

Placeholders run before the file blocks on purpose: a document that happens to contain
`{{date}}` is quoted material and reaches the model as it is.

Transformers never add or remove messages, so `TransformContext.message_files` stays
aligned with `request.messages`; moving the system text into a user turn (for models
without a system role) happens after all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from desktop.core.models import CitationPart, Role
from desktop.engine.attachments.text import (
    AttachmentInput,
    FileKind,
    add_file_blocks,
    file_block,
    kind_of,
)
from desktop.engine.knowledge.context import knowledge_block
from desktop.engine.prompt import placeholders as ph
from desktop.engine.prompt.clock import in_zone, utc_offset
from desktop.providers.base import ChatRequest


@dataclass(frozen=True, slots=True)
class TransformContext:
    """What the transformers know besides the request.

    `now` must be timezone-aware; `timezone_name` is the person's IANA zone
    ("Europe/Berlin"), which `now` is converted to. `message_files[i]` holds the ids
    (keys of `attachments`) of the inputs whose text belongs to `request.messages[i]`
    (`request_builder.BuiltRequest.files`). `knowledge`: the passages retrieved for
    this answer, as the answer keeps them.
    """

    now: datetime
    timezone_name: str
    model: str = ""
    assistant: str = ""
    user: str = ""
    attachments: Mapping[str, AttachmentInput] = field(default_factory=dict)
    message_files: tuple[tuple[str, ...], ...] = ()
    knowledge: tuple[CitationPart, ...] = ()
    knowledge_note: str = ""  # how to use `knowledge_search`, when it is (or was) offered
    memory_text: str = ""  # the `<memory>` element of the memories the answer is given

    def __post_init__(self) -> None:
        if self.now.utcoffset() is None:
            raise ValueError("TransformContext.now must be timezone-aware")

    @property
    def local_now(self) -> datetime:
        return in_zone(self.now, self.timezone_name)


Transformer = Callable[[ChatRequest, TransformContext], ChatRequest]


def _with_system(request: ChatRequest, text: str) -> ChatRequest:
    system = f"{request.system}\n\n{text}" if request.system else text
    return replace(request, system=system)


def time_reminder(request: ChatRequest, ctx: TransformContext) -> ChatRequest:
    """Models do not know the date; without it "today" or "this year" are guesses."""
    local = ctx.local_now
    stamp = local.strftime("%Y-%m-%d %H:%M")
    return _with_system(
        request,
        f"Current date and time: {stamp} ({ctx.timezone_name}, {utc_offset(local)})",
    )


def placeholders(request: ChatRequest, ctx: TransformContext) -> ChatRequest:
    """Placeholders filled in the system text and in the person's messages (not in the
    model's earlier answers, which are quoted back as they were)."""
    known = ph.values(
        ctx.local_now, ctx.timezone_name, model=ctx.model, assistant=ctx.assistant, user=ctx.user
    )
    messages = tuple(
        replace(m, text=ph.expand(m.text, known)) if m.role is Role.USER else m
        for m in request.messages
    )
    system = ph.expand(request.system, known) if request.system else request.system
    return replace(request, system=system, messages=messages)


def _add_files(request: ChatRequest, ctx: TransformContext, kind: FileKind) -> ChatRequest:
    """Each message's blocks of `kind` added after the blocks it already has."""
    if not ctx.message_files:
        return request
    if len(ctx.message_files) != len(request.messages):
        raise ValueError("message_files must have one entry per request message")
    messages = list(request.messages)
    for index, ids in enumerate(ctx.message_files):
        items: Sequence[AttachmentInput] = [ctx.attachments[i] for i in ids]
        blocks = [file_block(item) for item in items if kind_of(item) is kind]
        if blocks:
            known = [file_block(item) for item in items if kind_of(item) is not None]
            text = add_file_blocks(messages[index].text, blocks, known)
            messages[index] = replace(messages[index], text=text)
    return replace(request, messages=tuple(messages))


def documents_as_prompt(request: ChatRequest, ctx: TransformContext) -> ChatRequest:
    """Attached documents (and files that could not be read) as bounded text blocks."""
    return _add_files(request, ctx, FileKind.DOCUMENT)


def ocr_text(request: ChatRequest, ctx: TransformContext) -> ChatRequest:
    """What OCR read in images the model cannot see."""
    return _add_files(request, ctx, FileKind.OCR)


def workspace_context(request: ChatRequest, ctx: TransformContext) -> ChatRequest:
    """The workspace file as it was when the message was sent."""
    return _add_files(request, ctx, FileKind.WORKSPACE)


def memory_context(request: ChatRequest, ctx: TransformContext) -> ChatRequest:
    """The person's memories, after placeholders for the same reason as the passages."""
    return _with_system(request, ctx.memory_text) if ctx.memory_text else request


def knowledge_context(request: ChatRequest, ctx: TransformContext) -> ChatRequest:
    """Passages from the person's libraries: last, after placeholders, so a passage that
    happens to contain `{{date}}` reaches the model as it was written."""
    block = "\n\n".join(b for b in (knowledge_block(ctx.knowledge), ctx.knowledge_note) if b)
    return _with_system(request, block) if block else request


TRANSFORMERS: tuple[Transformer, ...] = (
    time_reminder,
    placeholders,
    documents_as_prompt,
    ocr_text,
    workspace_context,
    memory_context,
    knowledge_context,
)


def apply_transformers(
    request: ChatRequest,
    ctx: TransformContext,
    transformers: Sequence[Transformer] = TRANSFORMERS,
) -> ChatRequest:
    """`request` through every transformer, in order, each feeding the next."""
    for transform in transformers:
        request = transform(request, ctx)
    return request
