"""Where a ChatGPT export keeps the files its messages point at.

A message points at a file by its id: `file-service://file-AbC…` (uploads and DALL·E
images of older exports) or `sediment://file_00ab…` (newer ones); an uploaded file is
also listed by id in the message's `metadata.attachments`. The export holds the file
under a name that starts with that id, wherever it put it: `file-AbC-photo.png` at the
top, `dalle-generations/file-AbC-<uuid>.webp`, `user-…/file_00ab-photo.png`, a
conversation's own folder, or, in the newest exports, `file_00ab.dat` with the original
names listed in `conversation_asset_file_names.json`. The index is made of the names
alone: no file is read until it is imported.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from desktop.engine.importers.files import ExportError, ExportFiles

_ID = re.compile(r"file[-_][A-Za-z0-9]+")
_NAMES = "conversation_asset_file_names.json"
_NOT_ASSETS = frozenset({".json", ".html", ".jsonl"})


class Assets:
    """The export's files by the id a message points at them with."""

    def __init__(self, files: ExportFiles) -> None:
        self.single = files.single
        self._members: dict[str, str] = {}
        # The shallowest copy wins, as `ExportFiles.find` does.
        for name in sorted(files.names, key=lambda n: (n.count("/"), n)):
            path = PurePosixPath(name)
            found = _ID.match(path.name)
            if found is not None and path.suffix.lower() not in _NOT_ASSETS:
                self._members.setdefault(found.group(), name)
        self._original = _original_names(files) if self._members else {}

    def member(self, pointer: str) -> str | None:
        """The export's file for `pointer` ("sediment://file_00ab", "file-AbC"), or None
        when the export does not hold it."""
        found = _ID.match(pointer.rpartition("://")[2])
        return self._members.get(found.group()) if found is not None else None

    def name_of(self, member: str, given: str) -> str:
        """The file's name as the person knew it: the one the message gives, else the
        export's list of names, else the member's name without the id in front."""
        if given:
            return given
        base = PurePosixPath(member).name
        listed = self._original.get(base) or self._original.get(PurePosixPath(base).stem)
        if listed:
            return PurePosixPath(listed.replace("\\", "/")).name or base
        found = _ID.match(base)
        rest = base[found.end() :].lstrip("-_") if found is not None else ""
        return rest if "." in rest.strip(".") else base


def _original_names(files: ExportFiles) -> dict[str, str]:
    name = files.find(_NAMES)
    if name is None:
        return {}
    try:
        data = files.json(name)
    except ExportError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str) and v}
