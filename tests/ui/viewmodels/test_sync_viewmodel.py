"""The sync view-model on real Parleys, the real sync service and a folder vault: create a
vault and get its recovery key, join it from a second data folder (a wrong passphrase
said plainly), sync both ways, see both devices, pause, remove a device (which then
learns so), leave; a target that cannot work says why; and the status in words."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from desktop.core.remote_target import FolderTarget
from desktop.engine.sync.service import DeviceInfo, SyncStatus
from desktop.ui.viewmodels.backup_form import TargetKind
from desktop.ui.viewmodels.sync import JOIN_SECRET, PASSPHRASE, SyncViewModel
from desktop.ui.viewmodels.sync_words import SyncWords
from tests.support.remote_servers import closed_port

SECRET = "violet kettle seven maps"


class Record:
    """What a view-model said: its outcomes, problems and recovery keys, in order."""

    def __init__(self, model: SyncViewModel) -> None:
        self.outcomes: list[tuple[bool, str]] = []
        self.problems: dict[str, str] = {}
        self.keys: list[str] = []
        self.tests: list[tuple[bool, str]] = []
        model.actionFinished.connect(lambda ok, text: self.outcomes.append((ok, text)))
        model.problemChanged.connect(self.problems.__setitem__)
        model.recoveryKeyShown.connect(self.keys.append)
        model.testFinished.connect(lambda ok, text: self.tests.append((ok, text)))


def _start(driver, root: Path, name: str):
    parley = driver.start(root)
    parley.sync.device_name = name
    return parley


def _use_folder(model: SyncViewModel, folder: Path) -> None:
    assert model.set_target(TargetKind.FOLDER, {"path": str(folder)})
    assert model.config.target == FolderTarget(str(folder))


def test_create_join_sync_pause_remove_and_leave(driver, tmp_path):
    desk = _start(driver, tmp_path / "desk", "Desk")
    laptop = _start(driver, tmp_path / "laptop", "Laptop")
    desk.repository.create_conversation("Written on the desk")
    laptop.repository.create_conversation("Written on the laptop")
    vault = tmp_path / "vault"
    a, b = desk.sync_vm, laptop.sync_vm
    said_a, said_b = Record(a), Record(b)

    async def body() -> None:
        a.start()  # as the app does: the keyring read, then syncs in the background
        b.start()
        _use_folder(a, vault)
        assert not a.create_vault("short", "short")  # too weak: nothing starts
        assert "at least" in said_a.problems[PASSPHRASE]
        assert not a.create_vault(SECRET, SECRET + "!")
        assert said_a.problems[PASSPHRASE].startswith("The two passphrases differ")

        assert a.create_vault(SECRET, SECRET)
        await driver.until(lambda: bool(said_a.outcomes))
        assert said_a.outcomes[-1][0], said_a.outcomes
        assert said_a.keys[0].startswith("AGE-SECRET-KEY-")
        assert a.joined and (vault / "parley-sync" / "v1" / "vault.age").exists()
        text, error = a.words.summary(a.status)
        assert not error and text.startswith(("Not synced yet.", "Last synced "))

        # A wrong passphrase: said beside the field, and nothing joined.
        _use_folder(b, vault)
        assert b.join_vault("not the passphrase at all")
        await driver.until(lambda: bool(said_b.outcomes))
        assert not said_b.outcomes[-1][0]
        assert said_b.problems[JOIN_SECRET].startswith(
            "That passphrase or recovery key does not open this vault."
        )
        assert not b.joined

        # The recovery key joins.
        assert b.join_vault(said_a.keys[0])
        await driver.until(lambda: len(said_b.outcomes) == 2 and not b.working)
        assert said_b.outcomes[-1] == (
            True,
            f"Joined the vault at {vault}. The first sync starts now.",
        )
        assert b.joined

        # Sync both ways: the desk's chat arrives on the laptop.
        await driver.until(lambda: not a.working and a.sync_now())
        await driver.until(lambda: len(said_a.outcomes) == 2 and not a.working)
        assert said_a.outcomes[-1][0], said_a.outcomes
        await driver.until(lambda: not b.working and b.sync_now())
        await driver.until(lambda: len(said_b.outcomes) == 3 and not b.working)
        assert said_b.outcomes[-1][0], said_b.outcomes
        titles = [c.title for c in laptop.repository.list_conversations()]
        assert sorted(titles) == ["Written on the desk", "Written on the laptop"]
        rows = b.words.devices(b.status)
        assert sorted(r.name for r in rows) == ["Desk", "Laptop (this computer)"]
        assert [r.removable for r in rows] == [False, True]  # this one first
        assert a.status.last_sync is not None
        b.count_pending()
        await driver.until(lambda: b.status.pending == 0)
        assert "Nothing here waits to be sent." in b.words.summary(b.status)[0]

        # Pause: saved, and said.
        b.set_paused(True)
        assert b.config.paused and b.status.paused
        assert "Syncing is paused" in b.words.summary(b.status)[0]
        b.set_paused(False)
        assert not b.config.paused

        # The desk removes the laptop; the laptop learns so at its next sync.
        laptop_id = await laptop.sync.device_id()
        await driver.until(lambda: not a.working and a.sync_now())
        await driver.until(lambda: len(said_a.outcomes) == 3 and not a.working)
        assert said_a.outcomes[-1][1].startswith("Synced: "), said_a.outcomes
        assert a.words.synced(1, 0) == "Synced: 1 change received, 0 sent."
        assert a.words.synced(2, 1) == "Synced: 2 changes received, 1 sent."
        titles = [c.title for c in desk.repository.list_conversations()]
        assert sorted(titles) == ["Written on the desk", "Written on the laptop"]
        assert a.remove_device(laptop_id)
        await driver.until(lambda: len(said_a.outcomes) == 4 and not a.working)
        assert said_a.outcomes[-1] == (
            True,
            "Laptop was removed: the other devices ignore what it sends from now on.",
        )
        removed = [r for r in a.words.devices(a.status) if r.device_id == laptop_id]
        assert removed and removed[0].seen == "Removed from the vault"
        assert not removed[0].removable
        await driver.until(lambda: not b.working and b.sync_now())
        await driver.until(lambda: len(said_b.outcomes) == 4 and not b.working)
        assert not said_b.outcomes[-1][0]
        assert said_b.outcomes[-1][1].startswith(
            "This computer was removed from the sync vault on another device."
        )
        assert not b.joined
        assert "Written on the desk" in [c.title for c in laptop.repository.list_conversations()]

        # The desk leaves: its chats stay, the place is forgotten.
        assert a.leave()
        await driver.until(lambda: len(said_a.outcomes) == 5 and not a.working)
        assert said_a.outcomes[-1] == (True, "This computer left the vault. Its chats stay here.")
        assert not a.joined and a.config.target is None
        assert len(desk.repository.list_conversations()) == 2
        assert a.words.summary(a.status) == ("This computer is not in a sync vault.", False)

    driver.run(body())


def test_creating_where_a_vault_is_says_join_it(driver, tmp_path):
    desk = _start(driver, tmp_path / "desk", "Desk")
    laptop = _start(driver, tmp_path / "laptop", "Laptop")
    vault = tmp_path / "vault"
    a, b = desk.sync_vm, laptop.sync_vm
    said_a, said_b = Record(a), Record(b)

    async def body() -> None:
        _use_folder(a, vault)
        assert a.create_vault(SECRET, SECRET)
        await driver.until(lambda: bool(said_a.outcomes) and not a.working)
        _use_folder(b, vault)
        b.test(TargetKind.FOLDER, {"path": str(vault)})
        await driver.until(lambda: bool(said_b.tests))
        assert said_b.tests[-1] == (
            True,
            f"Parley can use {vault}, and there is a vault there: join it.",
        )
        assert b.create_vault(SECRET, SECRET)
        await driver.until(lambda: bool(said_b.outcomes) and not b.working)
        assert said_b.outcomes[-1] == (
            False,
            f"There is a vault at {vault} already. Join it instead.",
        )
        assert not b.joined

    driver.run(body())


def test_a_target_that_cannot_work_says_why(driver, tmp_path):
    parley = _start(driver, tmp_path / "data", "Desk")
    model = parley.sync_vm
    said = Record(model)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    unwritable = blocker / "vault"  # can never be made

    async def body() -> None:
        model.test(TargetKind.FOLDER, {"path": str(unwritable)})
        await driver.until(lambda: bool(said.tests) and not model.testing)
        ok, text = said.tests[-1]
        assert not ok and str(blocker) in text

        _use_folder(model, unwritable)
        assert model.create_vault(SECRET, SECRET)
        await driver.until(lambda: bool(said.outcomes) and not model.working)
        ok, text = said.outcomes[-1]
        assert not ok and str(blocker) in text
        assert not model.joined

        url = f"http://127.0.0.1:{closed_port()}/dav/parley"
        values = {"url": url, "username": "alice"}
        assert model.set_target(TargetKind.WEBDAV, values)
        model.test(TargetKind.WEBDAV, values)
        await driver.until(lambda: len(said.tests) == 2 and not model.testing)
        ok, text = said.tests[-1]
        assert not ok
        assert "127.0.0.1" in text and "refused" in text.casefold(), text

        # While in no vault, Sync Now does nothing; a field that cannot work says why.
        assert not model.sync_now()
        assert not model.set_target(TargetKind.WEBDAV, {"url": "not a url", "username": "x"})
        assert said.problems["url"]

    driver.run(body())


def test_the_status_in_words(qapp):
    words = SyncWords()
    status = SyncStatus(
        joined=True,
        paused=True,
        pending=3,
        last_error="Connection refused",
        key_in_keyring=False,
        refused=("Changes from Old laptop were refused: segment 4 is missing.",),
        revived=("<b>Trip</b> plans",),
        devices=(
            DeviceInfo("b", "Old laptop", None, False, removed=True),
            DeviceInfo("a", "Desk", datetime(2026, 12, 6, 8, 0, tzinfo=UTC), True),
            DeviceInfo("c", "Tablet", None, False),
        ),
    )
    text, error = words.summary(status)
    assert error
    assert text.startswith("Not synced yet. 3 changes here wait to be sent. Syncing is paused")
    assert "kept only until Parley quits" in text
    assert text.endswith("The last sync failed: Connection refused")
    assert words.summary(SyncStatus(joined=True, pending=1))[0] == (
        "Not synced yet. 1 change here waits to be sent."
    )
    assert words.refused(status).splitlines()[1].startswith("Changes from Old laptop")
    assert words.revived(status) == (
        "A reply from another device brought back 1 chat you had deleted here:\n<b>Trip</b> plans"
    )
    rows = {row.device_id: row for row in words.devices(status)}
    assert rows["a"].name == "Desk (this computer)" and not rows["a"].removable
    assert rows["b"].seen == "Removed from the vault" and not rows["b"].removable
    assert rows["c"].seen == "Has not sent changes yet" and rows["c"].removable
    assert words.progress(SyncStatus(running=True, stage="sending")) == (
        "Sending this computer's changes…"
    )
