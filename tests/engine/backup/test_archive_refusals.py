"""What a backup opener refuses: the wrong passphrase, a changed or cut file, a file
that is no backup, a newer one, and tars no Parley writes. Each refusal names its
problem, says so in words, and leaves nothing behind."""

from __future__ import annotations

import struct
import tarfile
import zipfile
from contextlib import nullcontext
from pathlib import Path

import pytest

from desktop.engine.backup.archive import write_backup
from desktop.engine.backup.crypto import MAGIC
from desktop.engine.backup.errors import BackupError, BackupProblem
from desktop.engine.backup.unpack import open_backup, read_manifest
from desktop.storage.migrations import SCHEMA_VERSION
from tests.engine.backup.archive_folder import (
    PASSPHRASE,
    SETTINGS,
    Crafter,
    make_data_folder,
    manifest_json,
    special,
    tar_of,
)
from tests.support.scrypt_once import paying_scrypt

SHA = "ab" + "0" * 62


@pytest.fixture(scope="module")
def backups(tmp_path_factory) -> tuple[Path, Path]:
    """Two backups of one data folder, locked with the same passphrase. The second is
    written paying scrypt, so that it has a key of its own (`scrypt_once` gives every
    other backup of the process the same key)."""
    root = tmp_path_factory.mktemp("backups")
    folder = make_data_folder(root / "data")
    try:
        made = []
        for name, own_key in (("first.backup", False), ("second.backup", True)):
            with paying_scrypt() if own_key else nullcontext():
                write_backup(
                    root / name,
                    db=folder.db,
                    attachments_root=folder.attachments_root,
                    settings_json=SETTINGS,
                    passphrase=PASSPHRASE,
                    device="laptop",
                )
            made.append(root / name)
    finally:
        folder.close()
    return made[0], made[1]


@pytest.fixture(scope="module")
def crafter() -> Crafter:
    return Crafter()


def _refused(path: Path, into: Path, passphrase: str = PASSPHRASE) -> BackupError:
    before = sorted(into.parent.iterdir())
    with pytest.raises(BackupError) as caught:
        open_backup(path, passphrase, into)
    assert not into.exists(), "what was unpacked is removed, and the folder made for it"
    assert sorted(into.parent.iterdir()) == before
    assert str(caught.value).endswith(".")
    return caught.value


def _changed(source: Path, target: Path, change) -> Path:
    data = bytearray(source.read_bytes())
    target.write_bytes(bytes(change(data)))
    return target


def _payload_start(data: bytes) -> int:
    (length,) = struct.unpack(">I", data[len(MAGIC) : len(MAGIC) + 4])
    return len(MAGIC) + 4 + length


def test_the_wrong_passphrase_is_told_apart(backups, tmp_path):
    error = _refused(backups[0], tmp_path / "opened", "violet staircase umbrella 43")
    assert error.problem is BackupProblem.WRONG_PASSPHRASE
    assert "passphrase" in str(error)
    with pytest.raises(BackupError) as caught:
        read_manifest(backups[0], "not it at all")
    assert caught.value.problem is BackupProblem.WRONG_PASSPHRASE


@pytest.mark.parametrize("where", [0.0, 0.5, 1.0])
def test_a_flipped_byte_in_the_payload_is_caught(backups, tmp_path, where):
    def flip(data: bytearray) -> bytearray:
        start = _payload_start(bytes(data))
        at = min(len(data) - 1, start + int((len(data) - start) * where))
        data[at] ^= 0x01
        return data

    path = _changed(backups[0], tmp_path / "flipped.backup", flip)
    error = _refused(path, tmp_path / "opened")
    assert error.problem is BackupProblem.TAMPERED
    assert "changed or damaged" in str(error)


@pytest.mark.parametrize("keep", ["half", "all but one byte", "inside the key"])
def test_a_cut_file_is_caught(backups, tmp_path, keep):
    def cut(data: bytearray) -> bytearray:
        start = _payload_start(bytes(data))
        end = {"half": (start + len(data)) // 2, "all but one byte": len(data) - 1}.get(
            keep, start - 10
        )
        return data[:end]

    path = _changed(backups[0], tmp_path / "cut.backup", cut)
    assert _refused(path, tmp_path / "opened").problem is BackupProblem.TAMPERED


def test_bytes_added_at_the_end_are_caught(backups, tmp_path):
    path = _changed(backups[0], tmp_path / "longer.backup", lambda data: data + b"\0" * 100)
    assert _refused(path, tmp_path / "opened").problem is BackupProblem.TAMPERED


def test_the_key_of_another_backup_does_not_open_this_one(backups, tmp_path):
    """Same passphrase, so the key block opens; but the payload was encrypted to the
    other backup's own key."""
    first, second = (p.read_bytes() for p in backups)
    swapped = tmp_path / "swapped.backup"
    swapped.write_bytes(second[: _payload_start(second)] + first[_payload_start(first) :])
    error = _refused(swapped, tmp_path / "opened")
    assert error.problem is BackupProblem.TAMPERED
    with pytest.raises(BackupError) as caught:
        read_manifest(swapped, PASSPHRASE)
    assert caught.value.problem is BackupProblem.TAMPERED


def test_a_changed_payload_header_is_caught(backups, tmp_path):
    def change(data: bytearray) -> bytearray:
        at = _payload_start(bytes(data)) + 40  # inside age's recipient stanza
        data[at] = ord("A") if data[at] != ord("A") else ord("B")
        return data

    path = _changed(backups[0], tmp_path / "header.backup", change)
    assert _refused(path, tmp_path / "opened").problem is BackupProblem.TAMPERED


def _zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("conversations.json", "[]")
    return path


@pytest.mark.parametrize(
    "make",
    [
        lambda p: p.write_bytes(bytes(range(256)) * 64) and p,
        lambda p: p.write_bytes(b"") and p,
        lambda p: p.write_bytes(b"parley-backup one\n" + b"\0" * 100) and p,
        lambda p: p.write_bytes(b"age-encryption.org/v1\n-> X25519 abc\n") and p,
        _zip,
    ],
    ids=["random", "empty", "odd magic", "bare age", "zip"],
)
def test_a_file_that_is_no_backup_is_said_to_be_none(tmp_path, make):
    path = tmp_path / "something.backup"
    make(path)
    error = _refused(path, tmp_path / "opened")
    assert error.problem is BackupProblem.NOT_A_BACKUP
    assert "something.backup is not a Parley backup" in str(error)


def test_a_missing_file_cannot_be_read(tmp_path):
    error = _refused(tmp_path / "nowhere.backup", tmp_path / "opened")
    assert error.problem is BackupProblem.UNREADABLE


def test_a_newer_file_format_is_too_new(tmp_path):
    path = tmp_path / "future.backup"
    path.write_bytes(b"parley-backup 2\n" + b"\0" * 100)
    error = _refused(path, tmp_path / "opened")
    assert error.problem is BackupProblem.TOO_NEW
    assert "Update Parley" in str(error)


@pytest.mark.parametrize(
    "manifest",
    [manifest_json(format=2), manifest_json(schema_version=SCHEMA_VERSION + 1)],
    ids=["format 2", "newer schema"],
)
def test_a_newer_manifest_is_too_new(crafter, tmp_path, manifest):
    path = crafter.write(
        tmp_path / "future.backup",
        tar_of(("manifest.json", manifest), ("parley.db", b"x"), ("settings.json", b"{}")),
    )
    error = _refused(path, tmp_path / "opened")
    assert error.problem is BackupProblem.TOO_NEW
    with pytest.raises(BackupError) as caught:
        read_manifest(path, PASSPHRASE)
    assert caught.value.problem is BackupProblem.TOO_NEW


HOSTILE = {
    "parent": [("../evil.txt", b"outside")],
    "deep parent": [(f"attachments/ab/../../../{SHA}", b"outside")],
    "absolute": [("/tmp/evil.txt", b"outside")],
    "symlink": [special("attachments/ab/" + SHA, tarfile.SYMTYPE, "/etc/passwd")],
    "hard link": [special("parley.db", tarfile.LNKTYPE, "/etc/passwd")],
    "device": [special("parley.db", tarfile.CHRTYPE)],
    "fifo": [special("parley.db", tarfile.FIFOTYPE)],
    "folder": [special("attachments/ab", tarfile.DIRTYPE)],
    "unknown name": [("notes.txt", b"hello")],
    "wrong shard": [(f"attachments/cd/{SHA}.png", b"png")],
    "not a stored name": [("attachments/ab/ab.png", b"png")],
    "twice": [("parley.db", b"one"), ("parley.db", b"two")],
    "larger than stated": [("parley.db", b"x" * (4096 + 1024 * 1024 + 1))],
    "no settings": [("parley.db", b"x")],
}


@pytest.mark.parametrize("members", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_tar_parley_does_not_write_is_refused_and_nothing_escapes(crafter, tmp_path, members):
    """Even when its encryption is sound (made with the passphrase), a tar holding
    anything but Parley's own layout is refused before that member is written."""
    work = tmp_path / "work"
    work.mkdir()
    path = crafter.write(
        tmp_path / "hostile.backup",
        tar_of(("manifest.json", manifest_json()), *members),
    )
    outside = sorted(tmp_path.rglob("*"))
    error = _refused(path, work / "opened")
    assert error.problem is BackupProblem.UNREADABLE
    assert "not laid out as Parley writes them" in str(error)
    assert sorted(tmp_path.rglob("*")) == outside
    assert not Path("/tmp/evil.txt").exists()


def test_a_tar_without_its_manifest_first_is_refused(crafter, tmp_path):
    path = crafter.write(
        tmp_path / "late.backup",
        tar_of(("parley.db", b"x"), ("manifest.json", manifest_json())),
    )
    assert _refused(path, tmp_path / "opened").problem is BackupProblem.UNREADABLE


def test_a_payload_that_is_not_a_tar_is_refused(crafter, tmp_path):
    path = crafter.write(tmp_path / "plain.backup", b"just some text, no tar at all\n" * 50)
    assert _refused(path, tmp_path / "opened").problem is BackupProblem.UNREADABLE
