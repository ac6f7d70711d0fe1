"""Why a backup could not be written or opened, as a kind and as words for people.

`problem` lets the caller choose what to offer (ask for the passphrase again on
WRONG_PASSPHRASE, suggest another folder on NO_SPACE); `str(error)` is the sentence a
person reads, saying what happened and what became of their data.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from desktop.core.errors import ParleyError
from desktop.core.i18n import tr
from desktop.storage.disk_space import free_bytes, size_text


class BackupProblem(StrEnum):
    WRONG_PASSPHRASE = "wrong-passphrase"
    TAMPERED = "tampered"  # authentication failed, truncated, or its header changed
    NOT_A_BACKUP = "not-a-backup"  # not a Parley backup at all
    TOO_NEW = "too-new"  # a newer archive format or database schema than this Parley's
    NO_SPACE = "no-space"
    CANCELLED = "cancelled"
    # A file could not be read, or its contents are not laid out as Parley writes them.
    UNREADABLE = "unreadable"
    # The backup (or what it unpacks to) could not be written, for want of anything but space.
    UNWRITABLE = "unwritable"


class BackupError(ParleyError):
    """A backup failed to be written or opened; nothing was changed by it."""

    def __init__(self, problem: BackupProblem, message: str):
        super().__init__(message)
        self.problem = problem


def wrong_passphrase() -> BackupError:
    return BackupError(
        BackupProblem.WRONG_PASSPHRASE,
        tr(
            "The passphrase does not open this backup. Check it and try again; nothing was changed."
        ),
    )


def tampered(detail: str) -> BackupError:
    return BackupError(
        BackupProblem.TAMPERED,
        tr(
            "This backup was changed or damaged after it was made ({detail}); "
            "nothing was restored from it."
        ).format(detail=detail),
    )


def not_a_backup(path: Path) -> BackupError:
    return BackupError(
        BackupProblem.NOT_A_BACKUP,
        tr("{name} is not a Parley backup; nothing was restored from it.").format(name=path.name),
    )


def format_too_new(found: int) -> BackupError:
    return BackupError(
        BackupProblem.TOO_NEW,
        tr(
            "This backup was made by a newer Parley (backup format {found}). Update Parley "
            "to open it; nothing was changed."
        ).format(found=found),
    )


def schema_too_new(found: int, known: int) -> BackupError:
    return BackupError(
        BackupProblem.TOO_NEW,
        tr(
            "This backup holds a database from a newer Parley (version {found}; this Parley "
            "knows up to {known}). Update Parley to restore it; nothing was changed."
        ).format(found=found, known=known),
    )


def badly_laid_out(detail: str) -> BackupError:
    return BackupError(
        BackupProblem.UNREADABLE,
        tr(
            "This backup's contents are not laid out as Parley writes them ({detail}); "
            "nothing was restored from it."
        ).format(detail=detail),
    )


def unreadable(path: Path, reason: str) -> BackupError:
    return BackupError(
        BackupProblem.UNREADABLE,
        tr("Parley could not read {path} ({reason}); nothing was changed.").format(
            path=path, reason=reason
        ),
    )


def too_costly(detail: str) -> BackupError:
    return BackupError(
        BackupProblem.UNREADABLE,
        tr(
            "This backup's passphrase protection is set for a much faster computer than this "
            "one ({detail}); open it on a faster computer. Nothing was changed."
        ).format(detail=detail),
    )


def no_space(folder: Path, doing: str) -> BackupError:
    """`doing` says what could not be finished, e.g. "write the backup"."""
    free = free_bytes(folder)
    if free is None:
        message = tr(
            "There is not enough free space in {folder} to {doing}. Free some space there "
            "or choose another folder; nothing was changed."
        ).format(folder=folder, doing=doing)
    else:
        message = tr(
            "There is not enough free space in {folder} to {doing} ({free} free). Free some "
            "space there or choose another folder; nothing was changed."
        ).format(folder=folder, doing=doing, free=size_text(free))
    return BackupError(BackupProblem.NO_SPACE, message)


def unwritable(folder: Path, reason: str) -> BackupError:
    return BackupError(
        BackupProblem.UNWRITABLE,
        tr("Parley could not write to {folder} ({reason}); nothing was changed.").format(
            folder=folder, reason=reason
        ),
    )


def cancelled(writing: bool) -> BackupError:
    return BackupError(
        BackupProblem.CANCELLED,
        tr("The backup was cancelled; no backup file was left behind.")
        if writing
        else tr("Opening the backup was cancelled; nothing was restored from it."),
    )
