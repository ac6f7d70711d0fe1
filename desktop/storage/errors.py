"""Storage failures, phrased for the person reading them in the UI.

All subclass `ParleyError`, so the app's single error hook can show `str(error)` as is.
Messages name files and ids, never message contents or keys.
"""

from __future__ import annotations

from pathlib import Path

from desktop.core.errors import ParleyError
from desktop.core.i18n import tr


class StorageError(ParleyError):
    """The database could not be opened, read or written."""


class DiskFullError(StorageError):
    """The disk holding Parley's data has no room left. Nothing was damaged: what could
    not be written was rolled back. `folder` is where the space ran out; `free_bytes`
    what the disk still had (None when it could not be asked)."""

    def __init__(self, message: str, folder: Path, free_bytes: int | None):
        super().__init__(message)
        self.folder = folder
        self.free_bytes = free_bytes


class MigrationError(StorageError):
    """Upgrading the database schema failed; the failed step was rolled back."""


class DatabaseTooNewError(StorageError):
    """The database was written by a newer Parley; it is left untouched."""


class ConversationNotFound(StorageError):
    """The conversation does not exist (it may have been deleted in another window)."""

    def __init__(self, conversation_id: str):
        super().__init__(
            tr("The conversation {conversation_id} no longer exists.").format(
                conversation_id=conversation_id
            )
        )
        self.conversation_id = conversation_id


class MessageNotFound(StorageError):
    """The message does not exist (its conversation may have been deleted meanwhile)."""

    def __init__(self, message_id: str):
        super().__init__(
            tr("The message {message_id} no longer exists.").format(message_id=message_id)
        )
        self.message_id = message_id
