"""Backing up this device and restoring from a backup, start to end.

A backup is written completely to a temp file in the data folder, then copied to the
target; only after that copy succeeds are this device's oldest backups pruned, so a
failed run never leaves fewer good backups than before. A restore downloads and opens
the archive in a scratch folder (the archive is authenticated in full before anything
is merged), brings its database up to this schema, copies in the attachment files it
needs, then merges in one transaction (`storage.restore_merge`); the scratch folder is
removed whatever happens.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Final

import httpx

from desktop.core.backup_settings import PASSPHRASE_SECRET, BackupSettings
from desktop.core.dispatch import EventBus
from desktop.core.errors import ParleyError
from desktop.core.events import ConversationsChanged, DataReplaced, EngineEvent
from desktop.core.i18n import tr
from desktop.core.models import utc_now
from desktop.core.paths import DataPaths
from desktop.core.remote_target import RemoteTarget
from desktop.core.settings_merge import merge_settings, replace_settings, settings_for_backup
from desktop.engine.backup.archive import write_backup
from desktop.engine.backup.errors import BackupError, BackupProblem
from desktop.engine.backup.naming import backup_name, device_slug, parse_backup_name, to_prune
from desktop.engine.backup.state import BackupState, read_state, write_state
from desktop.engine.backup.unpack import open_backup
from desktop.engine.remote.base import DEFAULT_TIMEOUT, RemoteStore
from desktop.engine.remote.errors import RemoteError
from desktop.engine.remote.factory import store_with_secret
from desktop.engine.settings_service import SettingsService
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.disk_space import is_disk_full
from desktop.storage.restore_merge import (
    MergeOutcome,
    merge_backup,
    prepare_backup_database,
    replace_with_backup,
)

log = logging.getLogger(__name__)

DAILY: Final = timedelta(days=1)
STATE_FILE: Final = "backup-state.json"
SCRATCH_PREFIX: Final = "backup-work-"


class Stage(StrEnum):
    SNAPSHOT = "snapshot"  # copying the database and files into the archive
    UPLOAD = "upload"
    DOWNLOAD = "download"
    OPEN = "open"  # decrypting and checking the archive
    MERGE = "merge"


Progress = Callable[[Stage, int, int], None]


def _no_progress(_stage: Stage, _done: int, _total: int) -> None:
    pass


def _never() -> bool:
    return False


@dataclass(frozen=True, slots=True)
class BackupEntry:
    """One backup at the target, as its name describes it."""

    name: str
    created: datetime
    device: str
    size: int
    this_device: bool


@dataclass(frozen=True, slots=True)
class BackupDone:
    name: str
    size: int
    pruned: int  # older backups of this device removed afterwards
    # Why older backups that should have gone are still there ("" when none are).
    prune_error: str = ""


@dataclass(frozen=True, slots=True)
class RestoreDone:
    merged: MergeOutcome | None  # None for a replace
    kept_copy: Path | None  # the database as it was, for a replace
    assistants_added: int = 0
    prompts_added: int = 0
    providers_added: int = 0  # their API keys are not in a backup


class BackupService:
    """Backs up this data folder to the target in `settings.backup`, and restores.

    Remote targets are reached with the settings' shared HTTP client, so the proxy and
    CA bundle of Settings → Network apply to backups as to everything else; `timeout`
    is per request (a file transfer needs longer than the client's defaults allow).
    """

    def __init__(
        self,
        paths: DataPaths,
        database: Database,
        attachments: AttachmentStore,
        settings: SettingsService,
        events: EventBus[EngineEvent],
        *,
        device: str | None = None,
        clock: Callable[[], datetime] = utc_now,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> None:
        self._paths = paths
        self._db = database
        self._attachments = attachments
        self._settings = settings
        self._events = events
        self.device = device or device_slug()
        self._clock = clock
        self._timeout = timeout
        self._state_path = paths.root / STATE_FILE
        self._state = read_state(self._state_path)
        self._lock = asyncio.Lock()  # one backup or restore at a time
        # Target passwords typed while the keyring could not keep them, by keyring
        # name: used for this run of Parley only (File → Back Up… says so).
        self.session_secrets: dict[str, str] = {}

    @property
    def config(self) -> BackupSettings:
        return self._settings.settings.backup

    @property
    def state(self) -> BackupState:
        """Read once, at start; kept here since (the window asks at every repaint)."""
        return self._state

    @property
    def busy(self) -> bool:
        return self._lock.locked()

    async def stored_passphrase(self) -> str | None:
        return await self._settings.secret(PASSPHRASE_SECRET)

    async def store_for(self, target: RemoteTarget) -> RemoteStore:
        return await store_with_secret(
            target, self._settings, self.session_secrets, request_timeout=self._timeout
        )

    async def test(self, target: RemoteTarget) -> None:
        """Raises RemoteError in words when the target cannot be written."""
        store = await self.store_for(target)
        await store.check()

    async def list_backups(self, target: RemoteTarget | None = None) -> list[BackupEntry]:
        """Every Parley backup at the target, newest first (other files are ignored)."""
        store = await self.store_for(self._target(target))
        entries = []
        for item in await store.list():
            parsed = parse_backup_name(item.name)
            if parsed is not None:
                entries.append(
                    BackupEntry(
                        item.name,
                        parsed.created,
                        parsed.device,
                        item.size,
                        parsed.device == self.device,
                    )
                )
        return sorted(entries, key=lambda e: e.created, reverse=True)

    def due(self) -> bool:
        """Whether a daily backup should run now."""
        config = self.config
        if not config.daily or config.target is None or self.busy:
            return False
        state = self.state
        # After a failure, try again in an hour rather than at once, or a target that
        # is down would be hammered by every check (also before a first success).
        if (
            state.last_error
            and state.last_attempt
            and self._clock() - state.last_attempt < (timedelta(hours=1))
        ):
            return False
        last = state.last_success
        if last is None:
            return True
        return self._clock() - last >= DAILY

    async def back_up(
        self,
        passphrase: str | None = None,
        *,
        progress: Progress = _no_progress,
        cancelled: Callable[[], bool] = _never,
    ) -> BackupDone:
        """Write a backup to the configured target; records the outcome for `state`."""
        async with self._lock:
            started = self._clock()
            try:
                done = await self._back_up(passphrase, progress, cancelled, started)
            except BackupError as error:
                # A cancel the person asked for is not a failure: the status stays as it
                # was, and the daily backup is not held off.
                if error.problem is not BackupProblem.CANCELLED:
                    await self._record(started, error=str(error))
                raise
            except ParleyError as error:
                await self._record(started, error=str(error))
                raise
            except asyncio.CancelledError:
                await self._record(started, error=tr("The last backup was cancelled."))
                raise
            await self._record(started, name=done.name)
            return done

    async def _back_up(
        self,
        passphrase: str | None,
        progress: Progress,
        cancelled: Callable[[], bool],
        started: datetime,
    ) -> BackupDone:
        config = self.config
        target = self._target(config.target)
        secret = passphrase or await self.stored_passphrase()
        if not secret:
            raise BackupError(
                BackupProblem.WRONG_PASSPHRASE,
                tr("Enter the backup passphrase in File → Back Up… to back up."),
            )
        store = await self.store_for(target)
        # A refused password, a missing permission or an untrusted certificate is found
        # out before the database is copied and encrypted, which takes minutes for a
        # large data folder. The check also makes the target's folder if it is missing:
        # a WebDAV server refuses an upload into a folder that does not exist.
        await store.check()
        name = backup_name(started, self.device)
        settings_json = settings_for_backup(self._settings.settings)
        async with self._scratch() as scratch:
            archive = scratch / name

            def snapshot_progress(done: int, total: int) -> None:
                progress(Stage.SNAPSHOT, done, total)

            await asyncio.to_thread(
                write_backup,
                archive,
                db=self._db,
                attachments_root=self._attachments.root,
                settings_json=settings_json,
                passphrase=secret,
                device=self.device,
                progress=snapshot_progress,
                cancelled=cancelled,
            )
            size = (await asyncio.to_thread(archive.stat)).st_size
            progress(Stage.UPLOAD, 0, size)
            await store.put_file(name, archive)
            progress(Stage.UPLOAD, size, size)
        pruned, prune_error = await self._prune(store, name, config.keep)
        log.info(
            "Backed up to %s as %s (%d bytes, %d pruned)", store.description, name, size, pruned
        )
        return BackupDone(name, size, pruned, prune_error)

    async def _prune(self, store: RemoteStore, written: str, keep: int) -> tuple[int, str]:
        """Remove this device's backups beyond the newest `keep`: (how many, why not
        all in words or ""). The new backup is safe at the target by now, so a failure
        here does not fail the backup: counted as failed, it would be retried within
        the hour and leave one more backup at the target each time."""
        pruned = 0
        try:
            names = [item.name for item in await store.list()]
            for old in to_prune(names, self.device, keep):
                if old == written:
                    continue
                await store.delete(old)
                pruned += 1
        except RemoteError as error:
            log.warning("Could not remove older backups at %s: %s", store.description, error)
            return pruned, tr(
                "The backup was written, but older backups could not be removed: {error}"
            ).format(error=error)
        return pruned, ""

    async def restore(
        self,
        name: str,
        passphrase: str,
        *,
        replace_all: bool = False,
        target: RemoteTarget | None = None,
        progress: Progress = _no_progress,
        cancelled: Callable[[], bool] = _never,
    ) -> RestoreDone:
        """Merge the backup `name` into this device's data, or (`replace_all`) make
        this device's data the backup's, after keeping a copy of the database."""
        async with self._lock:
            store = await self.store_for(self._target(target))
            async with self._scratch() as scratch:
                archive = scratch / "archive"
                progress(Stage.DOWNLOAD, 0, 0)
                await store.get_file(name, archive)

                def open_progress(done: int, total: int) -> None:
                    progress(Stage.OPEN, done, total)

                opened = await asyncio.to_thread(
                    open_backup,
                    archive,
                    passphrase,
                    scratch / "opened",
                    progress=open_progress,
                    cancelled=cancelled,
                )
                await asyncio.to_thread(archive.unlink)
                progress(Stage.MERGE, 0, 0)
                await asyncio.to_thread(prepare_backup_database, opened.db_path)
                try:
                    await asyncio.to_thread(
                        _copy_missing, opened.attachments_dir, self._attachments.root
                    )
                except OSError as error:
                    raise BackupError(
                        BackupProblem.NO_SPACE
                        if is_disk_full(error, self._attachments.root)
                        else BackupProblem.UNREADABLE,
                        tr(
                            "The backup's attachments could not be copied here: {reason}; "
                            "nothing changed."
                        ).format(reason=error.strerror or str(error)),
                    ) from error
                if cancelled():
                    raise BackupError(
                        BackupProblem.CANCELLED, tr("The restore was cancelled; nothing changed.")
                    )
                done = await self._apply(opened.db_path, opened.settings_json, replace_all)
        if replace_all:
            self._events.emit(DataReplaced())
        self._events.emit(ConversationsChanged(None))
        return done

    async def _apply(self, db_path: Path, settings_json: bytes, replace_all: bool) -> RestoreDone:
        local = self._settings.settings
        if replace_all:
            new_settings = replace_settings(local, settings_json)  # checked before any write
            now_ms = int(self._clock().timestamp() * 1000)
            kept = await asyncio.to_thread(replace_with_backup, self._db, db_path, now_ms=now_ms)
            await asyncio.to_thread(_keep_settings_copy, self._paths.settings)
            self._settings.save(new_settings, person_removed=False)
            log.info("Replaced this device's data with a backup; the old database is %s", kept)
            return RestoreDone(None, kept)
        merged_settings, added = merge_settings(local, settings_json)
        now_ms = int(self._clock().timestamp() * 1000)
        outcome = await asyncio.to_thread(merge_backup, self._db, db_path, now_ms=now_ms)
        if merged_settings != local:
            self._settings.save(merged_settings)
        log.info("Merged a backup: %s, %s", outcome, added)
        return RestoreDone(
            outcome,
            None,
            assistants_added=added.assistants_added,
            prompts_added=added.prompts_added,
            providers_added=added.providers_added,
        )

    def _target(self, target: RemoteTarget | None) -> RemoteTarget:
        chosen = target or self.config.target
        if chosen is None:
            raise ParleyError(tr("Choose where backups go first, in File → Back Up…."))
        return chosen

    async def _record(self, at: datetime, *, name: str = "", error: str = "") -> None:
        state = self._state
        if error:
            state = replace(state, last_attempt=at, last_error=error)
        else:
            state = BackupState(at, name, at, "")
        self._state = state
        await asyncio.to_thread(write_state, self._state_path, state)

    def _scratch(self) -> _Scratch:
        return _Scratch(self._paths.root)


class _Scratch:
    """A temp folder in the data folder (same disk as the store, so copies are cheap),
    removed on the way out whatever happened. Made and removed in a worker thread: it
    may hold gigabytes by then, and the event loop is the window's."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._path: Path | None = None

    async def __aenter__(self) -> Path:
        made = await asyncio.to_thread(tempfile.mkdtemp, prefix=SCRATCH_PREFIX, dir=self._root)
        self._path = Path(made)
        return self._path

    async def __aexit__(self, *_exc: object) -> None:
        if self._path is not None:
            await asyncio.to_thread(shutil.rmtree, self._path, ignore_errors=True)


def remove_leftover_scratch(root: Path) -> None:
    """Scratch folders a crash left behind (they may hold a decrypted database)."""
    for folder in root.glob(f"{SCRATCH_PREFIX}*"):
        shutil.rmtree(folder, ignore_errors=True)


def _keep_settings_copy(settings: Path) -> None:
    """`settings.json.pre-restore.bak` beside it, as the database's copy: the settings a
    replace drops (assistants, prompts, providers) can be read back from it. One that
    cannot be written is logged; the database's copy, the one that matters, is kept."""
    if not settings.is_file():
        return
    try:
        shutil.copy2(settings, settings.with_name(settings.name + ".pre-restore.bak"))
    except OSError as error:
        log.warning("Could not keep a copy of %s before replacing it: %s", settings.name, error)


def _copy_missing(source: Path, destination: Path) -> int:
    """Copy the files under `source` that `destination` lacks; returns how many. The
    store is content-addressed, so a file already there is the same file, and an
    extra one (if the merge then fails) is only collected as garbage later."""
    copied = 0
    if not source.is_dir():
        return 0
    for path in source.rglob("*"):
        if not path.is_file():
            continue
        target = destination / path.relative_to(source)
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = target.with_name(target.name + ".restoring")
        shutil.copyfile(path, temp)
        temp.replace(target)
        copied += 1
    return copied
