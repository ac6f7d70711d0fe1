"""`AttachmentService` end to end, against the real store on a real SQLite file."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from desktop.core.attachments import AttachmentError, AttachmentKind
from desktop.core.limits import MAX_EXTRACTED_CHARS
from desktop.core.models import ContextSnapshot, Message, Role, TextPart, new_id
from desktop.core.paths import DataPaths
from desktop.engine.attachments.inputs import AttachmentReader
from desktop.engine.attachments.service import AttachmentService
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from tests.support.documents import fixture_bytes, make_docx, make_pdf, make_pptx


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database.open(tmp_path / "parley.db")
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def store(tmp_path: Path, db: Database) -> AttachmentStore:
    return AttachmentStore(DataPaths(tmp_path / "data").attachments, db.engine)


@pytest.fixture
def service(store: AttachmentStore) -> AttachmentService:
    return AttachmentService(store)


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    return folder


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def _row_count(db: Database) -> int:
    with db.read() as conn:
        return int(conn.exec_driver_sql("SELECT count(*) FROM attachments").scalar_one())


def _refusal(coroutine) -> str:
    with pytest.raises(AttachmentError) as caught:
        asyncio.run(coroutine)
    return str(caught.value)


def test_a_document_is_stored_with_its_text_and_outlives_the_original(service, inbox):
    path = _write(inbox, "report.docx", make_docx())

    attachment = asyncio.run(service.add_file(path))
    path.unlink()

    assert (attachment.name, attachment.kind, attachment.truncated) == (
        "report.docx",
        AttachmentKind.DOCUMENT,
        False,
    )
    assert attachment.mime.endswith("wordprocessingml.document")
    assert service.get_many([attachment.id]) == [attachment]
    text = asyncio.run(service.document_text(attachment))
    assert text.startswith("# Quarterly report\nRevenue grew in every region.")
    assert attachment.text_chars == len(text)


def test_missing_saved_text_is_extracted_again_from_the_stored_copy(service, store, inbox):
    attachment = asyncio.run(service.add_file(_write(inbox, "deck.pptx", make_pptx(2))))
    first = asyncio.run(service.document_text(attachment))
    store.text_path(attachment).unlink()

    again = asyncio.run(service.document_text(attachment))

    assert again == first
    assert again.startswith("## Slide 1\nTitle 1")
    assert store.load_text(attachment) == first


def test_an_image_is_stored_with_its_size_and_read_back(service, inbox):
    data = fixture_bytes("tiny.jpg")
    attachment = asyncio.run(service.add_file(_write(inbox, "photo.jpg", data)))

    assert (attachment.kind, attachment.mime) == (AttachmentKind.IMAGE, "image/jpeg")
    assert (attachment.width, attachment.height, attachment.size) == (40, 30, len(data))
    assert asyncio.run(service.image_bytes(attachment)) == data
    assert _refusal(service.document_text(attachment)) == ("photo.jpg: is an image, not a document")


def test_a_pasted_image_is_checked_and_stored(service):
    data = fixture_bytes("tiny_lossless.webp")
    attachment = asyncio.run(service.add_bytes(data, "Pasted image.webp"))
    assert (attachment.mime, attachment.width, attachment.height) == ("image/webp", 17, 9)
    assert asyncio.run(service.image_bytes(attachment)) == data


def test_pasted_bytes_that_are_not_an_image_are_refused(service, db):
    assert _refusal(service.add_bytes(b"<html>hi</html>", "Pasted image.png")) == (
        "Pasted image.png: not a valid PNG image"
    )
    assert _row_count(db) == 0


def test_a_refused_file_leaves_nothing_stored(service, store, db, inbox):
    path = _write(inbox, "photo.png", make_pdf(["not a photo"]))
    assert _refusal(service.add_file(path)) == (
        "photo.png: the name says PNG image but the content is a PDF document"
    )
    assert _row_count(db) == 0
    assert [p for p in store.root.rglob("*") if p.is_file()] == []


def test_a_long_document_is_stored_truncated_and_says_so(service, inbox):
    path = _write(inbox, "big.log", b"a log line that repeats\n" * 20_000)
    attachment = asyncio.run(service.add_file(path))
    assert (attachment.truncated, attachment.text_chars) == (True, MAX_EXTRACTED_CHARS)
    assert len(asyncio.run(service.document_text(attachment))) == MAX_EXTRACTED_CHARS


def test_add_files_attaches_what_it_can_and_reports_the_rest(service, inbox):
    good = _write(inbox, "notes.md", b"# Notes\nremember the milk\n")
    bad = _write(inbox, "anim.gif", b"GIF89a" + b"\x00" * 30)
    added, refused = asyncio.run(service.add_files([good, bad, inbox / "gone.txt"]))
    assert [a.name for a in added] == ["notes.md"]
    assert [str(e) for e in refused] == [
        "anim.gif: only PNG, JPEG and WebP images are supported (this is a GIF image)",
        "gone.txt: the file no longer exists",
    ]


def test_a_folder_is_refused(service, inbox):
    folder = inbox / "photos"
    folder.mkdir()
    assert _refusal(service.add_file(folder)) == "photos: is a folder, not a file"


def test_the_stored_copy_opens_under_its_original_name(service, inbox):
    data = b"print('hello')\n"
    attachment = asyncio.run(service.add_file(_write(inbox, "hello.py", data)))
    opened = service.open_path(attachment)
    assert (opened.name, opened.read_bytes()) == ("hello.py", data)


def test_the_estimate_reads_a_document_whose_text_is_gone_without_writing_anything(
    service, store, inbox, db
):
    """The composer's estimate runs in a worker thread while a send may write the same
    attachment: it extracts the text again to count it, and leaves the store as it is."""
    attachment = asyncio.run(service.add_file(_write(inbox, "deck.pptx", make_pptx(2))))
    first = asyncio.run(service.document_text(attachment))
    store.text_path(attachment).unlink()
    before = _listing(store.root)
    with db.read() as conn:
        row_before = conn.exec_driver_sql("SELECT * FROM attachments").all()

    question = Message(new_id(), "c", None, Role.USER, [TextPart("Summarise")])
    question = replace(question, context=ContextSnapshot(attachment_ids=(attachment.id,)))
    inputs = AttachmentReader(service).preview([question], vision=False)

    assert inputs[attachment.id].text == first
    assert _listing(store.root) == before and not store.text_path(attachment).exists()
    with db.read() as conn:
        assert conn.exec_driver_sql("SELECT * FROM attachments").all() == row_before
    # A send reads it the same, and keeps it again.
    assert asyncio.run(service.document_text(attachment)) == first
    assert store.load_text(attachment) == first


def _listing(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file()
    }
