"""File → Back Up…: where backups go, the passphrase, the daily schedule, Back Up Now,
and the status line; the restore half is `backup_restore.py`.

Settings are saved as they change, like the Settings window: a field that cannot work
says why beside itself and is not saved, the rest are. Passwords, secret keys and the
passphrase go to the keyring through the settings service, never to settings.json, and
are never read back into a widget: the form only learns whether one is saved. When the
keyring cannot keep a password, it is kept in memory for this run of Parley only (the
form says so).

The daily backup is checked by a timer this object owns (a minute after start, then
every half hour); a daily backup that fails is never silent: `scheduleFailed` carries
its words to the app, which shows them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Final

from PySide6.QtCore import QObject, QTimer, Signal

from desktop.core.backup_settings import PASSPHRASE_SECRET, BackupSettings
from desktop.core.errors import ParleyError
from desktop.core.i18n import sentences
from desktop.core.remote_target import RemoteTarget, describe_target
from desktop.engine.backup.errors import BackupProblem
from desktop.engine.backup.service import BackupService, Progress
from desktop.engine.settings_service import SettingsService
from desktop.ui.formatting import human_size, local_time
from desktop.ui.viewmodels.backup_form import FieldValue, TargetKind, same_target
from desktop.ui.viewmodels.backup_job import BackupJob, Work
from desktop.ui.viewmodels.backup_restore import RestoreViewModel
from desktop.ui.viewmodels.target_model import TargetActions, typed_passphrase_problem
from desktop.ui.viewmodels.tasks import TaskGroup

log = logging.getLogger(__name__)

FIRST_CHECK_MS: Final = 60_000  # the first look at the schedule, after start-up settled
CHECK_EVERY_MS: Final = 30 * 60_000
PASSPHRASE: Final = "passphrase"  # ... and for the backup passphrase


class BackupViewModel(QObject):
    configChanged = Signal()  # settings.backup changed (here or elsewhere)
    problemChanged = Signal(str, str)  # a form field ("url", PASSWORD...), its problem or ""
    secretsChanged = Signal()  # what is known to be saved (password, passphrase) changed
    testingChanged = Signal(bool)
    testFinished = Signal(bool, str)  # it worked?, in words
    finished = Signal(bool, str)  # a backup (now or daily) ended: it worked?, in words
    statusChanged = Signal()  # the status line's words changed
    scheduleFailed = Signal(str)  # a daily backup failed: the words to show the person

    def __init__(
        self,
        service: BackupService,
        settings: SettingsService,
        tasks: TaskGroup,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._settings = settings
        self._tasks = tasks
        self.job = BackupJob(tasks, self)
        self.restore = RestoreViewModel(service, self.job, tasks, self)
        self._config = settings.settings.backup
        settings.changed.subscribe(lambda _settings: self._on_settings_changed())
        # The target's password and Test; its keyring turn is the passphrase's too.
        self._target = TargetActions(self, self, settings, service.session_secrets, tasks, "backup")
        self.passphrase_saved = False
        self.summary = ""  # the last backup's outcome in words
        self.summary_ok = True
        self.last_scheduled = False  # whether the last backup was a daily one
        self._last_daily_error = ""  # said once until a daily backup works again
        self._every_ms = CHECK_EVERY_MS
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._check_schedule)

    # --- state ------------------------------------------------------------------------

    @property
    def service(self) -> BackupService:
        return self._service

    @property
    def config(self) -> BackupSettings:
        return self._settings.settings.backup

    @property
    def keyring_problem(self) -> str:
        """Why the keyring cannot keep anything ("" when it can)."""
        return self._settings.keyring_problem

    @property
    def target_secret_saved(self) -> bool:
        return self._target.secret_saved

    @property
    def testing(self) -> bool:
        return self._target.testing

    @property
    def working(self) -> bool:
        return self.job.working or self._service.busy

    def _on_settings_changed(self) -> None:
        if self.config != self._config:
            old_target = self._config.target
            self._config = self.config
            if not same_target(old_target, self._config.target):
                self.restore.target_changed()
                # The old target's password is not the new one's: unknown until read.
                self._target.secret_saved = False
                self.load_secrets()
                self.configChanged.emit()
                self.secretsChanged.emit()
                return
            self.configChanged.emit()

    def status(self) -> tuple[str, bool]:
        """The status line, and whether it reports an error."""
        state = self._service.state
        if state.last_error:
            when = local_time(state.last_attempt) if state.last_attempt else ""
            text = self.tr("The last backup failed (%1): %2").replace("%1", when)
            text = text.replace("%2", state.last_error)
            if state.last_success is not None:
                good = self.tr("The last good one was made %1.")
                text = sentences([text, good.replace("%1", local_time(state.last_success))])
            return text, True
        if state.last_success is not None:
            return (
                self.tr("Last backed up %1 as %2.")
                .replace("%1", local_time(state.last_success))
                .replace("%2", state.last_name),
                False,
            )
        return self.tr("Not backed up yet."), False

    # --- where ------------------------------------------------------------------------

    def set_target(self, kind: TargetKind, values: Mapping[str, FieldValue]) -> bool:
        """Save the target the form describes; False (nothing saved, the field's problem
        said) when it cannot work."""
        target = self._target.target(kind, values)
        if target is None:
            return False
        if not same_target(target, self.config.target):
            self._save(replace(self.config, target=target))
        return True

    def set_keep(self, keep: int) -> None:
        if keep != self.config.keep:
            self._save(replace(self.config, keep=keep))

    def set_daily(self, daily: bool) -> None:
        if daily != self.config.daily:
            self._save(replace(self.config, daily=daily))

    def _save(self, backup: BackupSettings) -> None:
        try:
            self._settings.save(replace(self._settings.settings, backup=backup))
        except (ParleyError, OSError) as error:
            self.problemChanged.emit("", str(error))

    # --- secrets ----------------------------------------------------------------------

    def load_secrets(self) -> None:
        """Learn, in the background, whether the target's password and the passphrase
        are saved (a locked keyring may wait to be unlocked)."""
        self._target.load(self._load_passphrase)

    async def _load_passphrase(self) -> None:
        self.passphrase_saved = bool(await self._service.stored_passphrase())

    def set_target_secret(self, value: str) -> None:
        """Keep the saved target's password (S3: secret key) in the keyring, or for this
        run only when the keyring cannot take it."""
        self._target.keep(value)

    def forget_target_secret(self) -> None:
        self._target.forget()

    def user_name_first(self) -> str:
        return self.tr("Enter the user name (for S3, the access key ID) first.")

    def kept_for_this_run(self, problem: str) -> str:
        if not problem:
            return ""
        return self.tr(
            "The keyring could not keep the password (%1), so Parley keeps it only until it quits."
        ).replace("%1", problem)

    def passphrase_problem(self, passphrase: str, repeat: str) -> str:
        """What is wrong with a typed passphrase ("" when none is typed, or it will do)."""
        return typed_passphrase_problem(passphrase, repeat, self._passphrases_differ)

    def _passphrases_differ(self) -> str:
        return self.tr("The two passphrases differ: type the same one in both fields.")

    def remember_passphrase(self, passphrase: str) -> None:
        """Keep the passphrase in the keyring (what lets a daily backup run unasked)."""
        if passphrase:
            self._tasks.start(self._remember(passphrase), "backup-passphrase")

    async def _remember(self, passphrase: str) -> None:
        try:
            async with self._target.turn:
                await self._settings.set_secret(PASSPHRASE_SECRET, passphrase)
        except (ParleyError, ValueError) as error:
            self.problemChanged.emit(
                PASSPHRASE,
                self.tr("The keyring could not keep the passphrase: %1").replace("%1", str(error)),
            )
            return
        self.passphrase_saved = True
        self.problemChanged.emit(PASSPHRASE, "")
        self.secretsChanged.emit()

    def forget_passphrase(self) -> None:
        """Remove the passphrase from the keyring; daily backups stop (they need it)."""
        self.set_daily(False)
        self._tasks.start(self._forget_passphrase(), "backup-passphrase")

    async def _forget_passphrase(self) -> None:
        try:
            async with self._target.turn:
                await self._settings.delete_secret(PASSPHRASE_SECRET)
        except ParleyError as error:
            self.problemChanged.emit(PASSPHRASE, str(error))
        self.passphrase_saved = False
        self.secretsChanged.emit()

    # --- what cannot be done, and why -------------------------------------------------

    def daily_problem(self) -> str:
        """Why daily backups cannot be turned on ("" when they can)."""
        if self.config.target is None:
            return self.tr("Choose where backups go first.")
        if self.keyring_problem:
            return self.tr(
                "Daily backups need the passphrase kept in the keyring, and the keyring is "
                "not available: %1"
            ).replace("%1", self.keyring_problem)
        if not self.passphrase_saved:
            return self.tr(
                "Daily backups need the passphrase kept in the keyring: type it above and "
                "tick “Remember in the keyring”."
            )
        return ""

    def backup_problem(self, passphrase: str, repeat: str) -> str:
        """Why Back Up Now cannot run as the form stands ("" when it can)."""
        if self.config.target is None:
            return self.tr("Choose where backups go first.")
        if self.working:
            return self.tr("A backup or restore is running.")
        typed = self.passphrase_problem(passphrase, repeat)
        if typed:
            return typed
        if not passphrase and not self.passphrase_saved:
            return self.tr("Enter a passphrase to lock the backup with.")
        return ""

    # --- test -------------------------------------------------------------------------

    def test(self, kind: TargetKind, values: Mapping[str, FieldValue]) -> None:
        """Check that the target the form describes can be written (testFinished)."""
        self._target.test(kind, values, self._probe)

    def fix_field(self) -> str:
        return self.tr("Fix the field marked above first.")

    async def _probe(self, target: RemoteTarget) -> str:
        await self._service.test(target)
        return self.tr("Parley can write to %1.").replace("%1", describe_target(target))

    # --- backing up -------------------------------------------------------------------

    def back_up(self, passphrase: str = "") -> bool:
        """Back up now with `passphrase` (or the saved one when ""); False if one runs."""
        if self._service.busy:
            return False
        return self.job.run(self._work(passphrase or None, scheduled=False), "backup")

    def cancel(self) -> None:
        self.job.cancel()

    def _work(self, passphrase: str | None, *, scheduled: bool) -> Work:
        async def work(progress: Progress, cancelled: Callable[[], bool]) -> None:
            await self._back_up(passphrase, progress, cancelled, scheduled)

        return work

    async def _back_up(
        self,
        passphrase: str | None,
        progress: Progress,
        cancelled: Callable[[], bool],
        scheduled: bool,
    ) -> None:
        self.last_scheduled = scheduled
        try:
            done = await self._service.back_up(passphrase, progress=progress, cancelled=cancelled)
        except asyncio.CancelledError:
            self._finish(False, self.tr("The backup was cancelled; nothing was changed."))
            if not self.job.cancelling:
                raise  # Parley is quitting
            return
        except (ParleyError, OSError) as error:
            if getattr(error, "problem", None) is BackupProblem.CANCELLED:
                self._finish(False, str(error))
                return
            self._finish(False, str(error))
            if scheduled:
                self._daily_failed(str(error))
            return
        self._last_daily_error = ""
        self.restore.backed_up()
        text = self.tr("Backed up: %1 (%2).")
        if done.pruned:
            text = self.tr("Backed up: %1 (%2); removed %Ln older backup(s).", "", done.pruned)
        text = text.replace("%1", done.name).replace("%2", human_size(done.size))
        self._finish(True, sentences([text, done.prune_error]))

    def _finish(self, ok: bool, text: str) -> None:
        self.summary, self.summary_ok = text, ok
        self.finished.emit(ok, text)
        self.statusChanged.emit()

    def _daily_failed(self, words: str) -> None:
        if words == self._last_daily_error:
            return  # said already; the status line keeps saying it
        self._last_daily_error = words
        self.scheduleFailed.emit(self.tr("The daily backup failed: %1").replace("%1", words))

    # --- the schedule -----------------------------------------------------------------

    def start_schedule(
        self, first_ms: int = FIRST_CHECK_MS, every_ms: int = CHECK_EVERY_MS
    ) -> None:
        """Look at the schedule after `first_ms`, then every `every_ms`."""
        self._every_ms = every_ms
        self._timer.start(first_ms)

    def _check_schedule(self) -> None:
        self._timer.start(self._every_ms)
        if self.job.working or not self._service.due():  # due() is False while busy
            return
        log.info("A daily backup is due")
        self.job.run(self._work(None, scheduled=True), "backup-daily")

    async def aclose(self) -> None:
        """At quit: no new backup starts, and a running one stops before the database
        closes."""
        self._timer.stop()
        await self.job.aclose()
