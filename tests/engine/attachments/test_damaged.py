"""Damaged documents of every kind, attached from real files on disk: the person reads
that the file is damaged, in words; the parser's own message is in the log only."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from desktop.core.attachments import AttachmentError
from desktop.core.paths import DataPaths
from desktop.engine.attachments.service import AttachmentService
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from tests.support.documents import (
    garbage,
    make_docx,
    make_pdf,
    make_ppt,
    make_pptx,
    make_scan_pdf,
    with_bad_crc,
    with_first_stream_scrambled,
    with_flipped_bytes,
    with_flipped_member,
    with_startxref_off,
    with_xref_offsets_shifted,
)

WORD = "the file is damaged and cannot be read as a Word document"
SLIDES = "the file is damaged and cannot be read as a PowerPoint presentation"
PDF = "the file is damaged and cannot be read as a PDF document"


def _half(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _pdf_with_scrambled_page() -> bytes:
    data = make_pdf(["The figures for the third quarter are in."])
    return with_flipped_bytes(data, data.index(b"stream\n") + 12, 24)


def _ppt_with_scrambled_directory() -> bytes:
    data = bytearray(make_ppt())
    data[0x30:0x34] = b"\xff\xff\xff\x7f"  # the directory's first sector: far past the end
    return bytes(data)


# name, how the file was damaged, what the person reads, what the log says
CASES: list[tuple[str, Callable[[], bytes], str, str]] = [
    (
        "report.docx",
        lambda: with_bad_crc(make_docx(), "word/document.xml"),
        WORD,
        "Bad CRC-32 for file 'word/document.xml'",
    ),
    ("report.docx", lambda: with_flipped_member(make_docx(), "word/document.xml"), WORD, "error"),
    ("report.docx", lambda: _half(make_docx()), WORD, "File is not a zip file"),
    (
        "report.docx",
        lambda: garbage(),
        "the file is damaged, or it is not really a Word document",
        "",
    ),
    (
        "deck.pptx",
        lambda: with_bad_crc(make_pptx(), "ppt/slides/slide1.xml"),
        SLIDES,
        "Bad CRC-32 for file 'ppt/slides/slide1.xml'",
    ),
    ("deck.pptx", lambda: with_flipped_member(make_pptx(), "ppt/slides/slide2.xml"), SLIDES, ""),
    ("deck.pptx", lambda: _half(make_pptx()), SLIDES, "File is not a zip file"),
    (
        "deck.pptx",
        lambda: garbage(),
        "the file is damaged, or it is not really a PowerPoint presentation",
        "",
    ),
    ("deck.ppt", lambda: _half(make_ppt()), SLIDES, "stream has"),
    ("deck.ppt", _ppt_with_scrambled_directory, SLIDES, ""),
    (
        "deck.ppt",
        lambda: garbage(),
        "the file is damaged, or it is not really a PowerPoint presentation",
        "",
    ),
    ("paper.pdf", lambda: _half(make_pdf(["Page one " * 40, "Page two"])), PDF, ""),
    ("paper.pdf", _pdf_with_scrambled_page, PDF, ""),
    ("scan.pdf", lambda: with_first_stream_scrambled(make_scan_pdf()), PDF, "decompressing"),
    ("paper.pdf", lambda: b"%PDF-1.7\n" + garbage(), PDF, ""),
    ("paper.pdf", lambda: garbage(), "the file is damaged, or it is not really a PDF document", ""),
]
IDS = [
    "docx-bad-crc",
    "docx-scrambled",
    "docx-truncated",
    "docx-garbage",
    "pptx-bad-crc",
    "pptx-scrambled",
    "pptx-truncated",
    "pptx-garbage",
    "ppt-truncated",
    "ppt-scrambled-directory",
    "ppt-garbage",
    "pdf-truncated",
    "pdf-scrambled-page",
    "pdf-scan-scrambled-content",
    "pdf-garbage-after-header",
    "pdf-garbage",
]


NO_TEXT_LAYER = "has no text layer (a scanned PDF?); attach the pages as images instead"


@pytest.mark.parametrize(
    "fault",
    [
        lambda data: with_startxref_off(data, 3),
        lambda data: with_xref_offsets_shifted(data, 1),
        lambda data: with_xref_offsets_shifted(data, -2),
    ],
    ids=["startxref-off-by-3", "xref-offsets-one-after", "xref-offsets-two-before"],
)
def test_a_scan_whose_cross_references_are_repaired_is_still_a_scan(service, tmp_path, fault):
    """Scanners often write slightly wrong offsets; pypdf repairs them (and warns), and
    nothing of the page is lost: the person is told to attach the pages as images."""
    path = tmp_path / "scan.pdf"
    path.write_bytes(fault(make_scan_pdf()))
    with pytest.raises(AttachmentError) as caught:
        asyncio.run(service.add_file(path))
    assert str(caught.value) == f"scan.pdf: {NO_TEXT_LAYER}"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[AttachmentService]:
    database = Database.open(tmp_path / "parley.db")
    try:
        yield AttachmentService(
            AttachmentStore(DataPaths(tmp_path / "data").attachments, database.engine)
        )
    finally:
        database.close()


@pytest.mark.parametrize(("name", "damage", "problem", "logged"), CASES, ids=IDS)
def test_a_damaged_document_is_refused_saying_so(
    service, tmp_path, caplog, name, damage, problem, logged
):
    path = tmp_path / name
    path.write_bytes(damage())
    caplog.set_level(logging.INFO)
    with pytest.raises(AttachmentError) as caught:
        asyncio.run(service.add_file(path))
    assert str(caught.value) == f"{name}: {problem}"
    if problem.startswith("the file is damaged and"):
        # The parser's words are kept for whoever reads the log, never the file's name.
        record = next(r for r in caplog.records if "could not be parsed" in r.getMessage())
        assert logged in record.getMessage()
        assert name not in record.getMessage()


def test_the_damaged_copy_of_a_good_document_is_the_only_one_refused(service, tmp_path):
    good = tmp_path / "good.docx"
    good.write_bytes(make_docx())
    bad = tmp_path / "bad.docx"
    bad.write_bytes(with_bad_crc(make_docx(), "word/document.xml"))
    added, refused = asyncio.run(service.add_files([good, bad]))
    assert [a.name for a in added] == ["good.docx"]
    assert [str(e) for e in refused] == [f"bad.docx: {WORD}"]
