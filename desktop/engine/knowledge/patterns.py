"""A library's include and exclude patterns, matched against library-relative paths.

The rules people know from .gitignore-like files, kept small: `*` and `?` stay within
one folder name, `**` spans any number of folders, `[abc]` is a character class; a
pattern without a `/` is matched against the file's (or folder's) name at any depth
(`*.md`, `drafts`), one with a `/` against the whole path (`notes/**/*.md`). Matching
ignores case, so `*.pdf` also takes `Scan.PDF`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass


def _translate(pattern: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = pattern.find("]", i + 2 if pattern.startswith("[!", i) else i + 1)
            if end < 0:
                out.append(re.escape(char))
            else:
                body = pattern[i + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _Pattern:
    regex: re.Pattern[str]
    on_name: bool  # no "/" in it: matched against the last path segment


def _compile(pattern: str) -> _Pattern | None:
    cleaned = pattern.strip().replace("\\", "/")
    while cleaned.startswith("./"):
        cleaned = cleaned[2:]
    cleaned = cleaned.lstrip("/").rstrip("/")
    if not cleaned:
        return None
    try:
        regex = re.compile(_translate(cleaned), re.IGNORECASE)
    except re.error:  # a malformed class: match it as written
        regex = re.compile(re.escape(cleaned), re.IGNORECASE)
    return _Pattern(regex, "/" not in cleaned)


class PathFilter:
    """Which library-relative paths count: any include pattern (all, when there are
    none) and no exclude pattern."""

    def __init__(self, include: Sequence[str], exclude: Sequence[str]) -> None:
        self._include = [p for p in map(_compile, include) if p is not None]
        self._exclude = [p for p in map(_compile, exclude) if p is not None]

    @staticmethod
    def _any(patterns: Sequence[_Pattern], path: str) -> bool:
        name = path.rsplit("/", 1)[-1]
        return any(p.regex.fullmatch(name if p.on_name else path) for p in patterns)

    def wants_file(self, path: str) -> bool:
        """Whether the file at `path` counts (not in an excluded folder either)."""
        parts = path.split("/")
        prefixes = ("/".join(parts[: i + 1]) for i in range(len(parts)))
        if any(self._any(self._exclude, prefix) for prefix in prefixes):
            return False
        return not self._include or self._any(self._include, path)

    def wants_folder(self, path: str) -> bool:
        """False for a folder an exclude pattern names itself (`node_modules`,
        `build/cache`): nothing under it is looked at."""
        return not self._any(self._exclude, path)
