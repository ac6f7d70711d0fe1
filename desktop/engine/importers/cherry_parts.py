"""Cherry Studio's message content as Parley parts.

Since its database version 7 Cherry Studio keeps a message's content apart from the
message, as typed "blocks" in their own table (`message_blocks`), the message listing
their ids in display order; older backups (version 3 and before) hold the content inline
on the message (`content`, `reasoning_content`, `files`, `metadata.mcpTools`…).
`legacy_blocks` turns such an inline message into the blocks Cherry's own upgrade would
make, so both kinds go through one mapping (`content_of`).

What Parley cannot carry over yet — images and files (the backup holds them, if at all,
in its `Data/Files` folder, not in `data.json`), and the sources an answer cited — is
counted and left as a notice on the message, so the conversation still says it was there.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from desktop.core.i18n import tr
from desktop.core.models import CallState, NoticePart, Part, ReasoningPart, TextPart, ToolCallPart
from desktop.engine.importers.model import json_text, tool_result_text

_MAX_SOURCES = 20  # cited sources listed in one notice
_MAX_WALK = 2000  # nodes visited looking for cited sources (hostile input stays cheap)
_ERROR_TEXT = 300  # characters of an error shown in the notice itself


@dataclass(slots=True)
class Content:
    """One message's parts and the images/files it showed in Cherry Studio."""

    parts: list[Part] = field(default_factory=list)
    attachments: int = 0


def content_of(blocks: Iterator[Mapping[str, Any]]) -> Content:
    """The parts of a message made of `blocks` (in display order)."""
    content = Content()
    for block in blocks:
        _add_block(content, block)
    return content


def blocks_by_id(
    block_ids: object, table: Mapping[str, Mapping[str, Any]]
) -> Iterator[Mapping[str, Any]]:
    """The message's blocks, in its order; ids the table does not hold are passed over."""
    if not isinstance(block_ids, list):
        return
    for block_id in block_ids:
        if isinstance(block_id, str) and block_id in table:
            yield table[block_id]


def legacy_blocks(message: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """An inline (pre-blocks) message as blocks, in the order Cherry's upgrade gives them."""
    metadata = _dict(message.get("metadata"))
    metrics = _dict(message.get("metrics"))
    reasoning = message.get("reasoning_content")
    if isinstance(reasoning, str) and reasoning.strip():
        yield {
            "type": "thinking",
            "content": reasoning,
            "thinking_millsec": metrics.get("time_thinking_millsec"),
        }
    for tool in _list(metadata.get("mcpTools")):
        if isinstance(tool, dict):
            yield {
                "type": "tool",
                "toolId": tool.get("id"),
                "metadata": {"rawMcpToolResponse": tool},
            }
    text = message.get("content")
    if isinstance(text, str) and text.strip():
        yield {"type": "main_text", "content": text}
    translated = message.get("translatedContent")
    if isinstance(translated, str) and translated.strip():
        yield {"type": "translation", "content": translated}
    for file in _list(message.get("files")):
        if isinstance(file, dict):
            yield {"type": "image" if file.get("type") == "image" else "file", "file": file}
    for _image in _list(message.get("images")):
        yield {"type": "image"}
    generated = _dict(metadata.get("generateImage"))
    for _image in _list(generated.get("images")):
        yield {"type": "image"}
    cited = {
        key: metadata[key]
        for key in ("groundingMetadata", "annotations", "citations", "webSearch", "webSearchInfo")
        if metadata.get(key)
    }
    if cited or metadata.get("knowledge"):
        yield {"type": "citation", "response": cited, "knowledge": metadata.get("knowledge")}
    error = message.get("error")
    if isinstance(error, dict) and error and not (isinstance(text, str) and text.strip()):
        yield {"type": "error", "error": error}


def _add_block(content: Content, block: Mapping[str, Any]) -> None:
    kind = block.get("type")
    text = block.get("content")
    text = text if isinstance(text, str) else ""
    if kind in ("main_text", "compact"):
        if text.strip():
            content.parts.append(TextPart(text))
    elif kind == "thinking":
        if text.strip():
            content.parts.append(
                ReasoningPart(text, duration_ms=_millis(block.get("thinking_millsec")))
            )
    elif kind == "code":
        if text.strip():
            language = block.get("language")
            language = language if isinstance(language, str) else ""
            content.parts.append(TextPart(f"```{language}\n{text.rstrip()}\n```"))
    elif kind == "translation":
        if text.strip():
            content.parts.append(
                NoticePart(tr("Cherry Studio showed a translation of this message."), detail=text)
            )
    elif kind == "tool":
        content.parts.append(_tool_call(block))
    elif kind in ("image", "video", "file"):
        content.attachments += 1
        content.parts.append(_attachment_notice(kind, block))
    elif kind == "citation":
        notice = _citation_notice(block)
        if notice is not None:
            content.parts.append(notice)
    elif kind == "error":
        content.parts.append(_error_notice(block))
    # "unknown" (a placeholder while a reply streams) and types Parley does not know: nothing


def _tool_call(block: Mapping[str, Any]) -> ToolCallPart:
    """A tool block (or a legacy `mcpTools` entry) as a finished tool call."""
    raw = _dict(_dict(block.get("metadata")).get("rawMcpToolResponse"))
    tool = _dict(raw.get("tool"))
    name = _first_text(block.get("toolName"), tool.get("name"), tool.get("id")) or "tool"
    call_id = _first_text(block.get("toolId"), raw.get("id"), block.get("id")) or name
    arguments = block.get("arguments")
    if arguments is None:
        arguments = raw.get("arguments")
    result = block.get("content")
    if result is None:
        result = raw.get("response")
    error = _dict(block.get("error"))
    failed = (
        block.get("status") == "error"
        or bool(error)
        or raw.get("status") == "error"
        or (isinstance(result, dict) and result.get("isError") is True)
    )
    message = _first_text(error.get("message")) if error else None
    return ToolCallPart(
        call_id=call_id,
        name=name,
        arguments=json_text(arguments),
        result=tool_result_text(result),
        is_error=failed,
        state=CallState.ERROR if failed else CallState.DONE,
        error=message,
    )


def _attachment_notice(kind: str, block: Mapping[str, Any]) -> NoticePart:
    file = _dict(block.get("file"))
    name = _first_text(file.get("origin_name"), file.get("name"))
    if kind == "file":
        if name:
            return NoticePart(
                tr(
                    "The file {name} was attached here in Cherry Studio; it was not imported."
                ).format(name=name)
            )
        return NoticePart(tr("A file was attached here in Cherry Studio; it was not imported."))
    if kind == "video":
        return NoticePart(tr("A video was shown here in Cherry Studio; it was not imported."))
    return NoticePart(tr("An image was attached here in Cherry Studio; it was not imported."))


def _citation_notice(block: Mapping[str, Any]) -> NoticePart | None:
    """The sources a citation block names, as one notice; None when it names none."""
    sources = list(
        _sources({"response": block.get("response"), "knowledge": block.get("knowledge")})
    )
    if not sources:
        return None
    lines = [f"{title} — {url}" if title and title != url else url for title, url in sources]
    return NoticePart(
        tr("This answer cited %n source(s) in Cherry Studio.", "", len(sources)),
        detail="\n".join(lines),
    )


def _sources(root: object) -> Iterator[tuple[str, str]]:
    """(title, url) of every web address in a citation's data, whatever its provider's
    shape (Cherry keeps each search provider's own result records), first ones first."""
    seen: set[str] = set()
    stack: list[object] = [root]
    visited = 0
    while stack and visited < _MAX_WALK and len(seen) < _MAX_SOURCES:
        node = stack.pop(0)
        visited += 1
        if isinstance(node, str):
            if node.startswith(("http://", "https://")) and node not in seen:
                seen.add(node)
                yield "", node
        elif isinstance(node, dict):
            url = _first_text(
                node.get("url"), node.get("uri"), node.get("sourceUrl"), node.get("link")
            )
            if url and url.startswith(("http://", "https://")):
                if url not in seen:
                    seen.add(url)
                    yield _first_text(node.get("title"), node.get("name")) or "", url
                continue
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _error_notice(block: Mapping[str, Any]) -> NoticePart:
    error = _dict(block.get("error"))
    message = _first_text(error.get("message"), block.get("content"))
    if not message:
        return NoticePart(tr("Cherry Studio showed an error here."))
    short = message if len(message) <= _ERROR_TEXT else message[:_ERROR_TEXT].rstrip() + "…"
    return NoticePart(
        tr("Cherry Studio showed an error here: {error}").format(error=short),
        detail=message if short != message else None,
    )


def _millis(value: object) -> int:
    """A thinking time in milliseconds; 0 (finished, length unknown) when absent or odd."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if not 0 <= value <= 10**10:  # negative, NaN, absurd
        return 0
    return int(value)


def _first_text(*values: object) -> str | None:
    for value in values:
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _dict(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []
