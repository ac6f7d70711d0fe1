"""Size limits, checked from the file's length before its content is read."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from desktop.core.attachments import AttachmentError, AttachmentKind
from desktop.core.limits import MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES
from desktop.engine.attachments.validate import validate
from tests.support.documents import fixture_bytes, make_pdf

MIB = 1024 * 1024


def _validate_file(path: Path):
    with open(path, "rb") as stream:
        return validate(path.name, stream, path.stat().st_size)


def _sparse(path: Path, head: bytes, size: int, tail: bytes = b"") -> Path:
    """A file of `size` bytes that costs no disk: `head`, a hole, then `tail`."""
    with open(path, "wb") as out:
        out.write(head)
        out.truncate(size - len(tail))
        out.seek(size - len(tail))
        out.write(tail)
    return path


def test_a_26_mib_document_is_refused_naming_the_limit(tmp_path):
    path = _sparse(tmp_path / "report.pdf", make_pdf(["x"]), 26 * MIB)
    with pytest.raises(AttachmentError) as caught:
        _validate_file(path)
    assert str(caught.value) == "report.pdf: larger than the 25 MiB limit for documents"


def test_a_document_at_the_limit_is_accepted(tmp_path):
    path = _sparse(tmp_path / "report.pdf", make_pdf(["x"]), MAX_DOCUMENT_BYTES)
    assert _validate_file(path).kind is AttachmentKind.DOCUMENT


def test_a_21_mib_image_is_refused_naming_the_image_limit(tmp_path):
    png = fixture_bytes("tiny.png")
    path = _sparse(tmp_path / "photo.png", png[:-12], 21 * MIB, tail=png[-12:])
    with pytest.raises(AttachmentError) as caught:
        _validate_file(path)
    assert str(caught.value) == "photo.png: larger than the 20 MiB limit for images"


def test_an_image_at_the_limit_is_accepted(tmp_path):
    png = fixture_bytes("tiny.png")
    path = _sparse(tmp_path / "photo.png", png[:-12], MAX_IMAGE_BYTES, tail=png[-12:])
    assert (_validate_file(path).width, _validate_file(path).height) == (40, 30)


def test_a_huge_file_is_refused_before_its_content_is_looked_at(tmp_path):
    path = _sparse(tmp_path / "movie.mkv", b"\x1aE\xdf\xa3", 3 * 1024 * MIB)
    with pytest.raises(AttachmentError) as caught:
        _validate_file(path)
    assert str(caught.value) == "movie.mkv: larger than the 25 MiB limit for documents"


def test_an_empty_file_is_refused():
    with pytest.raises(AttachmentError) as caught:
        validate("empty.txt", io.BytesIO(b""), 0)
    assert str(caught.value) == "empty.txt: the file is empty"
