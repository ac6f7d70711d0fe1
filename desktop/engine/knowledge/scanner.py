"""Finding a library's files and telling which of them changed since the last scan.

A scan only lists folders and looks at sizes and modification times: a file whose
size and mtime are those recorded is not opened at all, so re-scanning a thousand
unchanged files costs a thousand `stat` calls. New and changed files become pending
(read later by the indexer); files of a kind Parley does not read are recorded as
skipped and files over the document size limit as failed, both without being read; the
rows of files that are gone are deleted. But while a listed folder or file is not
there at all (a drive not mounted, a network share offline), nothing is deleted: its
files are kept, searchable as they were, until it is back, rather than thrown away and
read and embedded again from scratch.

Paths: a file in a listed folder is known by its path inside that folder ("notes/a.md",
always with "/"), a file listed on its own by its name. When two listed paths give the
same relative path, the first listed wins. `resolve_source` turns a relative path back
into the file. Hidden files and folders (a leading dot, or the hidden attribute on
Windows) are passed over inside folders; symbolic links are followed, each folder is
walked once (so a link back up the tree ends there); folders that cannot be listed
are passed over. Include and exclude patterns (`patterns.py`) apply inside folders; a
file listed on its own was chosen by the person and always counts.

Blocking (file-system calls): run in a worker thread.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from desktop.core.attachments import AttachmentError, AttachmentKind
from desktop.core.i18n import tr
from desktop.core.knowledge import LibrarySettings, SourceStatus
from desktop.engine.attachments.formats import claimed_format
from desktop.engine.attachments.validate import check_size
from desktop.engine.knowledge.patterns import PathFilter
from desktop.storage.knowledge_store import ScannedSource, SourceRow

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class FoundFile:
    relative: str
    path: Path
    size: int
    mtime_ns: int


@dataclass(slots=True)
class Listing:
    files: dict[str, FoundFile] = field(default_factory=dict)  # by relative path
    unlisted_folders: int = 0  # could not be listed (permissions, vanished)
    unavailable: list[str] = field(default_factory=list)  # listed paths not there at all
    duplicates: int = 0  # the same relative path under two listed paths


@dataclass(frozen=True, slots=True)
class ScanPlan:
    changed: list[ScannedSource]  # new or changed files, with what they are now
    gone: list[str]  # relative paths of recorded files no longer found
    unchanged: int


def _hidden(entry: os.DirEntry[str]) -> bool:
    if entry.name.startswith("."):
        return True
    if os.name != "nt":
        return False
    attributes = getattr(entry.stat(follow_symlinks=False), "st_file_attributes", 0)
    return bool(attributes & getattr(stat, "FILE_ATTRIBUTE_HIDDEN", 0))


def _add(listing: Listing, found: FoundFile) -> None:
    if found.relative in listing.files:
        listing.duplicates += 1
    else:
        listing.files[found.relative] = found


def _walk(root: Path, wanted: PathFilter, listing: Listing, visited: set[tuple[int, int]]) -> None:
    stack: list[tuple[Path, str]] = [(root, "")]
    while stack:
        folder, relative = stack.pop()
        try:
            info = os.stat(folder)
            if (info.st_dev, info.st_ino) in visited:
                continue  # reached again through a link: a loop, or walked already
            visited.add((info.st_dev, info.st_ino))
            with os.scandir(folder) as scanned:
                entries = sorted(scanned, key=lambda e: e.name)
        except OSError:
            listing.unlisted_folders += 1
            continue
        for entry in reversed(entries):  # the stack pops them in name order
            child = f"{relative}/{entry.name}" if relative else entry.name
            try:
                if _hidden(entry):
                    continue
                if entry.is_dir():
                    if wanted.wants_folder(child):
                        stack.append((Path(entry.path), child))
                    continue
                if not entry.is_file() or not wanted.wants_file(child):
                    continue  # a socket, a broken link, or not wanted
                info = entry.stat()
            except OSError:
                continue  # vanished while listed, or a link that cannot be followed
            _add(listing, FoundFile(child, Path(entry.path), info.st_size, info.st_mtime_ns))


def list_library(library: LibrarySettings) -> Listing:
    """Every file of `library` that counts, by relative path."""
    listing = Listing()
    wanted = PathFilter(library.include, library.exclude)
    visited: set[tuple[int, int]] = set()
    for raw in library.paths:
        root = Path(raw).expanduser()
        try:
            info = root.stat()
        except OSError:
            log.info("A library path is not available (%s)", "missing or unreadable")
            listing.unavailable.append(raw)
            continue
        if stat.S_ISDIR(info.st_mode):
            _walk(root, wanted, listing, visited)
        elif stat.S_ISREG(info.st_mode):
            _add(listing, FoundFile(root.name, root, info.st_size, info.st_mtime_ns))
    return listing


def classify(name: str, size: int) -> tuple[SourceStatus, str]:
    """What a new or changed file is before it is read: pending, or skipped/failed
    with the reason, judged from its name and size."""
    claimed = claimed_format(name)
    if claimed is None or claimed.kind is not AttachmentKind.DOCUMENT:
        return SourceStatus.SKIPPED, tr("not a kind of file Parley reads")
    if size == 0:
        return SourceStatus.SKIPPED, tr("the file is empty")
    try:
        check_size(name, size, AttachmentKind.DOCUMENT)
    except AttachmentError as error:
        return SourceStatus.FAILED, error.problem
    return SourceStatus.PENDING, ""


def plan_scan(listing: Listing, recorded: Mapping[str, SourceRow]) -> ScanPlan:
    """What changed between the files found and the rows recorded: a file whose size
    and mtime match its row is left as it is (a pending one stays pending)."""
    changed: list[ScannedSource] = []
    unchanged = 0
    for relative in sorted(listing.files):
        found = listing.files[relative]
        row = recorded.get(relative)
        if row is not None and (row.size, row.mtime_ns) == (found.size, found.mtime_ns):
            unchanged += 1
            continue
        status, reason = classify(found.path.name, found.size)
        changed.append(ScannedSource(relative, found.size, found.mtime_ns, status, reason))
    # A listed path not there at all: its files cannot be told from those really gone.
    gone = [] if listing.unavailable else sorted(set(recorded) - set(listing.files))
    return ScanPlan(changed, gone, unchanged)


def resolve_source(library: LibrarySettings, relative: str) -> Path | None:
    """The file a source's relative path names now, or None when it is not there."""
    parts = relative.split("/")
    if not relative or any(part in ("", ".", "..") for part in parts):
        return None
    for raw in library.paths:
        root = Path(raw).expanduser()
        if root.is_dir():
            candidate = root.joinpath(*parts)
            if candidate.is_file():
                return candidate
        elif len(parts) == 1 and root.name == relative and root.is_file():
            return root
    return None
