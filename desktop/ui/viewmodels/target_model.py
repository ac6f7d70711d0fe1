"""What the "Where" form (`views/backup_target_form.py`) needs from its view-model, so
File → Back Up… and Settings → Sync share one form for a folder, WebDAV or S3 target,
each saving into its own settings field; and the keyring work both do for the target's
password (kept under `remote_target.secret_name`, or for this run only without a
keyring), written once here.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Protocol

from PySide6.QtCore import SignalInstance

from desktop.core.errors import ParleyError, SecretStoreUnavailable
from desktop.core.remote_target import RemoteTarget, needs_secret, secret_name
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.backup_form import FieldValue, TargetKind

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
