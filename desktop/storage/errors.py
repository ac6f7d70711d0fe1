"""Storage failures, phrased for the person reading them in the UI.

All subclass `ParleyError`, so the app's single error hook can show `str(error)` as is.
Messages name files and ids, never message contents or keys.
"""

from __future__ import annotations

from desktop.core.errors import ParleyError


class StorageError(ParleyError):
    """The database could not be opened, read or written."""


class MigrationError(StorageError):
    """Upgrading the database schema failed; the failed step was rolled back."""


class DatabaseTooNewError(StorageError):
    """The database was written by a newer Parley; it is left untouched."""


class ConversationNotFound(StorageError):
    """The conversation does not exist (it may have been deleted in another window)."""

    def __init__(self, conversation_id: str):
        super().__init__(f"The conversation {conversation_id} no longer exists.")
        self.conversation_id = conversation_id


class MessageNotFound(StorageError):
    """The message does not exist (its conversation may have been deleted meanwhile)."""

    def __init__(self, message_id: str):
        super().__init__(f"The message {message_id} no longer exists.")
        self.message_id = message_id
