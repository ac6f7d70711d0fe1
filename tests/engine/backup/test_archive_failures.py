"""A backup stopped half-way (cancelled, or the disk full) leaves nothing behind: no
backup file, no temp file, no database copy, nothing half-unpacked."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.engine.backup.archive import write_backup
from desktop.engine.backup.errors import BackupError, BackupProblem
from desktop.engine.backup.snapshot import SNAPSHOT_PREFIX
from desktop.engine.backup.unpack import open_backup, read_manifest
from tests.engine.backup.archive_folder import (
    BIG_FILE_BYTES,
    PASSPHRASE,
    SETTINGS,
    DataFolder,
    make_data_folder,
)
from tests.support.full_disk import SmallDisk


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    made = make_data_folder(tmp_path_factory.mktemp("data"), big_file=True)
    try:
        yield made
    finally:
        made.close()


@pytest.fixture(scope="module")
def backup(folder: DataFolder, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("backup") / "parley.backup"
    _write(folder, out)
    return out


def _write(folder: DataFolder, out: Path, **kwargs):
    return write_backup(
        out,
        db=folder.db,
        attachments_root=folder.attachments_root,
        settings_json=SETTINGS,
        passphrase=PASSPHRASE,
        device="laptop",
        **kwargs,
    )


class CancelAfter:
    """Answers "cancelled" once progress has passed `bytes_done`."""

    def __init__(self, bytes_done: int) -> None:
        self.bytes_done = bytes_done
        self.seen = 0
        self.asked_after = 0

    def progress(self, done: int, _total: int) -> None:
        self.seen = done

    def cancelled(self) -> bool:
        if self.seen > self.bytes_done:
            self.asked_after += 1
            return True
        return False


def _no_leftovers(folder: DataFolder) -> None:
    assert not list(folder.root.glob(f"{SNAPSHOT_PREFIX}*")), "the database copy is removed"


def test_a_cancelled_backup_leaves_no_file(folder, tmp_path):
    stop = CancelAfter(BIG_FILE_BYTES // 2)
    out = tmp_path / "parley.backup"
    with pytest.raises(BackupError) as caught:
        _write(folder, out, progress=stop.progress, cancelled=stop.cancelled)
    assert caught.value.problem is BackupProblem.CANCELLED
    assert stop.asked_after == 1, "it stops at the first answer"
    assert list(tmp_path.iterdir()) == []
    _no_leftovers(folder)


def test_a_cancelled_backup_keeps_the_older_one_it_would_have_replaced(folder, tmp_path):
    out = tmp_path / "parley.backup"
    _write(folder, out)
    before = out.read_bytes()
    stop = CancelAfter(BIG_FILE_BYTES // 2)
    with pytest.raises(BackupError):
        _write(folder, out, progress=stop.progress, cancelled=stop.cancelled)
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["parley.backup"]
    assert read_manifest(out, PASSPHRASE).counts.attachments == 6


def test_a_cancel_before_anything_was_read_is_honoured(folder, tmp_path):
    with pytest.raises(BackupError) as caught:
        _write(folder, tmp_path / "parley.backup", cancelled=lambda: True)
    assert caught.value.problem is BackupProblem.CANCELLED
    assert list(tmp_path.iterdir()) == []


def test_a_cancelled_opening_leaves_nothing_unpacked(backup, tmp_path):
    stop = CancelAfter(BIG_FILE_BYTES // 2)
    with pytest.raises(BackupError) as caught:
        open_backup(
            backup,
            PASSPHRASE,
            tmp_path / "opened",
            progress=stop.progress,
            cancelled=stop.cancelled,
        )
    assert caught.value.problem is BackupProblem.CANCELLED
    assert "nothing was restored" in str(caught.value)
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_is_said_plainly_and_leaves_no_file(folder, tmp_path):
    with SmallDisk.mounted(tmp_path / "disk") as disk:
        disk.fill()
        with pytest.raises(BackupError) as caught:
            _write(folder, disk.root / "parley.backup")
        assert caught.value.problem is BackupProblem.NO_SPACE
        assert str(disk.root) in str(caught.value)
        assert "not enough free space" in str(caught.value)
        assert [p.name for p in disk.root.iterdir()] == ["filler.bin"]
    _no_leftovers(folder)


def test_a_disk_that_fills_half_way_leaves_no_partial_file(folder, tmp_path):
    """2 MiB of room for a backup of more than 3 MiB: it fails inside the payload."""
    with SmallDisk.mounted(tmp_path / "disk") as disk:
        with pytest.raises(BackupError) as caught:
            _write(folder, disk.root / "parley.backup")
        assert caught.value.problem is BackupProblem.NO_SPACE
        assert list(disk.root.iterdir()) == []
        assert disk.free == disk.size
    _no_leftovers(folder)


def test_opening_onto_a_full_disk_removes_what_was_unpacked(backup, tmp_path):
    with SmallDisk.mounted(tmp_path / "disk") as disk:
        with pytest.raises(BackupError) as caught:
            open_backup(backup, PASSPHRASE, disk.root / "opened")
        assert caught.value.problem is BackupProblem.NO_SPACE
        assert list(disk.root.iterdir()) == []


def test_a_folder_that_cannot_be_written_is_said_plainly(folder, tmp_path):
    with pytest.raises(BackupError) as caught:
        _write(folder, tmp_path / "missing" / "parley.backup")
    assert caught.value.problem is BackupProblem.UNWRITABLE
    assert str(tmp_path / "missing") in str(caught.value)
    _no_leftovers(folder)
