"""A file change as a diff a person reads before allowing it.

An edit given as old and new text is compared at once (both sides are capped, so the
comparison stays small). For the built-in `write_file`, which replaces a whole file,
`check_write` reads what is at the path now, in a worker thread: the dialog can then
say "Create" or "Replace", and show what changes. Nothing here is shown as-is: lines go
through `visible` and are cut to a length a layout handles quickly.
"""

from __future__ import annotations

import difflib
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from desktop.engine.tools.registry import ToolFailure
from desktop.engine.tools.workspace import inside
from desktop.ui.viewmodels.visible_text import visible

MAX_LINES = 200  # diff lines shown; the rest is counted
MAX_LINE_CHARS = 400  # of one diff line
MAX_EDIT_LINES = 400  # per side of an edit compared line by line; beyond, listed whole
MAX_COMPARED_LINES = 3_000  # per side of a file compared (in a worker thread)
MAX_COMPARED_BYTES = 1024 * 1024  # a larger file is not read to be compared
CONTEXT_LINES = 3


class LineKind(StrEnum):
    SAME = " "
    ADDED = "+"
    REMOVED = "-"
    HUNK = "@"  # where a part of the change starts (not a line of the file)


@dataclass(frozen=True, slots=True)
class DiffLines:
    """A change as lines to show: at most `MAX_LINES`, each marked and cut."""

    lines: tuple[tuple[LineKind, str], ...]
    hidden: int  # lines of the change not in `lines`
    added: int
    removed: int

    @property
    def text(self) -> str:
        return "\n".join(
            f"{kind.value if kind is not LineKind.HUNK else ''}{line}" for kind, line in self.lines
        )

    @property
    def kinds(self) -> tuple[LineKind, ...]:
        return tuple(kind for kind, _ in self.lines)


@dataclass(frozen=True, slots=True)
class FileCheck:
    """What is at a built-in write's path now. `diff` is None for a new file, and for a
    file too large or not text to compare (`size` bytes)."""

    exists: bool
    size: int = 0
    diff: DiffLines | None = None


def _cut(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return visible(line)
    return visible(line[:MAX_LINE_CHARS]) + " …"


class _Collector:
    """Diff lines as they are found, kept up to `MAX_LINES`, all counted."""

    def __init__(self) -> None:
        self.lines: list[tuple[LineKind, str]] = []
        self.total = self.added = self.removed = 0

    def add(self, kind: LineKind, lines: Sequence[str]) -> None:
        if kind is LineKind.ADDED:
            self.added += len(lines)
        elif kind is LineKind.REMOVED:
            self.removed += len(lines)
        room = MAX_LINES - len(self.lines)
        self.lines.extend((kind, _cut(line)) for line in lines[: max(0, room)])
        self.total += len(lines)

    def done(self) -> DiffLines:
        return DiffLines(tuple(self.lines), self.total - len(self.lines), self.added, self.removed)


def _range(start: int, stop: int) -> str:
    """A hunk's lines as `diff -u` writes them (from 1; an empty range at the line before)."""
    length = stop - start
    first = start + 1 if length else start
    return str(first) if length == 1 else f"{first},{length}"


def _compare(found: _Collector, old: list[str], new: list[str], numbered: bool) -> None:
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for group in matcher.get_grouped_opcodes(CONTEXT_LINES):
        if numbered:
            _, i1, _, j1, _ = group[0]
            _, _, i2, _, j2 = group[-1]
            found.add(LineKind.HUNK, [f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@"])
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                found.add(LineKind.SAME, old[i1:i2])
            if tag in ("replace", "delete"):
                found.add(LineKind.REMOVED, old[i1:i2])
            if tag in ("replace", "insert"):
                found.add(LineKind.ADDED, new[j1:j2])


def _lines(text: str) -> list[str]:
    """The lines of `text`; a last line end ends the last line, it starts no new one."""
    lines = text.replace("\r\n", "\n").split("\n")
    return lines[:-1] if len(lines) > 1 and not lines[-1] else lines


def file_diff(old: str, new: str) -> DiffLines | None:
    """`old` to `new` as a unified diff with line numbers; None when either is too long
    to compare in reasonable time."""
    a, b = _lines(old), _lines(new)
    if len(a) > MAX_COMPARED_LINES or len(b) > MAX_COMPARED_LINES:
        return None
    found = _Collector()
    _compare(found, a, b, numbered=True)
    return found.done()


def edits_diff(edits: Sequence[tuple[str, str]], hunk: str) -> DiffLines:
    """Edits given as (old text, new text): each compared line by line (listed whole
    when a side is too long to compare quickly), under a `hunk` line when there are
    several (`hunk` holds %1 and %2 for its number and the count)."""
    found = _Collector()
    for number, (old, new) in enumerate(edits, 1):
        if len(edits) > 1:
            found.add(
                LineKind.HUNK, [hunk.replace("%1", str(number)).replace("%2", str(len(edits)))]
            )
        a, b = _lines(old), _lines(new)
        if len(a) > MAX_EDIT_LINES or len(b) > MAX_EDIT_LINES:
            found.add(LineKind.REMOVED, a)
            found.add(LineKind.ADDED, b)
        else:
            _compare(found, a, b, numbered=False)
    return found.done()


def check_write(folder: str, relative: str, content: str) -> FileCheck | None:
    """What writing `content` at `relative` in the workspace `folder` would change, as
    the built-in tool resolves the path; None when Parley cannot tell (the path leaves
    the workspace or is a folder, which the tool refuses, or the file cannot be read).
    Blocking: run it in a worker thread."""
    try:
        path = inside(Path(folder).resolve(strict=True), relative)
    except (OSError, ToolFailure, ValueError):
        return None
    try:
        info = path.stat()
    except FileNotFoundError:
        return FileCheck(exists=False)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    if info.st_size > MAX_COMPARED_BYTES:
        return FileCheck(exists=True, size=info.st_size)
    try:
        data = path.read_bytes()
        old = data.decode("utf-8")
    except UnicodeDecodeError:
        return FileCheck(exists=True, size=info.st_size)
    except OSError:
        return None
    return FileCheck(exists=True, size=len(data), diff=file_diff(old, content))
