"""A file attached on one device is fetched by another the first time it is needed:
its thumbnail, its opening, or a send that includes it (AttachmentService)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from desktop.core.attachments import Attachment, AttachmentError, AttachmentKind
from desktop.core.remote_target import FolderTarget
from desktop.engine.attachments.service import AttachmentService
from tests.engine.sync.sync_world import SyncDevice, SyncWorld, folder_target

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def _shared_file(
    world: SyncWorld,
    tmp_path: Path,
    data: bytes,
    name: str = "photo.png",
    mime: str = "image/png",
    kind: AttachmentKind = AttachmentKind.IMAGE,
) -> tuple[SyncDevice, Attachment, FolderTarget]:
    """Device b, and a file a attached, after both synced."""
    a, b = world.add("a"), world.add("b")
    target, secret = folder_target(tmp_path / "remote")
    world.vault(target, secret)
    cid = a.chat("files", "hello")
    _mid, attachment = a.attach(cid, a.last(cid), data, name=name, mime=mime, kind=kind)
    world.settle()
    return b, attachment, target


def test_an_image_from_another_device_is_fetched_when_first_shown(
    world: SyncWorld, tmp_path: Path
) -> None:
    b, attachment, _target = _shared_file(world, tmp_path, PNG)
    received = b.store.get(attachment.id)
    assert received is not None
    assert not b.store.blob_path(received).exists()  # the row came, the bytes wait
    files = AttachmentService(b.store)
    files.set_fetcher(b.sync.fetch_attachment)

    assert world.run(files.image_bytes(received)) == PNG
    assert hashlib.sha256(b.store.blob_path(received).read_bytes()).hexdigest() == received.sha256
    opened = world.run(files.open_local(received))
    assert opened.read_bytes() == PNG


def test_a_document_from_another_device_is_read_for_a_send(
    world: SyncWorld, tmp_path: Path
) -> None:
    text = "Quarterly figures: 42 apples.\n"
    b, attachment, _target = _shared_file(
        world,
        tmp_path,
        text.encode(),
        name="notes.txt",
        mime="text/plain",
        kind=AttachmentKind.DOCUMENT,
    )
    received = b.store.get(attachment.id)
    assert received is not None
    files = AttachmentService(b.store)
    files.set_fetcher(b.sync.fetch_attachment)
    assert "42 apples" in world.run(files.document_text(received))


def test_a_file_the_storage_lost_reads_as_missing_not_as_a_crash(
    world: SyncWorld, tmp_path: Path
) -> None:
    b, attachment, target = _shared_file(world, tmp_path, PNG)
    blobs = Path(target.path) / "parley-sync" / "v1" / "blobs"
    for sealed in blobs.iterdir():
        os.remove(sealed)
    received = b.store.get(attachment.id)
    assert received is not None
    files = AttachmentService(b.store)
    files.set_fetcher(b.sync.fetch_attachment)
    with pytest.raises(AttachmentError) as caught:
        world.run(files.image_bytes(received))
    assert received.name in str(caught.value)
    assert not b.store.blob_path(received).exists()
