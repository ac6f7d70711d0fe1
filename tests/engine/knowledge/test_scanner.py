"""Listing a library's files on a real file system, and what changed since the last scan."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from desktop.core.knowledge import LibrarySettings, SourceStatus
from desktop.core.limits import MAX_DOCUMENT_BYTES
from desktop.engine.knowledge.scanner import classify, list_library, plan_scan, resolve_source
from desktop.storage.knowledge_store import SourceRow


def _write(path: Path, content: str = "text") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    return path


def _library(*paths: Path, include=(), exclude=()) -> LibrarySettings:
    return LibrarySettings("lib", "Lib", tuple(map(str, paths)), tuple(include), tuple(exclude))


def _row(path: str, size: int, mtime_ns: int, status=SourceStatus.INDEXED) -> SourceRow:
    return SourceRow(1, path, size, mtime_ns, "sha", status, "", 1, 1.0)


def test_folders_are_walked_and_single_files_known_by_their_name(tmp_path):
    notes = tmp_path / "notes"
    _write(notes / "a.md")
    _write(notes / "sub" / "deeper" / "b.txt")
    _write(notes / ".hidden" / "secret.md")
    _write(notes / ".env")
    single = _write(tmp_path / "elsewhere" / "paper.pdf")
    listing = list_library(_library(notes, single, tmp_path / "missing"))
    assert sorted(listing.files) == ["a.md", "paper.pdf", "sub/deeper/b.txt"]
    found = listing.files["sub/deeper/b.txt"]
    assert found.path == notes / "sub" / "deeper" / "b.txt"
    assert (found.size, found.mtime_ns) == (4, found.path.stat().st_mtime_ns)


def test_patterns_apply_inside_folders_but_not_to_files_listed_on_their_own(tmp_path):
    notes = tmp_path / "notes"
    for name in ("a.md", "b.txt", "drafts/c.md", "node_modules/d.md"):
        _write(notes / name)
    single = _write(tmp_path / "chosen.txt")
    library = _library(notes, single, include=["*.md"], exclude=["drafts", "node_modules"])
    assert sorted(list_library(library).files) == ["a.md", "chosen.txt"]


@pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges on Windows")
def test_links_are_followed_and_a_loop_walked_once(tmp_path):
    notes = tmp_path / "notes"
    _write(notes / "a.md")
    _write(tmp_path / "outside" / "b.md")
    (notes / "loop").symlink_to(notes, target_is_directory=True)
    (notes / "out").symlink_to(tmp_path / "outside", target_is_directory=True)
    (notes / "broken.md").symlink_to(tmp_path / "nowhere.md")
    listing = list_library(_library(notes))
    assert sorted(listing.files) == ["a.md", "out/b.md"]


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0, reason="needs POSIX permissions")
def test_a_folder_that_cannot_be_listed_is_passed_over(tmp_path):
    notes = tmp_path / "notes"
    _write(notes / "a.md")
    _write(notes / "locked" / "b.md")
    (notes / "locked").chmod(0)
    try:
        listing = list_library(_library(notes))
    finally:
        (notes / "locked").chmod(0o755)
    assert sorted(listing.files) == ["a.md"]
    assert listing.unlisted_folders == 1


def test_the_first_listed_path_wins_a_relative_path(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    _write(first / "same.md", "first")
    _write(second / "same.md", "second!")
    _write(second / "other.md")
    listing = list_library(_library(first, second))
    assert listing.files["same.md"].path == first / "same.md"
    assert listing.duplicates == 1
    library = _library(first, second)
    assert resolve_source(library, "same.md") == first / "same.md"
    assert resolve_source(library, "other.md") == second / "other.md"


def test_resolve_source(tmp_path):
    notes = tmp_path / "notes"
    _write(notes / "sub" / "a.md")
    single = _write(tmp_path / "paper.txt")
    library = _library(notes, single)
    assert resolve_source(library, "sub/a.md") == notes / "sub" / "a.md"
    assert resolve_source(library, "paper.txt") == single
    assert resolve_source(library, "gone.md") is None
    assert resolve_source(library, "../paper.txt") is None
    assert resolve_source(library, "") is None


@pytest.mark.parametrize(
    ("name", "size", "status", "reason"),
    [
        ("a.md", 10, SourceStatus.PENDING, ""),
        ("a.pdf", 10, SourceStatus.PENDING, ""),
        ("Makefile", 10, SourceStatus.PENDING, ""),
        ("a.md", 0, SourceStatus.SKIPPED, "the file is empty"),
        ("photo.png", 10, SourceStatus.SKIPPED, "not a kind of file Parley reads"),
        ("tool.exe", 10, SourceStatus.SKIPPED, "not a kind of file Parley reads"),
        ("big.txt", MAX_DOCUMENT_BYTES + 1, SourceStatus.FAILED, "larger than the 25 MiB limit"),
    ],
)
def test_classify(name, size, status, reason):
    got_status, got_reason = classify(name, size)
    assert got_status is status
    assert got_reason.startswith(reason)


def test_plan_compares_size_and_mtime_only(tmp_path):
    notes = tmp_path / "notes"
    same = _write(notes / "same.md")
    touched = _write(notes / "touched.md")
    _write(notes / "new.md")
    _write(notes / "waiting.md")
    listing = list_library(_library(notes))
    found = listing.files
    recorded = {
        "same.md": _row("same.md", 4, found["same.md"].mtime_ns),
        "touched.md": _row("touched.md", 4, found["touched.md"].mtime_ns - 1),
        "waiting.md": _row("waiting.md", 4, found["waiting.md"].mtime_ns, SourceStatus.PENDING),
        "gone.md": _row("gone.md", 4, 1),
    }
    plan = plan_scan(listing, recorded)
    assert [(s.path, s.status) for s in plan.changed] == [
        ("new.md", SourceStatus.PENDING),
        ("touched.md", SourceStatus.PENDING),
    ]
    assert plan.gone == ["gone.md"]
    assert plan.unchanged == 2  # same.md, and waiting.md stays pending as it is
    assert same.exists() and touched.exists()
