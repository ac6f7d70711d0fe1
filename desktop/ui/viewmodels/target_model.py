"""What the "Where" form (`views/backup_target_form.py`) needs from its view-model, so
File → Back Up… and Settings → Sync share one form for a folder, WebDAV or S3 target,
each saving into its own settings field; and what both do for that form, written once
here (`TargetActions`): the keyring work for the target's password (kept under
`remote_target.secret_name`, or for this run only without a keyring), Test, and the
check of a passphrase typed twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Protocol

from PySide6.QtCore import SignalInstance

from desktop.core.errors import ParleyError, SecretStoreUnavailable, SettingsError
from desktop.core.remote_target import RemoteTarget, needs_secret, secret_name
from desktop.engine.backup.crypto import passphrase_problem
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.backup_form import FieldValue, TargetKind, build_target
from desktop.ui.viewmodels.tasks import TaskGroup

PASSWORD = "password"  # problemChanged's field for the target's password


class HasTarget(Protocol):
    @property
    def target(self) -> RemoteTarget | None: ...


class TargetModel(Protocol):
    """The form's view-model: the saved target, its password's state, and Test."""

    @property
    def configChanged(self) -> SignalInstance: ...  # the saved target may have changed

    @property
    def problemChanged(self) -> SignalInstance: ...  # (field, problem or "")

    @property
    def secretsChanged(self) -> SignalInstance: ...

    @property
    def testingChanged(self) -> SignalInstance: ...  # (bool)

    @property
    def testFinished(self) -> SignalInstance: ...  # (it worked?, in words)

    @property
    def config(self) -> HasTarget: ...

    @property
    def keyring_problem(self) -> str: ...

    @property
    def target_secret_saved(self) -> bool: ...

    def set_target(self, kind: TargetKind, values: Mapping[str, FieldValue]) -> bool: ...

    def set_target_secret(self, value: str) -> None: ...

    def forget_target_secret(self) -> None: ...

    def test(self, kind: TargetKind, values: Mapping[str, FieldValue]) -> None: ...


async def secret_saved(
    settings: SettingsService, session: Mapping[str, str], target: RemoteTarget | None
) -> bool:
    """Whether `target`'s password is kept (in the keyring or for this run)."""
    if target is None or not needs_secret(target):
        return False
    name = secret_name(target, PASSWORD)
    return name in session or bool(await settings.secret(name))


async def keep_secret(
    settings: SettingsService,
    session: MutableMapping[str, str],
    target: RemoteTarget,
    value: str,
) -> str:
    """Keep `value` as `target`'s password; returns why the keyring could not ("" when
    it did), in which case it is kept in `session` for this run of Parley only."""
    name = secret_name(target, PASSWORD)
    problem = ""
    if settings.keyring_available:
        try:
            await settings.set_secret(name, value)
        except (SecretStoreUnavailable, ParleyError) as error:
            problem = str(error)
        else:
            session.pop(name, None)
            return ""
    else:
        problem = settings.keyring_problem
    session[name] = value
    return problem


async def forget_secret(
    settings: SettingsService, session: MutableMapping[str, str], target: RemoteTarget
) -> None:
    """Forget `target`'s password everywhere it is kept (raises ParleyError)."""
    name = secret_name(target, PASSWORD)
    session.pop(name, None)
    await settings.delete_secret(name)


def typed_passphrase_problem(passphrase: str, repeat: str, differ: Callable[[], str]) -> str:
    """What is wrong with a passphrase typed twice ("" when none is typed, or it will
    do); `differ` says that the two differ."""
    if not passphrase and not repeat:
        return ""
    weak = passphrase_problem(passphrase)
    if weak:
        return weak
    if passphrase != repeat:
        return differ()
    return ""


class TargetWords(Protocol):
    """What `TargetActions` says, in the words (and translation) of its view-model."""

    def user_name_first(self) -> str: ...

    def kept_for_this_run(self, problem: str) -> str: ...  # "" when there is no problem

    def fix_field(self) -> str: ...


class TargetActions:
    """The form's work for its view-model (`model`, whose signals say how it went):
    whether the target's password is kept (`secret_saved`), keeping and forgetting it,
    and Test (`testing`), each in the background as a task named `name`-something.

    Keyring reads and writes run in worker threads that may finish in any order: one at
    a time (`turn`, which the view-model takes too for its own keyring work), in the
    order asked, so a read begun before a write never reports what the keyring held
    before it.
    """

    def __init__(
        self,
        model: TargetModel,
        words: TargetWords,
        settings: SettingsService,
        session: MutableMapping[str, str],
        tasks: TaskGroup,
        name: str,
    ) -> None:
        self._model = model
        self._words = words
        self._settings = settings
        self._session = session  # passwords kept for this run only
        self._tasks = tasks
        self._name = name
        self.turn = asyncio.Lock()
        self.secret_saved = False  # as far as known (load)
        self.testing = False

    def target(self, kind: TargetKind, values: Mapping[str, FieldValue]) -> RemoteTarget | None:
        """The target the form describes, every field's problem cleared; None (the
        field's problem said) when it cannot work."""
        try:
            target = build_target(kind, values)
        except SettingsError as error:
            self._model.problemChanged.emit(error.field, error.problem)
            return None
        for field in values:
            self._model.problemChanged.emit(field, "")
        return target

    # --- the password -----------------------------------------------------------------

    def load(self, also: Callable[[], Awaitable[None]] | None = None) -> None:
        """Learn, in the background, whether the saved target's password is kept (and
        whatever `also` reads from the keyring in the same turn)."""
        self._tasks.start(self._load(also), f"{self._name}-secrets")

    async def _load(self, also: Callable[[], Awaitable[None]] | None) -> None:
        async with self.turn:
            self.secret_saved = await secret_saved(
                self._settings, self._session, self._model.config.target
            )
            if also is not None:
                await also()
        self._model.secretsChanged.emit()

    def keep(self, value: str) -> None:
        """Keep the saved target's password (S3: secret key) in the keyring, or for this
        run only when the keyring cannot take it."""
        target = self._model.config.target
        if not value:
            return
        if target is None or not needs_secret(target):
            self._model.problemChanged.emit(PASSWORD, self._words.user_name_first())
            return
        self._tasks.start(self._keep(target, value), f"{self._name}-password")

    async def _keep(self, target: RemoteTarget, value: str) -> None:
        async with self.turn:
            problem = await keep_secret(self._settings, self._session, target, value)
        self._model.problemChanged.emit(PASSWORD, self._words.kept_for_this_run(problem))
        self.secret_saved = True
        self._model.secretsChanged.emit()

    def forget(self) -> None:
        target = self._model.config.target
        if target is not None:
            self._tasks.start(self._forget(target), f"{self._name}-password")

    async def _forget(self, target: RemoteTarget) -> None:
        async with self.turn:
            try:
                await forget_secret(self._settings, self._session, target)
            except ParleyError as error:
                self._model.problemChanged.emit(PASSWORD, str(error))
        self.secret_saved = False
        self._model.secretsChanged.emit()

    # --- Test -------------------------------------------------------------------------

    def test(
        self,
        kind: TargetKind,
        values: Mapping[str, FieldValue],
        probe: Callable[[RemoteTarget], Awaitable[str]],
    ) -> None:
        """Try the target the form describes with `probe`, which says what it found
        (`testFinished`)."""
        try:
            target = build_target(kind, values)
        except SettingsError as error:
            self._model.problemChanged.emit(error.field, error.problem)
            self._model.testFinished.emit(False, self._words.fix_field())
            return
        self._set_testing(True)
        self._tasks.start(self._test(target, probe), f"{self._name}-test")

    async def _test(
        self, target: RemoteTarget, probe: Callable[[RemoteTarget], Awaitable[str]]
    ) -> None:
        try:
            found = await probe(target)
        except (ParleyError, OSError) as error:
            self._model.testFinished.emit(False, str(error))
        else:
            self._model.testFinished.emit(True, found)
        finally:
            self._set_testing(False)

    def _set_testing(self, testing: bool) -> None:
        self.testing = testing
        self._model.testingChanged.emit(testing)
