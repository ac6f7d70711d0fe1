"""A device whose chats were replaced by an older backup's receives every device's
changes again at its next sync, instead of going on without what the backup lacked."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.core.remote_target import FolderTarget
from tests.engine.backup.backup_world import PASSPHRASE
from tests.engine.sync.sync_world import SyncWorld, folder_target

# The backup's key is derived once per process (tests/support/scrypt_once.py).
pytestmark = pytest.mark.usefixtures("scrypt_once")


def test_after_a_replace_from_an_old_backup_sync_brings_back_the_rest(
    world: SyncWorld, tmp_path: Path
) -> None:
    a, b = world.add("a"), world.add("b")
    target, secret = folder_target(tmp_path / "remote")
    world.vault(target, secret)
    a.chat("before the backup", "q1", "a1")
    world.settle()
    shelf = tmp_path / "backups"
    shelf.mkdir()
    b.use(FolderTarget(str(shelf)))
    old = world.run(b.service.back_up(PASSPHRASE))

    a.chat("after the backup", "q2", "a2")
    world.settle()
    assert b.titles() == ["after the backup", "before the backup"]

    world.run(b.service.restore(old.name, PASSPHRASE, replace_all=True))
    assert b.titles() == ["before the backup"]  # what the backup held, nothing more
    world.settle()
    assert b.titles() == ["after the backup", "before the backup"]
    world.assert_converged()
