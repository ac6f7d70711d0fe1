"""The files of an export as importers see them: a zip, a folder or one JSON file; and a
file of it read for an attachment, never past a limit, a damaged one refused in words."""

from __future__ import annotations

import json
import zipfile
from datetime import UTC, datetime

import pytest

from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import derived_id, from_epoch, from_iso
from tests.support.documents import with_bad_crc


def test_a_zip_a_folder_and_a_lone_file_read_alike(tmp_path):
    data = [{"id": "c1", "title": "旅行"}]
    folder = tmp_path / "export"
    (folder / "nested").mkdir(parents=True)
    (folder / "nested" / "conversations.json").write_text(json.dumps(data), encoding="utf-8")
    (folder / "notes.jsonl").write_text('{"a": 1}\nnot json\n\n{"b": 2}\n', encoding="utf-8")
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("export/conversations.json", json.dumps(data))
        zf.writestr("export/deeper/conversations.json", "[]")
    lone = tmp_path / "backup.json"
    lone.write_text("\ufeff" + json.dumps(data), encoding="utf-8")  # with a byte-order mark

    with ExportFiles(folder) as files:
        assert files.find("conversations.json") == "nested/conversations.json"
        assert files.json("nested/conversations.json") == data
        assert list(files.lines("notes.jsonl")) == [{"a": 1}, None, {"b": 2}]
    with ExportFiles(archive) as files:
        assert files.find("conversations.json") == "export/conversations.json"  # shallowest
        assert files.json(files.find("conversations.json")) == data
    with ExportFiles(lone) as files:
        assert files.names == ["backup.json"] and files.json("backup.json") == data


def test_what_cannot_be_read_is_said_in_words(tmp_path):
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04" + b"\0" * 64)
    with pytest.raises(ExportError, match="not a readable zip"):
        ExportFiles(broken)
    text = tmp_path / "conversations.json"
    text.write_text("[{", encoding="utf-8")
    with ExportFiles(text) as files, pytest.raises(ExportError, match="not valid JSON"):
        files.json("conversations.json")
    with ExportFiles(text) as files, pytest.raises(ExportError, match="no file"):
        files.read("../../etc/passwd")  # only the export's own names


def _picture_export(tmp_path, kind: str):
    """An export holding `a/photo.bin` (ten bytes) beside its conversations, as `kind`."""
    if kind == "folder":
        folder = tmp_path / "export"
        (folder / "a").mkdir(parents=True)
        (folder / "a" / "photo.bin").write_bytes(bytes(range(10)))
        (folder / "conversations.json").write_text("[]", encoding="utf-8")
        return folder
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a/", "")  # a folder entry is no file of the export
        zf.writestr("a/photo.bin", bytes(range(10)))
        zf.writestr("conversations.json", "[]")
    return archive


@pytest.mark.parametrize("kind", ["folder", "zip"])
def test_a_file_is_read_up_to_its_limit_and_no_further(tmp_path, kind):
    with ExportFiles(_picture_export(tmp_path, kind)) as files:
        assert not files.single
        assert files.has("a/photo.bin") and not files.has("a") and not files.has("a/")
        assert files.read_at_most("a/photo.bin", 10) == bytes(range(10))
        assert files.read_at_most("a/photo.bin", 9) is None  # longer than the limit
        with pytest.raises(ExportError, match=r"The export has no file a/other\.bin"):
            files.read_at_most("a/other.bin", 10)
        with pytest.raises(ExportError):
            files.read_at_most("../export.zip", 10**6)  # only the export's own files


def test_a_lone_file_is_single_and_a_damaged_zip_member_is_said_in_words(tmp_path):
    lone = tmp_path / "conversations.json"
    lone.write_text("[]", encoding="utf-8")
    with ExportFiles(lone) as files:
        assert files.single and files.has("conversations.json")
    whole = _picture_export(tmp_path, "zip")
    damaged = tmp_path / "damaged.zip"
    photo = bytes(range(64))
    with zipfile.ZipFile(whole, "a") as zf:
        zf.writestr("b/photo.bin", photo)
    damaged.write_bytes(with_bad_crc(whole.read_bytes(), "b/photo.bin"))
    with ExportFiles(damaged) as files:
        assert files.read_at_most("a/photo.bin", 10) == bytes(range(10))
        with pytest.raises(ExportError, match=r"could not be read from the export \(Bad CRC-32"):
            files.read_at_most("b/photo.bin", 100)


def test_ids_and_times_derived_from_the_source_are_stable():
    one = derived_id("chatgpt", "message", "abc")
    assert one == derived_id("chatgpt", "message", "abc")  # the same export, the same ids
    assert (
        one
        != derived_id("claude", "message", "abc")
        != derived_id("chatgpt", "conversation", "abc")
    )
    assert len(one) == 32 and int(one, 16) >= 0
    assert from_epoch(1714557600.5) == datetime(2024, 5, 1, 10, 0, 0, 500000, tzinfo=UTC)
    assert from_epoch(None) is None and from_epoch(True) is None and from_epoch(1e30) is None
    assert from_iso("2024-05-01T10:00:00Z") == datetime(2024, 5, 1, 10, tzinfo=UTC)
    assert from_iso("2024-05-01T10:00:00") == datetime(2024, 5, 1, 10, tzinfo=UTC)
    assert from_iso("yesterday") is None and from_iso(12) is None
