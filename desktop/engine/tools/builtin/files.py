"""Reading the workspace: list a folder, read a file (by lines), search text in files.

File work runs in a worker thread. Every path goes through `workspace.inside`, and the
walks skip anything (a symlink) that resolves outside the workspace.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from desktop.core.tools import ToolDefinition
from desktop.engine.tools.outputs import OUTPUT_PREFIX, SPILL_BYTES, saved_output
from desktop.engine.tools.registry import Tool, ToolContext, ToolFailure
from desktop.engine.tools.workspace import inside, shown, workspace_root

MAX_ENTRIES = 500
MAX_MATCHES = 200
MAX_SEARCH_FILE_BYTES = 2 * 1024 * 1024
SKIPPED_FOLDERS = {".git", "node_modules", "__pycache__", ".venv", "venv"}


def _str_arg(arguments: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = arguments.get(key, default)
    if not isinstance(value, str):
        raise ToolFailure(f"'{key}' must be a string.")
    return value


def _int_arg(arguments: Mapping[str, Any], key: str) -> int | None:
    value = arguments.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ToolFailure(f"'{key}' must be a whole number from 1.")
    return value


def _walk(root: Path, start: Path) -> Iterator[Path]:
    """Files and folders under `start`, sorted, never leaving `root`."""
    for folder, dirs, files in os.walk(start):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_FOLDERS)
        here = Path(folder)
        for name in [*dirs, *sorted(files)]:
            path = here / name
            resolved = path.resolve()
            if resolved == root or root in resolved.parents:
                yield path


# --- list ---------------------------------------------------------------------------


def _list(root: Path, target: Path, recursive: bool) -> str:
    if not target.is_dir():
        raise ToolFailure(f"{shown(root, target)} is not a folder.")
    entries = _walk(root, target) if recursive else (p for p in sorted(target.iterdir()))
    lines: list[str] = []
    for path in entries:
        resolved = path.resolve()
        if resolved != root and root not in resolved.parents:
            continue
        if len(lines) == MAX_ENTRIES:
            lines.append(f"[stopped after {MAX_ENTRIES} entries]")
            break
        relative = path.relative_to(root).as_posix()
        lines.append(relative + "/" if path.is_dir() else f"{relative} ({path.stat().st_size} B)")
    return "\n".join(lines) or "(empty folder)"


async def _list_files(arguments: Mapping[str, Any], context: ToolContext) -> str:
    root = workspace_root(context.workspace)
    target = inside(root, _str_arg(arguments, "path", "."))
    return await asyncio.to_thread(_list, root, target, bool(arguments.get("recursive")))


# --- read ---------------------------------------------------------------------------


def _read_lines(path: Path, label: str, start: int | None, end: int | None) -> str:
    if not path.is_file():
        raise ToolFailure(f"{label} is not a file.")
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        lines = handle.read().splitlines(keepends=True)
    first = start or 1
    last = min(end or len(lines), len(lines))
    if first > max(len(lines), 1):
        raise ToolFailure(f"{label} has only {len(lines)} lines.")
    out: list[str] = []
    size = 0
    for number in range(first, last + 1):
        line = lines[number - 1]
        size += len(line.encode("utf-8"))
        if size > SPILL_BYTES and out:
            out.append(f"\n[stopped at line {number - 1} of {len(lines)}; ")
            out.append(f"read on with start_line={number}]")
            break
        out.append(line)
    return "".join(out)


async def _read_file(arguments: Mapping[str, Any], context: ToolContext) -> str:
    reference = _str_arg(arguments, "path")
    start, end = _int_arg(arguments, "start_line"), _int_arg(arguments, "end_line")
    if reference.startswith(OUTPUT_PREFIX):
        try:
            path = saved_output(context.outputs_dir, reference)
        except ValueError:
            raise ToolFailure(f"{reference!r} does not name a saved output.") from None
        return await asyncio.to_thread(_read_lines, path, reference, start, end)
    root = workspace_root(context.workspace)
    path = inside(root, reference)
    return await asyncio.to_thread(_read_lines, path, shown(root, path), start, end)


# --- search -------------------------------------------------------------------------


def _search(root: Path, start: Path, pattern: re.Pattern[str]) -> str:
    found: list[str] = []
    files = [start] if start.is_file() else (p for p in _walk(root, start) if p.is_file())
    for path in files:
        try:
            if path.stat().st_size > MAX_SEARCH_FILE_BYTES:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        if b"\0" in data[:8192]:
            continue  # binary
        text = data.decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                if len(found) == MAX_MATCHES:
                    found.append(f"[stopped after {MAX_MATCHES} matches]")
                    return "\n".join(found)
                found.append(f"{shown(root, path)}:{number}: {line[:300]}")
    return "\n".join(found) or "No matches."


async def _search_files(arguments: Mapping[str, Any], context: ToolContext) -> str:
    root = workspace_root(context.workspace)
    text = _str_arg(arguments, "pattern")
    if not text:
        raise ToolFailure("'pattern' must not be empty.")
    try:
        pattern = re.compile(text if arguments.get("regex") else re.escape(text), re.IGNORECASE)
    except re.error as error:
        raise ToolFailure(f"Invalid regular expression: {error}") from None
    start = inside(root, _str_arg(arguments, "path", "."))
    return await asyncio.to_thread(_search, root, start, pattern)


_PATH = {"type": "string", "description": "relative to the workspace folder"}

LIST_FILES = Tool(
    ToolDefinition(
        "list_files",
        "List a folder of the workspace (sizes in bytes; folders end with '/').",
        {
            "type": "object",
            "properties": {"path": _PATH, "recursive": {"type": "boolean"}},
        },
    ),
    _list_files,
    needs_workspace=True,
)

READ_FILE = Tool(
    ToolDefinition(
        "read_file",
        "Read a text file of the workspace, or a saved large tool output "
        f"('{OUTPUT_PREFIX}...'), optionally only lines start_line..end_line (from 1).",
        {
            "type": "object",
            "properties": {
                "path": _PATH,
                "start_line": {"type": "integer", "minimum": 1},
                "end_line": {"type": "integer", "minimum": 1},
            },
            "required": ["path"],
        },
    ),
    _read_file,
)

SEARCH_FILES = Tool(
    ToolDefinition(
        "search_files",
        "Find lines containing a text (or a regular expression) in the workspace's files.",
        {
            "type": "object",
            "properties": {
                "pattern": {"type": "string"},
                "regex": {"type": "boolean", "description": "treat pattern as a regex"},
                "path": _PATH,
            },
            "required": ["pattern"],
        },
    ),
    _search_files,
    needs_workspace=True,
)
