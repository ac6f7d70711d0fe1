"""The folder store on a real file system: atomic writes, a full disk, a folder that
cannot be used."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from desktop.engine.remote.errors import RemoteError, RemoteProblem
from desktop.engine.remote.folder import TEMP_PREFIX, FolderStore
from tests.support.full_disk import SmallDisk
from tests.support.remote_servers import run


def test_files_land_under_the_root_with_their_sub_folders(tmp_path: Path) -> None:
    store = FolderStore(tmp_path / "backups")
    run(store.check())
    run(store.put_bytes("devices/laptop/seg-1.age", b"one"))
    assert (tmp_path / "backups" / "devices" / "laptop" / "seg-1.age").read_bytes() == b"one"
    assert store.description == str(tmp_path / "backups")


def test_half_written_files_are_not_listed(tmp_path: Path) -> None:
    store = FolderStore(tmp_path)
    (tmp_path / f"{TEMP_PREFIX}abc").write_bytes(b"partial")
    (tmp_path / "done.age").write_bytes(b"done")
    assert [o.name for o in run(store.list())] == ["done.age"]


def test_a_full_disk_is_out_of_space_and_keeps_the_old_file(
    small_disk: SmallDisk, tmp_path: Path
) -> None:
    store = FolderStore(small_disk.root / "backups")
    run(store.check())
    run(store.put_bytes("head.age", b"the old head"))
    archive = tmp_path / "archive.age"
    archive.write_bytes(os.urandom(small_disk.size + 65536))  # more than the whole disk
    for attempt in (
        lambda: store.put_file("archive.age", archive),
        lambda: store.put_file("head.age", archive),
    ):
        with pytest.raises(RemoteError) as caught:
            run(attempt())
        assert caught.value.problem is RemoteProblem.NO_SPACE
        assert str(caught.value).startswith(f"The storage at {store.description} is out of space.")
    assert run(store.get_bytes("head.age")) == b"the old head"
    assert sorted(p.name for p in store.root.iterdir()) == ["head.age"]  # nothing partial


def test_a_full_disk_fails_a_create_only_write_cleanly(small_disk: SmallDisk) -> None:
    store = FolderStore(small_disk.root / "backups")
    run(store.check())
    small_disk.fill()
    with pytest.raises(RemoteError) as caught:
        run(store.put_bytes("vault.age", b"v" * 100_000, create_only=True))
    assert caught.value.problem is RemoteProblem.NO_SPACE
    small_disk.release()
    assert run(store.list()) == []
    run(store.put_bytes("vault.age", b"v", create_only=True))


def test_a_download_onto_a_full_disk_leaves_nothing_behind(
    small_disk: SmallDisk, tmp_path: Path
) -> None:
    store = FolderStore(tmp_path / "backups")
    big = tmp_path / "big"
    big.write_bytes(os.urandom(small_disk.size + 65536))
    run(store.put_file("big.age", big))
    with pytest.raises(RemoteError) as caught:
        run(store.get_file("big.age", small_disk.root / "big.age"))
    assert caught.value.problem is RemoteProblem.NO_SPACE
    assert str(small_disk.root) in str(caught.value)
    assert list(small_disk.root.iterdir()) == []


def test_a_folder_that_is_a_file_is_a_local_problem(tmp_path: Path) -> None:
    (tmp_path / "not-a-folder").write_text("x")
    store = FolderStore(tmp_path / "not-a-folder" / "backups")
    for attempt in (store.check, lambda: store.put_bytes("a", b"x"), store.list):
        with pytest.raises(RemoteError) as caught:
            run(attempt())
        assert caught.value.problem is RemoteProblem.LOCAL
        message = str(caught.value)
        assert message.startswith(f"Parley could not use the folder {store.description}.")


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0, reason="needs POSIX permissions")
def test_a_folder_without_permission_says_so(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        store = FolderStore(locked / "backups")
        with pytest.raises(RemoteError) as caught:
            run(store.check())
        assert caught.value.problem is RemoteProblem.FORBIDDEN
        assert "not allowed to write" in str(caught.value)
    finally:
        locked.chmod(0o700)
