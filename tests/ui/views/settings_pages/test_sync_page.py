"""Settings → Sync through the real window, the real sync service and a folder vault:
create a vault and see its recovery key, join from a second data folder (a wrong
passphrase said beside the field), sync with a progress bar, both devices listed,
pause, remove a device and leave, each asked first; a target that cannot work says
why."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel, QMessageBox

from desktop.ui.views.settings_pages.sync_page import SyncPage

SECRET = "violet kettle seven maps"


def _type(edit, text: str) -> None:
    edit.setFocus()
    edit.setText(text)
    edit.editingFinished.emit()


def _open(driver, root: Path, name: str):
    parley = driver.start(root)
    parley.sync.device_name = name
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    page = dialog.sync
    assert isinstance(page, SyncPage)
    dialog.show_page(page)
    return parley, page


def _answer(page: SyncPage, button_text: str) -> None:
    box = page.confirmation
    assert isinstance(box, QMessageBox) and box.isVisible()
    # The question is plain text: a device's name cannot become markup.
    assert box.textFormat() == Qt.TextFormat.PlainText
    (button,) = [b for b in box.buttons() if b.text() == button_text]
    button.click()


async def _press(driver, button) -> None:
    """Click `button` once it can be clicked (a background sync may be running)."""
    await driver.until(button.isEnabled)
    button.click()


def _synced(page: SyncPage) -> bool:
    """Whether Sync Now said it worked; a failure fails the test with its words."""
    if page.outcome.property("tone") == "error":
        raise AssertionError(page.outcome.text())
    return page.outcome.text().startswith("Synced")


def _rows(page: SyncPage) -> list[tuple[str, str]]:
    return [
        (page.devices.topLevelItem(i).text(0), page.devices.topLevelItem(i).text(1))
        for i in range(page.devices.topLevelItemCount())
    ]


def test_the_page_sits_after_network(driver, tmp_path):
    parley, page = _open(driver, tmp_path / "data", "Desk")
    dialog = parley.window._settings_dialog
    titles = dialog.titles()
    assert titles[titles.index("Network") + 1] == "Sync"
    assert dialog.title_of(page) == "Sync"
    assert page.setup.isVisibleTo(page) and not page.joined_part.isVisibleTo(page)
    assert not page.setup.create_button.isEnabled()  # no place chosen yet
    assert page.setup.reason.text() == "Choose where the vault is first."
    # Every label's letter moves to its field.
    for label in page.findChildren(QLabel):
        if "&" in label.text() and label.buddy() is None:
            raise AssertionError(f"{label.text()!r} has a letter but no field")


def test_create_join_sync_remove_and_leave_through_the_page(driver, tmp_path):
    desk, desk_page = _open(driver, tmp_path / "desk", "<b>Desk</b>")
    laptop, laptop_page = _open(driver, tmp_path / "laptop", "Laptop")
    desk.repository.create_conversation("Written on the desk")
    laptop.repository.create_conversation("Written on the laptop")
    vault = tmp_path / "vault"
    seen_running: list[tuple[bool, str]] = []

    def watch_progress() -> None:
        if laptop.sync.status.running:
            page = laptop_page
            seen_running.append((page.progress.isVisibleTo(page), page.stage.text()))

    laptop.sync_vm.statusChanged.connect(watch_progress)

    async def body() -> None:
        desk.sync_vm.start()  # as the app does once its loop runs
        laptop.sync_vm.start()
        page = desk_page
        _type(page.target.edits["path"], str(vault))
        page.target.test_button.click()
        await driver.until(
            lambda: (
                page.target.test_button.isEnabled()
                and bool(page.target.test_result.text())
                and page.target.test_result.text() != "Testing…"
            )
        )
        assert page.target.test_result.text() == (
            f"Parley can use {vault}. There is no vault there yet: create one."
        )

        setup = page.setup
        _type(setup.passphrase, "short")
        assert "at least" in setup.passphrase_problem.text()
        assert not setup.create_button.isEnabled()
        _type(setup.passphrase, SECRET)
        _type(setup.repeat, SECRET)
        assert setup.passphrase_problem.text() == ""
        assert setup.create_button.isEnabled()
        setup.create_button.click()
        assert setup.passphrase.text() == "" and setup.repeat.text() == ""
        await driver.until(lambda: page.key_dialog is not None)
        key_dialog = page.key_dialog
        key = key_dialog.key.text()
        assert key.startswith("AGE-SECRET-KEY-") and key_dialog.key.isReadOnly()
        key_dialog.copy_button.click()
        assert QGuiApplication.clipboard().text() == key
        key_file = tmp_path / "key.txt"
        desk.sync_vm.save_recovery_key(key, str(key_file))
        await driver.until(lambda: key_dialog.outcome.text().startswith("Saved"))
        assert key in key_file.read_text(encoding="utf-8")
        key_dialog.close()
        await driver.until(lambda: page.joined_part.isVisibleTo(page))
        assert not page.setup.isVisibleTo(page)
        assert page.outcome.text().startswith(f"Created a vault at {vault}.")

        # The laptop: a wrong passphrase first, said beside the field.
        page = laptop_page
        _type(page.target.edits["path"], str(vault))
        page.setup.join_secret.setText("not the passphrase at all")
        page.setup.join_button.click()
        await driver.until(lambda: bool(page.setup.join_problem.text()))
        assert page.setup.join_problem.text().startswith(
            "That passphrase or recovery key does not open this vault."
        )
        assert not page.joined_part.isVisibleTo(page)
        page.setup.join_secret.setText(SECRET)
        page.setup.join_button.click()
        await driver.until(lambda: page.joined_part.isVisibleTo(page))
        await driver.until(lambda: page.sync_button.isEnabled())

        # Sync Now: a progress bar while it runs; then both devices are listed.
        await _press(driver, desk_page.sync_button)
        await driver.until(lambda: _synced(desk_page))
        page.outcome.clear()
        await _press(driver, page.sync_button)
        await driver.until(lambda: _synced(page))
        assert seen_running and all(visible for visible, _ in seen_running)
        stages = {stage for _, stage in seen_running}
        assert stages <= {
            "Syncing…",
            "Receiving changes from other devices…",
            "Sending this computer's changes…",
        }
        assert "Receiving changes from other devices…" in stages
        assert not page.progress.isVisibleTo(page)
        names = sorted(name for name, _ in _rows(page))
        assert names == ["<b>Desk</b>", "Laptop (this computer)"]  # as it is, not markup
        assert page.status.text().startswith("Last synced ")
        titles = sorted(c.title for c in laptop.repository.list_conversations())
        assert titles == ["Written on the desk", "Written on the laptop"]

        # Pause and resume.
        assert page.pause_button.text() == "Pa&use Syncing"
        page.pause_button.click()
        assert laptop.settings.settings.sync.paused
        assert page.pause_button.text() == "Res&ume Syncing"
        assert "Syncing is paused" in page.status.text()
        page.pause_button.click()
        assert not laptop.settings.settings.sync.paused

        # The desk removes the laptop, after saying what that means.
        page = desk_page
        page.outcome.clear()
        await _press(driver, page.sync_button)
        await driver.until(lambda: _synced(page))
        assert sorted(name for name, _ in _rows(page)) == [
            "<b>Desk</b> (this computer)",
            "Laptop",
        ]
        page.devices.setCurrentItem(page.devices.topLevelItem(0))  # this computer
        assert not page.remove_button.isEnabled()
        laptop_row = next(
            i
            for i in range(page.devices.topLevelItemCount())
            if page.devices.topLevelItem(i).text(0) == "Laptop"
        )
        page.devices.setCurrentItem(page.devices.topLevelItem(laptop_row))
        assert page.remove_button.isEnabled()
        page.remove_button.click()
        assert "still holds everything it synced" in page.confirmation.text()
        _answer(page, "Remove")
        await driver.until(lambda: ("Laptop", "Removed from the vault") in _rows(page))
        assert page.outcome.text().startswith("Laptop was removed")

        # The laptop learns so when it next syncs, and shows the setup again.
        page = laptop_page
        page.outcome.clear()
        await _press(driver, page.sync_button)
        await driver.until(lambda: page.setup.isVisibleTo(page))
        assert page.outcome.text().startswith("This computer was removed from the sync vault")
        assert page.outcome.property("tone") == "error"

        # The desk leaves; its chats stay.
        page = desk_page
        page.leave_button.click()
        assert "its chats stay here" in page.confirmation.text()
        _answer(page, "Leave Vault")
        await driver.until(lambda: page.setup.isVisibleTo(page))
        assert page.outcome.text() == "This computer left the vault. Its chats stay here."
        assert desk.settings.settings.sync.target is None
        assert len(desk.repository.list_conversations()) == 2

    driver.run(body())


def test_a_target_that_cannot_be_written_says_why(driver, tmp_path):
    _parley, page = _open(driver, tmp_path / "data", "Desk")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")

    async def body() -> None:
        _type(page.target.edits["path"], str(blocker / "vault"))
        page.target.test_button.click()
        await driver.until(lambda: page.target.test_result.property("tone") == "error")
        assert str(blocker) in page.target.test_result.text()
        _type(page.setup.passphrase, SECRET)
        _type(page.setup.repeat, SECRET)
        page.setup.create_button.click()
        await driver.until(lambda: page.outcome.property("tone") == "error")
        assert str(blocker) in page.outcome.text()
        assert page.setup.isVisibleTo(page)

    driver.run(body())
