"""The import window's model on a real ChatGPT export zip, a real database and a real
attachment store: the preview says how many images and files come along and how many
are left out, and the outcome how many were attached, with a row per file that could
not be, and its reason."""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop.core.dispatch import EventBus
from desktop.core.events import EngineEvent
from desktop.engine.library import Library
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.ui.viewmodels.import_export import ImportExportViewModel, ImportStage
from desktop.ui.viewmodels.tasks import TaskGroup

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "imports" / "chatgpt"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database.open(tmp_path / "parley.db")
    try:
        yield database
    finally:
        database.close()


def _model(db: Database, tmp_path: Path) -> tuple[ImportExportViewModel, TaskGroup]:
    store = AttachmentStore(tmp_path / "attachments", db.engine)
    library = Library(db, ChatRepository(db), EventBus[EngineEvent](), attachments=store)
    tasks = TaskGroup()
    return ImportExportViewModel(library, tasks), tasks


def _export(path: Path, photo: bytes) -> Path:
    """The fixture's export zipped, its photo replaced by `photo`."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(FIXTURE / "conversations.json", "conversations.json")
        archive.write(FIXTURE / "user.json", "user.json")
        archive.writestr("file-Photo123-torii.png", photo)
    return path


def _rows(model: ImportExportViewModel) -> list[tuple[str, str]]:
    table = model.skipped_files
    return [
        (table.index(row, 0).data(), table.index(row, 1).data()) for row in range(table.rowCount())
    ]


def test_the_preview_and_the_summary_count_the_files(tmp_path, db, loop):
    model, tasks = _model(db, tmp_path)
    photo = (FIXTURE / "file-Photo123-torii.png").read_bytes()
    model.choose(str(_export(tmp_path / "export.zip", photo)))
    loop.run_until_complete(tasks.drain())
    assert model.stage is ImportStage.PREVIEW
    # The photo is in the zip; the PDF beside it is not.
    line = model.files_line()
    assert re.fullmatch(
        r"1 image or file will be attached to its message\. "
        r"1 image or file will be left out; a note marks its place\.",
        line,
    )

    model.start()
    loop.run_until_complete(tasks.drain())
    assert model.stage is ImportStage.DONE and model.outcome is not None
    assert model.outcome.files_added == 1
    assert re.search(r"; 1 image or file attached\.$", model.summary)
    assert "could not be attached" not in model.summary
    assert _rows(model) == []


def test_a_file_that_cannot_be_attached_gets_a_row_with_its_reason(tmp_path, db, loop):
    model, tasks = _model(db, tmp_path)
    model.choose(str(_export(tmp_path / "export.zip", b"words, not a picture")))
    loop.run_until_complete(tasks.drain())
    model.start()
    loop.run_until_complete(tasks.drain())
    assert re.search(r"1 image or file could not be attached \(listed below\)\.$", model.summary)
    assert "attached;" not in model.summary  # nothing was
    assert _rows(model) == [("torii.png in “京都旅行 Kyoto trip”", "not a valid PNG image")]

    # Choosing another export clears the list.
    model.choose(str(FIXTURE))
    assert _rows(model) == []
    loop.run_until_complete(tasks.drain())


def test_an_export_without_images_says_nothing_about_files(tmp_path, db, loop):
    model, tasks = _model(db, tmp_path)
    data = json.loads((FIXTURE / "conversations.json").read_text(encoding="utf-8"))[1:2]
    folder = tmp_path / "words-only"
    folder.mkdir()
    (folder / "conversations.json").write_text(json.dumps(data), encoding="utf-8")
    model.choose(str(folder))
    loop.run_until_complete(tasks.drain())
    assert model.stage is ImportStage.PREVIEW
    assert model.files_line() == ""
