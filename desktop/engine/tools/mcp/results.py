"""An MCP tool result as the text the model reads.

Text blocks are joined; structured content is sent as JSON text when the server gave no
text (servers usually repeat it as text, and the model needs it only once); images and
audio are noted by type and size, since storing them as attachments is not built yet;
a result marked `isError` becomes a tool failure the model is told about.
"""

from __future__ import annotations

import base64
import binascii
import json

from mcp import types

from desktop.engine.tools.registry import ToolFailure


def _size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return len(data)


def _block_text(block: object) -> str:
    if isinstance(block, types.TextContent):
        return block.text
    if isinstance(block, types.ImageContent):
        return f"[image: {block.mime_type}, {_size(block.data)} bytes]"
    if isinstance(block, types.AudioContent):
        return f"[audio: {block.mime_type}, {_size(block.data)} bytes]"
    if isinstance(block, types.ResourceLink):
        return f"[resource: {block.uri}]"
    if isinstance(block, types.EmbeddedResource):
        resource = block.resource
        text = getattr(resource, "text", None)
        return text if isinstance(text, str) else f"[resource: {resource.uri}]"
    return f"[{getattr(block, 'type', 'content')}]"


def result_text(result: types.CallToolResult) -> str:
    """The model's view of `result`; raises ToolFailure for an error result."""
    parts = [_block_text(block) for block in result.content]
    has_text = any(isinstance(b, types.TextContent) for b in result.content)
    if result.structured_content is not None and not has_text:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False))
    text = "\n".join(parts)
    if result.is_error:
        raise ToolFailure(text or "The server reported an error without a message.")
    return text
