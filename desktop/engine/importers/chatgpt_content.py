"""What one node of a ChatGPT export says, as Parley parts, and how the nodes of one
assistant turn fold into one Parley message.

ChatGPT stores a turn as a chain of nodes: the model's thoughts, a "Thought for 6s"
recap, a call to a tool (an assistant node whose `recipient` is the tool), the tool's
output (a `tool` node), more thoughts, then the visible answer. Parley keeps a turn as
one assistant message with those parts in order, so `Turn` gathers the chain: the
reasoning, each call with the output that answered it, and the text.

Everything here reads untrusted JSON: a value of the wrong type is treated as absent,
never trusted, so an odd export gives fewer parts, not an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from desktop.core.i18n import tr
from desktop.core.models import CallState, NoticePart, Part, ReasoningPart, TextPart, ToolCallPart
from desktop.engine.importers.chatgpt_assets import Assets
from desktop.engine.importers.model import ImportedFile, from_epoch

# Content a person never saw in the conversation: custom instructions, saved memories.
HIDDEN_CONTENT = frozenset({"user_editable_context", "model_editable_context"})
_LONGEST_THOUGHT_S = 10**7  # a duration beyond this is nonsense, read as unknown
_AUDIO = frozenset({"audio_asset_pointer", "real_time_user_audio_video_asset_pointer"})


def image_notice() -> NoticePart:
    return NoticePart(tr("An image was attached here in ChatGPT; it was not imported."))


@dataclass(slots=True)
class Source:
    """One kept node of the export: who wrote it and what it holds."""

    key: str
    role: str  # "user", "assistant" or "tool"
    time: datetime | None
    content: dict[str, Any]
    metadata: dict[str, Any]
    recipient: str | None  # the tool an assistant node speaks to; None for the person
    tool_name: str | None  # the tool a tool node speaks for
    model: str | None


@dataclass(slots=True)
class Turn:
    """The nodes that make one Parley message, in order, and the parts they give.

    An image or file the export holds becomes one of `files` (the person's own, or on
    the card of the tool call that made it); one it lacks, or that Parley has nowhere
    to show (an image in the model's own words), leaves a notice and counts in
    `left_out`."""

    first: Source
    parent: Turn | None
    assets: Assets | None = None
    parts: list[Part] = field(default_factory=list)
    images: int = 0
    files: list[ImportedFile] = field(default_factory=list)  # `message_id` filled later
    left_out: int = 0
    last_time: datetime | None = None
    model: str | None = None
    message_id: str | None = None  # the Parley message standing for it, once made

    @property
    def role(self) -> str:
        return "user" if self.first.role == "user" else "assistant"

    def add(self, source: Source) -> None:
        if source.time is not None:
            self.last_time = source.time
        if self.model is None and source.role == "assistant":
            self.model = source.model
        kind = _text(source.content.get("content_type"))
        if source.role == "tool":
            self._tool_output(source, kind)
        elif source.recipient is not None:
            self.parts.append(
                ToolCallPart(
                    call_id=source.key,
                    name=source.recipient,
                    arguments=_content_text(source.content),
                )
            )
        elif kind == "thoughts":
            self._thoughts(source.content)
        elif kind == "reasoning_recap":
            self._recap(source)
        else:
            self._visible(source, kind)

    def finished_parts(self) -> list[Part]:
        """The parts, with every call that got no output in the export closed as done."""
        return [
            replace(p, state=CallState.DONE, result=p.result or "")
            if isinstance(p, ToolCallPart) and p.state is None
            else p
            for p in self.parts
        ]

    # Reasoning

    def _thoughts(self, content: dict[str, Any]) -> None:
        thoughts = content.get("thoughts")
        pieces: list[str] = []
        for thought in thoughts if isinstance(thoughts, list) else []:
            if not isinstance(thought, dict):
                continue
            summary, body = _text(thought.get("summary")), _text(thought.get("content"))
            pieces.append("\n".join(p for p in (f"**{summary}**" if summary else "", body) if p))
        text = "\n\n".join(p for p in pieces if p) or _parts_text(content)
        if text:
            self.parts.append(ReasoningPart(text, duration_ms=0))

    def _recap(self, source: Source) -> None:
        """ "Thought for 6s": the duration of the reasoning before it, or the only trace
        of reasoning the export kept."""
        seconds = source.metadata.get("finished_duration_sec")
        ms = (
            int(seconds * 1000)
            if isinstance(seconds, int | float)
            and not isinstance(seconds, bool)
            and 0 <= seconds < _LONGEST_THOUGHT_S
            else 0
        )
        for index in range(len(self.parts) - 1, -1, -1):
            part = self.parts[index]
            if isinstance(part, ReasoningPart):
                self.parts[index] = replace(part, duration_ms=ms or part.duration_ms)
                return
            if not isinstance(part, ReasoningPart | ToolCallPart):
                break
        recap = _content_text(source.content)
        if recap:
            self.parts.append(ReasoningPart(recap, duration_ms=ms))

    # Tools

    def _tool_output(self, source: Source, kind: str) -> None:
        result = _content_text(source.content)
        url = _text(source.content.get("url"))
        if url and kind != "execution_output":
            result = "\n\n".join(p for p in (_text(source.content.get("title")), url, result) if p)
        failed = kind == "system_error"
        state = CallState.ERROR if failed else CallState.DONE
        images_before = self.images
        files_before = len(self.files)
        start = len(self.parts)  # its images' notices go after the call they belong to
        self._media(source.content, with_text=False, in_call=True)
        media = self.parts[start:]
        del self.parts[start:]
        call_id: str | None = None
        for index in range(len(self.parts) - 1, -1, -1):
            part = self.parts[index]
            if isinstance(part, ToolCallPart) and part.state is None:
                if source.tool_name and not _same_tool(part.name, source.tool_name):
                    continue
                self.parts[index] = replace(
                    part,
                    result=result,
                    is_error=failed,
                    state=state,
                    error=result if failed else None,
                )
                call_id = part.call_id
                break
        else:
            # An output with nothing in it (a search's bookkeeping node) shows nothing.
            if result or failed or self.images > images_before:
                self.parts.append(
                    ToolCallPart(
                        call_id=source.key,
                        name=source.tool_name or "tool",
                        result=result,
                        is_error=failed,
                        state=state,
                        error=result if failed else None,
                    )
                )
                call_id = source.key
        # The images it made go on its card (a DALL·E picture under its prompt).
        self.files[files_before:] = [replace(f, call_id=call_id) for f in self.files[files_before:]]
        self.parts.extend(media)

    # What the person saw

    def _visible(self, source: Source, kind: str) -> None:
        content = source.content
        if kind == "code":
            code = _text(content.get("text"))
            language = _text(content.get("language"))
            if code:
                fence = language if language and language != "unknown" else ""
                self.parts.append(TextPart("```" + fence + "\n" + code + "\n```"))
        elif kind in ("text", "multimodal_text", ""):
            listed = _listed_attachments(source.metadata)
            pointers = self._media(content, listed={i: (n, m) for i, n, m in listed})
            self._attachments(listed, pointers)
        else:
            text = _content_text(content)
            if text:
                self.parts.append(TextPart(text))
            else:
                self.parts.append(
                    NoticePart(
                        tr(
                            "ChatGPT showed content of the kind “{kind}” here; it was not imported."
                        ).format(kind=kind)
                    )
                )

    def _media(
        self,
        content: dict[str, Any],
        *,
        with_text: bool = True,
        in_call: bool = False,
        listed: dict[str, tuple[str, str]] | None = None,
    ) -> set[str]:
        """Text parts, and files or notices for the images and audio among
        `content.parts`; the file ids of the images, so the same file listed as an
        attachment counts once. A tool's output already holds its text, so only its
        images are added then (`in_call`). `listed`: the names and types the message's
        attachments give, by file id."""
        pointers: set[str] = set()
        texts: list[str] = []
        parts = content.get("parts")
        for item in parts if isinstance(parts, list) else []:
            if isinstance(item, str):
                if item and with_text:
                    texts.append(item)
                continue
            if not isinstance(item, dict):
                continue
            kind = _text(item.get("content_type"))
            if kind == "audio_transcription":
                if with_text and _text(item.get("text")):
                    texts.append(_text(item.get("text")))
                continue
            self._flush(texts)
            pointer = _text(item.get("asset_pointer"))
            if kind in _AUDIO:
                self.images += 1
                self.left_out += 1
                self.parts.append(
                    NoticePart(tr("A recording was attached here in ChatGPT; it was not imported."))
                )
            elif pointer or kind == "image_asset_pointer":
                self.images += 1
                file_id = pointer.rpartition("://")[2]
                pointers.add(file_id)
                name, mime = (listed or {}).get(file_id, ("", ""))
                if not self._take(file_id, name, mime, in_call=in_call):
                    self.parts.append(image_notice())
            elif kind:
                self.parts.append(
                    NoticePart(
                        tr(
                            "ChatGPT showed content of the kind “{kind}” here; it was not imported."
                        ).format(kind=kind)
                    )
                )
        self._flush(texts)
        return pointers

    def _take(self, file_id: str, name: str, mime: str, *, in_call: bool) -> bool:
        """Keep the export's file `file_id` for this message; False (and counted as left
        out) when the export lacks it or it has no place here."""
        member = self.assets.member(file_id) if self.assets is not None and file_id else None
        if member is None or (self.role != "user" and not in_call):
            self.left_out += 1
            return False
        if all(f.key != file_id for f in self.files):
            name = self.assets.name_of(member, name) if self.assets is not None else name
            self.files.append(ImportedFile("", file_id, member, name, mime))
        return True

    def _flush(self, texts: list[str]) -> None:
        if texts:
            self.parts.append(TextPart("\n".join(texts)))
            texts.clear()

    def _attachments(self, listed: list[tuple[str, str, str]], shown: set[str]) -> None:
        for file_id, name, mime in listed:
            if file_id in shown:
                continue
            self.images += 1
            if self._take(file_id, name, mime, in_call=False):
                continue
            if mime.startswith("image/") or not name:
                self.parts.append(image_notice())
            else:
                self.parts.append(
                    NoticePart(
                        tr(
                            "The file “{name}” was attached here in ChatGPT; it was not imported."
                        ).format(name=name)
                    )
                )


def _listed_attachments(metadata: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The files a message lists in `metadata.attachments`: (id, name, MIME type)."""
    attachments = metadata.get("attachments")
    return [
        (_text(item.get("id")), _text(item.get("name")), _text(item.get("mime_type")))
        for item in (attachments if isinstance(attachments, list) else [])
        if isinstance(item, dict)
    ]


def source_of(key: str, message: dict[str, Any]) -> Source | str | None:
    """The node's message as a `Source`; None for one the person never saw (a system
    node, a hidden context node); a reason (str) for a message that cannot be read."""
    author = message.get("author")
    role = author.get("role") if isinstance(author, dict) else None
    if not isinstance(role, str) or not role:
        return tr("it names no author")
    content = message.get("content")
    metadata = message.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    if role == "system" or metadata.get("is_visually_hidden_from_conversation") is True:
        return None
    if role not in ("user", "assistant", "tool"):
        return tr("it was written by “{role}”, which is not the person or the model").format(
            role=role[:40]
        )
    if not isinstance(content, dict):
        return tr("its content is missing or unreadable")
    if _text(content.get("content_type")) in HIDDEN_CONTENT:
        return None
    recipient = _text(message.get("recipient"))
    name = _text(author.get("name")) if isinstance(author, dict) else ""
    model = _text(metadata.get("model_slug"))
    return Source(
        key=key,
        role=role,
        time=_time(message.get("create_time")),
        content=content,
        metadata=metadata,
        recipient=recipient if role == "assistant" and recipient not in ("", "all") else None,
        tool_name=name or None if role == "tool" else None,
        model=model or None,
    )


def _time(value: object) -> datetime | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return from_epoch(value)
    return None


def _same_tool(call: str, output: str) -> bool:
    """A `web.run` call is answered by `web.run` or `web`; `python` by `python`."""
    return call == output or call.partition(".")[0] == output.partition(".")[0]


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _parts_text(content: dict[str, Any]) -> str:
    parts = content.get("parts")
    return (
        "\n".join(p for p in parts if isinstance(p, str) and p) if isinstance(parts, list) else ""
    )


def _content_text(content: dict[str, Any]) -> str:
    """The text of a content object, wherever its kind keeps it."""
    for key in ("text", "result", "content"):
        value = content.get(key)
        if isinstance(value, str) and value:
            return value
    return _parts_text(content)
