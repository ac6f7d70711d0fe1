"""What can go wrong with sync, in words a person can act on."""

from __future__ import annotations

from enum import StrEnum

from desktop.core.errors import ParleyError
from desktop.core.i18n import tr


class SyncProblem(StrEnum):
    NOT_JOINED = "not-joined"  # no vault key on this device
    NO_VAULT = "no-vault"  # joining where no vault was created
    VAULT_EXISTS = "vault-exists"  # creating where one already is
    WRONG_SECRET = "wrong-secret"  # wrong passphrase or recovery key
    TAMPERED = "tampered"  # an object failed its check: changed, swapped or replayed
    REMOVED = "removed"  # another device removed this one from the vault
    FORMAT = "format"  # written by a newer Parley
    BUSY = "busy"


class SyncError(ParleyError):
    def __init__(self, problem: SyncProblem, message: str) -> None:
        super().__init__(message)
        self.problem = problem


def not_joined() -> SyncError:
    return SyncError(
        SyncProblem.NOT_JOINED,
        tr("This computer is not in a sync vault. Create one or join one in Settings → Sync."),
    )


def wrong_secret() -> SyncError:
    return SyncError(
        SyncProblem.WRONG_SECRET,
        tr(
            "That passphrase or recovery key does not open this vault. Check it and try "
            "again; without either, the synced data cannot be read."
        ),
    )


def tampered(device: str, detail: str) -> SyncError:
    return SyncError(
        SyncProblem.TAMPERED,
        tr(
            "Changes from {device} were refused: {detail}. The storage may have been "
            "altered; the other devices' changes were still applied."
        ).format(device=device, detail=detail),
    )


def too_new() -> SyncError:
    return SyncError(
        SyncProblem.FORMAT,
        tr("The vault was written by a newer version of Parley. Update Parley to sync."),
    )


def unreadable(device: str, count: int) -> SyncError:
    return SyncError(
        SyncProblem.TAMPERED,
        tr(
            "%n change(s) from {device} could not be read and were passed over; its other "
            "changes were applied. That computer may run a newer or a faulty Parley.",
            "",
            count,
        ).format(device=device),
    )
