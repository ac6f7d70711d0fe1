"""The backup view-model on a real Parley and a real folder target: the daily schedule
runs a backup that is due, a daily backup that fails says so in words, and the form's
target survives a round trip through its fields."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from desktop.core.backup_settings import PASSPHRASE_SECRET, BackupSettings
from desktop.core.remote_target import FolderTarget, S3Target, WebDavTarget
from desktop.engine.backup.naming import parse_backup_name
from desktop.ui.viewmodels.backup_form import TargetKind, build_target, fields_of, kind_of

PASSPHRASE = "violet kettle seven maps"

# Each passphrase's key is derived once per process (tests/support/scrypt_once.py).
pytestmark = pytest.mark.usefixtures("scrypt_once")


def _backups(folder: Path) -> list[str]:
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if parse_backup_name(p.name) is not None)


def _daily_to(parley, folder: Path) -> None:
    settings = parley.settings.settings
    parley.settings.save(
        dataclasses.replace(
            settings, backup=BackupSettings(FolderTarget(str(folder)), keep=3, daily=True)
        )
    )


def test_a_due_daily_backup_runs_on_the_schedule(driver, tmp_path):
    parley = driver.start(tmp_path / "data")
    parley.repository.create_conversation("Before the backup")
    folder = tmp_path / "backups"
    _daily_to(parley, folder)
    model = parley.backup_vm
    finished: list[tuple[bool, str]] = []
    model.finished.connect(lambda ok, text: finished.append((ok, text)))

    async def body() -> None:
        await parley.settings.set_secret(PASSPHRASE_SECRET, PASSPHRASE)
        assert parley.backup.due()
        model.start_schedule(first_ms=10, every_ms=50)
        await driver.until(lambda: bool(finished))
        assert finished[0][0], finished
        assert finished[0][1].startswith("Backed up: parley-backup-")
        assert len(_backups(folder)) == 1
        assert model.last_scheduled
        assert not parley.backup.due()  # done for today: the next checks start nothing
        text, error = model.status()
        assert not error and _backups(folder)[0] in text

    driver.run(body())
    assert len(_backups(folder)) == 1


def test_a_failing_daily_backup_says_so(driver, tmp_path):
    parley = driver.start(tmp_path / "data")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    _daily_to(parley, blocker / "backups")  # a folder that can never be made
    model = parley.backup_vm
    failures: list[str] = []
    model.scheduleFailed.connect(failures.append)

    async def body() -> None:
        await parley.settings.set_secret(PASSPHRASE_SECRET, PASSPHRASE)
        model.start_schedule(first_ms=10, every_ms=50)
        await driver.until(lambda: bool(failures))
        assert failures[0].startswith("The daily backup failed: ")
        assert str(blocker) in failures[0]  # names where it could not write
        text, error = model.status()
        assert error and text.startswith("The last backup failed")
        # shown in the window too, not only as a notification
        await driver.until(lambda: _error_boxes(parley.window) != [])
        assert any("The daily backup failed" in t for t in _error_boxes(parley.window))
        assert not parley.backup.due()  # it waits before trying again
        assert len(failures) == 1

    driver.run(body())


def test_a_daily_backup_without_a_kept_passphrase_fails_in_words(driver, tmp_path):
    parley = driver.start(tmp_path / "data")
    _daily_to(parley, tmp_path / "backups")
    failures: list[str] = []
    parley.backup_vm.scheduleFailed.connect(failures.append)

    async def body() -> None:
        parley.backup_vm.start_schedule(first_ms=10, every_ms=50)
        await driver.until(lambda: bool(failures))
        assert "passphrase" in failures[0]

    driver.run(body())
    assert _backups(tmp_path / "backups") == []


def _error_boxes(window) -> list[str]:
    from PySide6.QtWidgets import QMessageBox

    return [box.text() for box in window.findChildren(QMessageBox) if box.isVisible()]


@pytest.mark.parametrize(
    "target",
    [
        FolderTarget("/media/disk/Parley"),
        WebDavTarget("https://dav.example.org/remote.php/dav/files/alice/Parley", "alice"),
        S3Target(
            "https://s3.example.com",
            "parley-backups",
            region="eu-central-1",
            prefix="laptop/parley",
            access_key_id="AKIAEXAMPLE",
            path_style=False,
        ),
    ],
)
def test_a_target_survives_the_form(target):
    assert build_target(kind_of(target), fields_of(target)) == target


def test_the_form_names_the_field_that_cannot_work():
    values = fields_of(None) | {"endpoint": "https://s3.example.com", "bucket": "No_Such"}
    with pytest.raises(Exception) as refused:
        build_target(TargetKind.S3, values)
    assert getattr(refused.value, "field", "") == "bucket"
    with pytest.raises(Exception) as refused:
        build_target(TargetKind.WEBDAV, fields_of(None) | {"url": "ftp://example.org"})
    assert getattr(refused.value, "field", "") == "url"
