"""What a file really is, from its content, checked against what its name claims.

Content decides and the name must agree: a `.png` that is really a PDF is refused
naming both, so the person learns why instead of a model failing on it later. Two
disagreements are let through because nothing downstream can go wrong: one supported
image format named as another (saved web images often carry the wrong suffix, and the
model is sent the real type), and a `.ppt` that is really a `.pptx` or the reverse.

Works on any seekable binary stream (an open file or pasted bytes) and reads only the
head, the image header, or a zip's directory and content-types part.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from typing import BinaryIO

from desktop.core.attachments import AttachmentError, AttachmentKind
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.engine.attachments.damage import articled, damaged, unrecognised
from desktop.engine.attachments.formats import (
    FORMAT_MIMES,
    IMAGE_FORMATS,
    UNSUPPORTED_IMAGE_SUFFIXES,
    FileFormat,
    claimed_format,
    suffix_of,
    text_mime,
)
from desktop.engine.attachments.image_headers import (
    InvalidImage,
    jpeg_size,
    png_size,
    webp_size,
)
from desktop.engine.attachments.ooxml import UnsafeXml, identify_package, unsafe_xml
from desktop.engine.attachments.zip_guard import GuardedZip

HEAD_BYTES = 8192
PPT_STREAM = "PowerPoint Document"
OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ONLY_SUPPORTED_IMAGES = QT_TR_NOOP("only PNG, JPEG and WebP images are supported")

_IMAGE_READERS = {FileFormat.PNG: png_size, FileFormat.JPEG: jpeg_size, FileFormat.WEBP: webp_size}
_UTF_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_BMP_HEADERS = 14 + 12  # the file header and the smallest DIB header
_HEIF_BRANDS = {
    b"heic": QT_TR_NOOP("a HEIC image"),
    b"heix": QT_TR_NOOP("a HEIC image"),
    b"mif1": QT_TR_NOOP("a HEIF image"),
}
_AVIF_BRANDS = {b"avif": QT_TR_NOOP("an AVIF image"), b"avis": QT_TR_NOOP("an AVIF image")}
# Beyond BadZipFile: an unsupported compression method, an encrypted member, a bad name.
_ZIP_ERRORS = (NotImplementedError, RuntimeError, KeyError)
OFFICE_LABEL = "Office document"
_FAMILY_FORMATS = {"word": FileFormat.DOCX, "powerpoint": FileFormat.PPTX}
_FAMILY_NAMES = {
    "word": QT_TR_NOOP("a Word document"),
    "powerpoint": QT_TR_NOOP("a PowerPoint presentation"),
    "excel": QT_TR_NOOP("an Excel workbook"),
}


@dataclass(frozen=True, slots=True)
class Sniffed:
    format: FileFormat
    mime: str
    width: int | None = None
    height: int | None = None

    @property
    def kind(self) -> AttachmentKind:
        return self.format.kind


def sniff(name: str, stream: BinaryIO) -> Sniffed:
    """Raises `AttachmentError` saying what is wrong when the file cannot be attached."""
    stream.seek(0)
    head = stream.read(HEAD_BYTES)
    claimed = claimed_format(name)
    actual = _image_format(head)
    if actual is not None:
        if claimed is not None and claimed not in IMAGE_FORMATS:
            raise _mismatch(name, claimed, articled(actual.label))
        return _image(name, actual, stream)
    unsupported_image = _unsupported_image(head)
    if unsupported_image is not None:
        raise AttachmentError(
            name,
            tr("only PNG, JPEG and WebP images are supported (this is {format})").format(
                format=tr(unsupported_image)
            ),
        )
    if suffix_of(name) in UNSUPPORTED_IMAGE_SUFFIXES:
        raise AttachmentError(name, tr(ONLY_SUPPORTED_IMAGES))
    if claimed in IMAGE_FORMATS:
        other = _describe_document(head, stream)
        if other is not None:
            raise _mismatch(name, claimed, other)
        raise AttachmentError(name, tr("not a valid {format}").format(format=tr(claimed.label)))
    if claimed is FileFormat.TEXT or (claimed is None and not suffix_of(name)):
        return _text(name, head, stream, required=claimed is FileFormat.TEXT)
    if claimed is None:
        found = _office_or_pdf(name, head, stream)
        if found is not None:
            return found
        raise AttachmentError(name, tr("this type of file is not supported"))
    return _document(name, claimed, head, stream)


def _image(name: str, actual: FileFormat, stream: BinaryIO) -> Sniffed:
    try:
        width, height = _IMAGE_READERS[actual](stream)
    except InvalidImage as exc:
        raise AttachmentError(
            name, tr("not a valid {format} ({reason})").format(format=tr(actual.label), reason=exc)
        ) from None
    return Sniffed(actual, FORMAT_MIMES[actual], width, height)


def _text(name: str, head: bytes, stream: BinaryIO, *, required: bool) -> Sniffed:
    if head.startswith(_UTF_BOMS) or b"\x00" not in head:
        return Sniffed(FileFormat.TEXT, text_mime(name))
    if not required:
        found = _office_or_pdf(name, head, stream)
        if found is not None:
            return found
        raise AttachmentError(name, tr("this type of file is not supported"))
    other = _describe_document(head, stream)
    if other is not None:
        raise _mismatch(name, FileFormat.TEXT, other)
    raise AttachmentError(name, tr("not a text file (it contains binary data)"))


def _document(name: str, claimed: FileFormat, head: bytes, stream: BinaryIO) -> Sniffed:
    found = _office_or_pdf(name, head, stream, claimed=claimed)
    if found is not None:
        same_family = {found.format, claimed} == {FileFormat.PPT, FileFormat.PPTX}
        if found.format is claimed or same_family:
            return found
        raise _mismatch(name, claimed, articled(found.format.label))
    other = _describe_document(head, stream)
    if other is not None:
        raise _mismatch(name, claimed, other)
    raise unrecognised(name, claimed.label)


def _office_or_pdf(
    name: str, head: bytes, stream: BinaryIO, claimed: FileFormat | None = None
) -> Sniffed | None:
    """The supported document a zip, OLE or PDF file is, or None for anything else."""
    if b"%PDF-" in head[:1024]:
        return Sniffed(FileFormat.PDF, FORMAT_MIMES[FileFormat.PDF])
    if head.startswith(OLE_SIGNATURE):
        if _ole_has_powerpoint(name, stream, claimed):
            return Sniffed(FileFormat.PPT, FORMAT_MIMES[FileFormat.PPT])
        return None
    if head.startswith(b"PK\x03\x04"):
        family = _zip_family(name, stream, claimed)
        if family in _FAMILY_FORMATS:
            found = _FAMILY_FORMATS[family]
            return Sniffed(found, FORMAT_MIMES[found])
    return None


def _zip_family(name: str, stream: BinaryIO, claimed: FileFormat | None) -> str | None:
    label = claimed.label if claimed is not None else OFFICE_LABEL
    try:
        with GuardedZip(stream, name) as archive:
            return identify_package(archive).family
    except AttachmentError:
        raise
    except UnsafeXml:
        raise unsafe_xml(name) from None
    except (zipfile.BadZipFile, SyntaxError, OSError, EOFError, ValueError, *_ZIP_ERRORS) as exc:
        raise damaged(name, label, exc) from None


def _ole_has_powerpoint(name: str, stream: BinaryIO, claimed: FileFormat | None) -> bool:
    return PPT_STREAM.lower() in _ole_streams(name, stream, claimed)


def _ole_streams(name: str, stream: BinaryIO, claimed: FileFormat | None) -> set[str]:
    label = claimed.label if claimed is not None else OFFICE_LABEL
    import olefile  # on the first legacy Office file, not with the window

    stream.seek(0)
    try:
        with olefile.OleFileIO(stream) as ole:
            return {"/".join(entry).lower() for entry in ole.listdir()}
    except Exception as exc:  # olefile reports damage with many exception types
        raise damaged(name, label, exc) from None


def _describe_document(head: bytes, stream: BinaryIO) -> str | None:
    """What a file that is not what its name says looks like, for the refusal message."""
    if b"%PDF-" in head[:1024]:
        return QT_TR_NOOP("a PDF document")
    if head.startswith(b"PK\x03\x04"):
        try:
            with GuardedZip(stream, "") as archive:
                family = identify_package(archive).family
        except Exception:  # any damage: it is still a zip as far as the message goes
            family = None
        return _FAMILY_NAMES.get(family or "", QT_TR_NOOP("a ZIP archive"))
    if head.startswith(OLE_SIGNATURE):
        try:
            streams = _ole_streams("", stream, None)
        except AttachmentError:
            return QT_TR_NOOP("an Office 97-2003 file")
        if PPT_STREAM.lower() in streams:
            return QT_TR_NOOP("a PowerPoint presentation")
        if "worddocument" in streams:
            return QT_TR_NOOP("a Word 97-2003 document (.doc)")
        if streams & {"workbook", "book"}:
            return QT_TR_NOOP("an Excel 97-2003 workbook (.xls)")
        return QT_TR_NOOP("an Office 97-2003 file")
    return None


def _image_format(head: bytes) -> FileFormat | None:
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return FileFormat.PNG
    if head.startswith(b"\xff\xd8\xff"):
        return FileFormat.JPEG
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return FileFormat.WEBP
    return None


def _unsupported_image(head: bytes) -> str | None:
    if head.startswith((b"GIF87a", b"GIF89a")):
        return QT_TR_NOOP("a GIF image")
    if head.startswith(b"BM") and head[6:10] == b"\x00\x00\x00\x00" and len(head) >= _BMP_HEADERS:
        return QT_TR_NOOP("a BMP image")
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return QT_TR_NOOP("a TIFF image")
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        return _HEIF_BRANDS.get(brand) or _AVIF_BRANDS.get(brand)
    return None


def _mismatch(name: str, claimed: FileFormat, actual: str) -> AttachmentError:
    return AttachmentError(
        name,
        tr("the name says {claimed} but the content is {actual}").format(
            claimed=tr(claimed.label), actual=tr(actual)
        ),
    )
