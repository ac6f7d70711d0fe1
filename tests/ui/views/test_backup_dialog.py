"""File → Back Up… and File → Restore from Backup… on real Parleys, a real backup
service and a folder target: the form saves settings as it changes (secrets only in
the keyring), Back Up Now writes a backup, the Restore tab lists it and merges it into
a second data folder, and Replace asks first."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QMessageBox

from desktop.core.backup_settings import PASSPHRASE_SECRET, BackupSettings
from desktop.core.models import Message, Role, TextPart, new_id
from desktop.core.remote_target import FolderTarget, S3Target, WebDavTarget, secret_name
from desktop.engine.backup.naming import backup_name, parse_backup_name
from desktop.ui.viewmodels.backup_form import TargetKind
from desktop.ui.views.backup_dialog import BackupDialog

PASSPHRASE = "violet kettle seven maps"

# Each passphrase's key is derived once per process (tests/support/scrypt_once.py).
pytestmark = pytest.mark.usefixtures("scrypt_once")


def _backups(folder: Path) -> list[str]:
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if parse_backup_name(p.name) is not None)


def _type(edit, text: str) -> None:
    edit.setFocus()
    edit.setText(text)
    edit.editingFinished.emit()


def _choose(dialog: BackupDialog, kind: TargetKind) -> None:
    form = dialog.backup_panel.target
    form.kind.setCurrentIndex(form.kind.findData(kind.value))


def _open(parley, *, restore: bool = False) -> BackupDialog:
    dialog = parley.window.restore_backup() if restore else parley.window.back_up()
    assert isinstance(dialog, BackupDialog)
    assert dialog.isVisible() and not dialog.isModal()
    return dialog


def test_the_menu_opens_one_window_on_either_tab(driver, tmp_path):
    parley = driver.start(tmp_path / "data")
    file_actions = [a.text() for a in parley.window.menuBar().actions()[0].menu().actions()]
    at = file_actions.index("Import from &Another App…")
    assert file_actions[at + 1 : at + 3] == ["&Back Up…", "&Restore from Backup…"]
    dialog = _open(parley)
    assert dialog.tabs.currentIndex() == 0
    assert _open(parley, restore=True) is dialog  # one window
    assert dialog.tabs.currentIndex() == 1
    assert dialog.restore_panel.where.text() == "Choose where backups go in the Back Up tab first."
    assert not dialog.restore_panel.restore_button.isEnabled()
    # every label with a letter to press moves to its field
    panel = dialog.backup_panel
    buddies = {label.buddy(): label.text() for label in panel.findChildren(QLabel) if label.buddy()}
    for field in (panel.passphrase, panel.repeat, panel.keep, panel.target.kind):
        assert not QKeySequence.mnemonic(buddies[field]).isEmpty()


def test_the_form_saves_as_it_changes_and_secrets_stay_out_of_the_file(
    driver, tmp_path, memory_keyring
):
    parley = driver.start(tmp_path / "data")
    dialog = _open(parley)
    panel = dialog.backup_panel
    form = panel.target
    settings_file = tmp_path / "data" / "settings.json"

    async def body() -> None:
        # a folder
        _type(form.edits["path"], str(tmp_path / "backups"))
        assert parley.settings.settings.backup.target == FolderTarget(str(tmp_path / "backups"))
        # WebDAV: a bad address says why and is not saved
        _choose(dialog, TargetKind.WEBDAV)
        assert form.webdav_password.isVisibleTo(dialog)
        _type(form.edits["url"], "ftp://dav.example.org/Parley")
        assert form.problems["url"].error.startswith("must be an http:// or https:// URL")
        assert isinstance(parley.settings.settings.backup.target, FolderTarget)
        # the password typed before the user name waits for it
        _type(form.webdav_password.edit, "hunter2-secret")
        _type(form.edits["url"], "https://dav.example.org/remote.php/dav/files/alice/Parley")
        assert form.problems["url"].error == ""
        _type(form.edits["username"], "alice")
        target = WebDavTarget("https://dav.example.org/remote.php/dav/files/alice/Parley", "alice")
        assert parley.settings.settings.backup.target == target
        name = secret_name(target, "password")
        await driver.until(lambda: ("Parley", name) in memory_keyring.passwords)
        assert memory_keyring.passwords[("Parley", name)] == "hunter2-secret"
        await driver.until(lambda: form.webdav_password.shows_saved)
        assert form.webdav_password.edit.text() == ""  # not kept in the widget
        # S3, with path-style addresses off
        _choose(dialog, TargetKind.S3)
        assert not form.s3_secret.shows_saved  # the WebDAV password is not S3's key
        for field, value in (
            ("endpoint", "https://s3.example.com"),
            ("bucket", "parley-backups"),
            ("prefix", "/laptop/"),
            ("access_key_id", "AKIAEXAMPLE"),
        ):
            _type(form.edits[field], value)
        form.path_style.setChecked(False)
        _type(form.s3_secret.edit, "s3-secret-key-value")
        s3 = S3Target(
            "https://s3.example.com",
            "parley-backups",
            prefix="laptop",
            access_key_id="AKIAEXAMPLE",
            path_style=False,
        )
        assert parley.settings.settings.backup.target == s3
        await driver.until(
            lambda: ("Parley", secret_name(s3, "password")) in memory_keyring.passwords
        )
        # how many to keep
        panel.keep.setValue(12)
        panel.keep.editingFinished.emit()
        assert parley.settings.settings.backup.keep == 12
        # daily needs a kept passphrase: off, with the reason, until there is one
        assert not panel.daily.isEnabled()
        assert "keyring" in panel.daily_note.text()
        _type(panel.passphrase, PASSPHRASE)
        _type(panel.repeat, PASSPHRASE)
        panel.remember.setChecked(True)
        await driver.until(lambda: ("Parley", PASSPHRASE_SECRET) in memory_keyring.passwords)
        await driver.until(lambda: panel.daily.isEnabled())
        panel.daily.setChecked(True)
        assert parley.settings.settings.backup == BackupSettings(s3, keep=12, daily=True)
        text = settings_file.read_text(encoding="utf-8")
        for secret in ("hunter2-secret", "s3-secret-key-value", PASSPHRASE):
            assert secret not in text
        saved = json.loads(text)["backup"]
        assert saved["target"]["kind"] == "s3" and saved["keep"] == 12 and saved["daily"]
        # closing the window leaves nothing secret in it
        dialog.close()
        assert panel.passphrase.text() == panel.repeat.text() == ""
        assert form.s3_secret.edit.text() == ""

    driver.run(body())


def test_without_a_keyring_the_password_is_kept_for_this_run_only(driver, tmp_path):
    import keyring
    from keyring.backends import fail

    parley = driver.start(tmp_path / "data")
    keyring.set_keyring(fail.Keyring())
    dialog = _open(parley)
    form = dialog.backup_panel.target

    async def body() -> None:
        _choose(dialog, TargetKind.WEBDAV)
        assert form.keyring_note.isVisibleTo(dialog)
        assert "only until Parley quits" in form.keyring_note.text()
        _type(form.edits["url"], "https://dav.example.org/Parley")
        _type(form.edits["username"], "alice")
        _type(form.webdav_password.edit, "session-only")
        target = parley.settings.settings.backup.target
        name = secret_name(target, "password")
        await driver.until(lambda: parley.backup.session_secrets.get(name) == "session-only")
        assert "only until it quits" in form.webdav_password.problem.text()
        assert not dialog.backup_panel.remember.isEnabled()
        assert "keyring is not available" in dialog.backup_panel.daily_note.text()

    driver.run(body())


def test_a_passphrase_that_will_not_do_keeps_back_up_now_off(driver, tmp_path):
    parley = driver.start(tmp_path / "data")
    dialog = _open(parley)
    panel = dialog.backup_panel
    assert not panel.back_up_button.isEnabled()
    assert panel.reason.text() == "Choose where backups go first."
    _type(panel.target.edits["path"], str(tmp_path / "backups"))
    assert panel.reason.text() == "Enter a passphrase to lock the backup with."
    _type(panel.passphrase, "short")
    assert "at least 8 characters" in panel.passphrase_problem.text()
    _type(panel.passphrase, PASSPHRASE)
    _type(panel.repeat, PASSPHRASE + "x")
    assert not panel.back_up_button.isEnabled()
    assert panel.passphrase_problem.error == (
        "The two passphrases differ: type the same one in both fields."
    )
    _type(panel.repeat, PASSPHRASE)
    assert panel.back_up_button.isEnabled() and panel.passphrase_problem.error == ""
    assert panel.back_up_button.isDefault()  # Enter presses it


def _conversation(parley, title: str, text: str) -> str:
    conversation = parley.repository.create_conversation(title)
    parley.repository.add_message(
        Message(new_id(), conversation.id, None, Role.USER, [TextPart(text)])
    )
    return conversation.id


def _use_folder(parley, folder: Path) -> None:
    parley.settings.save(
        dataclasses.replace(
            parley.settings.settings, backup=BackupSettings(FolderTarget(str(folder)))
        )
    )


@pytest.mark.usefixtures("real_scrypt")  # the passphrase path itself, nothing remembered
def test_back_up_now_then_restore_into_another_data_folder(driver, tmp_path):
    folder = tmp_path / "backups"
    first = driver.start(tmp_path / "first")
    conversation_id = _conversation(first, "Trip to <Kyoto> & back", "Book the ryokan")
    dialog = _open(first)
    panel = dialog.backup_panel

    async def body() -> None:
        _type(panel.target.edits["path"], str(folder))
        _type(panel.passphrase, PASSPHRASE)
        _type(panel.repeat, PASSPHRASE)
        QTest.keyClick(panel.repeat, Qt.Key.Key_Return)  # Enter: Back Up Now
        await driver.until(lambda: dialog.outcome.isVisible())
        assert not dialog.progress_area.isVisible()
        names = _backups(folder)
        assert len(names) == 1
        assert dialog.outcome.text().startswith(f"Backed up: {names[0]} (")
        assert dialog.outcome.property("tone") == "ok"
        assert names[0] in panel.status.text() and panel.status.text().startswith("Last backed up")

        # the Restore tab lists it, marked as this computer's
        dialog.show_tab(True)
        restore = dialog.restore_panel
        await driver.until(
            lambda: (
                first.backup_vm.restore.listed_once
                and not restore.list_problem.isVisible()
                and restore.selected_row == 0
            )
        )
        table = first.backup_vm.restore.table
        assert table.rowCount() == 1
        assert table.index(0, 1).data() == f"{first.backup.device} (this computer)"

        # a second computer merges it in
        second = driver.start(tmp_path / "second")
        _use_folder(second, folder)
        other = _open(second, restore=True)
        await driver.until(lambda: other.restore_panel.selected_row == 0)
        other.restore_panel.passphrase.setText("not the passphrase at all")
        other.restore_panel.restore_button.click()
        await driver.until(lambda: other.outcome.isVisible())
        assert other.outcome.property("tone") == "error"
        assert "passphrase" in other.outcome.text()
        assert second.repository.get_conversation(conversation_id) is None

        other.restore_panel.passphrase.setText(PASSPHRASE)
        other.restore_panel.restore_button.click()
        await driver.until(lambda: other.outcome.isVisible())
        assert other.outcome.property("tone") == "ok", other.outcome.text()
        assert other.outcome.text().startswith("Restored: 1 conversation added; 1 message added")
        restored = second.repository.get_conversation(conversation_id)
        assert restored is not None and restored.title == "Trip to <Kyoto> & back"
        texts = [m.text for m in second.repository.active_path(conversation_id)]
        assert texts == ["Book the ryokan"]
        # the second computer's own target stays its own
        assert second.settings.settings.backup.target == FolderTarget(str(folder))

    driver.run(body())


def test_replace_asks_first_and_cancel_changes_nothing(driver, tmp_path):
    folder = tmp_path / "backups"
    parley = driver.start(tmp_path / "data")
    _use_folder(parley, folder)

    async def body() -> None:
        await parley.settings.set_secret(PASSPHRASE_SECRET, PASSPHRASE)
        await parley.backup.back_up()
        kept = _conversation(parley, "Made after the backup", "Still here?")
        dialog = _open(parley, restore=True)
        panel = dialog.restore_panel
        await driver.until(lambda: panel.selected_row == 0 and panel.replace_button.isEnabled())
        box = panel.ask_replace()
        assert isinstance(box, QMessageBox) and box.isVisible()
        assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
        assert "keeps a copy of the current database" in box.text()
        box.button(QMessageBox.StandardButton.Cancel).click()
        assert panel.confirm_box is None
        assert not parley.backup_vm.job.working
        assert parley.repository.get_conversation(kept) is not None
        assert not dialog.outcome.isVisible()

        # Replace, really: the backup's data, and where the old database was kept
        box = panel.ask_replace()
        assert box is not None
        next(b for b in box.buttons() if b.text() == "Replace").click()
        await driver.until(lambda: dialog.outcome.isVisible())
        assert dialog.outcome.property("tone") == "ok", dialog.outcome.text()
        assert dialog.outcome.text().startswith("This computer's data is now the backup's.")
        assert "The database as it was is kept at " in dialog.outcome.text()

    driver.run(body())


def test_esc_does_not_close_while_working(driver, tmp_path):
    parley = driver.start(tmp_path / "data")
    dialog = _open(parley)
    dialog.reject()
    assert not dialog.isVisible()
    dialog = _open(parley)
    _use_folder(parley, tmp_path / "backups")

    async def body() -> None:
        await parley.settings.set_secret(PASSPHRASE_SECRET, PASSPHRASE)
        parley.backup_vm.load_secrets()
        await driver.until(lambda: parley.backup_vm.passphrase_saved)
        assert parley.backup_vm.back_up()
        assert dialog.progress_area.isVisible()
        QTest.keyClick(dialog, Qt.Key.Key_Escape)
        assert dialog.isVisible()
        await driver.until(lambda: not parley.backup_vm.job.working)
        assert len(_backups(tmp_path / "backups")) == 1

    driver.run(body())


def test_cancel_stops_a_running_backup_and_leaves_nothing(driver, tmp_path):
    folder = tmp_path / "backups"
    parley = driver.start(tmp_path / "data")
    _conversation(parley, "Not to be backed up", "Hello")
    dialog = _open(parley)
    panel = dialog.backup_panel

    async def body() -> None:
        _type(panel.target.edits["path"], str(folder))
        _type(panel.passphrase, PASSPHRASE)
        _type(panel.repeat, PASSPHRASE)
        panel.back_up_button.click()
        assert dialog.progress_area.isVisible() and dialog.cancel_button.isEnabled()
        assert not panel.back_up_button.isEnabled()  # one at a time
        dialog.cancel_button.click()
        assert dialog.progress_label.text() == "Cancelling…"
        assert not dialog.cancel_button.isEnabled()
        await driver.until(lambda: not parley.backup_vm.working)
        assert dialog.outcome.isVisible()
        assert dialog.outcome.text() == (
            "The backup was cancelled; no backup file was left behind."
        )
        assert dialog.outcome.property("tone") == ""  # asked for: not shown as an error
        assert not dialog.progress_area.isVisible()
        assert panel.back_up_button.isEnabled()
        assert _backups(folder) == []
        left = [p.name for p in (tmp_path / "data").iterdir() if p.name.startswith("backup-work")]
        assert left == []
        # nothing the main window had to say about it
        assert not [b for b in parley.window.findChildren(QMessageBox) if b.isVisible()]

    driver.run(body())


def test_the_restore_list_follows_where_backups_go(driver, tmp_path):
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    made = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
    (here / backup_name(made, "old-laptop")).write_bytes(b"not opened to be listed")
    parley = driver.start(tmp_path / "data")
    _use_folder(parley, here)
    dialog = _open(parley, restore=True)
    panel = dialog.restore_panel

    async def body() -> None:
        await driver.until(lambda: panel.selected_row == 0)
        assert parley.backup_vm.restore.table.index(0, 1).data() == "old-laptop"
        # another folder, chosen while the Restore tab shows: its list, not the old one
        _use_folder(parley, there)
        assert not panel.restore_button.isEnabled()
        await driver.until(lambda: panel.list_problem.isVisible())
        assert panel.list_problem.text() == "There are no Parley backups there yet."
        assert parley.backup_vm.restore.table.rowCount() == 0
        assert str(there) in panel.where.text()

    driver.run(body())
