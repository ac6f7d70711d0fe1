"""Real documents for the attachment tests, written by the libraries that make people's files."""

from __future__ import annotations

import io
import re
import zipfile

import docx
import pptx
from fpdf import FPDF

from tests.support import ole_writer as ppt
from tests.support.paths import FIXTURES


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def make_docx() -> bytes:
    document = docx.Document()
    document.add_heading("Quarterly report", level=1)
    document.add_paragraph("Revenue grew in every region.")
    paragraph = document.add_paragraph("Before tab")
    run = paragraph.add_run()
    run.add_tab()
    paragraph.add_run("after tab")
    run = paragraph.add_run()
    run.add_break()
    paragraph.add_run("next line")
    document.add_paragraph("Keep the receipts", style="List Bullet")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "Region"
    table.cell(0, 1).text = "Sales"
    table.cell(1, 0).text = "North"
    table.cell(1, 1).text = "120"
    document.add_paragraph("Closing remarks.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def make_pptx(slide_count: int = 3, notes: dict[int, str] | None = None) -> bytes:
    presentation = pptx.Presentation()
    layout = presentation.slide_layouts[1]  # title and content
    for number in range(1, slide_count + 1):
        slide = presentation.slides.add_slide(layout)
        slide.shapes.title.text = f"Title {number}"
        slide.placeholders[1].text_frame.text = f"Point {number}a"
        slide.placeholders[1].text_frame.add_paragraph().text = f"Point {number}b"
        if notes and number in notes:
            slide.notes_slide.notes_text_frame.text = notes[number]
    out = io.BytesIO()
    presentation.save(out)
    return out.getvalue()


def make_pdf(pages: list[str]) -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 8, text)
    return bytes(pdf.output())


def make_scan_pdf() -> bytes:
    """A page that is only a picture, as a scanner writes it: no text layer."""
    pdf = FPDF()
    pdf.add_page()
    pdf.image(io.BytesIO(fixture_bytes("tiny.png")), x=10, y=10, w=100)
    return bytes(pdf.output())


def with_startxref_off(original: bytes, by: int) -> bytes:
    """The `startxref` pointer `by` bytes away from the cross-reference table."""
    found = re.search(rb"startxref\s+(\d+)", original)
    assert found is not None
    pointer = str(int(found.group(1)) + by).encode()
    return original[: found.start(1)] + pointer + original[found.end(1) :]


def with_xref_offsets_shifted(original: bytes, by: int) -> bytes:
    """Every object's offset in the cross-reference table `by` bytes off."""
    return re.sub(
        rb"(\d{10}) 00000 n",
        lambda entry: b"%010d 00000 n" % (int(entry.group(1)) + by),
        original,
    )


def with_first_stream_scrambled(original: bytes) -> bytes:
    """The first stream's compressed bytes flipped (fpdf2 writes the page's content
    stream first): the inflater fails on them."""
    return with_flipped_bytes(original, original.index(b"stream\n") + 12, 24)


def make_ppt() -> bytes:
    """A legacy .ppt: two slides in the slide list, a text box, notes, and a master."""
    document = ppt.container(
        ppt.RT_DOCUMENT,
        [
            ppt.container(
                ppt.RT_SLIDE_LIST_WITH_TEXT,
                [
                    ppt.slide_persist(),
                    ppt.text_header(0),
                    ppt.text_chars("Quarterly results"),
                    ppt.text_header(1),
                    ppt.text_chars("Revenue up\nCosts down"),
                    ppt.slide_persist(),
                    ppt.text_header(0),
                    ppt.text_bytes("Caf\xe9 menu"),
                ],
            ),
            ppt.container(
                ppt.RT_SLIDE_LIST_WITH_TEXT,
                [ppt.slide_persist(), ppt.text_chars("Speak slowly here")],
                instance=2,
            ),
        ],
    )
    master = ppt.container(ppt.RT_MAIN_MASTER, [ppt.text_chars("Click to edit Master title")])
    slide = ppt.container(
        ppt.RT_SLIDE,
        [
            ppt.container(
                ppt.RT_PPDRAWING,
                [
                    ppt.container(
                        ppt.RT_OFFICE_ART_DG_CONTAINER,
                        [
                            ppt.container(
                                ppt.RT_OFFICE_ART_CLIENT_TEXTBOX,
                                [ppt.text_header(4), ppt.text_chars("A free text box")],
                            )
                        ],
                    )
                ],
            )
        ],
    )
    stream = ppt.powerpoint_stream([document, master, slide])
    return ppt.build_ole({"PowerPoint Document": stream})


def rezip(original: bytes, replace: dict[str, bytes]) -> bytes:
    """The same zip with some members' content replaced."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(original)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            target.writestr(info.filename, replace.get(info.filename, source.read(info)))
    return out.getvalue()


# --- damaged copies: what a failed download, a full disk or a bad sector leaves -------


def _member_data_offset(data: bytes, member: str) -> int:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        info = archive.getinfo(member)
    name_length = int.from_bytes(data[info.header_offset + 26 : info.header_offset + 28], "little")
    extra_length = int.from_bytes(data[info.header_offset + 28 : info.header_offset + 30], "little")
    return info.header_offset + 30 + name_length + extra_length


def with_bad_crc(original: bytes, member: str) -> bytes:
    """The same package with `member` stored uncompressed and one of its bytes changed,
    so only its CRC-32 gives the damage away."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(original)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            kind = zipfile.ZIP_STORED if info.filename == member else zipfile.ZIP_DEFLATED
            target.writestr(info.filename, source.read(info), compress_type=kind)
    data = bytearray(out.getvalue())
    data[_member_data_offset(bytes(data), member) + 40] ^= 0x01
    return bytes(data)


def with_flipped_bytes(original: bytes, start: int, count: int = 16) -> bytes:
    data = bytearray(original)
    for index in range(start, min(start + count, len(data))):
        data[index] ^= 0xFF
    return bytes(data)


def with_flipped_member(original: bytes, member: str) -> bytes:
    """`member`'s compressed bytes scrambled: the inflater fails on them."""
    return with_flipped_bytes(original, _member_data_offset(original, member) + 4)


def garbage(size: int = 4096, seed: int = 7) -> bytes:
    state = seed
    out = bytearray()
    for _ in range(size):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(state >> 16 & 0xFF)
    return bytes(out)
