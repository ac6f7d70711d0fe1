"""Settings → Sync: where the vault is (the same form as File → Back Up…), creating or
joining a vault, and how syncing stands: devices, last sync, what waits to be sent,
errors in words, Sync Now, Pause, Remove Device and Leave.

Every call into `SyncService` runs as a task of the app's `TaskGroup`: the window never
waits for the network, the keyring or age's key derivation (a second or more). The
service reports how it stands through its `changed` bus; this object passes that on
as `statusChanged` and the page reads `status` again. What a person asked for (create,
join, sync now, remove, leave) ends with `actionFinished`, in words.

The target's password is kept, and Test runs, as the backup's do (`target_model`); the
passphrase and the recovery key are never kept here: they go straight to the service.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from desktop.core.errors import ParleyError
from desktop.core.remote_target import RemoteTarget, describe_target
from desktop.core.sync_settings import SyncSettings
from desktop.engine.settings_service import SettingsService
from desktop.engine.sync.errors import SyncError, SyncProblem
from desktop.engine.sync.service import SyncService, SyncStatus
from desktop.ui.viewmodels.backup_form import FieldValue, TargetKind, same_target
from desktop.ui.viewmodels.sync_words import SyncWords
from desktop.ui.viewmodels.target_model import TargetActions, typed_passphrase_problem
from desktop.ui.viewmodels.tasks import TaskGroup

log = logging.getLogger(__name__)

PASSPHRASE = "passphrase"  # problemChanged's field for the new vault's passphrase
JOIN_SECRET = "join"  # ... and for the passphrase or recovery key that joins one


class SyncViewModel(QObject):
    # The target form's (`target_model.TargetModel`):
    configChanged = Signal()
    problemChanged = Signal(str, str)  # a field ("url", PASSWORD, PASSPHRASE...), problem
    secretsChanged = Signal()
    testingChanged = Signal(bool)
    testFinished = Signal(bool, str)  # it worked?, in words
    # The vault's:
    statusChanged = Signal()  # `status` changed (the service said so)
    workingChanged = Signal(bool)  # a create, join, sync, remove or leave runs
    actionFinished = Signal(bool, str)  # what was asked ended: it worked?, in words
    recoveryKeyShown = Signal(str)  # the recovery key, to show once (after create)
    recoveryKeySaved = Signal(bool, str)  # the key was written to a file?, in words

    def __init__(
        self,
        service: SyncService,
        settings: SettingsService,
        tasks: TaskGroup,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._settings = settings
        self._tasks = tasks
        self.words = SyncWords(self)
        self._config = service.config
        self._target = TargetActions(
            self, self.words, settings, service.session_secrets, tasks, "sync"
        )
        self.working = False
        self._started = False
        self._closed = False
        service.changed.subscribe(self._on_status)
        settings.changed.subscribe(self._on_settings)

    # --- state ------------------------------------------------------------------------

    @property
    def service(self) -> SyncService:
        return self._service

    @property
    def config(self) -> SyncSettings:
        return self._service.config

    @property
    def status(self) -> SyncStatus:
        return self._service.status

    @property
    def keyring_problem(self) -> str:
        return self._settings.keyring_problem

    @property
    def target_secret_saved(self) -> bool:
        return self._target.secret_saved

    @property
    def testing(self) -> bool:
        return self._target.testing

    @property
    def joined(self) -> bool:
        return self.status.joined

    def _on_status(self, _status: SyncStatus) -> None:
        self.statusChanged.emit()

    def _on_settings(self, _settings: object) -> None:
        if self.config == self._config:
            return
        old = self._config.target
        self._config = self.config
        if not same_target(old, self._config.target):
            self._target.secret_saved = False
            self.load_secrets()
        self.configChanged.emit()

    # --- life cycle -------------------------------------------------------------------

    def start(self) -> None:
        """Start the service (one keyring read; its first sync waits a few seconds) and
        learn whether the target's password is kept. Called with the loop running."""
        if self._started or self._closed:
            return
        self._started = True
        self._tasks.start(self._service.start(), "sync-start")
        self.load_secrets()

    async def aclose(self) -> None:
        """At quit, before the database closes: a running sync stops."""
        self._closed = True
        await self._service.aclose()

    # --- the target (TargetModel) -----------------------------------------------------

    def set_target(self, kind: TargetKind, values: Mapping[str, FieldValue]) -> bool:
        """Save the target the form describes; False (the field's problem said) when it
        cannot work. While in a vault the vault stays where it is: leave it first."""
        target = self._target.target(kind, values)
        if target is None:
            return False
        if same_target(target, self.config.target):
            return True
        if self.joined:
            self.problemChanged.emit("", self.words.leave_first())
            return False
        self._save(replace(self.config, target=target))
        return True

    def set_interval(self, minutes: int) -> None:
        if minutes != self.config.interval_minutes:
            self._save(replace(self.config, interval_minutes=minutes))

    def _save(self, sync: SyncSettings) -> None:
        try:
            self._settings.save(replace(self._settings.settings, sync=sync))
        except (ParleyError, OSError) as error:
            self.problemChanged.emit("", str(error))

    def load_secrets(self) -> None:
        self._target.load()

    def set_target_secret(self, value: str) -> None:
        self._target.keep(value)

    def forget_target_secret(self) -> None:
        self._target.forget()

    def test(self, kind: TargetKind, values: Mapping[str, FieldValue]) -> None:
        """Check the target can be used, and say whether a vault is there already."""
        self._target.test(kind, values, self._probe)

    async def _probe(self, target: RemoteTarget) -> str:
        await self._service.test(target)
        found = await self._service.vault_exists(target)
        return self.words.tested(describe_target(target), found)

    # --- the vault --------------------------------------------------------------------

    def passphrase_problem(self, passphrase: str, repeat: str) -> str:
        """What is wrong with a new vault's passphrase ("" when none is typed, or it
        will do)."""
        return typed_passphrase_problem(passphrase, repeat, self.words.passphrases_differ)

    def setup_problem(self) -> str:
        """Why a vault cannot be created or joined now ("" when it can)."""
        if self.config.target is None:
            return self.words.choose_target()
        if self.working:
            return self.words.working()
        return ""

    def create_vault(self, passphrase: str, repeat: str) -> bool:
        """Make a vault at the saved target; its recovery key comes as
        `recoveryKeyShown`. False (the problem said) when it cannot start."""
        problem = self.setup_problem() or self.passphrase_problem(passphrase, repeat)
        if not problem and not passphrase:
            problem = self.words.enter_passphrase()
        if problem:
            self.problemChanged.emit(PASSPHRASE, problem)
            return False
        self.problemChanged.emit(PASSPHRASE, "")
        target = self.config.target
        assert target is not None
        return self._run(self._create(target, passphrase), "sync-create")

    async def _create(self, target: RemoteTarget, passphrase: str) -> None:
        key = await self._service.create_vault(target, passphrase)
        self.recoveryKeyShown.emit(key)
        self.actionFinished.emit(True, self.words.created(describe_target(target)))

    def join_vault(self, secret: str) -> bool:
        """Join the vault at the saved target with its passphrase or recovery key."""
        problem = self.setup_problem()
        if not problem and not secret.strip():
            problem = self.words.enter_join_secret()
        if problem:
            self.problemChanged.emit(JOIN_SECRET, problem)
            return False
        self.problemChanged.emit(JOIN_SECRET, "")
        target = self.config.target
        assert target is not None
        return self._run(self._join(target, secret), "sync-join")

    async def _join(self, target: RemoteTarget, secret: str) -> None:
        try:
            await self._service.join_vault(target, secret)
        except SyncError as error:
            if error.problem in (SyncProblem.WRONG_SECRET, SyncProblem.NO_VAULT):
                self.problemChanged.emit(JOIN_SECRET, str(error))
            raise
        self.actionFinished.emit(True, self.words.joined(describe_target(target)))

    def show_recovery_key(self) -> None:
        self._tasks.start(self._show_key(), "sync-recovery-key")

    async def _show_key(self) -> None:
        try:
            key = await self._service.recovery_key()
        except ParleyError as error:
            self.actionFinished.emit(False, str(error))
            return
        self.recoveryKeyShown.emit(key)

    def save_recovery_key(self, key: str, path: str) -> None:
        """Write the recovery key to `path` (a file the person chose)."""
        self._tasks.start(self._save_key(key, Path(path)), "sync-save-key")

    async def _save_key(self, key: str, path: Path) -> None:
        try:
            await asyncio.to_thread(path.write_text, self.words.key_file(key), "utf-8")
        except OSError as error:
            self.recoveryKeySaved.emit(False, self.words.key_not_saved(str(path), error))
            return
        self.recoveryKeySaved.emit(True, self.words.key_saved(str(path)))

    # --- syncing ----------------------------------------------------------------------

    def sync_now(self) -> bool:
        if not self.joined:
            return False
        return self._run(self._sync(), "sync-now")

    async def _sync(self) -> None:
        report = await self._service.sync_now()
        self.actionFinished.emit(True, self.words.synced(report.received, report.sent))

    def set_paused(self, paused: bool) -> None:
        if paused != self.config.paused:
            try:
                self._service.set_paused(paused)
            except (ParleyError, OSError) as error:
                self.actionFinished.emit(False, str(error))

    def count_pending(self) -> None:
        """Count, in the background, the changes here not sent yet (`status.pending`)."""
        if self.joined and not self.status.running:
            self._tasks.start(self._count(), "sync-count")

    async def _count(self) -> None:
        try:
            await self._service.count_pending()
        except (ParleyError, OSError):
            log.info("Could not count the changes waiting to sync", exc_info=True)

    def remove_device(self, device_id: str) -> bool:
        name = next((d.name for d in self.status.devices if d.device_id == device_id), "")
        return self._run(self._remove(device_id, name), "sync-remove-device")

    async def _remove(self, device_id: str, name: str) -> None:
        await self._service.remove_device(device_id)
        self.actionFinished.emit(True, self.words.removed(name))

    def leave(self) -> bool:
        return self._run(self._leave(), "sync-leave")

    async def _leave(self) -> None:
        await self._service.leave()
        self.actionFinished.emit(True, self.words.left())

    # --- running one thing at a time --------------------------------------------------

    def _run(self, work: Coroutine[Any, Any, None], name: str) -> bool:
        """Run `work`; its failure is said in words (`actionFinished`). False (nothing
        started) while another runs."""
        if self.working:
            work.close()
            return False
        self._set_working(True)
        self._tasks.start(self._guarded(work), name)
        return True

    async def _guarded(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except (ParleyError, OSError) as error:
            self.actionFinished.emit(False, str(error))
        finally:
            self._set_working(False)
        self.count_pending()

    def _set_working(self, working: bool) -> None:
        if working != self.working:
            self.working = working
            self.workingChanged.emit(working)
