"""Backing up and restoring through BackupService against real servers on loopback:
WsgiDAV and moto's S3, with the target's password or secret key read from the keyring,
and fault servers for what real servers will not do on demand (507, silence, an
untrusted certificate). Whatever fails, the message is a sentence a person can act on
and the data on this device is exactly as it was."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, Final, TypeVar

import httpx
import pytest

from desktop.core.attachments import Attachment, AttachmentKind
from desktop.core.errors import ParleyError
from desktop.core.models import ContextSnapshot, Message, MessageStatus, Role, TextPart, new_id
from desktop.core.remote_target import RemoteTarget, S3Target, WebDavTarget, secret_name
from desktop.core.settings import NetworkSettings, ProxyMode
from desktop.engine.backup.errors import BackupError, BackupProblem
from desktop.engine.remote.errors import RemoteError, RemoteProblem
from tests.engine.backup.backup_world import PASSPHRASE, Clock, Device
from tests.engine.backup.conftest import DAV_PASSWORD, DAV_USER
from tests.engine.remote.conftest import BUCKET, DavServer
from tests.support.memory_keyring import MemoryKeyring
from tests.support.remote_servers import (
    ACCESS_KEY,
    HANG,
    SECRET_KEY,
    FaultServer,
    Reply,
    Seen,
    self_signed_certificate,
    tls_context,
)
from tests.support.waiting import CEILING_S

T = TypeVar("T")

SHORT: Final = httpx.Timeout(1.0, connect=15.0)
"""The per-request timeout of the stalling-server test: a server that never answers is
given up on after it (nothing else is timed: that server never answers at all)."""

SHIPPED_READ_TIMEOUT_S: Final = 60.0
EMPTY_LISTING: Final = b'<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"></d:multistatus>'
PHOTO: Final = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64


class World:
    """Two devices and the one event loop their requests run on. The settings' HTTP
    client keeps connections that belong to the loop that opened them, as the app
    (one loop for its whole life) does; a loop per call would strand them."""

    def __init__(self, root: Path, clock: Clock, timeout: httpx.Timeout | None) -> None:
        self.loop = asyncio.new_event_loop()
        extra = {} if timeout is None else {"timeout": timeout}
        self.laptop = Device(root / "laptop", "laptop", clock, **extra)
        self.desktop = Device(root / "desktop", "desktop", clock, **extra)

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, CEILING_S))

    def fails(self, coroutine: Coroutine[Any, Any, object]) -> ParleyError:
        with pytest.raises(ParleyError) as caught:
            self.run(coroutine)
        return caught.value

    def close(self) -> None:
        for device in (self.laptop, self.desktop):
            self.run(device.aclose())
        self.loop.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_world(
    tmp_path: Path, clock: Clock, memory_keyring: object
) -> Iterator[Callable[..., World]]:
    made: list[World] = []

    def make(timeout: httpx.Timeout | None = None) -> World:
        world = World(tmp_path / f"world-{len(made)}", clock, timeout)
        made.append(world)
        return world

    yield make
    for world in made:
        world.close()


@pytest.fixture
def world(make_world: Callable[..., World]) -> World:
    return make_world()


def webdav_target(server: DavServer, folder: str) -> tuple[WebDavTarget, str]:
    return WebDavTarget(f"{server.url}/{folder}", DAV_USER), DAV_PASSWORD


def s3_target(endpoint: str, prefix: str) -> tuple[S3Target, str]:
    return S3Target(endpoint, BUCKET, prefix=prefix, access_key_id=ACCESS_KEY), SECRET_KEY


@pytest.fixture(params=["webdav", "s3"])
def remote(
    request: pytest.FixtureRequest, dav_users: DavServer, s3_endpoint: str, unique: str
) -> tuple[RemoteTarget, str]:
    """A fresh folder on the WebDAV server or prefix in the bucket, and its secret."""
    if request.param == "webdav":
        return webdav_target(dav_users, unique)
    return s3_target(s3_endpoint, unique)


def share(world: World, target: RemoteTarget, secret: str, *, keep: int = 7) -> None:
    """Both devices back up to `target`; its secret goes into the keyring only."""
    for device in (world.laptop, world.desktop):
        device.use(target, keep=keep)
    world.run(world.laptop.settings.set_secret(secret_name(target, "password"), secret))


def attach(device: Device, conversation_id: str, data: bytes) -> Attachment:
    """A photo sent as a reply in `conversation_id`, as the composer stores one."""
    photo = device.store.put_bytes(
        data, name="photo.png", mime="image/png", kind=AttachmentKind.IMAGE
    )
    last = device.repo.messages(conversation_id)[-1]
    device.repo.add_message(
        Message(
            id=new_id(),
            conversation_id=conversation_id,
            parent_id=last.id,
            role=Role.USER,
            parts=[TextPart("And this one?")],
            status=MessageStatus.COMPLETE,
            context=ContextSnapshot(attachment_ids=(photo.id,), context_captured=True),
        )
    )
    return photo


def assert_sentence(error: ParleyError, *words: str) -> None:
    """A plain sentence (the server's own words may follow in parentheses) with `words`."""
    message = str(error)
    sentence = re.split(r"(?<=[.…]) \(", message, maxsplit=1)[0]
    assert sentence[0].isupper() and sentence.endswith((".", "…")), message
    assert "Traceback" not in message and "httpx" not in message, message
    for word in words:
        assert word in message, message


async def keep_a_file_there(device: Device, target: RemoteTarget) -> None:
    """Someone's own notes.txt in the backup folder (made first, as a person would)."""
    store = await device.service.store_for(target)
    await store.check()
    await store.put_bytes("notes.txt", b"mine")


def no_scratch_left(device: Device) -> bool:
    return not list(device.paths.root.glob("backup-work-*"))


# -- round trips ------------------------------------------------------------------------


def test_back_up_list_prune_and_merge_onto_the_other_device(
    world: World, remote: tuple[RemoteTarget, str], clock: Clock, memory_keyring: MemoryKeyring
) -> None:
    target, secret = remote
    laptop, desktop = world.laptop, world.desktop
    share(world, target, secret, keep=1)
    assert secret in memory_keyring.passwords.values()
    assert secret not in laptop.paths.settings.read_text()
    trip = laptop.chat("Trip", "Where to?", "Kyoto — 京都")
    photo = attach(laptop, trip, PHOTO)
    desktop.chat("Recipes", "Bread?", "Flour, water, salt, yeast.")
    # A file someone else keeps there is neither listed nor pruned.
    world.run(keep_a_file_there(laptop, target))

    first = world.run(laptop.service.back_up(PASSPHRASE))
    clock.advance(minutes=5)
    second = world.run(laptop.service.back_up(PASSPHRASE))
    assert (first.pruned, second.pruned) == (0, 1)

    listed = world.run(desktop.service.list_backups())
    assert [(e.name, e.device, e.this_device) for e in listed] == [(second.name, "laptop", False)]
    assert listed[0].size == second.size
    stored = world.run(world.run(desktop.service.store_for(target)).list())
    assert sorted(item.name for item in stored) == sorted([second.name, "notes.txt"])

    restored = world.run(desktop.service.restore(second.name, PASSPHRASE))
    assert restored.merged is not None and restored.merged.messages_added == 3
    assert desktop.texts() == {
        "Trip": sorted(["Where to?", "Kyoto — 京都", "And this one?"]),
        "Recipes": sorted(["Bread?", "Flour, water, salt, yeast."]),
    }
    arrived = desktop.store.get(photo.id)
    assert arrived is not None and desktop.store.read_bytes(arrived) == PHOTO
    assert no_scratch_left(desktop) and no_scratch_left(laptop)


def test_an_older_backup_restored_onto_newer_data_loses_nothing(
    world: World, s3_endpoint: str, unique: str, clock: Clock
) -> None:
    target, secret = s3_target(s3_endpoint, unique)
    laptop = world.laptop
    share(world, target, secret)
    trip = laptop.chat("Trip", "Where to?", "Kyoto")
    gone = laptop.chat("Old plan", "Paris?", "Maybe.")
    older = world.run(laptop.service.back_up(PASSPHRASE))

    clock.advance(hours=1)
    laptop.repo.rename_conversation(trip, "Trip to Japan")
    photo = attach(laptop, trip, PHOTO)
    laptop.repo.delete_conversation(gone)
    laptop.chat("Later", "And now?", "Osaka.")
    newer = laptop.texts()

    restored = world.run(laptop.service.restore(older.name, PASSPHRASE))
    assert restored.merged is not None and restored.merged.messages_added == 0
    assert laptop.texts() == newer
    assert "Old plan" not in newer  # deleted after the backup: stays deleted
    kept = laptop.store.get(photo.id)
    assert kept is not None and laptop.store.read_bytes(kept) == PHOTO


# -- failures at real servers -------------------------------------------------------------


def test_a_wrong_webdav_password_is_a_sign_in_problem_and_nothing_is_written(
    world: World, dav_users: DavServer, unique: str
) -> None:
    target, secret = webdav_target(dav_users, unique)
    laptop, desktop = world.laptop, world.desktop
    share(world, target, secret)
    laptop.chat("Trip", "Where to?", "Kyoto")
    assert not (dav_users.root / unique).exists()  # the first backup makes the folder
    made = world.run(laptop.service.back_up(PASSPHRASE))
    on_server = sorted(p.name for p in (dav_users.root / unique).iterdir())
    assert on_server == [made.name]

    world.run(desktop.settings.set_secret(secret_name(target, "password"), "wrong"))
    state_before = desktop.service.state
    error = world.fails(desktop.service.back_up(PASSPHRASE))
    assert isinstance(error, RemoteError) and error.problem is RemoteProblem.AUTH
    assert error.status == 401
    assert_sentence(error, "refused the user name or password", target.url, "File → Back Up")
    assert desktop.service.state.last_error == str(error)
    assert desktop.service.state.last_success == state_before.last_success

    before = desktop.digest()
    error = world.fails(desktop.service.restore(made.name, PASSPHRASE))
    assert isinstance(error, RemoteError) and error.problem is RemoteProblem.AUTH
    assert desktop.digest() == before
    assert sorted(p.name for p in (dav_users.root / unique).iterdir()) == on_server
    assert no_scratch_left(desktop)


def test_a_tampered_archive_at_the_target_changes_nothing_here(
    world: World, dav_users: DavServer, unique: str
) -> None:
    target, secret = webdav_target(dav_users, unique)
    laptop, desktop = world.laptop, world.desktop
    share(world, target, secret)
    trip = laptop.chat("Trip", "Where to?", "Kyoto")
    attach(laptop, trip, PHOTO)
    desktop.chat("Recipes", "Bread?", "Yes.")
    made = world.run(laptop.service.back_up(PASSPHRASE))
    stored = dav_users.root / unique / made.name
    data = bytearray(stored.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 8] = bytes(b ^ 0xFF for b in data[middle : middle + 8])
    stored.write_bytes(bytes(data))

    before = desktop.digest()
    error = world.fails(desktop.service.restore(made.name, PASSPHRASE))
    assert isinstance(error, BackupError) and error.problem is BackupProblem.TAMPERED
    assert_sentence(error, "changed or damaged", "nothing was restored")
    assert desktop.digest() == before
    assert desktop.texts() == {"Recipes": sorted(["Bread?", "Yes."])}
    assert no_scratch_left(desktop)


# -- failures only a fault server produces on demand ----------------------------------------


def webdav_answering(put: Reply | None) -> Callable[[Seen], Reply | None]:
    """A WebDAV server with an empty folder that answers uploads with `put`."""

    def respond(seen: Seen) -> Reply | None:
        if seen.method == "PROPFIND":
            return Reply(207, EMPTY_LISTING, {"Content-Type": "application/xml"})
        if seen.method == "PUT":
            return put
        return Reply(201)

    return respond


def test_a_full_server_says_so_and_no_older_backup_is_removed(world: World) -> None:
    laptop = world.laptop
    laptop.chat("Trip", "Where to?", "Kyoto")
    with FaultServer(webdav_answering(Reply(507, b"Insufficient Storage"))) as server:
        target = WebDavTarget(f"{server.url}/parley")
        laptop.use(target, keep=1)
        error = world.fails(laptop.service.back_up(PASSPHRASE))
        methods = [seen.method for seen in server.seen]
    assert isinstance(error, RemoteError) and error.problem is RemoteProblem.NO_SPACE
    assert error.status == 507
    assert_sentence(error, "out of space", target.url)
    assert "PUT" in methods and "DELETE" not in methods
    assert laptop.service.state.last_error == str(error)
    assert no_scratch_left(laptop)


def test_older_backups_that_cannot_be_removed_do_not_fail_the_backup(world: World) -> None:
    """The new backup is at the target; counting the run as failed would retry it
    within the hour and leave one more backup there each time."""
    laptop = world.laptop
    laptop.chat("Trip", "Where to?", "Kyoto")
    older = "parley-backup-20261201T080000Z-laptop.parley"
    stored = [f"/parley/{older}"]

    def respond(seen: Seen) -> Reply:
        """Lists what it was given; refuses to delete anything."""
        if seen.method == "PROPFIND":
            entries = b"".join(
                b"<d:response><d:href>" + path.encode() + b"</d:href></d:response>"
                for path in stored
            )
            listing = (
                b'<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">'
                b"<d:response><d:href>/parley/</d:href></d:response>"
                + entries
                + b"</d:multistatus>"
            )
            return Reply(207, listing, {"Content-Type": "application/xml"})
        if seen.method == "PUT":
            stored.append(seen.path)
        return Reply(403) if seen.method == "DELETE" else Reply(201)

    with FaultServer(respond) as server:
        laptop.use(WebDavTarget(f"{server.url}/parley"), keep=1)
        done = world.run(laptop.service.back_up(PASSPHRASE))
        deleted = [seen.path for seen in server.seen if seen.method == "DELETE"]
    assert deleted == [f"/parley/{older}"]
    assert done.pruned == 0
    assert done.prune_error.startswith("The backup was written, but older backups could not")
    assert "permission" in done.prune_error
    state = laptop.service.state
    assert state.last_name == done.name and state.last_error == ""


def test_a_server_that_stalls_times_out_after_the_configured_time(
    make_world: Callable[..., World],
) -> None:
    world = make_world(SHORT)
    laptop = world.laptop
    laptop.chat("Trip", "Where to?", "Kyoto")
    with FaultServer(lambda _seen: HANG) as server:
        target = WebDavTarget(f"{server.url}/parley")
        laptop.use(target)
        started = time.monotonic()
        error = world.fails(laptop.service.back_up(PASSPHRASE))
        waited = time.monotonic() - started
        before = laptop.digest()
        restore_error = world.fails(laptop.service.restore("any.parley-backup", PASSPHRASE))
    for failure in (error, restore_error):
        assert isinstance(failure, RemoteError) and failure.problem is RemoteProblem.TIMEOUT
        assert_sentence(failure, "did not answer in time", target.url)
    # The configured second, not the shipped minute, however slow the machine.
    assert waited < SHIPPED_READ_TIMEOUT_S / 2
    assert laptop.digest() == before
    assert no_scratch_left(laptop)


# -- the network settings apply to backups ---------------------------------------------------


def test_an_untrusted_certificate_is_a_tls_problem_until_its_ca_bundle_is_set(
    world: World, tmp_path: Path
) -> None:
    laptop = world.laptop
    certificate, key = self_signed_certificate(tmp_path / "tls")
    with FaultServer(webdav_answering(Reply(201)), tls=tls_context(certificate, key)) as server:
        target = WebDavTarget(f"{server.url}/parley")
        laptop.use(target)
        error = world.fails(laptop.service.back_up(PASSPHRASE))
        assert isinstance(error, RemoteError) and error.problem is RemoteProblem.TLS
        assert_sentence(error, "certificate", "CA bundle", "Settings → Network", target.url)
        assert server.seen == []

        settings = laptop.settings.settings
        network = NetworkSettings(ProxyMode.NONE, "", str(certificate))
        laptop.settings.save(replace(settings, network=network))
        world.run(laptop.service.test(target))
        assert world.run(laptop.service.list_backups()) == []
        assert [seen.method for seen in server.seen] == ["PROPFIND", "PROPFIND"]


def test_requests_go_through_the_proxy_of_the_network_settings(world: World) -> None:
    laptop = world.laptop
    with FaultServer(webdav_answering(Reply(201))) as proxy:
        settings = laptop.settings.settings
        network = NetworkSettings(ProxyMode.CUSTOM, proxy.url, "")
        laptop.settings.save(replace(settings, network=network))
        # Reachable only through the proxy: the name does not resolve.
        target = WebDavTarget("http://backups.invalid/parley")
        assert world.run(laptop.service.list_backups(target)) == []
        assert [(seen.method, seen.path) for seen in proxy.seen] == [
            ("PROPFIND", "http://backups.invalid/parley/")
        ]
