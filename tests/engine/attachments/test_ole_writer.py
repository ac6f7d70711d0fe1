"""The test helper that writes legacy compound files makes files olefile accepts."""

from __future__ import annotations

import io

import olefile
import pytest

from tests.support.ole_writer import build_ole


def test_a_written_compound_file_opens_with_its_streams_intact():
    streams = {"PowerPoint Document": bytes(range(256)) * 20, "Current User": b"\x01" * 4100}
    data = build_ole(streams)
    assert olefile.isOleFile(io.BytesIO(data))
    with olefile.OleFileIO(io.BytesIO(data)) as ole:
        assert sorted(ole.listdir()) == [["Current User"], ["PowerPoint Document"]]
        for name, content in streams.items():
            assert ole.openstream(name).read() == content


def test_a_stream_needing_several_fat_sectors_is_chained_correctly():
    content = bytes(range(251)) * 1000  # ≈ 245 KiB: more sectors than one FAT sector maps
    with olefile.OleFileIO(io.BytesIO(build_ole({"Big": content}))) as ole:
        assert ole.openstream("Big").read() == content


def test_streams_too_small_for_regular_sectors_are_refused():
    with pytest.raises(ValueError, match="mini stream"):
        build_ole({"Tiny": b"x" * 100})
