"""A vault's life on a device, through SyncService and WsgiDAV on loopback: create, join
with the passphrase or the recovery key, leave. The recovery key is an `age` identity
that opens every object without Parley; the vault key lives in the keyring only (never
in settings.json, sync.db or a backup); leaving forgets the vault and keeps the chats."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from pathlib import Path
from typing import Final

import pyrage
import pytest

from desktop.core.remote_target import FolderTarget, RemoteTarget
from desktop.core.sync_settings import VAULT_KEY_SECRET
from desktop.engine.backup.crypto import read_key_block, unlock_identity
from desktop.engine.sync import codec
from desktop.engine.sync.errors import SyncError, SyncProblem
from desktop.storage.sync_state import FILE_NAME
from tests.engine.backup.conftest import DAV_PASSWORD
from tests.engine.remote.conftest import DavServer
from tests.engine.sync.sync_world import VAULT_PASSPHRASE, SyncDevice, SyncWorld, dav_target
from tests.engine.sync.test_faults import Enter, Storage, enter, locked_vault
from tests.support.memory_keyring import MemoryKeyring

__all__ = ["enter", "locked_vault"]  # fixtures: a vault made once, entered by each test

KEYRING_SERVICE: Final = "Parley"
BACKUP_PASSPHRASE: Final = "violet staircase umbrella 42"
SYNC_KEYS: Final = {"target", "paused", "interval_minutes"}


@pytest.fixture
def dav(dav_users: DavServer, unique: str) -> tuple[RemoteTarget, str]:
    return dav_target(dav_users, unique)


@pytest.fixture
def storage(dav_users: DavServer, unique: str) -> Storage:
    """The folder WsgiDAV serves the vault from."""
    return Storage(dav_users, unique)


def files_under(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def sync_files(device: SyncDevice) -> list[str]:
    return sorted(p.name for p in device.paths.root.glob(FILE_NAME + "*"))


def key_forms(key: str) -> list[bytes]:
    """The recovery key as it could appear in a file: whole, lower case, its body."""
    body = key.removeprefix("AGE-SECRET-KEY-1")
    return [key.encode(), key.lower().encode(), body.encode(), body.lower().encode()]


def test_the_recovery_key_is_an_age_identity_that_opens_everything(
    world: SyncWorld, dav: tuple[RemoteTarget, str], storage: Storage, memory_keyring: MemoryKeyring
) -> None:
    laptop, desktop, phone = world.add("laptop"), world.add("desktop"), world.add("phone")
    key = world.create(laptop, *dav)
    assert key.startswith("AGE-SECRET-KEY-1") and key == key.strip()
    assert world.run(laptop.sync.recovery_key()) == key
    stored = json.loads(memory_keyring.passwords[(KEYRING_SERVICE, VAULT_KEY_SECRET)])
    assert stored["key"] == key
    laptop.chat("Kyoto", "Where to? 京都", "Kyoto.")
    world.sync(laptop)

    # With age alone (no Parley code) the key opens the check object and the laptop's
    # segment; no object holds the key in clear (vault.age has it under the passphrase,
    # which the desktop opens below).
    objects = files_under(storage.base)
    assert objects[codec.VAULT].startswith(b"age-encryption.org/v1\n-> scrypt ")
    for data in objects.values():
        assert all(form not in data for form in key_forms(key))
    identity = pyrage.x25519.Identity.from_str(key)
    check = json.loads(pyrage.decrypt(objects[codec.CHECK], [identity]))
    assert check["vault"] == stored["vault"]
    laptop_id = world.run(laptop.sync.device_id())
    segment = objects[codec.segment_name(laptop_id, 1)]
    assert "京都".encode() not in segment
    lines = gzip.decompress(pyrage.decrypt(segment, [identity])).decode().split("\n")
    assert json.loads(lines[0])["device"] == laptop_id
    assert any("京都" in line for line in lines[1:])

    # The desktop joins with the passphrase, the phone with the recovery key.
    world.join(desktop, VAULT_PASSPHRASE)
    world.join(phone, key)
    assert world.run(desktop.sync.recovery_key()) == key
    assert world.run(phone.sync.recovery_key()) == key
    phone.chat("From the phone", "hi", "hello")
    world.settle()
    world.assert_converged()
    assert laptop.titles() == ["From the phone", "Kyoto"]


def test_the_vault_key_is_kept_in_the_keyring_only(
    world: SyncWorld, dav: tuple[RemoteTarget, str], memory_keyring: MemoryKeyring, enter: Enter
) -> None:
    laptop = world.add("laptop")
    target, password = dav
    enter(target, password)
    key = world.recovery_key
    laptop.chat("Notes", "a", "b")
    world.sync(laptop)

    stored = json.loads(memory_keyring.passwords[(KEYRING_SERVICE, VAULT_KEY_SECRET)])
    assert stored["key"] == key
    assert laptop.sync.status.key_in_keyring is True

    world.run(laptop.sync.aclose())  # sync.db written out in full
    for name, data in files_under(laptop.paths.root).items():
        for form in key_forms(key):
            assert form not in data, f"the vault key is in {name}"
        assert DAV_PASSWORD.encode() not in data, f"the target's password is in {name}"

    settings = json.loads(laptop.paths.settings.read_text(encoding="utf-8"))
    assert set(settings["sync"]) <= SYNC_KEYS, settings["sync"]
    assert settings["sync"]["target"] == {"kind": "webdav", "url": target.url, "username": "alice"}
    laptop.sync.set_paused(True)
    settings = json.loads(laptop.paths.settings.read_text(encoding="utf-8"))
    assert set(settings["sync"]) <= SYNC_KEYS, settings["sync"]
    assert settings["sync"]["paused"] is True
    text = laptop.paths.settings.read_text(encoding="utf-8")
    assert "AGE-SECRET-KEY" not in text.upper()
    assert stored["vault"] not in text


def test_leaving_forgets_the_vault_and_keeps_the_chats(
    world: SyncWorld,
    dav: tuple[RemoteTarget, str],
    storage: Storage,
    memory_keyring: MemoryKeyring,
    enter: Enter,
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*dav)
    laptop.chat("Shared", "a", "b")
    desktop.chat("Mine", "c", "d")
    world.settle()
    before = desktop.state()
    old_id = world.run(desktop.sync.device_id())
    assert sync_files(desktop)
    remote = files_under(storage.base)

    world.run(desktop.sync.leave())
    assert sync_files(desktop) == []
    assert (KEYRING_SERVICE, VAULT_KEY_SECRET) not in memory_keyring.passwords
    assert desktop.sync.config.target is None
    settings = json.loads(desktop.paths.settings.read_text(encoding="utf-8"))
    assert "target" not in settings.get("sync", {})
    assert desktop.sync.status.joined is False
    assert desktop.state() == before  # the chats stay
    assert files_under(storage.base) == remote  # the storage is untouched
    for call in (desktop.sync.recovery_key(), desktop.sync.sync_now()):
        error = world.fails(call)
        assert isinstance(error, SyncError) and error.problem is SyncProblem.NOT_JOINED
    assert world.pending(desktop) == 0

    # The others go on; joining again is a new device that loses and duplicates nothing.
    laptop.chat("While away", "e", "f")
    world.sync(laptop)
    world.join(desktop)
    assert world.run(desktop.sync.device_id()) != old_id
    world.settle()
    state = world.assert_converged()
    assert sorted(c[1] for c in state["conversations"]) == ["Mine", "Shared", "While away"]
    assert len(state["messages"]) == 6


def test_a_backup_carries_no_sync_state_and_no_sync_settings(
    world: SyncWorld, dav: tuple[RemoteTarget, str], tmp_path: Path, enter: Enter
) -> None:
    laptop = world.add("laptop")
    enter(*dav)
    key = world.recovery_key
    laptop.chat("Kept", "a", "b")
    world.sync(laptop)
    laptop.sync.set_paused(True)
    assert sync_files(laptop)
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    laptop.use(FolderTarget(str(shelf)))

    done = world.run(laptop.service.back_up(BACKUP_PASSPHRASE))
    path = shelf / done.name
    with path.open("rb") as handle:
        identity = unlock_identity(read_key_block(handle, path), BACKUP_PASSPHRASE)
        plain = io.BytesIO()
        pyrage.decrypt_io(handle, plain, [identity])
    with tarfile.open(fileobj=io.BytesIO(plain.getvalue())) as tar:
        members = {
            member.name: tar.extractfile(member).read()  # type: ignore[union-attr]
            for member in tar.getmembers()
            if member.isfile()
        }
    assert "parley.db" in members and "settings.json" in members
    assert not [name for name in members if FILE_NAME in name], sorted(members)
    settings = json.loads(members["settings.json"])
    assert "sync" not in settings, settings.get("sync")
    for name, data in members.items():
        for form in key_forms(key):
            assert form not in data, f"the vault key is in the backup's {name}"
