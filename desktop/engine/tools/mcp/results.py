"""An MCP tool result as the text the model reads.

Text blocks are joined; structured content is sent as JSON text when the server gave no
text (servers usually repeat it as text, and the model needs it only once); images and
audio are noted by type and size. PNG, JPEG and WebP images (`storable_images`) can be
kept in the attachment store, and their note then says "attached" so the person knows
where to find them; a result marked `isError` becomes a tool failure the model is told
about.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop.engine.tools.registry import ToolFailure

if TYPE_CHECKING:
    from mcp import types

STORABLE_IMAGES = frozenset({"image/png", "image/jpeg", "image/webp"})


@dataclass(frozen=True, slots=True)
class McpImage:
    """An image block worth keeping: its place among the result's blocks, and bytes."""

    index: int
    mime: str
    data: bytes


def _decode(data: str) -> bytes | None:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None


def _size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return len(data)


def storable_images(result: types.CallToolResult) -> list[McpImage]:
    """The result's PNG, JPEG and WebP images (valid base64 only), in order."""
    from mcp import types  # loaded by then: the call that made `result` loaded the SDK

    found = []
    for index, block in enumerate(result.content):
        if isinstance(block, types.ImageContent) and block.mime_type in STORABLE_IMAGES:
            data = _decode(block.data)
            if data:
                found.append(McpImage(index, block.mime_type, data))
    return found


def _block_text(block: object, attached: bool = False) -> str:
    from mcp import types

    if isinstance(block, types.TextContent):
        return block.text
    if isinstance(block, types.ImageContent):
        note = ", attached" if attached else ""
        return f"[image: {block.mime_type}, {_size(block.data)} bytes{note}]"
    if isinstance(block, types.AudioContent):
        return f"[audio: {block.mime_type}, {_size(block.data)} bytes]"
    if isinstance(block, types.ResourceLink):
        return f"[resource: {block.uri}]"
    if isinstance(block, types.EmbeddedResource):
        resource = block.resource
        text = getattr(resource, "text", None)
        return text if isinstance(text, str) else f"[resource: {resource.uri}]"
    return f"[{getattr(block, 'type', 'content')}]"


def result_text(result: types.CallToolResult, attached: Collection[int] = ()) -> str:
    """The model's view of `result`; raises ToolFailure for an error result. `attached`
    are the indexes of the image blocks kept as attachments."""
    from mcp import types

    parts = [_block_text(block, i in attached) for i, block in enumerate(result.content)]
    has_text = any(isinstance(b, types.TextContent) for b in result.content)
    if result.structured_content is not None and not has_text:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False))
    text = "\n".join(parts)
    if result.is_error:
        raise ToolFailure(text or "The server reported an error without a message.")
    return text
