"""Zip bombs dressed as Office documents are refused without being unpacked."""

from __future__ import annotations

import io
import os
import struct
import tracemalloc
import zipfile

import pytest

from desktop.core.attachments import AttachmentError
from desktop.engine.attachments.extract import extract_text
from desktop.engine.attachments.sniff import sniff
from desktop.engine.attachments.zip_guard import GuardedZip
from tests.support.documents import make_docx

MIB = 1024 * 1024
_ZEROS = b"\x00" * MIB


def _docx_bomb(expanded_mib: int) -> bytes:
    """A real docx whose document part is `expanded_mib` MiB of zeros, streamed in."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(make_docx())) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            if info.filename == "word/document.xml":
                with target.open("word/document.xml", "w") as member:
                    for _ in range(expanded_mib):
                        member.write(_ZEROS)
            else:
                target.writestr(info.filename, source.read(info))
    return out.getvalue()


def _understate(data: bytes, member: str, claimed: int) -> bytes:
    """The zip with `member`'s declared size rewritten, in both its headers."""
    patched = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        info = archive.getinfo(member)
    struct.pack_into("<I", patched, info.header_offset + 22, claimed)  # local header
    # The central directory entry: found by its signature and the member's name.
    encoded = member.encode()
    directory = patched.find(b"PK\x01\x02", 0)
    while directory != -1:
        name_length = struct.unpack_from("<H", patched, directory + 28)[0]
        if patched[directory + 46 : directory + 46 + name_length] == encoded:
            struct.pack_into("<I", patched, directory + 24, claimed)
            break
        directory = patched.find(b"PK\x01\x02", directory + 4)
    return bytes(patched)


def _peak_mib(work) -> float:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1] / MIB
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return _docx_bomb(expanded_mib=120)


def test_the_bomb_is_small_on_disk(bomb):
    assert len(bomb) < MIB


def test_a_zip_bomb_is_refused_from_its_declared_size_without_unpacking(bomb):
    def attach():
        with pytest.raises(AttachmentError) as caught:
            sniff("report.docx", io.BytesIO(bomb))
        assert str(caught.value) == (
            "report.docx: refused: it would unpack to more than the 64 MiB limit"
        )

    assert _peak_mib(attach) < 8


def test_a_bomb_that_lies_about_its_size_is_still_not_unpacked(bomb):
    lying = _understate(bomb, "word/document.xml", 4096)
    found = sniff("report.docx", io.BytesIO(lying))  # the small parts it reads are honest

    def extract():
        with pytest.raises(AttachmentError) as caught:
            extract_text("report.docx", found.format, io.BytesIO(lying))
        assert str(caught.value) == (
            "report.docx: the file is damaged and cannot be read as a Word document"
        )

    assert _peak_mib(extract) < 8


def test_an_absurd_compression_ratio_is_refused_even_under_the_size_budget():
    data = _docx_bomb(expanded_mib=10)
    with pytest.raises(AttachmentError) as caught:
        sniff("report.docx", io.BytesIO(data))
    assert "which only a zip bomb does" in str(caught.value)


def test_bytes_actually_decompressed_count_against_the_budget():
    """A part read again and again (many slides sharing one notes part) adds up."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("part.xml", os.urandom(600 * 1024))
    with GuardedZip(io.BytesIO(out.getvalue()), "deck.pptx", budget=MIB) as guarded:
        assert len(guarded.read("part.xml")) == 600 * 1024
        with pytest.raises(AttachmentError) as caught:
            guarded.read("part.xml")
    assert str(caught.value) == "deck.pptx: refused: it would unpack to more than the 1 MiB limit"
