"""Writes minimal OLE compound files, and PowerPoint 97-2003 records to put in them.

No Python library writes a legacy .ppt, so the tests build one: a version 3 compound
file ([MS-CFB]) with 512-byte sectors, a FAT, one directory sector and streams of at
least 4096 bytes (so they live in regular sectors and no mini stream is needed), holding
a "PowerPoint Document" stream made of [MS-PPT] records.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
SECTOR = 512
MINI_STREAM_CUTOFF = 4096
FREESECT, ENDOFCHAIN, FATSECT, NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF
_ENTRIES_PER_FAT_SECTOR = SECTOR // 4
_DIR_ENTRY = 128


def build_ole(streams: dict[str, bytes]) -> bytes:
    """A compound file whose root storage holds `streams` (each ≥ 4096 bytes)."""
    if not 1 <= len(streams) <= 3:
        raise ValueError("one directory sector holds the root and at most three streams")
    for name, data in streams.items():
        if len(data) < MINI_STREAM_CUTOFF:
            raise ValueError(f"{name}: streams under 4096 bytes need a mini stream")
    sector_counts = [-(-len(data) // SECTOR) for data in streams.values()]
    fat_sectors = 1
    while fat_sectors * _ENTRIES_PER_FAT_SECTOR < fat_sectors + 1 + sum(sector_counts):
        fat_sectors += 1
    directory_sector = fat_sectors
    fat = [FATSECT] * fat_sectors + [ENDOFCHAIN]
    starts = []
    for count in sector_counts:
        start = len(fat)
        starts.append(start)
        fat.extend(range(start + 1, start + count))
        fat.append(ENDOFCHAIN)
    fat.extend([FREESECT] * (fat_sectors * _ENTRIES_PER_FAT_SECTOR - len(fat)))

    # Siblings form a chain to the right in the order [MS-CFB] compares names.
    order = sorted(range(len(streams)), key=lambda i: _compare_key(list(streams)[i]))
    right = {order[i]: order[i + 1] + 1 for i in range(len(order) - 1)}
    entries = [_entry("Root Entry", 5, child=order[0] + 1, start=ENDOFCHAIN, size=0)]
    for index, (name, data) in enumerate(streams.items()):
        entries.append(
            _entry(name, 2, right=right.get(index, NOSTREAM), start=starts[index], size=len(data))
        )
    while len(entries) < SECTOR // _DIR_ENTRY:
        entries.append(_empty_entry())

    body = struct.pack(f"<{len(fat)}I", *fat) + b"".join(entries)
    for data in streams.values():
        body += data + b"\x00" * (-len(data) % SECTOR)
    return _header(fat_sectors, directory_sector) + body


def _header(fat_sectors: int, directory_sector: int) -> bytes:
    difat = list(range(fat_sectors)) + [FREESECT] * (109 - fat_sectors)
    header = SIGNATURE + b"\x00" * 16
    header += struct.pack("<HHHHH", 0x003E, 0x0003, 0xFFFE, 9, 6)
    header += b"\x00" * 6
    header += struct.pack(
        "<IIIIIIIII",
        0,  # directory sectors (always 0 in version 3)
        fat_sectors,
        directory_sector,
        0,  # transaction signature
        MINI_STREAM_CUTOFF,
        ENDOFCHAIN,  # first mini FAT sector: none
        0,
        ENDOFCHAIN,  # first DIFAT sector: none, the header's 109 entries suffice
        0,
    )
    header += struct.pack("<109I", *difat)
    assert len(header) == SECTOR
    return header


def _entry(
    name: str,
    object_type: int,
    *,
    start: int,
    size: int,
    child: int = NOSTREAM,
    right: int = NOSTREAM,
) -> bytes:
    encoded = name.encode("utf-16-le") + b"\x00\x00"
    entry = encoded.ljust(64, b"\x00")
    entry += struct.pack("<HBB", len(encoded), object_type, 1)  # 1: black
    entry += struct.pack("<III", NOSTREAM, right, child)
    entry += b"\x00" * 16 + b"\x00" * 4 + b"\x00" * 16  # clsid, state bits, times
    entry += struct.pack("<IQ", start, size)
    assert len(entry) == _DIR_ENTRY
    return entry


def _empty_entry() -> bytes:
    return b"\x00" * 68 + struct.pack("<III", NOSTREAM, NOSTREAM, NOSTREAM) + b"\x00" * 48


def _compare_key(name: str) -> tuple[int, str]:
    return len(name), name.upper()


# --- PowerPoint records ([MS-PPT] 2.3.1: an 8-byte header, then the body) -----------

RT_DOCUMENT = 0x03E8
RT_SLIDE = 0x03EE
RT_NOTES = 0x03F0
RT_SLIDE_PERSIST_ATOM = 0x03F3
RT_MAIN_MASTER = 0x03F8
RT_PPDRAWING = 0x040C
RT_TEXT_HEADER_ATOM = 0x0F9F
RT_TEXT_CHARS_ATOM = 0x0FA0
RT_TEXT_BYTES_ATOM = 0x0FA8
RT_SLIDE_LIST_WITH_TEXT = 0x0FF0
RT_OFFICE_ART_DG_CONTAINER = 0xF002
RT_OFFICE_ART_CLIENT_TEXTBOX = 0xF00D
RT_CSTRING = 0x0FBA


def atom(rec_type: int, body: bytes, *, instance: int = 0) -> bytes:
    return struct.pack("<HHI", instance << 4, rec_type, len(body)) + body


def container(rec_type: int, children: Iterable[bytes], *, instance: int = 0) -> bytes:
    body = b"".join(children)
    return struct.pack("<HHI", (instance << 4) | 0xF, rec_type, len(body)) + body


def text_chars(text: str) -> bytes:
    """A TextCharsAtom: UTF-16LE, CR between paragraphs."""
    return atom(RT_TEXT_CHARS_ATOM, text.replace("\n", "\r").encode("utf-16-le"))


def text_bytes(text: str) -> bytes:
    """A TextBytesAtom: the low byte of each character (latin-1)."""
    return atom(RT_TEXT_BYTES_ATOM, text.replace("\n", "\r").encode("latin-1"))


def slide_persist() -> bytes:
    return atom(RT_SLIDE_PERSIST_ATOM, b"\x00" * 20)


def text_header(text_type: int) -> bytes:
    return atom(RT_TEXT_HEADER_ATOM, struct.pack("<I", text_type))


def powerpoint_stream(records: Iterable[bytes]) -> bytes:
    """The records, padded with a string atom to the 4096 bytes `build_ole` needs."""
    data = b"".join(records)
    short = MINI_STREAM_CUTOFF + 8 - len(data)
    if short > 0:
        data += atom(RT_CSTRING, b"\x00" * (short + short % 2))
    return data
