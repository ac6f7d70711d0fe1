"""Writing a file in the workspace: risk "write", so it asks first by default."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from desktop.core.tools import ToolDefinition, ToolRisk
from desktop.engine.tools.registry import Tool, ToolContext, ToolFailure
from desktop.engine.tools.workspace import inside, shown, workspace_root


def _write(path: Path, content: str) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode("utf-8")
    path.write_bytes(data)
    return len(data)


async def _write_file(arguments: Mapping[str, Any], context: ToolContext) -> str:
    root = workspace_root(context.workspace)
    relative, content = arguments.get("path"), arguments.get("content")
    if not isinstance(relative, str) or not isinstance(content, str):
        raise ToolFailure("'path' and 'content' must be strings.")
    path = inside(root, relative)
    if path == root or path.is_dir():
        raise ToolFailure(f"{relative!r} is a folder.")
    size = await asyncio.to_thread(_write, path, content)
    return f"Wrote {size} bytes to {shown(root, path)}."


WRITE_FILE = Tool(
    ToolDefinition(
        "write_file",
        "Create or replace a text file in the workspace with the given content.",
        {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "relative to the workspace folder"},
                "content": {"type": "string"},
            },
            "required": ["path", "content"],
        },
        risk=ToolRisk.WRITE,
    ),
    _write_file,
    needs_workspace=True,
)
