"""Pixel sizes read from PNG, JPEG and WebP headers, without decoding any pixels.

Decoding the header is how a renamed or damaged file is caught before a model (or OCR)
is handed something it cannot read; the size is shown on the chip and lets the request
builder scale an image down. Each reader works on a seekable binary stream and raises
`InvalidImage` when the bytes are not a well-formed header of that format.
"""

from __future__ import annotations

import struct
import zlib
from typing import BinaryIO

from desktop.core.i18n import tr

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_IEND = b"\x00\x00\x00\x00IEND\xaeB`\x82"
_PNG_COLOUR_DEPTHS = {0: {1, 2, 4, 8, 16}, 2: {8, 16}, 3: {1, 2, 4, 8}, 4: {8, 16}, 6: {8, 16}}
_PNG_IHDR_LENGTH = 13

# SOFn markers carry the frame size; C4 (DHT), C8 (reserved) and CC (DAC) do not.
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_JPEG_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})
_JPEG_MAX_SEGMENTS = 10_000
_JPEG_FILL = 0xFF
_JPEG_LENGTH_BYTES = 2  # a segment's length counts its own two bytes
_JPEG_FRAME_HEAD = 6  # precision, height, width, number of components (">BHHB")
_WEBP_VP8L_SIGNATURE = 0x2F
_WEBP_VP8X_MIN_SIZE = 10  # flags, reserved bytes, and the canvas width and height


class InvalidImage(ValueError):
    """The header is missing, truncated or inconsistent."""


def _read_exactly(stream: BinaryIO, count: int) -> bytes:
    data = stream.read(count)
    if len(data) != count:
        raise InvalidImage(tr("the file ends too early"))
    return data


def png_size(stream: BinaryIO) -> tuple[int, int]:
    """Checks the signature, the IHDR chunk (with its CRC) and that the file ends in IEND."""
    stream.seek(0)
    head = _read_exactly(stream, 8 + 8 + _PNG_IHDR_LENGTH + 4)
    if head[:8] != PNG_SIGNATURE:
        raise InvalidImage(tr("no PNG signature"))
    length, chunk_type = struct.unpack(">I4s", head[8:16])
    if length != _PNG_IHDR_LENGTH or chunk_type != b"IHDR":
        raise InvalidImage(tr("the first chunk is not IHDR"))
    body = head[16:29]
    (crc,) = struct.unpack(">I", head[29:33])
    if zlib.crc32(head[12:29]) != crc:
        raise InvalidImage(tr("the IHDR checksum is wrong"))
    width, height, depth, colour, compression, filtering, interlace = struct.unpack(
        ">IIBBBBB", body
    )
    if not (0 < width < 2**31 and 0 < height < 2**31):
        raise InvalidImage(tr("zero or out-of-range size"))
    if depth not in _PNG_COLOUR_DEPTHS.get(colour, ()):
        raise InvalidImage(tr("unknown colour type or bit depth"))
    if compression or filtering or interlace > 1:
        raise InvalidImage(tr("unknown compression, filter or interlace method"))
    stream.seek(-len(_PNG_IEND), 2)
    if stream.read(len(_PNG_IEND)) != _PNG_IEND:
        raise InvalidImage(tr("the file is truncated (no IEND chunk at the end)"))
    return width, height


def jpeg_size(stream: BinaryIO) -> tuple[int, int]:
    """Walks the marker segments from SOI to the first SOFn frame header."""
    stream.seek(0)
    if _read_exactly(stream, 2) != b"\xff\xd8":
        raise InvalidImage(tr("no JPEG start-of-image marker"))
    for _ in range(_JPEG_MAX_SEGMENTS):
        if _read_exactly(stream, 1) != b"\xff":
            raise InvalidImage(tr("garbage where a marker was expected"))
        marker = _read_exactly(stream, 1)[0]
        while marker == _JPEG_FILL:  # fill bytes may pad before a marker
            marker = _read_exactly(stream, 1)[0]
        if marker in _JPEG_STANDALONE:
            continue
        if marker in (0x00, 0xD8, 0xD9, 0xDA):
            raise InvalidImage(tr("no frame header before the image data"))
        (length,) = struct.unpack(">H", _read_exactly(stream, 2))
        if length < _JPEG_LENGTH_BYTES:
            raise InvalidImage(tr("a segment has an impossible length"))
        if marker in _JPEG_SOF:
            frame = _read_exactly(stream, length - _JPEG_LENGTH_BYTES)
            if len(frame) < _JPEG_FRAME_HEAD:
                raise InvalidImage(tr("the frame header is too short"))
            _precision, height, width, components = struct.unpack(">BHHB", frame[:_JPEG_FRAME_HEAD])
            if width == 0 or height == 0 or components == 0:
                raise InvalidImage(tr("zero size or no colour components"))
            if len(frame) < _JPEG_FRAME_HEAD + 3 * components:
                raise InvalidImage(tr("the frame header is too short"))
            return width, height
        stream.seek(length - _JPEG_LENGTH_BYTES, 1)
    raise InvalidImage(tr("too many segments before the frame header"))


def webp_size(stream: BinaryIO) -> tuple[int, int]:
    """Reads the RIFF header and the first chunk: lossy VP8, lossless VP8L or extended VP8X."""
    stream.seek(0, 2)
    file_size = stream.tell()
    stream.seek(0)
    head = _read_exactly(stream, 12 + 8 + 10)
    riff, riff_size, webp = struct.unpack("<4sI4s", head[:12])
    if riff != b"RIFF" or webp != b"WEBP":
        raise InvalidImage(tr("no RIFF/WEBP header"))
    if riff_size + 8 > file_size:
        raise InvalidImage(tr("the file is truncated"))
    chunk, chunk_size = struct.unpack("<4sI", head[12:20])
    data = head[20:]
    if chunk_size + 20 > riff_size + 8:
        raise InvalidImage(tr("the first chunk runs past the end of the file"))
    if chunk == b"VP8 ":
        frame_tag = data[0] | data[1] << 8 | data[2] << 16
        if frame_tag & 1 or data[3:6] != b"\x9d\x01\x2a":
            raise InvalidImage(tr("the VP8 frame is not a key frame"))
        width, height = struct.unpack("<HH", data[6:10])
        width, height = width & 0x3FFF, height & 0x3FFF
    elif chunk == b"VP8L":
        if data[0] != _WEBP_VP8L_SIGNATURE:
            raise InvalidImage(tr("no VP8L signature"))
        (bits,) = struct.unpack("<I", data[1:5])
        if bits >> 29:
            raise InvalidImage(tr("unknown VP8L version"))
        width, height = (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    elif chunk == b"VP8X":
        if chunk_size < _WEBP_VP8X_MIN_SIZE:
            raise InvalidImage(tr("the VP8X chunk is too short"))
        width = int.from_bytes(data[4:7], "little") + 1
        height = int.from_bytes(data[7:10], "little") + 1
    else:
        raise InvalidImage(tr("no VP8, VP8L or VP8X chunk"))
    if width == 0 or height == 0:
        raise InvalidImage(tr("zero size"))
    return width, height
