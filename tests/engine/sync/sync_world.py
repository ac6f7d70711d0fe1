"""Data folders that sync with each other through SyncService, as the app builds them.

A `SyncWorld` holds one event loop and the devices of a test; each `SyncDevice` is a
data folder (the backup tests' `Device`) with its `SyncService`, plus the writes a
person makes (chats, replies, regenerations, renames, pins, deletions, memories,
attachments) and `state()`: what a person sees, in a canonical form that compares
equal across devices once they have converged.

All devices share one `Clock` (advanced a second by each write, so every write has its
own time, and by each sync) and one keyring (the `memory_keyring` fixture): the
target's password is put there once. The vault key is held in each service's memory;
`start()` is never called, so every sync is asked for explicitly (`sync`, `sync_all`,
`settle`).
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Coroutine, Iterable, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar
from urllib.parse import urlsplit

import httpx
import pytest

from desktop.core.attachments import Attachment, AttachmentKind
from desktop.core.errors import ParleyError
from desktop.core.models import ContextSnapshot, Message, MessageStatus, Role, TextPart, new_id
from desktop.core.remote_target import FolderTarget, RemoteTarget, S3Target, WebDavTarget
from desktop.core.remote_target import secret_name as target_secret_name
from desktop.engine.remote.base import DEFAULT_TIMEOUT
from desktop.engine.sync import codec
from desktop.engine.sync.service import SyncReport, SyncService
from desktop.storage.memories import MemoryRepository
from tests.engine.backup.backup_world import Clock, Device
from tests.engine.backup.conftest import DAV_PASSWORD, DAV_USER
from tests.engine.remote.conftest import BUCKET, DavServer
from tests.support.remote_servers import ACCESS_KEY, SECRET_KEY
from tests.support.waiting import CEILING_S

T = TypeVar("T")

VAULT_PASSPHRASE: Final = "correct horse battery staple"
GLOBAL: Final = "global"

__all__ = [
    "GLOBAL",
    "VAULT_PASSPHRASE",
    "Clock",
    "State",
    "SyncDevice",
    "SyncWorld",
    "TcpRelay",
    "dav_target",
    "folder_target",
    "s3_target",
]

State = dict[str, Any]


# --- targets ---------------------------------------------------------------------------


def folder_target(root: Path) -> tuple[FolderTarget, str | None]:
    """A folder store (no password)."""
    root.mkdir(parents=True, exist_ok=True)
    return FolderTarget(str(root)), None


def dav_target(server: DavServer, folder: str) -> tuple[WebDavTarget, str]:
    """A folder on the `dav_users` WsgiDAV server and alice's password."""
    return WebDavTarget(f"{server.url}/{folder}", DAV_USER), DAV_PASSWORD


def s3_target(endpoint: str, prefix: str) -> tuple[S3Target, str]:
    """A prefix in moto's bucket and its secret key."""
    return S3Target(endpoint, BUCKET, prefix=prefix, access_key_id=ACCESS_KEY), SECRET_KEY


class TcpRelay:
    """A TCP relay on a fixed loopback port in front of a server, run on the world's
    loop: `stop()` closes it and every connection through it (the server is then
    unreachable: connection refused), `start()` opens it again on the same port, so a
    target naming `url` works again."""

    def __init__(self, world: SyncWorld, upstream: str) -> None:
        parts = urlsplit(upstream)
        self._world = world
        self._upstream = (parts.hostname or "127.0.0.1", parts.port or 80)
        self._scheme_path = (parts.scheme, parts.path)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.port = 0
        world.relays.append(self)

    @property
    def url(self) -> str:
        scheme, path = self._scheme_path
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    def start(self) -> TcpRelay:
        self._world.run(self._start())
        return self

    async def _start(self) -> None:
        self._server = await asyncio.start_server(
            self._handle, "127.0.0.1", self.port, reuse_address=True
        )
        self.port = int(self._server.sockets[0].getsockname()[1])

    def stop(self) -> None:
        self._world.run(self._stop())

    async def _stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for writer in list(self._writers):
                writer.close()
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            await self._server.wait_closed()
            self._server = None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._relay(reader, writer)
        except asyncio.CancelledError:
            pass
        finally:
            self._tasks.discard(task)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self._upstream)
        except OSError:
            writer.close()
            return
        self._writers.update((writer, up_writer))

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                sink.close()

        try:
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        finally:
            self._writers.difference_update((writer, up_writer))


# --- one device --------------------------------------------------------------------------


class SyncDevice(Device):
    """One computer's data folder, its SyncService and a person's writes to it."""

    def __init__(
        self,
        root: Path,
        name: str,
        clock: Clock,
        *,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> None:
        super().__init__(root, name, clock, timeout=timeout)
        self.name = name
        self.clock = clock
        self.memories = MemoryRepository(self.db, clock=clock)
        self.sync = SyncService(
            self.paths,
            self.db,
            self.store,
            self.settings,
            self.events,
            device_name=name,
            clock=clock,
            timeout=timeout,
        )

    def __repr__(self) -> str:
        return f"SyncDevice({self.name})"

    def _tick(self) -> None:
        self.clock.advance(seconds=1)

    # --- chats ---------------------------------------------------------------------

    def chat(self, title: str, *texts: str) -> str:
        """A new conversation with one branch of alternating user / assistant messages."""
        self._tick()
        conversation = self.repo.create_conversation(title)
        parent: str | None = None
        for i, text in enumerate(texts):
            parent = self.reply(
                conversation.id, parent, text, Role.USER if i % 2 == 0 else Role.ASSISTANT
            )
        return conversation.id

    def reply(
        self,
        conversation_id: str,
        parent_id: str | None,
        text: str,
        role: Role | None = None,
        *,
        status: MessageStatus = MessageStatus.COMPLETE,
        attachment_ids: Sequence[str] = (),
        workspace_file: str | None = None,
    ) -> str:
        """A message under `parent_id`; its role alternates with the parent's unless
        given. Returns its id."""
        self._tick()
        if role is None:
            parent = self.repo.get_message(parent_id) if parent_id else None
            role = Role.ASSISTANT if parent is not None and parent.role is Role.USER else Role.USER
        context = ContextSnapshot()
        if attachment_ids or workspace_file:
            context = ContextSnapshot(
                attachment_ids=tuple(attachment_ids),
                workspace_file=workspace_file,
                context_captured=True,
            )
        message = Message(
            id=new_id(),
            conversation_id=conversation_id,
            parent_id=parent_id,
            role=role,
            parts=[TextPart(text)],
            status=status,
            created_at=self.clock(),
            context=context,
        )
        return self.repo.add_message(message).id

    def regenerate(self, message_id: str, text: str) -> str:
        """Another answer beside `message_id` (a sibling: the same parent and role)."""
        original = self.repo.get_message(message_id)
        assert original is not None, message_id
        return self.reply(original.conversation_id, original.parent_id, text, original.role)

    def finish(self, message_id: str, text: str) -> None:
        """A streaming message completes with `text`."""
        self._tick()
        message = self.repo.get_message(message_id)
        assert message is not None, message_id
        message.parts = [TextPart(text)]
        message.status = MessageStatus.COMPLETE
        message.finished_at = self.clock()
        self.repo.save_message(message)

    def rename(self, conversation_id: str, title: str) -> None:
        self._tick()
        self.repo.rename_conversation(conversation_id, title)

    def pin(self, conversation_id: str, pinned: bool = True) -> None:
        self._tick()
        self.repo.set_pinned(conversation_id, pinned)

    def delete_chat(self, conversation_id: str) -> None:
        self._tick()
        self.repo.delete_conversation(conversation_id)

    def delete_subtree(self, message_id: str) -> None:
        self._tick()
        self.repo.delete_message(message_id)

    def leaves(self, conversation_id: str) -> list[str]:
        """Ids of the messages without children, oldest first."""
        found = self.repo.messages(conversation_id)
        parents = {m.parent_id for m in found}
        return [m.id for m in found if m.id not in parents]

    def last(self, conversation_id: str) -> str:
        """The newest message of the conversation."""
        return self.repo.messages(conversation_id)[-1].id

    def conversation_id(self, title: str) -> str:
        matches = [c.id for c in self.repo.list_conversations() if c.title == title]
        assert len(matches) == 1, (title, matches)
        return matches[0]

    # --- memories ------------------------------------------------------------------

    def remember(self, text: str, scope: str = GLOBAL) -> str:
        self._tick()
        return self.memories.add(scope, text).id

    def edit_memory(self, memory_id: str, text: str) -> None:
        self._tick()
        self.memories.update_text(memory_id, text)

    def forget(self, memory_id: str) -> None:
        self._tick()
        self.memories.delete(memory_id)

    # --- attachments ---------------------------------------------------------------

    def attach(
        self,
        conversation_id: str,
        parent_id: str | None,
        data: bytes,
        *,
        name: str = "photo.png",
        mime: str = "image/png",
        kind: AttachmentKind = AttachmentKind.IMAGE,
        text: str = "And this one?",
    ) -> tuple[str, Attachment]:
        """A user message carrying `data` as a file, as the composer stores one."""
        attachment = self.store.put_bytes(data, name=name, mime=mime, kind=kind)
        mid = self.reply(
            conversation_id, parent_id, text, Role.USER, attachment_ids=[attachment.id]
        )
        return mid, attachment

    # --- what a person sees --------------------------------------------------------

    def state(self) -> State:
        """Conversations, messages, memories and attachment rows, without what stays on
        one device (workspace, summary, activity and change times, search text)."""
        with self.db.read() as conn:
            conversations = sorted(
                (
                    row[0],
                    row[1],
                    bool(row[2]),
                    bool(row[3]),
                    row[4],
                    row[5],
                    tuple(json.loads(row[6] or "[]")),
                )
                for row in conn.exec_driver_sql(
                    "SELECT id, title, pinned, archived, assistant_id, system_prompt,"
                    " pinned_message_ids FROM conversations"
                )
            )
            messages = sorted(
                (
                    row[0],
                    row[1],
                    row[2],
                    row[3],
                    row[4],
                    row[5],
                    row[6],
                    tuple(_attachment_ids(row[7])),
                )
                for row in conn.exec_driver_sql(
                    "SELECT id, conversation_id, parent_id, role, parts, status, created_at,"
                    " context FROM messages"
                )
            )
            memories = sorted(
                (row[0], row[1], row[2], row[3] is not None)
                for row in conn.exec_driver_sql("SELECT id, scope, text, deleted_at FROM memories")
            )
            attachments = sorted(
                tuple(row)
                for row in conn.exec_driver_sql(
                    "SELECT id, sha256, name, mime, size, kind FROM attachments"
                )
            )
        return {
            "conversations": conversations,
            "messages": messages,
            "memories": memories,
            "attachments": attachments,
        }

    def titles(self) -> list[str]:
        return sorted(c.title for c in self.repo.list_conversations())

    def texts(self) -> dict[str, list[str]]:
        """title -> every message's text, the whole tree, sorted."""
        return {
            c.title: sorted(m.text for m in self.repo.messages(c.id))
            for c in self.repo.list_conversations()
        }

    def live_memories(self) -> list[str]:
        return sorted(m.text for m in self.memories.list() if not m.deleted)

    async def aclose(self) -> None:
        await self.sync.aclose()
        await super().aclose()


@functools.cache
def _locked_vault() -> tuple[codec.Vault, bytes]:
    vault = codec.new_vault()
    return vault, codec.lock_vault(vault, VAULT_PASSPHRASE)


async def _plant(
    device: SyncDevice, target: RemoteTarget, vault: codec.Vault, locked: bytes
) -> None:
    store = await device.sync.store_for(target)
    await store.check()  # makes the target's folder, as create_vault does first
    await store.put_bytes(codec.VAULT, locked, create_only=True)
    await store.put_bytes(codec.CHECK, codec.check_object(vault))


def _attachment_ids(context: str | None) -> list[str]:
    try:
        data = json.loads(context or "{}")
    except json.JSONDecodeError:
        return []
    ids = data.get("attachment_ids") if isinstance(data, dict) else None
    return [item for item in ids if isinstance(item, str)] if isinstance(ids, list) else []


# --- the devices of one test --------------------------------------------------------------


class SyncWorld:
    """The devices of one test and the one event loop their requests run on (the
    settings' HTTP client keeps connections belonging to the loop that opened them)."""

    def __init__(self, root: Path, clock: Clock | None = None) -> None:
        self.root = root
        self.clock = clock or Clock()
        self.loop = asyncio.new_event_loop()
        self.devices: list[SyncDevice] = []
        self.relays: list[TcpRelay] = []
        self.target: RemoteTarget | None = None
        self.recovery_key: str = ""

    def add(self, name: str, *, timeout: httpx.Timeout = DEFAULT_TIMEOUT) -> SyncDevice:
        device = SyncDevice(self.root / name, name, self.clock, timeout=timeout)
        self.devices.append(device)
        return device

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, CEILING_S))

    def fails(self, coroutine: Coroutine[Any, Any, object]) -> ParleyError:
        """The ParleyError `coroutine` raises (the test fails if it does not)."""
        with pytest.raises(ParleyError) as caught:
            self.run(coroutine)
        return caught.value

    # --- the vault -----------------------------------------------------------------

    def set_password(self, target: RemoteTarget, secret: str | None) -> None:
        """The target's password or secret key, in the keyring (shared by all devices)."""
        if secret is not None:
            name = target_secret_name(target, "password")
            self.run(self.devices[0].settings.set_secret(name, secret))

    def create(self, device: SyncDevice, target: RemoteTarget, secret: str | None) -> str:
        """`device` makes a vault at `target`; returns (and keeps) its recovery key."""
        self.set_password(target, secret)
        self.target = target
        self.recovery_key = self.run(device.sync.create_vault(target, VAULT_PASSPHRASE))
        return self.recovery_key

    def join(self, device: SyncDevice, secret: str | None = None) -> None:
        """`device` joins the vault `create` made, with its recovery key (no scrypt)
        unless `secret` (a passphrase or key) is given."""
        assert self.target is not None, "create a vault first"
        self.run(device.sync.join_vault(self.target, secret or self.recovery_key))

    def vault(
        self, target: RemoteTarget, secret: str | None, devices: Sequence[SyncDevice] | None = None
    ) -> None:
        """A vault at `target`, joined by `devices` (all by default) with its recovery
        key. Its two objects are written as `create_vault` writes them, from a key
        locked once per test process (age's scrypt costs seconds, and creating is
        tested on its own in test_vault.py and test_faults.py)."""
        chosen = list(devices if devices is not None else self.devices)
        self.set_password(target, secret)
        vault, locked = _locked_vault()
        self.run(_plant(chosen[0], target, vault, locked))
        self.target = target
        self.recovery_key = vault.key_text
        for device in chosen:
            self.join(device)

    # --- syncing -------------------------------------------------------------------

    def sync(self, device: SyncDevice) -> SyncReport:
        """One sync of `device`, a second after whatever happened before (time passes
        between a change and the sync that sends it, as it does on a real computer)."""
        self.clock.advance(seconds=1)
        return self.run(device.sync.sync_now())

    def sync_all(self, order: Iterable[SyncDevice] | None = None) -> list[SyncReport]:
        """One sync of each device, in `order` (all devices in turn by default)."""
        return [self.sync(device) for device in (order if order is not None else self.devices)]

    def settle(self, rounds: int = 2, order: Iterable[SyncDevice] | None = None) -> None:
        """Sync every device `rounds` times over: afterwards every change has reached
        every device (a change sent in round one is received by all in round two)."""
        chosen = list(order if order is not None else self.devices)
        for _ in range(rounds):
            self.sync_all(chosen)

    def pending(self, device: SyncDevice) -> int:
        return self.run(device.sync.count_pending())

    def states(self) -> dict[str, State]:
        return {device.name: device.state() for device in self.devices}

    def assert_converged(self, context: str = "") -> State:
        """Every device sees the same; returns that state."""
        states = self.states()
        first_name, first = next(iter(states.items()))
        for name, state in states.items():
            if state != first:
                raise AssertionError(
                    f"{context}\n{name} differs from {first_name}:\n"
                    + _difference(first_name, first, name, state)
                )
        return first

    def close(self) -> None:
        for relay in self.relays:
            relay.stop()
        for device in self.devices:
            self.run(device.aclose())
        self.loop.close()


def _difference(a_name: str, a: State, b_name: str, b: State) -> str:
    lines = []
    for key in a:
        only_a = sorted(set(a[key]) - set(b[key]), key=repr)
        only_b = sorted(set(b[key]) - set(a[key]), key=repr)
        for row in only_a:
            lines.append(f"  {key} only on {a_name}: {row}")
        for row in only_b:
            lines.append(f"  {key} only on {b_name}: {row}")
    return "\n".join(lines) or "  (same rows, different order)"
