"""The files of an export as importers see them: a zip, a folder or one JSON file."""

from __future__ import annotations

import json
import zipfile
from datetime import UTC, datetime

import pytest

from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import derived_id, from_epoch, from_iso


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
