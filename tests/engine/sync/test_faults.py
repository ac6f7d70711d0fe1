"""Sync when the storage misbehaves, on real servers on loopback (WsgiDAV with a password
from the keyring, reached directly or through `Relay`, an HTTP relay that answers chosen
requests itself: 507, 401, 500, silence, or holds one back).

- An altered storage (a flipped byte, swapped, replayed or missing segments, a head
  rolled back or taken from another device, an altered attachment file): the device
  whose log fails its check is refused in words, the others' changes still apply, and
  once the storage is repaired everything arrives.
- A failing server (wrong password, full, silent, failing half-way through a write):
  a sentence that says what to do, nothing recorded as done that was not, and the next
  sync neither loses nor duplicates anything.
- The vault's life: a wrong passphrase keeps nothing, creating twice and joining nothing
  are refused, a removed device stops and what it sends afterwards is ignored.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import shutil
import sqlite3
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final
from urllib.parse import unquote

import httpx
import pyrage
import pytest

from desktop.core.remote_target import RemoteTarget, S3Target, WebDavTarget
from desktop.core.settings import NetworkSettings, ProxyMode
from desktop.core.sync_settings import VAULT_KEY_SECRET
from desktop.engine.remote.errors import RemoteError, RemoteProblem
from desktop.engine.sync import codec
from desktop.engine.sync.errors import SyncError, SyncProblem
from desktop.engine.sync.service import DEVICE_KEY, SyncReport
from desktop.storage.sync_state import FILE_NAME, SyncState
from tests.engine.backup.conftest import DAV_PASSWORD, DAV_USER
from tests.engine.remote.conftest import BUCKET, DavServer
from tests.engine.sync.sync_world import (
    VAULT_PASSPHRASE,
    SyncDevice,
    SyncWorld,
    dav_target,
    folder_target,
    s3_target,
)
from tests.support.memory_keyring import MemoryKeyring
from tests.support.remote_servers import (
    ACCESS_KEY,
    HANG,
    REGION,
    SECRET_KEY,
    FaultServer,
    Reply,
    Seen,
    self_signed_certificate,
    tls_context,
)
from tests.support.waiting import CEILING_S, wait_for

PHOTO: Final = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 300
SCAN: Final = b"%PDF-1.4\n" + bytes(reversed(range(256))) * 200
KEYRING_SERVICE: Final = "Parley"
SHORT: Final = httpx.Timeout(1.0)
"""The stalling-server test's timeout: a server that never answers is given up on after
it (nothing is timed against it but that server, which never answers at all)."""

_HOP: Final = {
    "host",
    "content-length",
    "transfer-encoding",
    "connection",
    "keep-alive",
    "content-encoding",
}


# --- a relay that misbehaves on request ------------------------------------------------


@dataclass
class Rule:
    """Requests whose method is `method` (any when "") and whose decoded path contains
    `contains` get `reply` (none at all with `hang`; passed on to the server when None),
    after the first `skip` of them; only `times` of them (all when None). With `hold`, a
    matching request waits for it to be set, then goes on to the server."""

    contains: str
    reply: Reply | None = None
    method: str = ""
    hang: bool = False
    skip: int = 0
    times: int | None = None
    hold: threading.Event | None = None
    arrived: threading.Event = field(default_factory=threading.Event)
    hits: int = 0


class Relay:
    """An HTTP relay in front of a WebDAV server that answers as its rules say."""

    def __init__(self, upstream: str, tls: ssl.SSLContext | None = None) -> None:
        self.upstream = upstream
        self.rules: list[Rule] = []
        # Request headers not passed on (a server that ignores them).
        self.dropped: set[str] = set()
        self._lock = threading.Lock()
        self._client = httpx.Client(timeout=CEILING_S)
        self._server = FaultServer(self._respond, tls=tls)
        self.url = self._server.url

    def __enter__(self) -> Relay:
        self._server.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        for rule in self.rules:
            if rule.hold is not None:
                rule.hold.set()
        self._server.__exit__(*exc)
        self._client.close()

    def add(self, rule: Rule) -> Rule:
        with self._lock:
            self.rules.append(rule)
        return rule

    def clear(self) -> None:
        with self._lock:
            self.rules.clear()

    def _match(self, seen: Seen) -> Rule | None:
        path = unquote(seen.path)
        with self._lock:
            for rule in self.rules:
                if rule.method and rule.method != seen.method:
                    continue
                if rule.contains not in path:
                    continue
                rule.hits += 1
                if rule.hits <= rule.skip:
                    continue
                if rule.times is not None and rule.hits > rule.skip + rule.times:
                    continue
                return rule
        return None

    def _respond(self, seen: Seen) -> Reply | None:
        rule = self._match(seen)
        if rule is not None:
            rule.arrived.set()
            if rule.hold is not None:
                rule.hold.wait(CEILING_S)
            elif rule.hang:
                return HANG
            elif rule.reply is not None:
                return rule.reply
        dropped = _HOP | self.dropped
        headers = {k: v for k, v in seen.headers.items() if k.lower() not in dropped}
        answer = self._client.request(
            seen.method, self.upstream + seen.path, headers=headers, content=seen.body
        )
        kept = {k: v for k, v in answer.headers.items() if k.lower() not in _HOP}
        return Reply(answer.status_code, answer.content, kept)


@pytest.fixture
def relay(dav_users: DavServer) -> Iterator[Relay]:
    with Relay(dav_users.url) as started:
        yield started


@pytest.fixture
def through_relay(relay: Relay, unique: str) -> tuple[RemoteTarget, str]:
    return WebDavTarget(f"{relay.url}/{unique}", DAV_USER), DAV_PASSWORD


@pytest.fixture
def dav(dav_users: DavServer, unique: str) -> tuple[RemoteTarget, str]:
    return dav_target(dav_users, unique)


# --- the storage as files ----------------------------------------------------------------


class Storage:
    """The vault's objects as the files WsgiDAV serves, to alter behind its back."""

    def __init__(self, server: DavServer, folder: str) -> None:
        self.base = server.root / folder

    def path(self, name: str) -> Path:
        return self.base / name

    def segment(self, device: str, n: int) -> Path:
        return self.path(codec.segment_name(device, n))

    def head(self, device: str) -> Path:
        return self.path(codec.head_name(device))

    def segments(self, device: str) -> list[str]:
        folder = self.path(f"{codec.DEVICES}/{device}")
        return sorted(p.name for p in folder.glob("seg-*.age")) if folder.is_dir() else []

    def blobs(self) -> list[Path]:
        folder = self.path(codec.BLOBS)
        return sorted(folder.glob("*.age")) if folder.is_dir() else []


@pytest.fixture
def storage(dav_users: DavServer, unique: str) -> Storage:
    return Storage(dav_users, unique)


@pytest.fixture(scope="module")
def locked_vault() -> tuple[codec.Vault, bytes]:
    """One vault key locked with VAULT_PASSPHRASE, made once for the module (age's
    scrypt takes seconds): each test puts it in its own folder, as if a device had made
    the vault there, and its devices join with the recovery key."""
    vault = codec.new_vault()
    return vault, codec.lock_vault(vault, VAULT_PASSPHRASE)


Enter = Callable[..., None]


@pytest.fixture
def enter(world: SyncWorld, storage: Storage, locked_vault: tuple[codec.Vault, bytes]) -> Enter:
    """`enter(target, secret, devices=all)`: a vault at the target, joined by `devices`."""

    def enter_vault(
        target: RemoteTarget, secret: str, devices: list[SyncDevice] | None = None
    ) -> None:
        vault, locked = locked_vault
        storage.path(codec.ROOT).mkdir(parents=True, exist_ok=True)
        storage.path(codec.VAULT).write_bytes(locked)
        storage.path(codec.CHECK).write_bytes(codec.check_object(vault))
        world.set_password(target, secret)
        world.target = target
        world.recovery_key = vault.key_text
        for device in world.devices if devices is None else devices:
            world.join(device)

    return enter_vault


class Snapshot:
    """Copies of files, put back by `restore` (the storage repaired)."""

    def __init__(self, *paths: Path) -> None:
        self.saved = {path: path.read_bytes() for path in paths}

    def restore(self) -> None:
        for path, data in self.saved.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


def flip(path: Path, index: int | None = None) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2 if index is None else index] ^= 0x01
    path.write_bytes(bytes(data))


def device_id(world: SyncWorld, device: SyncDevice) -> str:
    return world.run(device.sync.device_id())


def sync_db_rows(device: SyncDevice) -> list[str]:
    """Every row of the device's sync.db (nothing when there is none), as text."""
    path = device.paths.root / FILE_NAME
    if not path.exists():
        return []
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return list(conn.iterdump())


def vault_key(keyring: MemoryKeyring) -> str | None:
    return keyring.passwords.get((KEYRING_SERVICE, VAULT_KEY_SECRET))


def assert_refused(sentence: str, name: str, detail: str) -> None:
    assert sentence.startswith(f"Changes from {name} were refused: "), sentence
    assert detail in sentence, (detail, sentence)
    assert "the other devices' changes were still applied" in sentence, sentence


def with_device_id(device: SyncDevice, wanted: str) -> SyncDevice:
    """Give `device` the id `wanted` before its first use of sync (the order devices
    are read in follows their ids)."""
    state = SyncState(device.paths.root)
    try:
        state.set(DEVICE_KEY, wanted)
    finally:
        state.close()
    return device


# --- an altered storage --------------------------------------------------------------------


@dataclass(frozen=True)
class Tamper:
    name: str
    alter: Callable[[Storage, str], None]
    detail: str
    kept: tuple[str, ...]  # the laptop's chats a reader still gets
    unnamed: bool = False  # the head is unreadable: the device is named by its id


def _swap(storage: Storage, device: str) -> None:
    two, three = storage.segment(device, 2), storage.segment(device, 3)
    data_two, data_three = two.read_bytes(), three.read_bytes()
    two.write_bytes(data_three)
    three.write_bytes(data_two)


def _copy(source: int, destination: int) -> Callable[[Storage, str], None]:
    def alter(storage: Storage, device: str) -> None:
        data = storage.segment(device, source).read_bytes()
        storage.segment(device, destination).write_bytes(data)

    return alter


TAMPERS: Final = (
    Tamper(
        "a flipped byte in segment 2",
        lambda s, d: flip(s.segment(d, 2)),
        "it cannot be decrypted with the vault key",
        ("One",),
    ),
    Tamper(
        "a flipped byte at the end of segment 2",
        lambda s, d: flip(s.segment(d, 2), -1),
        "it cannot be decrypted with the vault key",
        ("One",),
    ),
    Tamper(
        "segments 2 and 3 swapped",
        _swap,
        "segment 2 holds another segment (3): segments were swapped or replayed",
        ("One",),
    ),
    Tamper(
        "segment 1 replayed as segment 2",
        _copy(1, 2),
        "segment 2 holds another segment (1): segments were swapped or replayed",
        ("One",),
    ),
    Tamper(
        "segment 1 replayed as the newest",
        _copy(1, 3),
        "segment 3 is not the one its head names",
        ("One", "Two"),
    ),
    Tamper(
        "segment 2 deleted",
        lambda s, d: s.segment(d, 2).unlink(),
        "segment 2 is missing",
        ("One",),
    ),
    Tamper(
        "a flipped byte in the head",
        lambda s, d: flip(s.head(d), -3),
        "it cannot be decrypted with the vault key",
        (),
        unnamed=True,
    ),
)


def test_an_altered_log_is_refused_in_words_while_other_devices_still_apply(
    world: SyncWorld, dav: tuple[RemoteTarget, str], storage: Storage, enter: Enter
) -> None:
    laptop, phone = world.add("laptop"), world.add("phone")
    enter(*dav)
    for title in ("One", "Two", "Three"):  # one segment each
        laptop.chat(title, f"{title}?", f"{title}.")
        world.sync(laptop)
    phone.chat("From the phone", "hi", "hello")
    world.sync(phone)
    writer = device_id(world, laptop)
    assert storage.segments(writer) == ["seg-1.age", "seg-2.age", "seg-3.age"]
    original = Snapshot(*(storage.segment(writer, n) for n in (1, 2, 3)), storage.head(writer))

    for case in TAMPERS:
        reader = world.add(f"reader-{TAMPERS.index(case)}")
        world.join(reader)
        case.alter(storage, writer)
        try:
            report = world.sync(reader)
        finally:
            original.restore()
        assert len(report.refused) == 1, (case.name, report.refused)
        assert_refused(report.refused[0], writer if case.unnamed else "laptop", case.detail)
        assert reader.sync.status.refused == report.refused, case.name
        assert reader.sync.status.last_error == "", case.name
        assert reader.titles() == sorted((*case.kept, "From the phone")), case.name
        # Repaired, the rest arrives on the next sync and the refusal is gone.
        assert world.sync(reader).refused == (), case.name
        assert reader.titles() == ["From the phone", "One", "Three", "Two"], case.name
        assert reader.sync.status.refused == (), case.name


def test_a_head_rolled_back_or_taken_from_another_device_is_refused(
    world: SyncWorld, dav: tuple[RemoteTarget, str], storage: Storage, enter: Enter
) -> None:
    laptop, phone, desktop = world.add("laptop"), world.add("phone"), world.add("desktop")
    enter(*dav)
    writer = device_id(world, laptop)
    laptop.chat("One", "1?", "1.")
    world.sync(laptop)
    old_head = Snapshot(storage.head(writer))
    laptop.chat("Two", "2?", "2.")
    world.sync(laptop)
    phone.chat("Phone one", "p?", "p.")
    world.sync(phone)
    world.sync(desktop)
    assert desktop.titles() == ["One", "Phone one", "Two"]

    # The storage serves the laptop's older head (its log seen two segments long).
    current_head = Snapshot(storage.head(writer))
    old_head.restore()
    phone.chat("Phone two", "q?", "q.")
    world.sync(phone)
    report = world.sync(desktop)
    assert len(report.refused) == 1, report.refused
    assert_refused(
        report.refused[0], "laptop", "the storage served an older or altered copy of its changes"
    )
    assert desktop.titles() == ["One", "Phone one", "Phone two", "Two"]

    # The phone's head served as the laptop's.
    shutil.copyfile(storage.head(device_id(world, phone)), storage.head(writer))
    report = world.sync(desktop)
    assert len(report.refused) == 1, report.refused
    assert "heads were swapped" in report.refused[0]

    current_head.restore()
    laptop.chat("Three", "3?", "3.")
    world.sync(laptop)
    assert world.sync(desktop).refused == ()
    world.settle()
    world.assert_converged()


def test_an_altered_attachment_file_is_refused_and_nothing_is_written(
    world: SyncWorld, dav: tuple[RemoteTarget, str], storage: Storage, tmp_path: Path, enter: Enter
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*dav)
    chat = laptop.chat("Files", "Look")
    _, photo = laptop.attach(chat, laptop.last(chat), PHOTO)
    _, scan = laptop.attach(chat, laptop.last(chat), SCAN, name="scan.pdf", mime="application/pdf")
    world.sync(laptop)
    world.sync(desktop)
    blobs = {path: path.read_bytes() for path in storage.blobs()}
    assert len(blobs) == 2
    # Named as the recovery key alone names them (what the `age` tool would need).
    vault = codec.Vault("", pyrage.x25519.Identity.from_str(world.recovery_key))
    photo_blob = storage.path(vault.blob_name(photo.sha256))
    scan_blob = storage.path(vault.blob_name(scan.sha256))
    assert set(blobs) == {photo_blob, scan_blob}
    folder = tmp_path / "fetched"
    destination = folder / "photo.png"

    cases = (
        ("flipped", lambda: flip(photo_blob), "cannot be decrypted with the vault key"),
        (
            "truncated",
            lambda: photo_blob.write_bytes(blobs[photo_blob][:-40]),
            "cannot be decrypted with the vault key",
        ),
        (
            "another file",
            lambda: photo_blob.write_bytes(blobs[scan_blob]),
            "not the file its message names",
        ),
    )
    for name, alter, detail in cases:
        alter()
        error = world.fails(desktop.sync.fetch_attachment(photo.sha256, destination))
        assert isinstance(error, SyncError), (name, error)
        assert error.problem is SyncProblem.TAMPERED, name
        assert "An attached file at the storage" in str(error) and detail in str(error), name
        assert not destination.exists(), name
        assert list(folder.iterdir()) == [], (name, list(folder.iterdir()))
        photo_blob.write_bytes(blobs[photo_blob])

    assert world.run(desktop.sync.fetch_attachment(photo.sha256, destination)) is True
    assert destination.read_bytes() == PHOTO

    # A file gone from the storage is "not there", not an error, and writes nothing.
    photo_blob.unlink()
    elsewhere = folder / "again.png"
    assert world.run(desktop.sync.fetch_attachment(photo.sha256, elsewhere)) is False
    assert sorted(p.name for p in folder.iterdir()) == ["photo.png"]


# --- a failing server ------------------------------------------------------------------


def test_a_wrong_passphrase_keeps_nothing(
    world: SyncWorld, dav: tuple[RemoteTarget, str], memory_keyring: MemoryKeyring, enter: Enter
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*dav, [laptop])
    # The keyring stands for the desktop's own here (one keyring serves every device).
    laptop_key = memory_keyring.passwords.pop((KEYRING_SERVICE, VAULT_KEY_SECRET))
    settings_before = (
        desktop.paths.settings.read_bytes() if desktop.paths.settings.exists() else b""
    )

    error = world.fails(desktop.sync.join_vault(world.target, VAULT_PASSPHRASE + "!"))
    assert isinstance(error, SyncError) and error.problem is SyncProblem.WRONG_SECRET
    assert str(error).startswith("That passphrase or recovery key does not open this vault.")
    assert vault_key(memory_keyring) is None
    assert sync_db_rows(desktop) == []
    assert desktop.sync.config.target is None
    after = desktop.paths.settings.read_bytes() if desktop.paths.settings.exists() else b""
    assert after == settings_before
    assert desktop.sync.status.joined is False
    error = world.fails(desktop.sync.sync_now())
    assert isinstance(error, SyncError) and error.problem is SyncProblem.NOT_JOINED

    # A device in the vault that is handed a wrong key keeps what it had.
    memory_keyring.passwords[(KEYRING_SERVICE, VAULT_KEY_SECRET)] = laptop_key
    laptop.chat("Kept", "a", "b")
    world.sync(laptop)
    rows = sync_db_rows(laptop)
    stored = vault_key(memory_keyring)
    assert stored is not None
    other_key = codec.new_vault().key_text
    error = world.fails(laptop.sync.join_vault(world.target, other_key))
    assert isinstance(error, SyncError) and error.problem is SyncProblem.WRONG_SECRET
    assert sync_db_rows(laptop) == rows
    assert vault_key(memory_keyring) == stored
    assert world.run(laptop.sync.recovery_key()) == world.recovery_key
    world.join(desktop)
    world.sync(desktop)
    assert desktop.titles() == ["Kept"]


def test_a_refused_password_points_to_sync_settings(
    world: SyncWorld, dav: tuple[RemoteTarget, str], enter: Enter
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    target, password = dav
    world.set_password(target, "wrong horse")

    def assert_auth(error: Exception) -> None:
        assert isinstance(error, RemoteError) and error.problem is RemoteProblem.AUTH, error
        assert "refused the user name or password" in str(error), error
        assert "Settings → Sync" in str(error) and "Back Up" not in str(error), error

    assert_auth(world.fails(laptop.sync.create_vault(target, VAULT_PASSPHRASE)))
    assert laptop.sync.config.target is None
    enter(target, password, [laptop])

    world.set_password(target, "wrong horse")
    assert_auth(world.fails(desktop.sync.join_vault(target, world.recovery_key)))
    assert desktop.sync.config.target is None
    laptop.chat("Waiting", "a", "b")
    pending = world.pending(laptop)
    assert pending > 0
    error = world.fails(laptop.sync.sync_now())
    assert_auth(error)
    assert laptop.sync.status.last_error == str(error)
    assert laptop.sync.status.running is False
    assert world.pending(laptop) == pending

    world.set_password(target, password)
    world.join(desktop)
    world.settle()
    assert desktop.titles() == ["Waiting"]
    assert laptop.sync.status.last_error == ""


def test_a_full_storage_sends_nothing_and_the_changes_wait(
    world: SyncWorld,
    through_relay: tuple[RemoteTarget, str],
    relay: Relay,
    storage: Storage,
    enter: Enter,
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*through_relay)
    writer = device_id(world, laptop)
    chat = laptop.chat("Holiday", "Where?", "Lisbon.")
    laptop.attach(chat, laptop.last(chat), PHOTO)
    pending = world.pending(laptop)
    assert pending > 0

    full = Reply(507, b"Insufficient Storage")
    for where in (f"/{codec.BLOBS}/", "/seg-"):  # the file, then the segment
        rule = relay.add(Rule(where, full, method="PUT"))
        error = world.fails(laptop.sync.sync_now())
        assert isinstance(error, RemoteError) and error.problem is RemoteProblem.NO_SPACE, error
        assert "out of space" in str(error), error
        assert laptop.sync.status.last_error == str(error)
        assert rule.hits >= 1, where
        assert world.pending(laptop) == pending, where
        assert storage.segments(writer) == [], where
        relay.clear()
        assert world.sync(desktop).received == 0
        assert desktop.titles() == []

    report = world.sync(laptop)
    assert report.sent == pending
    assert world.pending(laptop) == 0
    world.sync(desktop)
    world.assert_converged()
    assert storage.segments(writer) == ["seg-1.age"]


def test_a_silent_server_times_out_in_words(
    world: SyncWorld, through_relay: tuple[RemoteTarget, str], relay: Relay, enter: Enter
) -> None:
    laptop = world.add("laptop", timeout=SHORT)
    enter(*through_relay, [laptop])
    laptop.chat("Waiting", "a", "b")
    pending = world.pending(laptop)

    silence = relay.add(Rule("", hang=True))
    began = time.monotonic()
    error = world.fails(laptop.sync.sync_now())
    elapsed = time.monotonic() - began
    assert isinstance(error, RemoteError) and error.problem is RemoteProblem.TIMEOUT, error
    assert "did not answer in time" in str(error), error
    assert silence.hits >= 1
    assert elapsed < CEILING_S / 4, elapsed
    assert laptop.sync.status.last_error == str(error)
    assert laptop.sync.status.running is False
    assert world.pending(laptop) == pending

    relay.clear()
    assert world.sync(laptop).sent == pending


def test_an_untrusted_certificate_is_said_in_words_until_its_ca_bundle_is_set(
    world: SyncWorld, dav_users: DavServer, unique: str, enter: Enter, tmp_path: Path
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*dav_target(dav_users, unique), [laptop])
    laptop.chat("Over TLS", "a", "b")
    world.sync(laptop)
    certificate, key = self_signed_certificate(tmp_path / "tls")
    with Relay(dav_users.url, tls=tls_context(certificate, key)) as secure:
        target = WebDavTarget(f"{secure.url}/{unique}", DAV_USER)
        world.set_password(target, DAV_PASSWORD)
        error = world.fails(desktop.sync.join_vault(target, world.recovery_key))
        assert isinstance(error, RemoteError) and error.problem is RemoteProblem.TLS, error
        assert "certificate" in str(error) and "Settings → Network" in str(error), error
        assert sync_db_rows(desktop) == []
        assert desktop.sync.config.target is None

        network = NetworkSettings(ProxyMode.NONE, "", str(certificate))
        desktop.settings.save(replace(desktop.settings.settings, network=network))
        world.run(desktop.sync.join_vault(target, world.recovery_key))
        world.sync(desktop)
        assert desktop.titles() == ["Over TLS"]


def test_a_read_failing_half_way_applies_nothing_and_the_next_sync_everything(
    world: SyncWorld, through_relay: tuple[RemoteTarget, str], relay: Relay, enter: Enter
) -> None:
    laptop, phone, desktop = world.add("laptop"), world.add("phone"), world.add("desktop")
    enter(*through_relay)
    for title in ("One", "Two"):
        laptop.chat(title, f"{title}?", f"{title}.")
        world.sync(laptop)
    phone.chat("Phone", "p?", "p.")
    world.sync(phone)
    desktop.chat("Desk", "d?", "d.")
    pending = world.pending(desktop)
    before = desktop.state()

    writer = device_id(world, laptop)
    broken = relay.add(
        Rule(f"/{codec.segment_name(writer, 2)}", Reply(500, b"oops"), method="GET", times=1)
    )
    error = world.fails(desktop.sync.sync_now())
    assert isinstance(error, RemoteError) and error.problem is RemoteProblem.SERVER, error
    assert broken.hits == 1
    assert desktop.state() == before
    assert world.pending(desktop) == pending

    report = world.sync(desktop)
    assert report.refused == () and report.sent == pending
    assert desktop.titles() == ["Desk", "One", "Phone", "Two"]
    world.settle()
    world.assert_converged()


def test_a_log_from_a_newer_parley_says_update_and_changes_nothing(
    world: SyncWorld,
    dav: tuple[RemoteTarget, str],
    storage: Storage,
    enter: Enter,
    locked_vault: tuple[codec.Vault, bytes],
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*dav)
    laptop.chat("Old", "a", "b")
    world.sync(laptop)
    desktop.chat("Desk", "d?", "d.")
    pending = world.pending(desktop)
    before = desktop.state()

    # A device running a newer Parley writes a segment of a newer format.
    vault, _ = locked_vault
    newer = codec.new_device_id()
    header = {"format": codec.FORMAT + 1, "device": newer, "n": 1, "prev": "", "name": "new"}
    plain = gzip.compress((json.dumps(header) + "\n" + json.dumps({"t": "future"})).encode())
    segment = vault.encrypt(plain)
    storage.segment(newer, 1).parent.mkdir(parents=True)
    storage.segment(newer, 1).write_bytes(segment)
    head = codec.Head(newer, 1, codec.content_hash(segment), "new", 0)
    storage.head(newer).write_bytes(codec.seal_head(vault, head))

    error = world.fails(desktop.sync.sync_now())
    assert isinstance(error, SyncError) and error.problem is SyncProblem.FORMAT, error
    assert "newer version of Parley" in str(error) and "Update Parley" in str(error)
    assert desktop.sync.status.last_error == str(error)
    assert desktop.state() == before
    assert world.pending(desktop) == pending


def test_a_vault_whose_creation_was_cut_short_can_still_be_joined_with_its_key(
    world: SyncWorld, through_relay: tuple[RemoteTarget, str], relay: Relay
) -> None:
    """vault.age written, then the storage fails before check.age: the person is told
    there is a vault (creating again is refused), joins it with the passphrase, and the
    recovery key shown then must open it on the next device."""
    laptop, desktop = world.add("laptop"), world.add("desktop")
    target, password = through_relay
    world.set_password(target, password)
    full = relay.add(Rule(f"/{codec.CHECK}", Reply(507, b"full"), method="PUT", times=1))
    error = world.fails(laptop.sync.create_vault(target, VAULT_PASSPHRASE))
    assert isinstance(error, RemoteError) and error.problem is RemoteProblem.NO_SPACE, error
    assert full.hits == 1
    assert laptop.sync.config.target is None

    error = world.fails(laptop.sync.create_vault(target, VAULT_PASSPHRASE))
    assert isinstance(error, SyncError) and error.problem is SyncProblem.VAULT_EXISTS, error
    world.run(laptop.sync.join_vault(target, VAULT_PASSPHRASE))
    key = world.run(laptop.sync.recovery_key())
    laptop.chat("First", "a", "b")
    world.sync(laptop)

    world.run(desktop.sync.join_vault(target, key))
    world.sync(desktop)
    assert desktop.titles() == ["First"]


def test_a_write_cut_before_the_head_neither_loses_nor_duplicates(
    world: SyncWorld,
    through_relay: tuple[RemoteTarget, str],
    relay: Relay,
    storage: Storage,
    enter: Enter,
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*through_relay)
    writer = device_id(world, laptop)
    laptop.chat("One", "1?", "1.")
    world.sync(laptop)

    chat = laptop.chat("Two", "2?", "2.")
    pending = world.pending(laptop)
    cut = relay.add(Rule("/head.age", Reply(500, b"gone"), method="PUT", times=1))
    error = world.fails(laptop.sync.sync_now())
    assert isinstance(error, RemoteError) and error.problem is RemoteProblem.SERVER, error
    assert cut.hits == 1
    assert storage.segments(writer) == ["seg-1.age", "seg-2.age"]  # written, not named
    assert world.pending(laptop) == pending
    # Another device sees only what a head names, and refuses nothing.
    report = world.sync(desktop)
    assert report.refused == ()
    assert desktop.titles() == ["One"]

    laptop.reply(chat, laptop.last(chat), "and more")
    world.sync(laptop)
    assert storage.segments(writer) == ["seg-1.age", "seg-2.age"]  # written over
    assert world.sync(desktop).refused == ()
    world.assert_converged()
    assert world.pending(laptop) == 0


def test_sync_state_lost_after_a_write_neither_loses_nor_duplicates(
    world: SyncWorld, dav: tuple[RemoteTarget, str], storage: Storage, enter: Enter
) -> None:
    """sync.db put back to its copy from before a sync (a crash before it was saved,
    a restored disk image): the log continues after what the storage holds."""
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*dav)
    writer = device_id(world, laptop)
    laptop.chat("One", "1?", "1.")
    world.sync(laptop)
    desktop.chat("Desk", "d?", "d.")
    world.sync(desktop)

    saved = _copy_sync_db(world, laptop)
    laptop.chat("Two", "2?", "2.")
    world.sync(laptop)  # receives Desk, sends Two as segment 2
    _put_back_sync_db(world, laptop, saved)

    laptop.chat("Three", "3?", "3.")
    report = world.sync(laptop)
    assert report.refused == ()
    assert storage.segments(writer) == ["seg-1.age", "seg-2.age", "seg-3.age"]
    assert world.pending(laptop) == 0
    assert world.sync(desktop).refused == ()
    state = world.assert_converged()
    assert sorted(c[1] for c in state["conversations"]) == ["Desk", "One", "Three", "Two"]
    assert len(state["messages"]) == 8

    # The receiving side: the desktop's sync.db loses what it applied and sent last.
    saved = _copy_sync_db(world, desktop)
    laptop.chat("Four", "4?", "4.")
    world.sync(laptop)
    desktop.reply(desktop.conversation_id("Desk"), None, "another start")
    world.sync(desktop)
    _put_back_sync_db(world, desktop, saved)
    assert world.sync(desktop).refused == ()
    world.settle()
    state = world.assert_converged()
    assert sorted(c[1] for c in state["conversations"]) == ["Desk", "Four", "One", "Three", "Two"]
    assert len(state["messages"]) == 11
    assert world.pending(desktop) == 0 and world.pending(laptop) == 0


def _copy_sync_db(world: SyncWorld, device: SyncDevice) -> dict[str, bytes]:
    """sync.db's files while nothing holds them open (the service reopens it)."""
    world.run(device.sync.aclose())
    root = device.paths.root
    return {
        name: (root / name).read_bytes()
        for name in (FILE_NAME, FILE_NAME + "-wal", FILE_NAME + "-shm")
        if (root / name).exists()
    }


def _put_back_sync_db(world: SyncWorld, device: SyncDevice, saved: dict[str, bytes]) -> None:
    world.run(device.sync.aclose())
    root = device.paths.root
    for name in (FILE_NAME, FILE_NAME + "-wal", FILE_NAME + "-shm"):
        (root / name).unlink(missing_ok=True)
    for name, data in saved.items():
        (root / name).write_bytes(data)


# --- the vault's life ----------------------------------------------------------------------


def test_creating_where_a_vault_is_and_joining_where_none_is_are_refused(
    world: SyncWorld, dav: tuple[RemoteTarget, str], storage: Storage, unique: str, enter: Enter
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    target, password = dav
    for secret in (VAULT_PASSPHRASE, codec.new_vault().key_text):
        world.set_password(target, password)
        error = world.fails(desktop.sync.join_vault(target, secret))
        assert isinstance(error, SyncError) and error.problem is SyncProblem.NO_VAULT, error
        assert "There is no Parley vault at" in str(error) and "Create one first" in str(error)
        assert desktop.sync.config.target is None
        assert sync_db_rows(desktop) == []

    enter(target, password, [laptop])
    vault_file = storage.path(codec.VAULT).read_bytes()
    error = world.fails(desktop.sync.create_vault(target, "another passphrase"))
    assert isinstance(error, SyncError) and error.problem is SyncProblem.VAULT_EXISTS, error
    assert "There is a vault at" in str(error) and "Join it instead" in str(error)
    assert storage.path(codec.VAULT).read_bytes() == vault_file
    assert desktop.sync.config.target is None
    assert desktop.sync.status.joined is False
    world.join(desktop)
    laptop.chat("Shared", "a", "b")
    world.settle()
    world.assert_converged()


def test_a_server_ignoring_if_none_match_does_not_let_a_vault_be_overwritten(
    world: SyncWorld,
    through_relay: tuple[RemoteTarget, str],
    relay: Relay,
    storage: Storage,
    enter: Enter,
) -> None:
    """Some servers (nginx's WebDAV module, older S3-compatible stores) ignore
    `If-None-Match: *` on PUT: creating a vault where one is must still be refused, not
    write over the key every device and the recovery key depend on."""
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*through_relay, [laptop])
    vault_file, check_file = storage.path(codec.VAULT), storage.path(codec.CHECK)
    before = (vault_file.read_bytes(), check_file.read_bytes())
    relay.dropped.add("if-none-match")
    target, _ = through_relay
    error = world.fails(desktop.sync.create_vault(target, "another passphrase"))
    assert isinstance(error, SyncError) and error.problem is SyncProblem.VAULT_EXISTS, error
    assert (vault_file.read_bytes(), check_file.read_bytes()) == before
    world.join(desktop)


def test_a_removed_device_stops_and_keeps_its_chats(
    world: SyncWorld, dav: tuple[RemoteTarget, str], memory_keyring: MemoryKeyring, enter: Enter
) -> None:
    laptop, old = world.add("laptop"), world.add("old")
    enter(*dav)
    old.chat("From old", "a", "b")
    world.settle()
    old_id = device_id(world, old)
    world.run(laptop.sync.remove_device(old_id))
    assert [d.removed for d in laptop.sync.status.devices if d.device_id == old_id] == [True]

    error = world.fails(old.sync.sync_now())
    assert isinstance(error, SyncError) and error.problem is SyncProblem.REMOVED, error
    assert "removed from the sync vault on another device" in str(error)
    assert old.sync.status.joined is False
    assert old.titles() == ["From old"]
    with pytest.raises(SyncError) as caught:
        world.run(old.sync.recovery_key())
    assert caught.value.problem is SyncProblem.NOT_JOINED
    error = world.fails(old.sync.sync_now())
    assert isinstance(error, SyncError) and error.problem is SyncProblem.NOT_JOINED
    assert laptop.titles() == ["From old"]


def _three_with_ids(world: SyncWorld) -> tuple[SyncDevice, SyncDevice, SyncDevice]:
    """laptop, old and phone, read in that order by everyone (ids sorted so)."""
    laptop = with_device_id(world.add("laptop"), "0a" * 8)
    old = with_device_id(world.add("old"), "fb" * 8)
    phone = with_device_id(world.add("phone"), "c0" * 8)
    return laptop, old, phone


def _remove_during_sync(
    world: SyncWorld, relay: Relay, laptop: SyncDevice, old: SyncDevice
) -> SyncReport:
    """`old` syncs; after it has read everything and before it writes, the laptop
    removes it: what it writes then comes after its removal."""
    old_id = device_id(world, old)
    gate = relay.add(
        Rule(f"/{codec.head_name(old_id)}", method="GET", skip=1, times=1, hold=threading.Event())
    )

    async def race() -> SyncReport:
        async def remove() -> None:
            try:
                await wait_for(gate.arrived.is_set)
                await laptop.sync.remove_device(old_id)
            finally:
                assert gate.hold is not None
                gate.hold.set()

        report, _ = await asyncio.gather(old.sync.sync_now(), remove())
        return report

    return world.run(race())


def test_what_a_removed_device_sends_after_its_removal_is_ignored(
    world: SyncWorld, through_relay: tuple[RemoteTarget, str], relay: Relay, enter: Enter
) -> None:
    laptop, old, _ = _three_with_ids(world)
    enter(*through_relay)
    old.chat("Before", "a", "b")
    world.settle()

    old.chat("After", "c", "d")
    report = _remove_during_sync(world, relay, laptop, old)
    assert report.sent > 0  # it wrote before it knew

    assert world.sync(laptop).received == 0
    assert laptop.titles() == ["Before"]
    error = world.fails(old.sync.sync_now())
    assert isinstance(error, SyncError) and error.problem is SyncProblem.REMOVED
    world.sync(laptop)
    assert laptop.titles() == ["Before"]


def test_a_third_device_ignores_what_a_removed_device_sent_after_its_removal(
    world: SyncWorld, through_relay: tuple[RemoteTarget, str], relay: Relay, enter: Enter
) -> None:
    laptop, old, phone = _three_with_ids(world)
    enter(*through_relay)
    old.chat("Before", "a", "b")
    world.settle()
    old_id = device_id(world, old)

    old.chat("After", "c", "d")
    _remove_during_sync(world, relay, laptop, old)

    world.sync(phone)  # reads the laptop's removal, then the old device's log
    assert phone.titles() == ["Before"]
    assert [d.removed for d in phone.sync.status.devices if d.device_id == old_id] == [True]
    world.sync(phone)
    assert phone.titles() == ["Before"]
    world.sync(laptop)
    assert phone.state() == laptop.state()


def test_a_removed_device_that_joins_again_syncs_again(
    world: SyncWorld, dav: tuple[RemoteTarget, str], enter: Enter
) -> None:
    """The removal's sentence says "join the vault again to sync": doing so works."""
    laptop, old = world.add("laptop"), world.add("old")
    enter(*dav)
    old.chat("Before", "a", "b")
    world.settle()
    world.run(laptop.sync.remove_device(device_id(world, old)))
    error = world.fails(old.sync.sync_now())
    assert isinstance(error, SyncError) and error.problem is SyncProblem.REMOVED

    world.join(old)
    old.chat("Back again", "e", "f")
    world.sync(old)
    world.sync(laptop)
    assert laptop.titles() == ["Back again", "Before"]


def test_what_a_device_sent_before_its_removal_stays_on_every_device(
    world: SyncWorld, dav: tuple[RemoteTarget, str], enter: Enter
) -> None:
    """The old device sent a chat and the phone received it; the laptop, not synced
    since, then removes the old device. What was in the storage before the removal is
    the vault's, on every device: the laptop gets it too, and the two agree."""
    laptop, old, phone = world.add("laptop"), world.add("old"), world.add("phone")
    enter(*dav)
    old.chat("Before", "a", "b")
    world.settle()
    old.chat("Sent before the removal", "c", "d")
    world.sync(old)
    world.sync(phone)
    assert phone.titles() == ["Before", "Sent before the removal"]

    world.run(laptop.sync.remove_device(device_id(world, old)))
    world.settle(order=[laptop, phone])
    assert laptop.titles() == ["Before", "Sent before the removal"]
    assert laptop.state() == phone.state()


def test_a_missing_bucket_points_to_sync_settings(
    world: SyncWorld, s3_endpoint: str, unique: str
) -> None:
    """Every sentence of a sync names where to fix it: Settings → Sync, not the backup
    window (which holds another target)."""
    laptop = world.add("laptop")
    target = S3Target(s3_endpoint, "no-such-bucket", prefix=unique, access_key_id=ACCESS_KEY)
    world.set_password(target, SECRET_KEY)
    for attempt in (
        lambda: laptop.sync.create_vault(target, VAULT_PASSPHRASE),
        lambda: laptop.sync.test(target),
    ):
        error = world.fails(attempt())
        assert isinstance(error, RemoteError) and error.problem is RemoteProblem.NOT_FOUND, error
        assert "no-such-bucket" in str(error), error
        assert "Back Up" not in str(error) and "Settings → Sync" in str(error), error


def test_this_devices_own_log_lost_or_altered_at_the_storage(
    world: SyncWorld, dav: tuple[RemoteTarget, str], storage: Storage, enter: Enter
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*dav)
    writer = device_id(world, laptop)
    laptop.chat("One", "1?", "1.")
    world.sync(laptop)
    world.sync(desktop)

    # Its head lost: the log goes on from what the laptop knows, without a gap.
    storage.head(writer).unlink()
    laptop.chat("Two", "2?", "2.")
    world.sync(laptop)
    assert storage.segments(writer) == ["seg-1.age", "seg-2.age"]
    assert world.sync(desktop).refused == ()
    late = world.add("late")
    world.join(late)
    assert world.sync(late).refused == ()
    assert late.titles() == ["One", "Two"]

    # Its head altered: the laptop says so and sends nothing over it.
    original = Snapshot(storage.head(writer))
    flip(storage.head(writer), -3)
    laptop.chat("Three", "3?", "3.")
    pending = world.pending(laptop)
    error = world.fails(laptop.sync.sync_now())
    assert isinstance(error, SyncError) and error.problem is SyncProblem.TAMPERED, error
    assert "This computer's own changes at the storage were altered" in str(error)
    assert world.pending(laptop) == pending
    assert storage.segments(writer) == ["seg-1.age", "seg-2.age"]
    original.restore()
    world.settle()
    world.assert_converged()


def test_folders_the_storage_added_among_the_devices_change_nothing(
    world: SyncWorld, dav: tuple[RemoteTarget, str], storage: Storage, enter: Enter
) -> None:
    """A NAS's index folders, a sync client's trash, a name no device would write (a
    backslash in it): the devices' changes still apply, and the sync does not stop."""
    laptop, desktop = world.add("laptop"), world.add("desktop")
    enter(*dav)
    laptop.chat("Real", "a", "b")
    world.sync(laptop)
    devices = storage.path(codec.DEVICES)
    for junk in ("@eaDir", ".Trash-1000", "with space", "back\\slash"):
        (devices / junk).mkdir()
        (devices / junk / "SYNO_INDEX").write_bytes(b"index")
    report = world.sync(desktop)
    assert desktop.titles() == ["Real"]
    assert all("slash" in sentence for sentence in report.refused), report.refused
    world.settle()
    world.assert_converged()


# --- the same checks on the other kinds of storage ----------------------------------------


class Objects:
    """The vault's objects in an S3 prefix (through boto3) or in a folder, to alter
    behind the store's back."""

    def __init__(self, folder: Path | None = None, s3: tuple[str, str] | None = None) -> None:
        self._folder = folder
        self._prefix = ""
        if s3 is not None:
            import boto3

            endpoint, self._prefix = s3
            self._s3 = boto3.client(
                "s3",
                endpoint_url=endpoint,
                region_name=REGION,
                aws_access_key_id=ACCESS_KEY,
                aws_secret_access_key=SECRET_KEY,
            )

    def get(self, name: str) -> bytes:
        if self._folder is not None:
            return (self._folder / name).read_bytes()
        return self._s3.get_object(Bucket=BUCKET, Key=f"{self._prefix}/{name}")["Body"].read()

    def put(self, name: str, data: bytes) -> None:
        if self._folder is not None:
            (self._folder / name).parent.mkdir(parents=True, exist_ok=True)
            (self._folder / name).write_bytes(data)
        else:
            self._s3.put_object(Bucket=BUCKET, Key=f"{self._prefix}/{name}", Body=data)

    def delete(self, name: str) -> None:
        if self._folder is not None:
            (self._folder / name).unlink()
        else:
            self._s3.delete_object(Bucket=BUCKET, Key=f"{self._prefix}/{name}")


@pytest.fixture(params=["s3", "folder"])
def elsewhere(
    request: pytest.FixtureRequest, s3_endpoint: str, unique: str, tmp_path: Path
) -> tuple[RemoteTarget, str | None, Objects]:
    if request.param == "s3":
        target, secret = s3_target(s3_endpoint, unique)
        return target, secret, Objects(s3=(s3_endpoint, unique))
    folder_target_, no_secret = folder_target(tmp_path / "storage")
    return folder_target_, no_secret, Objects(folder=tmp_path / "storage")


def test_an_altered_log_is_refused_on_s3_and_in_a_folder(
    world: SyncWorld,
    elsewhere: tuple[RemoteTarget, str | None, Objects],
    locked_vault: tuple[codec.Vault, bytes],
) -> None:
    target, secret, objects = elsewhere
    vault, locked = locked_vault
    objects.put(codec.VAULT, locked)
    objects.put(codec.CHECK, codec.check_object(vault))
    laptop, phone = world.add("laptop"), world.add("phone")
    world.set_password(target, secret)
    world.target, world.recovery_key = target, vault.key_text
    for device in (laptop, phone):
        world.join(device)
    for title in ("One", "Two", "Three"):
        laptop.chat(title, f"{title}?", f"{title}.")
        world.sync(laptop)
    phone.chat("From the phone", "hi", "hello")
    world.sync(phone)
    writer = device_id(world, laptop)
    second = codec.segment_name(writer, 2)
    data = objects.get(second)

    for name, alter, detail in (
        ("missing", lambda: objects.delete(second), "segment 2 is missing"),
        (
            "flipped",
            lambda: objects.put(second, data[:-1] + bytes([data[-1] ^ 1])),
            "cannot be decrypted",
        ),
        (
            "replayed",
            lambda: objects.put(second, objects.get(codec.segment_name(writer, 1))),
            "swapped or replayed",
        ),
    ):
        reader = world.add(f"reader-{name}")
        world.join(reader)
        alter()
        report = world.sync(reader)
        objects.put(second, data)
        assert len(report.refused) == 1, (name, report.refused)
        assert_refused(report.refused[0], "laptop", detail)
        assert reader.titles() == ["From the phone", "One"], name
        assert world.sync(reader).refused == (), name
        assert reader.titles() == ["From the phone", "One", "Three", "Two"], name
