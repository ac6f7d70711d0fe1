"""The file types Parley accepts, and what a file's name claims it to be.

The name only says what the person expects; `sniff.py` then checks the content agrees.
The text list is generous on purpose: any source or config file a person might ask
about is plain text to the model.
"""

from __future__ import annotations

from enum import StrEnum

from desktop.core.attachments import AttachmentKind
from desktop.core.i18n import QT_TR_NOOP


class FileFormat(StrEnum):
    PNG = "png"
    JPEG = "jpeg"
    WEBP = "webp"
    TEXT = "text"
    DOCX = "docx"
    PPTX = "pptx"
    PPT = "ppt"
    PDF = "pdf"

    @property
    def kind(self) -> AttachmentKind:
        return AttachmentKind.IMAGE if self in IMAGE_FORMATS else AttachmentKind.DOCUMENT

    @property
    def label(self) -> str:
        """How a message to the person names the format."""
        return _LABELS[self]


IMAGE_FORMATS = frozenset({FileFormat.PNG, FileFormat.JPEG, FileFormat.WEBP})

_LABELS = {
    FileFormat.PNG: QT_TR_NOOP("PNG image"),
    FileFormat.JPEG: QT_TR_NOOP("JPEG image"),
    FileFormat.WEBP: QT_TR_NOOP("WebP image"),
    FileFormat.TEXT: QT_TR_NOOP("text file"),
    FileFormat.DOCX: QT_TR_NOOP("Word document"),
    FileFormat.PPTX: QT_TR_NOOP("PowerPoint presentation"),
    FileFormat.PPT: QT_TR_NOOP("PowerPoint presentation"),
    FileFormat.PDF: QT_TR_NOOP("PDF document"),
}

FORMAT_MIMES = {
    FileFormat.PNG: "image/png",
    FileFormat.JPEG: "image/jpeg",
    FileFormat.WEBP: "image/webp",
    FileFormat.DOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    FileFormat.PPTX: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    FileFormat.PPT: "application/vnd.ms-powerpoint",
    FileFormat.PDF: "application/pdf",
}

_SUFFIX_FORMATS = {
    "png": FileFormat.PNG,
    "jpg": FileFormat.JPEG,
    "jpeg": FileFormat.JPEG,
    "jpe": FileFormat.JPEG,
    "jfif": FileFormat.JPEG,
    "webp": FileFormat.WEBP,
    "docx": FileFormat.DOCX,
    "docm": FileFormat.DOCX,
    "dotx": FileFormat.DOCX,
    "dotm": FileFormat.DOCX,
    "pptx": FileFormat.PPTX,
    "pptm": FileFormat.PPTX,
    "ppsx": FileFormat.PPTX,
    "potx": FileFormat.PPTX,
    "ppt": FileFormat.PPT,
    "pps": FileFormat.PPT,
    "pot": FileFormat.PPT,
    "pdf": FileFormat.PDF,
}


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


TEXT_SUFFIXES = _words(
    """
    txt text md markdown mdown mkd rst adoc asciidoc org tex bib csv tsv json jsonl ndjson
    json5 yaml yml toml ini cfg conf config properties env log xml xsd xsl html htm xhtml
    css scss sass less js mjs cjs jsx ts tsx vue svelte py pyi pyw ipynb java kt kts scala
    groovy gradle c h cc cpp cxx hpp hh hxx m mm cs fs fsx vb go rs rb php pl pm lua r jl
    dart swift sh bash zsh fish ps1 psm1 bat cmd sql graphql gql proto thrift tf hcl nix
    dockerfile makefile mk cmake el clj cljs edn ex exs erl hrl hs elm ml mli zig nim v sv
    vhd asm s diff patch srt vtt rtf gitignore gitattributes editorconfig lock
    """
)

# Files commonly named without a suffix that are text.
TEXT_NAMES = _words(
    """
    makefile dockerfile containerfile readme license licence copying authors changelog
    notice procfile gemfile rakefile vagrantfile jenkinsfile justfile
    """
)

UNSUPPORTED_IMAGE_SUFFIXES = _words(
    "gif bmp dib tif tiff heic heif avif ico icns svg svgz psd jxl jp2 raw cr2 nef dng"
)

_TEXT_MIMES = {
    "md": "text/markdown",
    "markdown": "text/markdown",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
    "json": "application/json",
    "xml": "application/xml",
    "html": "text/html",
    "htm": "text/html",
    "css": "text/css",
    "js": "text/javascript",
    "mjs": "text/javascript",
    "yaml": "application/yaml",
    "yml": "application/yaml",
    "py": "text/x-python",
}


def suffix_of(name: str) -> str:
    """The lower-cased suffix without the dot; a leading-dot name (".env") is its suffix."""
    base = name.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    if "." not in base:
        return ""
    return base.rsplit(".", 1)[1].lower()


def claimed_format(name: str) -> FileFormat | None:
    """What the name says the file is, or None when the name is no help."""
    suffix = suffix_of(name)
    if suffix in _SUFFIX_FORMATS:
        return _SUFFIX_FORMATS[suffix]
    if suffix in TEXT_SUFFIXES or (not suffix and name.lower() in TEXT_NAMES):
        return FileFormat.TEXT
    return None


def text_mime(name: str) -> str:
    return _TEXT_MIMES.get(suffix_of(name), "text/plain")
