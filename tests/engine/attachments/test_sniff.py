"""What a file is, decided from its content and checked against its name."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

import pytest

from desktop.core.attachments import AttachmentError, AttachmentKind
from desktop.engine.attachments.formats import FileFormat
from desktop.engine.attachments.sniff import sniff
from tests.support import ole_writer
from tests.support.documents import (
    fixture_bytes,
    make_docx,
    make_pdf,
    make_ppt,
    make_pptx,
)


def _sniff(name: str, data: bytes):
    return sniff(name, io.BytesIO(data))


def _refusal(name: str, data: bytes) -> str:
    with pytest.raises(AttachmentError) as caught:
        _sniff(name, data)
    return str(caught.value)


def _png(width: int, height: int) -> bytes:
    """A valid PNG written by hand: signature, IHDR, one IDAT, IEND."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * (3 * width) for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


# --- images ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fixture", "file_format", "mime", "size"),
    [
        ("tiny.png", FileFormat.PNG, "image/png", (40, 30)),
        ("tiny.jpg", FileFormat.JPEG, "image/jpeg", (40, 30)),  # EXIF segment before SOF0
        ("tiny_progressive.jpg", FileFormat.JPEG, "image/jpeg", (33, 21)),  # SOF2
        ("tiny_lossy.webp", FileFormat.WEBP, "image/webp", (40, 30)),  # VP8
        ("tiny_lossless.webp", FileFormat.WEBP, "image/webp", (17, 9)),  # VP8L
        ("tiny_alpha.webp", FileFormat.WEBP, "image/webp", (25, 19)),  # VP8X
    ],
)
def test_real_images_are_recognised_with_their_pixel_size(fixture, file_format, mime, size):
    found = _sniff(fixture, fixture_bytes(fixture))
    assert (found.format, found.mime, found.kind) == (file_format, mime, AttachmentKind.IMAGE)
    assert (found.width, found.height) == size


def test_a_hand_written_png_is_read():
    found = _sniff("drawing.png", _png(300, 7))
    assert (found.width, found.height) == (300, 7)


def test_a_text_file_renamed_to_png_is_not_a_valid_png():
    assert _refusal("photo.png", b"just some notes\n" * 20) == "photo.png: not a valid PNG image"


def test_a_png_with_a_damaged_header_is_refused():
    data = bytearray(_png(10, 10))
    data[18] ^= 0xFF  # inside IHDR: the checksum no longer matches
    message = _refusal("photo.png", bytes(data))
    assert message.startswith("photo.png: not a valid PNG image (")
    assert "checksum" in message


def test_a_truncated_png_is_refused():
    data = fixture_bytes("tiny.png")
    assert "truncated" in _refusal("photo.png", data[: len(data) - 20])


@pytest.mark.parametrize("cut", [2, 6, 30, 200])
def test_a_jpeg_cut_before_its_frame_header_is_refused(cut):
    data = fixture_bytes("tiny.jpg")
    assert _refusal("photo.jpg", data[:cut]).startswith("photo.jpg: not a valid JPEG image")


def test_a_jpeg_with_garbage_between_segments_is_refused():
    data = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + b"garbage" * 9
    assert "garbage where a marker" in _refusal("photo.jpg", data)


def test_a_webp_with_an_unknown_chunk_is_refused():
    data = b"RIFF" + struct.pack("<I", 30) + b"WEBP" + b"ABCD" + struct.pack("<I", 10) + b"\0" * 18
    assert _refusal("photo.webp", data).startswith("photo.webp: not a valid WebP image (")


def test_a_truncated_webp_is_refused():
    data = fixture_bytes("tiny_lossy.webp")
    assert "truncated" in _refusal("photo.webp", data[:-40])


def test_a_jpeg_named_png_is_taken_as_the_jpeg_it_is():
    found = _sniff("download.png", fixture_bytes("tiny.jpg"))
    assert (found.format, found.mime) == (FileFormat.JPEG, "image/jpeg")


def test_a_pasted_image_without_a_suffix_is_recognised():
    assert _sniff("Pasted image", fixture_bytes("tiny.png")).format is FileFormat.PNG


@pytest.mark.parametrize(
    ("name", "data", "what"),
    [
        ("anim.gif", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "a GIF image"),
        ("scan.tiff", b"II*\x00\x08\x00\x00\x00" + b"\x00" * 32, "a TIFF image"),
        ("phone.jpg", b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00" + b"\x00" * 16, "a HEIC image"),
    ],
)
def test_other_image_formats_are_refused_saying_which_are_supported(name, data, what):
    message = _refusal(name, data)
    assert message == f"{name}: only PNG, JPEG and WebP images are supported (this is {what})"


def test_an_unsupported_image_suffix_is_refused_even_without_a_recognised_header():
    assert _refusal("icon.bmp", b"not really") == (
        "icon.bmp: only PNG, JPEG and WebP images are supported"
    )


# --- documents ------------------------------------------------------------------------


def test_documents_are_recognised_from_their_content():
    assert _sniff("report.docx", make_docx()).format is FileFormat.DOCX
    assert _sniff("deck.pptx", make_pptx(1)).format is FileFormat.PPTX
    assert _sniff("deck.ppt", make_ppt()).format is FileFormat.PPT
    pdf = _sniff("paper.pdf", make_pdf(["hello"]))
    assert (pdf.format, pdf.mime, pdf.kind) == (
        FileFormat.PDF,
        "application/pdf",
        AttachmentKind.DOCUMENT,
    )


def test_a_pdf_named_png_is_refused_naming_both():
    message = _refusal("photo.png", make_pdf(["hello"]))
    assert message == "photo.png: the name says PNG image but the content is a PDF document"


def test_a_png_named_pdf_is_refused_naming_both():
    message = _refusal("paper.pdf", fixture_bytes("tiny.png"))
    assert message == "paper.pdf: the name says PDF document but the content is a PNG image"


def test_a_presentation_named_docx_is_refused_naming_both():
    message = _refusal("report.docx", make_pptx(1))
    assert message == (
        "report.docx: the name says Word document but the content is a PowerPoint presentation"
    )


def test_a_plain_zip_named_docx_is_refused():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("notes.txt", "hello")
    message = _refusal("report.docx", out.getvalue())
    assert message == "report.docx: the name says Word document but the content is a ZIP archive"


def test_a_legacy_word_file_named_ppt_is_refused_naming_both():
    doc = ole_writer.build_ole({"WordDocument": b"\x00" * 5000})
    assert _refusal("deck.ppt", doc) == (
        "deck.ppt: the name says PowerPoint presentation "
        "but the content is a Word 97-2003 document (.doc)"
    )


def test_a_pptx_named_ppt_is_read_as_the_pptx_it_is():
    assert _sniff("deck.ppt", make_pptx(1)).format is FileFormat.PPTX


def test_a_docx_cut_in_half_cannot_be_read_as_a_word_document():
    data = make_docx()
    message = _refusal("report.docx", data[: len(data) // 2])
    assert message == "report.docx: the file is damaged and cannot be read as a Word document"


def test_a_file_that_is_not_a_pdf_is_refused():
    assert _refusal("paper.pdf", b"hello there") == (
        "paper.pdf: the file is damaged, or it is not really a PDF document"
    )


# --- text -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "mime"),
    [
        ("notes.txt", "text/plain"),
        ("README.md", "text/markdown"),
        ("main.rs", "text/plain"),
        ("data.csv", "text/csv"),
        ("Makefile", "text/plain"),
        ("config.yaml", "application/yaml"),
    ],
)
def test_text_and_code_are_recognised_by_suffix(name, mime):
    found = _sniff(name, b"some text\n")
    assert (found.format, found.mime, found.kind) == (
        FileFormat.TEXT,
        mime,
        AttachmentKind.DOCUMENT,
    )


def test_a_binary_file_named_txt_is_refused():
    data = b"text at first" + b"\x00\x01\x02" * 100
    assert _refusal("notes.txt", data) == "notes.txt: not a text file (it contains binary data)"


def test_utf16_text_with_a_bom_is_text_despite_its_zero_bytes():
    data = "hello\n".encode("utf-16")
    assert _sniff("notes.txt", data).format is FileFormat.TEXT


def test_a_pdf_named_txt_is_refused_naming_both():
    message = _refusal("notes.txt", make_pdf(["x"]))
    assert message == "notes.txt: the name says text file but the content is a PDF document"


def test_an_unknown_type_is_refused():
    assert _refusal("setup.exe", b"MZ\x90\x00" + b"\x00" * 100) == (
        "setup.exe: this type of file is not supported"
    )
