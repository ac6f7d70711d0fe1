"""Office Open XML packages (docx, pptx, xlsx): which one a zip is, and safe XML parsing.

A docx and a pptx are both zips; only `[Content_Types].xml` says which, through the
content type of the package's main part. Parsing refuses any DOCTYPE: Office never
writes one, and refusing it rules out entity-expansion tricks.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from desktop.core.attachments import AttachmentError
from desktop.core.i18n import tr
from desktop.engine.attachments.zip_guard import GuardedZip

CONTENT_TYPES = "[Content_Types].xml"
_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"

# A main part's content type names its application; templates and macro-enabled
# variants differ only in the rest of the string.
_FAMILIES = (
    ("wordprocessingml", "word"),
    ("ms-word", "word"),
    ("presentationml", "powerpoint"),
    ("ms-powerpoint", "powerpoint"),
    ("spreadsheetml", "excel"),
    ("ms-excel", "excel"),
)


class UnsafeXml(ValueError):
    """XML with a DOCTYPE, which no Office file has."""


def unsafe_xml(name: str) -> AttachmentError:
    return AttachmentError(
        name, tr("refused: its XML declares a DOCTYPE, which no Office file has")
    )


def check_no_doctype(head: bytes) -> None:
    """`head`: the start of the XML, where any DOCTYPE must be."""
    if b"<!DOCTYPE" in head[:4096] or b"<!ENTITY" in head[:4096]:
        raise UnsafeXml("the XML declares a DOCTYPE")


def parse_xml(data: bytes) -> ET.Element:
    check_no_doctype(data)
    return ET.fromstring(data)


@dataclass(frozen=True, slots=True)
class Package:
    family: str | None  # "word", "powerpoint", "excel", or None for any other zip
    main_part: str | None  # e.g. "word/document.xml"


def identify_package(archive: GuardedZip) -> Package:
    if not archive.has(CONTENT_TYPES):
        return Package(None, None)
    root = parse_xml(archive.read(CONTENT_TYPES))
    # Overrides name the main part; a few generators declare it only by extension.
    declared = [*root.iter(f"{_CT}Override"), *root.iter(f"{_CT}Default")]
    for entry in declared:
        content_type = entry.get("ContentType", "")
        if not content_type.endswith(".main+xml"):
            continue
        for marker, family in _FAMILIES:
            if marker in content_type:
                part = entry.get("PartName", "").lstrip("/")
                return Package(family, part or None)
    return Package(None, None)


def related_parts(archive: GuardedZip, part: str, type_suffix: str) -> list[str]:
    """Targets of `part`'s relationships whose type ends with `type_suffix`, in order."""
    folder, base = posixpath.split(part)
    rels = posixpath.join(folder, "_rels", f"{base}.rels")
    if not archive.has(rels):
        return []
    found = []
    for rel in parse_xml(archive.read(rels)).iter(f"{_REL}Relationship"):
        if rel.get("Type", "").endswith(type_suffix) and rel.get("TargetMode") != "External":
            target = rel.get("Target", "")
            joined = target.lstrip("/") if target.startswith("/") else f"{folder}/{target}"
            found.append(posixpath.normpath(joined))
    return found
