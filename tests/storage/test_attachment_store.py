"""The attachment store on real files and a real SQLite database.

Disk failures are injected at the OS boundary (`os.write` raising ENOSPC, a SQLite
trigger refusing the insert): Parley's own code runs unchanged.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest

from desktop.core.attachments import Attachment, AttachmentError, AttachmentKind
from desktop.core.models import (
    ContextSnapshot,
    Message,
    Role,
    TextPart,
    ToolCallPart,
    new_id,
    utc_now,
)
from desktop.core.paths import DataPaths
from desktop.storage.attachments import (
    AttachmentStore,
    GarbageReport,
    blob_extension,
    safe_file_name,
)
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository

DOC = AttachmentKind.DOCUMENT
IMAGE = AttachmentKind.IMAGE
PNG_BYTES = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
LATER = timedelta(days=2)  # past the default one-day grace


@pytest.fixture
def store(tmp_path: Path, db: Database) -> AttachmentStore:
    return AttachmentStore(DataPaths(tmp_path / "data").attachments, db.engine)


def _file(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def _all_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def _row_count(db: Database) -> int:
    with db.read() as conn:
        return int(conn.exec_driver_sql("SELECT count(*) FROM attachments").scalar_one())


# --- putting and getting --------------------------------------------------------------


def test_a_file_round_trips_through_the_store(tmp_path: Path, store: AttachmentStore) -> None:
    data = b"%PDF-1.7 quarterly figures\n" * 1000
    source = _file(tmp_path, "Report.PDF", data)

    stored = store.put_file(source, name="Report.PDF", mime="application/pdf", kind=DOC)

    sha = hashlib.sha256(data).hexdigest()
    assert (stored.sha256, stored.size, stored.name, stored.kind) == (
        sha,
        len(data),
        "Report.PDF",
        DOC,
    )
    assert store.get(stored.id) == stored
    assert store.blob_path(stored) == store.root / sha[:2] / f"{sha}.pdf"
    assert store.read_bytes(stored) == data
    assert store.get("no-such-id") is None


def test_get_many_keeps_the_order_asked_and_skips_unknown_ids(store: AttachmentStore) -> None:
    a = store.put_bytes(b"a", name="a.txt", mime="text/plain", kind=DOC)
    b = store.put_bytes(b"b", name="b.txt", mime="text/plain", kind=DOC)
    assert store.get_many([b.id, "gone", a.id, b.id]) == [b, a, b]
    assert store.get_many([]) == []


def test_a_pasted_image_is_named_by_its_type_and_keeps_its_size(store: AttachmentStore) -> None:
    image = store.put_bytes(
        PNG_BYTES, name="clipboard", mime="image/png", kind=IMAGE, width=640, height=480
    )
    assert store.blob_path(image).suffix == ".png"
    assert store.get(image.id) == image
    assert (image.width, image.height) == (640, 480)


@pytest.mark.parametrize(
    ("kind", "mime", "name", "ext"),
    [
        (IMAGE, "image/jpeg", "photo.jpeg", ".jpg"),
        (IMAGE, "image/webp", "sticker", ".webp"),
        (DOC, "text/markdown", "Notes.MD", ".md"),
        (DOC, "application/octet-stream", "archive.tar.gz", ".gz"),
        (DOC, "text/plain", "no suffix", ""),
        (DOC, "text/plain", "odd.some-thing", ""),
        (DOC, "text/plain", "long.abcdefghijk", ""),
        (DOC, "text/plain", ".bashrc", ""),
        (DOC, "text/plain", "dir\\file.Py", ".py"),
    ],
)
def test_blob_extensions(kind: AttachmentKind, mime: str, name: str, ext: str) -> None:
    assert blob_extension(kind, mime, name) == ext


def test_the_same_content_is_stored_once(tmp_path: Path, store: AttachmentStore) -> None:
    data = b"same bytes"
    first = store.put_file(
        _file(tmp_path, "a.txt", data), name="a.txt", mime="text/plain", kind=DOC
    )
    second = store.put_bytes(data, name="copy.txt", mime="text/plain", kind=DOC)

    assert first.id != second.id
    assert store.blob_path(first) == store.blob_path(second)
    assert [p.name for p in _all_files(store.root)] == [store.blob_path(first).name]
    # A different extension is a different blob: each opens with its own program.
    as_markdown = store.put_bytes(data, name="a.md", mime="text/markdown", kind=DOC)
    assert store.blob_path(as_markdown) != store.blob_path(first)
    assert len(_all_files(store.root)) == 2


def test_the_copy_survives_the_original_being_deleted(
    tmp_path: Path, store: AttachmentStore
) -> None:
    source = _file(tmp_path, "notes.md", b"# keep me")
    stored = store.put_file(source, name="notes.md", mime="text/markdown", kind=DOC)
    source.unlink()
    assert store.read_bytes(stored) == b"# keep me"


def test_stored_blobs_are_read_only(store: AttachmentStore) -> None:
    """An opened copy is a hard link: an editor saving in place must not change it."""
    stored = store.put_bytes(b"content", name="a.txt", mime="text/plain", kind=DOC)
    assert stat.S_IMODE(store.blob_path(stored).stat().st_mode) & 0o222 == 0


# --- failures -------------------------------------------------------------------------


def test_a_full_disk_leaves_no_temp_file_blob_or_row(
    tmp_path: Path, store: AttachmentStore, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = os.urandom(3 * 1024 * 1024)  # several chunks: the failure comes mid-file
    source = _file(tmp_path, "big.bin", data)
    real_write = os.write
    calls = 0

    def write_until_full(fd: int, chunk: bytes) -> int:
        nonlocal calls
        calls += 1
        if calls > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, chunk)

    monkeypatch.setattr(os, "write", write_until_full)
    with pytest.raises(AttachmentError) as caught:
        store.put_file(source, name="big.bin", mime="application/octet-stream", kind=DOC)
    monkeypatch.undo()

    assert calls == 2
    assert caught.value.name == "big.bin"
    assert str(caught.value) == "big.bin: there is not enough free disk space to keep a copy of it"
    assert _all_files(store.root) == []
    assert _row_count(db) == 0
    # The store still works once there is room again.
    stored = store.put_file(source, name="big.bin", mime="application/octet-stream", kind=DOC)
    assert store.read_bytes(stored) == data


def test_a_row_that_cannot_be_written_leaves_no_blob(store: AttachmentStore, db: Database) -> None:
    with db.write() as conn:
        conn.exec_driver_sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON attachments"
            " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    with pytest.raises(AttachmentError, match=r"^a\.txt: could not be recorded.*disk is full"):
        store.put_bytes(b"orphan?", name="a.txt", mime="text/plain", kind=DOC)
    assert _all_files(store.root) == []


def test_a_failed_row_keeps_a_blob_that_another_row_uses(
    store: AttachmentStore, db: Database
) -> None:
    kept = store.put_bytes(b"shared", name="a.txt", mime="text/plain", kind=DOC)
    with db.write() as conn:
        conn.exec_driver_sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON attachments"
            " BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
        )
    with pytest.raises(AttachmentError):
        store.put_bytes(b"shared", name="b.txt", mime="text/plain", kind=DOC)
    assert store.read_bytes(kept) == b"shared"


def test_an_unreadable_source_is_refused_cleanly(
    tmp_path: Path, store: AttachmentStore, db: Database
) -> None:
    source = _file(tmp_path, "secret.txt", b"private")
    source.chmod(0)
    try:
        try:
            source.read_bytes()
        except PermissionError:
            pass
        else:
            pytest.skip("this user can read a mode-000 file (root)")
        with pytest.raises(AttachmentError, match=r"^secret\.txt: Parley is not allowed to read"):
            store.put_file(source, name="secret.txt", mime="text/plain", kind=DOC)
    finally:
        source.chmod(0o600)
    assert _all_files(store.root) == []
    assert _row_count(db) == 0


def test_a_vanished_source_a_folder_or_a_device_is_refused_cleanly(
    tmp_path: Path, store: AttachmentStore, db: Database
) -> None:
    with pytest.raises(AttachmentError, match=r"^gone\.txt: the file could not be found"):
        store.put_file(tmp_path / "gone.txt", name="gone.txt", mime="text/plain", kind=DOC)
    with pytest.raises(AttachmentError, match="folder, not a file"):
        store.put_file(tmp_path, name="tmp", mime="text/plain", kind=DOC)
    with pytest.raises(AttachmentError, match=r"^zero: this is not a regular file"):
        store.put_file(Path("/dev/zero"), name="zero", mime="text/plain", kind=DOC)
    assert _all_files(store.root) == []
    assert _row_count(db) == 0


def test_a_missing_stored_copy_is_reported_by_name(store: AttachmentStore) -> None:
    stored = store.put_bytes(b"x", name="lost.txt", mime="text/plain", kind=DOC)
    os.chmod(store.blob_path(stored), 0o600)
    store.blob_path(stored).unlink()
    with pytest.raises(AttachmentError, match=r"^lost\.txt: Parley's stored copy .* missing"):
        store.read_bytes(stored)
    with pytest.raises(AttachmentError, match="missing"):
        store.open_copy(stored)


# --- extracted text -------------------------------------------------------------------


def test_extracted_text_is_kept_beside_the_blob(store: AttachmentStore) -> None:
    doc = store.put_bytes(b"PK\x03\x04...", name="Plan.docx", mime="application/docx", kind=DOC)
    assert store.load_text(doc) is None

    updated = store.save_text(doc, "Étape 1 — 计划", truncated=True)

    assert (updated.text_chars, updated.truncated) == (len("Étape 1 — 计划"), True)
    assert store.get(doc.id) == updated
    assert store.load_text(updated) == "Étape 1 — 计划"
    blob = store.blob_path(doc)
    assert blob.with_name(blob.name + ".txt").is_file()
    # Saving again (a re-extraction) replaces the text.
    assert store.load_text(store.save_text(updated, "shorter", truncated=False)) == "shorter"
    assert store.get(doc.id).truncated is False  # type: ignore[union-attr]
    assert not list((store.root / "tmp").iterdir())


# --- opening --------------------------------------------------------------------------


def test_open_copy_is_the_stored_file_under_its_original_name(store: AttachmentStore) -> None:
    stored = store.put_bytes(b"slides", name="Q3 Review.pptx", mime="application/pptx", kind=DOC)

    opened = store.open_copy(stored)

    assert opened == store.root / "open" / stored.id / "Q3 Review.pptx"
    assert opened.read_bytes() == b"slides"
    assert store.open_copy(stored) == opened  # reused


def test_open_copy_falls_back_to_a_copy_where_links_are_refused(
    store: AttachmentStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = store.put_bytes(b"slides", name="deck.pptx", mime="application/pptx", kind=DOC)

    def no_links(src: object, dst: object) -> None:
        raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))

    monkeypatch.setattr(os, "link", no_links)
    opened = store.open_copy(stored)

    assert opened.read_bytes() == b"slides"
    assert not opened.samefile(store.blob_path(stored))
    assert list((store.root / "tmp").iterdir()) == []


def test_open_copy_cannot_escape_its_folder(store: AttachmentStore) -> None:
    stored = store.put_bytes(b"x", name="../../etc/passwd", mime="text/plain", kind=DOC)
    opened = store.open_copy(stored)
    assert opened.parent == store.root / "open" / stored.id
    assert opened.read_bytes() == b"x"


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("report.pdf", "report.pdf"),
        ("../../etc/passwd", "_.._etc_passwd"),
        ("..\\..\\boot.ini", "_.._boot.ini"),
        (".hidden", "hidden"),
        ("tab\there\x00\x1b.txt", "tabhere.txt"),
        ('what?<is>:"this"|*.md', "what__is___this___.md"),
        ("CON", "_CON"),
        ("con.txt", "_con.txt"),
        ("Lpt1.tar.gz", "_Lpt1.tar.gz"),
        ("console.txt", "console.txt"),
        ("trailing. ", "trailing"),
        ("", "attachment"),
        ("...", "attachment"),
        ("\x07", "attachment"),
    ],
)
def test_file_names_are_made_safe(name: str, safe: str) -> None:
    assert safe_file_name(name) == safe


def test_long_names_are_capped_but_keep_their_suffix() -> None:
    safe = safe_file_name("é" * 500 + ".docx")
    assert safe.endswith(".docx")
    assert len(safe) <= 120 and len(safe.encode("utf-8")) <= 200


# --- garbage collection ---------------------------------------------------------------


@pytest.fixture
def chats(db: Database) -> ChatRepository:
    return ChatRepository(db)


def _send(chats: ChatRepository, *ids: str, tool_ids: tuple[str, ...] = ()) -> Message:
    conversation = chats.create_conversation("with files")
    question = chats.add_message(
        Message(
            id=new_id(),
            conversation_id=conversation.id,
            parent_id=None,
            role=Role.USER,
            parts=[TextPart("look")],
            context=ContextSnapshot(attachment_ids=ids),
        )
    )
    if tool_ids:
        chats.add_message(
            Message(
                id=new_id(),
                conversation_id=conversation.id,
                parent_id=question.id,
                role=Role.ASSISTANT,
                parts=[
                    TextPart("here"),
                    ToolCallPart("c1", "screenshot", result="ok", attachment_ids=tool_ids),
                ],
            )
        )
    return question


def _doc(store: AttachmentStore, data: bytes, name: str = "f.txt") -> Attachment:
    return store.put_bytes(data, name=name, mime="text/plain", kind=DOC)


def test_gc_keeps_referenced_and_young_rows_and_removes_the_rest(
    store: AttachmentStore, chats: ChatRepository, db: Database
) -> None:
    by_context = _doc(store, b"sent with a message")
    by_tool = store.put_bytes(PNG_BYTES, name="shot", mime="image/png", kind=IMAGE)
    unused = _doc(store, b"attached, then removed from the composer", name="gone.md")
    store.save_text(unused, "extracted", truncated=False)
    store.open_copy(unused)
    shares_blob = _doc(store, b"sent with a message")  # same blob as by_context
    _send(chats, by_context.id, tool_ids=(by_tool.id,))

    young = store.collect_garbage()  # everything is younger than the grace
    assert young == GarbageReport(0, 0, 0)
    assert len(store.get_many([by_context.id, by_tool.id, unused.id, shares_blob.id])) == 4

    report = store.collect_garbage(now=utc_now() + LATER)

    assert store.get_many([by_context.id, by_tool.id, unused.id, shares_blob.id]) == [
        by_context,
        by_tool,
    ]
    assert store.read_bytes(by_context) == b"sent with a message"
    assert store.read_bytes(by_tool) == PNG_BYTES
    assert not store.blob_path(unused).exists()
    assert store.load_text(unused) is None
    assert not (store.root / "open" / unused.id).exists()
    unused_bytes = len(b"attached, then removed from the composer") + len(b"extracted")
    assert report == GarbageReport(rows_removed=2, files_removed=3, bytes_freed=unused_bytes)
    assert _row_count(db) == 2


def test_gc_after_a_conversation_is_deleted_frees_its_files(
    store: AttachmentStore, chats: ChatRepository
) -> None:
    stored = _doc(store, b"only here")
    question = _send(chats, stored.id)
    assert store.collect_garbage(now=utc_now() + LATER).rows_removed == 0

    chats.delete_conversation(question.conversation_id)
    report = store.collect_garbage(now=utc_now() + LATER)

    assert report.rows_removed == 1 and report.bytes_freed == len(b"only here")
    assert store.get(stored.id) is None
    assert _all_files(store.root) == []


def test_gc_is_not_stopped_by_damaged_message_json(
    store: AttachmentStore, chats: ChatRepository, db: Database
) -> None:
    kept, dropped = _doc(store, b"kept"), _doc(store, b"dropped")
    question = _send(chats, kept.id)
    with db.write() as conn:
        conn.exec_driver_sql(
            "INSERT INTO messages (id, conversation_id, role, parts, status, created_at, context)"
            " VALUES ('bad1', ?, 'user', '{not json', 'complete', 1, 'nope'),"
            " ('bad2', ?, 'user', '[\"text\", 3, null]', 'complete', 2,"
            " '{\"attachment_ids\": [null, 7]}')",
            (question.conversation_id, question.conversation_id),
        )
    report = store.collect_garbage(now=utc_now() + LATER)
    assert report.rows_removed == 1
    assert store.get_many([kept.id, dropped.id]) == [kept]


def test_gc_removes_stale_temp_files_and_stray_blobs_only(store: AttachmentStore) -> None:
    stored = _doc(store, b"real")
    temp = store.root / "tmp"
    old, fresh = _file(temp, "part-old", b"12345"), _file(temp, "part-new", b"1")
    past = time.time() - 2 * 3600
    os.utime(old, (past, past))
    stray = store.blob_path(stored).with_name("f" * 64 + ".txt")
    stray.write_bytes(b"no row")
    not_ours = _file(store.root / store.blob_path(stored).parent.name, "README", b"leave me")

    report = store.collect_garbage()

    assert report == GarbageReport(rows_removed=0, files_removed=2, bytes_freed=5 + 6)
    assert sorted(_all_files(store.root)) == sorted([fresh, not_ours, store.blob_path(stored)])


def test_old_open_copies_go_and_come_back_on_demand(
    store: AttachmentStore, chats: ChatRepository
) -> None:
    stored = _doc(store, b"open me", name="open me.txt")
    _send(chats, stored.id)
    opened = store.open_copy(stored)

    report = store.collect_garbage(now=utc_now() + LATER)

    assert not opened.exists()
    assert report == GarbageReport(rows_removed=0, files_removed=1, bytes_freed=0)  # a link
    assert store.read_bytes(stored) == b"open me"
    assert store.open_copy(stored).read_bytes() == b"open me"


def test_gc_in_a_worker_thread_never_takes_a_blob_a_new_row_uses(
    store: AttachmentStore,
) -> None:
    """The collector removes every row as soon as it can, while the same content is
    attached again and again. The collector deletes a row before its blob, so a blob
    found missing while its row still exists afterwards means a blob in use was taken."""
    content = b"the same screenshot, attached again and again"
    everything = utc_now() + timedelta(days=365)
    stop = threading.Event()
    errors: list[BaseException] = []
    runs = 0

    def collect() -> None:
        nonlocal runs
        try:
            while not stop.is_set():
                store.collect_garbage(now=everything, grace=timedelta(0))
                runs += 1
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    taken: list[str] = []
    worker = threading.Thread(target=collect)
    worker.start()
    try:
        for _ in range(120):
            added = _doc(store, content)
            try:
                store.read_bytes(added)
            except AttachmentError:
                if store.get(added.id) is not None:
                    taken.append(added.id)
    finally:
        stop.set()
        worker.join()

    assert errors == []
    assert runs > 10
    assert taken == []


def test_text_of_a_file_without_extension_never_overwrites_a_txt_blob(
    store: AttachmentStore,
) -> None:
    data = b"plain words\r\n"
    bare = store.put_bytes(data, name="README", mime="text/plain", kind=DOC)
    as_txt = store.put_bytes(data, name="readme.txt", mime="text/plain", kind=DOC)

    store.save_text(bare, "plain words\n", truncated=False)

    assert store.read_bytes(as_txt) == data
    assert store.load_text(bare) == "plain words\n"
    assert store.load_text(as_txt) is None
    assert store.collect_garbage().files_removed == 0
