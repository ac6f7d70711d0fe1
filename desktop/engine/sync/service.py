"""Sync as the rest of Parley sees it: set up a vault, sync, and say how it stands.

Syncs run one at a time, in the background: at start, a few seconds after each
finished answer, and every `interval_minutes`, unless paused. The database work runs in
worker threads and the transfers on the event loop, so the window never waits for
them. A sync that fails (offline, a server error) changes nothing it did not finish:
this device's changes stay pending, found again by the next sync (`sync_collect.py`).

The vault key is kept in the keyring. Where there is no keyring it is held for this run
of Parley only, and the status says so: it would otherwise sit in a file in clear.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import httpx

from desktop.core.dispatch import EventBus
from desktop.core.events import (
    ConversationsChanged,
    DataReplaced,
    EngineEvent,
    GenerationFinished,
)
from desktop.core.i18n import tr
from desktop.core.models import utc_now
from desktop.core.paths import DataPaths
from desktop.core.remote_target import RemoteTarget
from desktop.core.sync_settings import VAULT_KEY_SECRET, SyncSettings
from desktop.engine.remote.base import DEFAULT_TIMEOUT, RemoteStore
from desktop.engine.remote.errors import RemoteError, RemoteProblem, fixed_in
from desktop.engine.remote.factory import store_with_secret
from desktop.engine.settings_service import SettingsService
from desktop.engine.sync import codec, exchange, vault_objects
from desktop.engine.sync.blobs import fetch_blob, send_blobs
from desktop.engine.sync.codec import Vault
from desktop.engine.sync.errors import SyncError, SyncProblem, not_joined
from desktop.engine.sync.schedule import SyncSchedule
from desktop.engine.sync.status import DeviceInfo, SyncReport, SyncStatus
from desktop.storage import sync_records
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.sync_collect import LocalChanges, Marks, pending_count
from desktop.storage.sync_state import (
    FILE_NAME,
    SyncState,
    mark_removed,
)

__all__ = ["DeviceInfo", "SyncReport", "SyncService", "SyncStatus"]

log = logging.getLogger(__name__)

DEVICE_KEY: Final = "device"
VAULT_ID_KEY: Final = "vault"


class SyncService:
    def __init__(
        self,
        paths: DataPaths,
        database: Database,
        attachments: AttachmentStore,
        settings: SettingsService,
        events: EventBus[EngineEvent],
        *,
        device_name: str | None = None,
        clock: Callable[[], datetime] = utc_now,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> None:
        self._paths = paths
        self._db = database
        self._attachments = attachments
        self._settings = settings
        self._events = events
        self.device_name = device_name or socket.gethostname() or "Parley"
        self._clock = clock
        self._timeout = timeout
        self._lock = asyncio.Lock()
        self._state: SyncState | None = None
        self._vault: Vault | None = None
        self._status = SyncStatus(paused=self.config.paused)
        self.changed: EventBus[SyncStatus] = EventBus()
        self._schedule = SyncSchedule(
            self.sync_now,
            lambda: self.ready and not self.config.paused,
            lambda: self.config.interval_minutes * 60.0,
        )
        self._replaced = False  # parley.db was replaced: receive everything again
        self._unsubscribe: Callable[[], None] | None = events.subscribe(self._on_event)
        # Target passwords typed while the keyring could not keep them (this run only).
        self.session_secrets: dict[str, str] = {}

    # --- what the window reads -------------------------------------------------------

    @property
    def config(self) -> SyncSettings:
        return self._settings.settings.sync

    @property
    def status(self) -> SyncStatus:
        return self._status

    @property
    def busy(self) -> bool:
        return self._lock.locked()

    def _set_status(self, **changes: object) -> None:
        self._status = replace(self._status, **changes)  # type: ignore[arg-type]
        self.changed.emit(self._status)

    def _now_ms(self) -> int:
        return int(self._clock().timestamp() * 1000)

    # --- life cycle ------------------------------------------------------------------

    async def start(self) -> None:
        """Load the vault key and begin syncing in the background."""
        await self._load_vault()
        self._schedule.start()

    async def aclose(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        await self._schedule.stop()
        async with self._lock:
            if self._state is not None:
                await asyncio.to_thread(self._state.close)
                self._state = None

    def _on_event(self, event: EngineEvent) -> None:
        if isinstance(event, GenerationFinished):
            self._schedule.after_answer()
            if self.ready and self.config.paused:  # no sync will say how much waits
                self._schedule.count_soon(self.count_pending)
        elif isinstance(event, DataReplaced):
            self._replaced = True
            self._schedule.soon()

    @property
    def ready(self) -> bool:
        return self._vault is not None and self.config.target is not None

    # --- vault -----------------------------------------------------------------------

    async def _load_vault(self) -> None:
        if self.config.target is None:  # never set up: the keyring need not even load
            self._set_status(joined=False)
            return
        text = await self._settings.secret(VAULT_KEY_SECRET)
        if text and self._vault is None:
            try:
                data = json.loads(text)
                self._vault = codec.vault_from_parts(data.get("vault"), data.get("key"))
            except (ValueError, AttributeError, SyncError):
                log.warning("The stored sync vault key is unreadable; sync is off")
        joined = self._vault is not None and self.config.target is not None
        devices: tuple[DeviceInfo, ...] = ()
        if joined:  # what the last run knew, until the first sync says more
            state = await self._open_state()
            devices = await asyncio.to_thread(_known_devices, state, self.device_name)
        self._set_status(
            joined=joined, devices=devices, key_in_keyring=self._settings.keyring_available
        )

    async def _keep_vault(self, vault: Vault) -> None:
        self._vault = vault
        if self._settings.keyring_available:
            value = json.dumps({"vault": vault.vault_id, "key": vault.key_text})
            await self._settings.set_secret(VAULT_KEY_SECRET, value)

    async def store_for(self, target: RemoteTarget) -> RemoteStore:
        return await store_with_secret(
            target, self._settings, self.session_secrets, request_timeout=self._timeout
        )

    async def test(self, target: RemoteTarget) -> None:
        """Raises an error in words when the target cannot be used."""
        store = await self.store_for(target)
        with self._in_words():
            await store.check()

    async def vault_exists(self, target: RemoteTarget) -> bool:
        store = await self.store_for(target)
        with self._in_words():
            return await vault_objects.vault_at(store)

    async def create_vault(self, target: RemoteTarget, passphrase: str) -> str:
        """Make a new vault at `target`, locked with `passphrase`; returns the recovery
        key. SyncError VAULT_EXISTS where there is one already (join it instead)."""
        async with self._lock:
            with self._in_words():
                vault = await vault_objects.create(await self.store_for(target), passphrase)
                await self._enter(vault, target)
        self._schedule.soon()
        return vault.key_text

    async def join_vault(self, target: RemoteTarget, secret: str) -> None:
        """Join the vault at `target` with its passphrase or recovery key."""
        async with self._lock:
            with self._in_words():
                vault = await vault_objects.open_vault(await self.store_for(target), secret)
                await self._enter(vault, target)
        self._schedule.soon()

    async def _enter(self, vault: Vault, target: RemoteTarget) -> None:
        state = await self._open_state()
        if await asyncio.to_thread(state.get, VAULT_ID_KEY) not in ("", vault.vault_id):
            # Another vault's knowledge says nothing about this one: start afresh.
            await asyncio.to_thread(state.close)
            self._state = None
            await asyncio.to_thread(_remove_state, self._paths.root)
            state = await self._open_state()
        await asyncio.to_thread(state.set, VAULT_ID_KEY, vault.vault_id)
        await self._keep_vault(vault)
        self._settings.save(
            replace(self._settings.settings, sync=replace(self.config, target=target))
        )
        self._set_status(joined=True, last_error="", refused=(), devices=())

    async def recovery_key(self) -> str:
        if self._vault is None:
            raise not_joined()
        return self._vault.key_text

    async def leave(self) -> None:
        """Forget the vault on this computer. Its chats stay; the storage is untouched."""
        async with self._lock:
            await self._forget_vault()
            self._settings.save(
                replace(self._settings.settings, sync=replace(self.config, target=None))
            )
            self._status = SyncStatus(paused=self.config.paused)
            self.changed.emit(self._status)

    async def _forget_vault(self) -> None:
        """The vault key and `sync.db` go; the chats and the storage stay."""
        self._vault = None
        if self._settings.keyring_available:
            await self._settings.delete_secret(VAULT_KEY_SECRET)
        if self._state is not None:
            await asyncio.to_thread(self._state.close)
            self._state = None
        await asyncio.to_thread(_remove_state, self._paths.root)

    def set_paused(self, paused: bool) -> None:
        self._settings.save(
            replace(self._settings.settings, sync=replace(self.config, paused=paused))
        )
        self._set_status(paused=paused)
        if not paused:
            self._schedule.soon()

    async def _open_state(self) -> SyncState:
        if self._state is None:
            self._state = await asyncio.to_thread(SyncState, self._paths.root)
            if not await asyncio.to_thread(self._state.get, DEVICE_KEY):
                await asyncio.to_thread(self._state.set, DEVICE_KEY, codec.new_device_id())
        return self._state

    async def device_id(self) -> str:
        state = await self._open_state()
        return await asyncio.to_thread(state.get, DEVICE_KEY)

    # --- syncing ---------------------------------------------------------------------

    async def sync_now(self) -> SyncReport:
        """Receive other devices' changes, then send this device's. Raises in words."""
        async with self._lock:
            vault, target = self._joined()  # again inside: a leave may have gone first
            with self._in_words():
                self._set_status(running=True, stage="", done=0, total=0)
                try:
                    report = await self._sync(vault, target)
                except RemoteError as error:
                    self._set_status(running=False, last_error=str(error))
                    raise
                except SyncError as error:
                    self._set_status(running=False, last_error=str(error))
                    raise
                except asyncio.CancelledError:
                    self._set_status(running=False)
                    raise
                except Exception as error:
                    log.exception("Sync failed")
                    self._set_status(running=False, last_error=str(error) or type(error).__name__)
                    raise
        if report.received or report.revived:
            self._events.emit(ConversationsChanged(None))
        return report

    async def _sync(self, vault: Vault, target: RemoteTarget) -> SyncReport:
        store = await self.store_for(target)
        state = await self._open_state()
        me = await asyncio.to_thread(state.get, DEVICE_KEY)

        def progress(stage: str, done: int, total: int) -> None:
            self._set_status(stage=stage, done=done, total=total)

        if self._replaced:
            await asyncio.to_thread(state.forget_received)
            self._replaced = False
        # Changes made here are stamped before others' are merged (sync_collect.py).
        await asyncio.to_thread(exchange.stamp_local, self._db, state, me, self._now_ms())
        pulled = await exchange.pull(store, vault, state, self._db, me, self._now_ms, progress)
        if pulled.removed_self:
            await self._removed_here()
        changes = await asyncio.to_thread(
            exchange.local_changes, self._db, state, me, self._now_ms()
        )
        await send_blobs(store, vault, state, self._attachments, changes.blobs)
        sent = await exchange.push(
            store, vault, state, changes, me, self.device_name, self._now_ms, progress
        )
        revived = tuple(await asyncio.to_thread(self._titles, pulled.revived))
        devices = await self._device_list(state, me, pulled)
        self._set_status(
            running=False,
            stage="",
            last_sync=self._clock(),
            last_error="",
            pending=0,
            refused=tuple(pulled.refused),
            revived=revived,
            devices=devices,
        )
        log.info(
            "Sync: %d records received, %d sent, %d devices", pulled.applied, sent, len(devices)
        )
        return SyncReport(pulled.applied, sent, tuple(pulled.refused), revived)

    async def _device_list(
        self, state: SyncState, me: str, pulled: exchange.PullOutcome
    ) -> tuple[DeviceInfo, ...]:
        rows = {row.device: row for row in await asyncio.to_thread(state.devices)}
        found = []
        for head in pulled.devices:
            row = rows.get(head.device)
            found.append(
                DeviceInfo(
                    head.device,
                    head.name,
                    _moment(head.at),
                    head.device == me,
                    bool(row and row.removed_after is not None),
                )
            )
        if not any(info.this_device for info in found):
            found.append(DeviceInfo(me, self.device_name, None, True))
        return tuple(sorted(found, key=lambda d: (not d.this_device, d.name.casefold())))

    def _titles(self, ids: list[str]) -> list[str]:
        if not ids:
            return []
        with self._db.read() as conn:
            marks = ", ".join("?" for _ in ids)
            rows = conn.exec_driver_sql(
                f"SELECT title FROM conversations WHERE id IN ({marks})", tuple(ids)
            ).all()
        return [str(row[0]) for row in rows]

    async def _removed_here(self) -> None:
        """Forget the vault and what was known of it: joining again makes this a new
        device, whose log the others read afresh."""
        await self._forget_vault()
        self._set_status(joined=False)
        raise SyncError(
            SyncProblem.REMOVED,
            tr(
                "This computer was removed from the sync vault on another device. Its chats "
                "stay here; join the vault again to sync."
            ),
        )

    def _joined(self) -> tuple[Vault, RemoteTarget]:
        if self._vault is None or self.config.target is None:
            raise not_joined()
        return self._vault, self.config.target

    async def count_pending(self) -> int:
        """How many changes here wait to be sent (read in a worker thread)."""
        async with self._lock:
            if self._vault is None:  # checked inside: a leave may have gone first
                return 0
            state = await self._open_state()
            me = await asyncio.to_thread(state.get, DEVICE_KEY)
            count = await asyncio.to_thread(pending_count, self._db, state, me, self._now_ms())
        self._set_status(pending=count)
        return count

    async def remove_device(self, device_id: str) -> None:
        """Take another device out of the vault: what it sent until now stays (its log
        is cut where the storage holds it now, the same on every device), what it sends
        later is ignored everywhere, and it stops syncing when it next looks. Its copy
        of the key still opens what it already has; the page says so."""
        async with self._lock:
            vault, target = self._joined()
            with self._in_words():
                store = await self.store_for(target)
                state = await self._open_state()
                me = await asyncio.to_thread(state.get, DEVICE_KEY)
                if device_id == me:
                    raise ValueError("use leave() for this device")
                rows = {row.device: row for row in await asyncio.to_thread(state.devices)}
                after = rows[device_id].applied if device_id in rows else 0
                with contextlib.suppress(RemoteError, codec.ChainError):
                    head = await store.get_bytes(codec.head_name(device_id))
                    after = max(after, codec.open_head(vault, head, device_id).n)
                record = {"t": sync_records.REMOVED, "device": device_id, "after": after}
                await exchange.push(
                    store,
                    vault,
                    state,
                    LocalChanges([], Marks(), []),
                    me,
                    self.device_name,
                    self._now_ms,
                    lambda *_: None,
                    extra=[record],
                )
                await asyncio.to_thread(_mark_removed, state, device_id, after)
                self._set_status(
                    devices=tuple(
                        replace(d, removed=True) if d.device_id == device_id else d
                        for d in self._status.devices
                    )
                )

    async def fetch_attachment(self, sha256: str, destination: Path) -> bool:
        """Fetch an attached file this device has not downloaded yet; False when it is
        not in a vault (or the storage does not have the file)."""
        if self._vault is None or self.config.target is None:
            return False
        store = await self.store_for(self.config.target)
        with self._in_words():
            try:
                await fetch_blob(store, self._vault, sha256, destination)
            except RemoteError as error:
                if error.problem is RemoteProblem.NOT_FOUND:
                    return False
                raise
        return True

    @staticmethod
    def _in_words() -> contextlib.AbstractContextManager[None]:
        """Storage errors raised inside point at Settings → Sync, not File → Back Up…."""
        return fixed_in(tr("Settings → Sync"))


def _moment(epoch_ms: int | None) -> datetime | None:
    if not epoch_ms:
        return None
    try:
        return datetime.fromtimestamp(epoch_ms / 1000, UTC)
    except (ValueError, OverflowError, OSError):  # a time no calendar holds
        return None


def _known_devices(state: SyncState, this_name: str) -> tuple[DeviceInfo, ...]:
    me = state.get(DEVICE_KEY)
    found = [
        DeviceInfo(
            row.device,
            row.name or row.device,
            _moment(row.seen_at),
            False,
            row.removed_after is not None,
        )
        for row in state.devices()
        if row.device != me
    ]
    return (DeviceInfo(me, this_name, None, True), *sorted(found, key=lambda d: d.name.casefold()))


def _remove_state(root: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        (root / (FILE_NAME + suffix)).unlink(missing_ok=True)


def _mark_removed(state: SyncState, device: str, after: int) -> None:
    with state.write() as conn:
        mark_removed(conn, device, after)
