"""Backing up and restoring whole data folders through BackupService, to a folder."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop.core.backup_settings import PASSPHRASE_SECRET
from desktop.core.errors import ParleyError
from desktop.core.remote_target import FolderTarget
from desktop.engine.backup.errors import BackupError, BackupProblem
from desktop.engine.backup.naming import parse_backup_name
from tests.engine.backup.backup_world import PASSPHRASE, Clock, Device, run


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def devices(tmp_path: Path, clock: Clock, memory_keyring: object) -> Iterator[list[Device]]:
    made: list[Device] = []
    for name in ("laptop", "desktop"):
        made.append(Device(tmp_path / name, name, clock))
    yield made
    for device in made:
        device.close()


@pytest.fixture
def shelf(tmp_path: Path) -> FolderTarget:
    folder = tmp_path / "shelf"
    folder.mkdir()
    return FolderTarget(str(folder))


def test_a_backup_lands_at_the_target_and_is_recorded(devices, shelf) -> None:
    laptop, _ = devices
    laptop.use(shelf)
    laptop.chat("Trip", "Where to?", "Kyoto — 京都")
    done = run(laptop.service.back_up(PASSPHRASE))
    files = [p.name for p in Path(shelf.path).iterdir()]
    assert files == [done.name]
    assert parse_backup_name(done.name).device == "laptop"
    assert laptop.service.state.last_name == done.name
    assert laptop.service.state.last_error == ""
    # Encrypted: no message text in the file.
    raw = (Path(shelf.path) / done.name).read_bytes()
    assert b"Kyoto" not in raw and "京都".encode() not in raw
    # Nothing of the work is left in the data folder.
    assert not list(laptop.paths.root.glob("backup-work-*"))


def test_restore_merges_another_devices_backup(devices, shelf) -> None:
    laptop, desktop = devices
    laptop.use(shelf)
    desktop.use(shelf)
    laptop.chat("Trip", "Where to?", "Kyoto")
    desktop.chat("Recipes", "Bread?", "Flour, water, salt, yeast.")
    done = run(laptop.service.back_up(PASSPHRASE))
    listed = run(desktop.service.list_backups())
    assert [(e.name, e.device, e.this_device) for e in listed] == [(done.name, "laptop", False)]
    restored = run(desktop.service.restore(done.name, PASSPHRASE))
    assert restored.merged is not None and restored.merged.messages_added == 2
    assert desktop.texts() == {
        "Trip": sorted(["Where to?", "Kyoto"]),
        "Recipes": sorted(["Bread?", "Flour, water, salt, yeast."]),
    }
    # Again: nothing more.
    again = run(desktop.service.restore(done.name, PASSPHRASE))
    assert again.merged is not None and again.merged.messages_added == 0


def test_an_older_backup_loses_nothing_newer(devices, shelf, clock) -> None:
    laptop, _ = devices
    laptop.use(shelf)
    trip = laptop.chat("Trip", "Where to?", "Kyoto")
    gone = laptop.chat("Old plan", "Paris?", "Maybe.")
    done = run(laptop.service.back_up(PASSPHRASE))
    clock.advance(hours=1)
    laptop.repo.rename_conversation(trip, "Trip to Japan")
    laptop.repo.delete_conversation(gone)
    later = laptop.chat("Later", "And now?", "Osaka.")
    run(laptop.service.restore(done.name, PASSPHRASE))
    assert laptop.texts() == {
        "Trip to Japan": sorted(["Where to?", "Kyoto"]),
        "Later": sorted(["And now?", "Osaka."]),
    }
    assert laptop.repo.get_conversation(later) is not None


def test_a_wrong_passphrase_changes_nothing(devices, shelf) -> None:
    laptop, desktop = devices
    laptop.use(shelf)
    desktop.use(shelf)
    laptop.chat("Trip", "Where to?", "Kyoto")
    done = run(laptop.service.back_up(PASSPHRASE))
    before = desktop.texts()
    with pytest.raises(BackupError) as caught:
        run(desktop.service.restore(done.name, "not the passphrase"))
    assert caught.value.problem is BackupProblem.WRONG_PASSPHRASE
    assert "passphrase" in str(caught.value)
    assert desktop.texts() == before
    assert not list(desktop.paths.root.glob("backup-work-*"))


def test_only_this_devices_oldest_backups_are_pruned(devices, shelf, clock) -> None:
    laptop, desktop = devices
    laptop.use(shelf, keep=2)
    desktop.use(shelf, keep=2)
    theirs = run(desktop.service.back_up(PASSPHRASE)).name
    mine = []
    for _ in range(3):
        clock.advance(minutes=5)
        mine.append(run(laptop.service.back_up(PASSPHRASE)).name)
    assert sorted(p.name for p in Path(shelf.path).iterdir()) == sorted([theirs, *mine[1:]])


def test_replace_keeps_a_copy_of_the_database_first(devices, shelf) -> None:
    laptop, desktop = devices
    laptop.use(shelf)
    desktop.use(shelf)
    laptop.chat("Trip", "Where to?", "Kyoto")
    desktop.chat("Recipes", "Bread?", "Yes.")
    done = run(laptop.service.back_up(PASSPHRASE))
    restored = run(desktop.service.restore(done.name, PASSPHRASE, replace_all=True))
    assert desktop.texts() == {"Trip": sorted(["Where to?", "Kyoto"])}
    assert restored.kept_copy is not None and restored.kept_copy.is_file()
    # The device's own target survives a replace.
    assert desktop.settings.settings.backup.target == shelf
    # Its settings as they were are kept beside them, as the database is.
    copy = desktop.paths.settings.with_name(desktop.paths.settings.name + ".pre-restore.bak")
    assert json.loads(copy.read_text(encoding="utf-8"))["backup"]
    assert not desktop.settings.settings.removed  # the person removed nothing


def test_the_passphrase_can_come_from_the_keyring(devices, shelf) -> None:
    laptop, _ = devices
    laptop.use(shelf)
    with pytest.raises(ParleyError, match="passphrase"):
        run(laptop.service.back_up())
    assert laptop.service.state.last_error
    run(laptop.settings.set_secret(PASSPHRASE_SECRET, PASSPHRASE))
    done = run(laptop.service.back_up())
    assert laptop.service.state.last_name == done.name and not laptop.service.state.last_error


def test_daily_is_due_after_a_day_and_waits_an_hour_after_a_failure(devices, tmp_path, clock):
    laptop, _ = devices
    target = FolderTarget(str(tmp_path / "shelf"))
    (tmp_path / "shelf").mkdir()
    laptop.use(target, daily=False)
    assert not laptop.service.due()
    laptop.use(target, daily=True)
    assert laptop.service.due()
    run(laptop.service.back_up(PASSPHRASE))
    assert not laptop.service.due()
    clock.advance(hours=23)
    assert not laptop.service.due()
    clock.advance(hours=1)
    assert laptop.service.due()
    shutil.rmtree(tmp_path / "shelf")
    (tmp_path / "shelf").write_text("not a folder")
    with pytest.raises(ParleyError):
        run(laptop.service.back_up(PASSPHRASE))
    assert laptop.service.state.last_error
    assert not laptop.service.due()
    clock.advance(hours=1)
    assert laptop.service.due()


def test_settings_json_keeps_no_secret(devices, shelf) -> None:
    laptop, _ = devices
    laptop.use(shelf)
    run(laptop.settings.set_secret(PASSPHRASE_SECRET, PASSPHRASE))
    data = json.loads(laptop.paths.settings.read_text())
    assert PASSPHRASE not in json.dumps(data)
    assert data["backup"]["target"]["kind"] == "folder"


def test_a_cancelled_backup_is_not_recorded_as_a_failure(devices, shelf, clock) -> None:
    laptop, _ = devices
    laptop.use(shelf, daily=True)
    laptop.chat("Trip", "Where to?", "Kyoto")
    done = run(laptop.service.back_up(PASSPHRASE))
    before = laptop.service.state
    clock.advance(days=1)
    with pytest.raises(BackupError) as raised:
        run(laptop.service.back_up(PASSPHRASE, cancelled=lambda: True))
    assert raised.value.problem is BackupProblem.CANCELLED
    assert laptop.service.state == before and before.last_name == done.name
    assert laptop.service.due()  # the daily backup is not held off by a cancel
    assert [b.name for b in run(laptop.service.list_backups())] == [done.name]
