"""Each document format's text, extracted from a real file made here."""

from __future__ import annotations

import io
import random
import tracemalloc

import pytest
from fpdf import FPDF

from desktop.core.attachments import AttachmentError
from desktop.core.limits import MAX_EXTRACTED_CHARS
from desktop.engine.attachments.extract import Extracted, extract_text
from desktop.engine.attachments.formats import FileFormat
from desktop.engine.attachments.text_cap import TextCap
from tests.support.documents import (
    fixture_bytes,
    make_docx,
    make_pdf,
    make_ppt,
    make_pptx,
    rezip,
)


def _extract(name: str, file_format: FileFormat, data: bytes) -> Extracted:
    return extract_text(name, file_format, io.BytesIO(data))


def _refusal(name: str, file_format: FileFormat, data: bytes) -> str:
    with pytest.raises(AttachmentError) as caught:
        _extract(name, file_format, data)
    return str(caught.value)


# --- text -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("naïve café\r\nline two".encode(), "naïve café\nline two"),
        (b"\xef\xbb\xbfwith a BOM", "with a BOM"),
        ("UTF-16 text ✓".encode("utf-16"), "UTF-16 text ✓"),
        ("UTF-16BE".encode("utf-16-be").join([b"\xfe\xff", b""]), "UTF-16BE"),
    ],
)
def test_unicode_text_is_decoded_exactly(data, expected):
    assert _extract("notes.txt", FileFormat.TEXT, data) == Extracted(expected, False)


def test_text_in_a_legacy_encoding_is_detected():
    text = (
        "Le conseil municipal a décidé que la fête du village aura lieu en été, "
        "après la récolte. Les élèves présenteront une pièce de théâtre.\n"
    ) * 5
    extracted = _extract("lettre.txt", FileFormat.TEXT, text.encode("cp1252"))
    assert extracted.text == text.strip()


def test_a_long_text_file_is_cut_at_the_cap_and_says_so():
    line = "0123456789" * 9 + "é\n"  # 92 characters, 93 bytes
    data = (line * 4000).encode()
    extracted = _extract("big.log", FileFormat.TEXT, data)
    assert extracted.truncated
    assert len(extracted.text) <= MAX_EXTRACTED_CHARS
    assert extracted.text.startswith(line * 100)


def test_a_text_file_just_under_the_cap_is_whole():
    data = ("x" * (MAX_EXTRACTED_CHARS - 1)).encode()
    extracted = _extract("whole.txt", FileFormat.TEXT, data)
    assert (len(extracted.text), extracted.truncated) == (MAX_EXTRACTED_CHARS - 1, False)


def test_the_cap_keeps_what_fits_and_refuses_the_rest():
    cap = TextCap(limit=10)
    assert cap.add("12345")
    assert not cap.add("6789012")
    assert not cap.add("more")
    assert cap.result() == Extracted("1234567890", True)


# --- Word -----------------------------------------------------------------------------


def test_a_word_document_gives_its_paragraphs_and_tables_in_order():
    text = _extract("report.docx", FileFormat.DOCX, make_docx()).text
    assert text == (
        "# Quarterly report\n"
        "Revenue grew in every region.\n"
        "Before tab\tafter tab\n"
        "next line\n"
        "- Keep the receipts\n"
        "Region | Sales\n"
        "North | 120\n"
        "\n"
        "Closing remarks."
    )


def test_a_huge_word_document_is_streamed_and_parsing_stops_at_the_cap():
    generator = random.Random(7)
    words = ["budget", "region", "growth", "figures", "quarter", "north", "plan", "risk"]
    paragraphs = "".join(
        f"<w:p><w:r><w:t>{' '.join(generator.choices(words, k=20))}</w:t></w:r></w:p>"
        for _ in range(70_000)
    )
    xml = (
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        f"<w:body>{paragraphs}</w:body></w:document>"
    ).encode()
    assert len(xml) > 10 * 1024 * 1024
    data = rezip(make_docx(), {"word/document.xml": xml})
    del xml, paragraphs

    tracemalloc.start()
    try:
        extracted = _extract("long.docx", FileFormat.DOCX, data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert (extracted.truncated, len(extracted.text)) == (True, MAX_EXTRACTED_CHARS)
    assert peak < 8 * 1024 * 1024  # the whole part, let alone its tree, never in memory


def test_a_corrupt_word_document_is_refused_clearly():
    broken = rezip(make_docx(), {"word/document.xml": b"<w:document><w:body><w:p>"})
    message = _refusal("report.docx", FileFormat.DOCX, broken)
    assert message == "report.docx: the file is damaged and cannot be read as a Word document"


def test_a_word_document_with_a_doctype_is_refused():
    evil = (
        b'<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY lol "lol">]>'
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body><w:p><w:r><w:t>&lol;</w:t></w:r></w:p></w:body></w:document>"
    )
    broken = rezip(make_docx(), {"word/document.xml": evil})
    assert _refusal("report.docx", FileFormat.DOCX, broken) == (
        "report.docx: refused: its XML declares a DOCTYPE, which no Office file has"
    )


# --- PowerPoint -----------------------------------------------------------------------


def test_a_presentation_gives_each_slide_in_numeric_order_with_its_notes():
    data = make_pptx(slide_count=11, notes={2: "Mention the budget", 10: "Thank everyone"})
    extracted = _extract("deck.pptx", FileFormat.PPTX, data)
    assert extracted.units == 11
    sections = extracted.text.split("\n\n")
    assert sections[0] == "## Slide 1\nTitle 1\nPoint 1a\nPoint 1b"
    assert sections[1] == "## Slide 2\nTitle 2\nPoint 2a\nPoint 2b"
    assert sections[2] == "Notes:\nMention the budget"
    # slide10.xml sorts before slide2.xml as text; numeric order puts it tenth.
    assert [s.split("\n")[1] for s in sections if s.startswith("## Slide")] == [
        f"Title {n}" for n in range(1, 12)
    ]
    assert "Notes:\nThank everyone" in extracted.text
    assert extracted.text.index("Thank everyone") > extracted.text.index("Title 10")
    assert extracted.text.index("Thank everyone") < extracted.text.index("Title 11")


def test_a_legacy_presentation_gives_slides_notes_and_text_boxes_but_not_the_master():
    extracted = _extract("deck.ppt", FileFormat.PPT, make_ppt())
    assert extracted.units == 2
    assert extracted.text == (
        "## Slide 1\n"
        "Quarterly results\n"
        "Revenue up\n"
        "Costs down\n"
        "\n"
        "## Slide 2\n"
        "Café menu\n"
        "\n"
        "## Speaker notes\n"
        "Speak slowly here\n"
        "\n"
        "## Text boxes\n"
        "A free text box"
    )
    assert "Click to edit" not in extracted.text


def test_a_damaged_legacy_presentation_is_refused_clearly():
    data = bytearray(make_ppt())
    data[0x30:0x34] = b"\xff\xff\xff\x7f"  # the directory's first sector: far past the end
    message = _refusal("deck.ppt", FileFormat.PPT, bytes(data))
    assert message == (
        "deck.ppt: the file is damaged and cannot be read as a PowerPoint presentation"
    )


# --- PDF ------------------------------------------------------------------------------


def test_a_pdf_gives_its_text_page_by_page():
    data = make_pdf(["The first page speaks of apples.", "The second of pears."])
    extracted = _extract("fruit.pdf", FileFormat.PDF, data)
    assert extracted.units == 2
    assert extracted.text == (
        "## Page 1\nThe first page speaks of apples.\n\n## Page 2\nThe second of pears."
    )


def test_a_pdf_of_pictures_only_has_no_text_layer():
    pdf = FPDF()
    pdf.add_page()
    pdf.image(io.BytesIO(fixture_bytes("tiny.png")), x=10, y=10, w=100)
    message = _refusal("scan.pdf", FileFormat.PDF, bytes(pdf.output()))
    assert message.startswith("scan.pdf: has no text layer")


def test_a_pdf_that_needs_a_password_to_open_is_refused():
    pdf = FPDF()
    pdf.set_encryption(owner_password="owner", user_password="secret")
    pdf.set_font("Helvetica", size=12)
    pdf.add_page()
    pdf.cell(text="Hidden figures")
    assert _refusal("locked.pdf", FileFormat.PDF, bytes(pdf.output())) == (
        "locked.pdf: is protected by a password"
    )


def test_a_pdf_with_only_an_owner_password_opens_like_in_any_viewer():
    pdf = FPDF()
    pdf.set_encryption(owner_password="owner")
    pdf.set_font("Helvetica", size=12)
    pdf.add_page()
    pdf.cell(text="Printable figures")
    assert "Printable figures" in _extract("locked.pdf", FileFormat.PDF, bytes(pdf.output())).text


def test_a_damaged_pdf_is_refused_clearly():
    message = _refusal("paper.pdf", FileFormat.PDF, b"%PDF-1.7\n" + b"\x00garbage" * 50)
    assert message == "paper.pdf: the file is damaged and cannot be read as a PDF document"


def test_images_have_no_text_to_extract():
    assert _refusal("photo.png", FileFormat.PNG, fixture_bytes("tiny.png")) == (
        "photo.png: a PNG image has no text to extract"
    )
