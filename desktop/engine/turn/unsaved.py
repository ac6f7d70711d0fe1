"""Finished answers the disk had no room for, until a save fits.

Such an answer is on screen as it ended, marked "Not saved yet"; the database still
holds the last copy that fitted (part of the text, status `streaming`). Everything that
reads messages back (the chat shown again, the composer's estimate, an export, the
history of the next request) goes through `over`, which puts each kept answer in place
of its stored copy, so no reader sees the stale one. A message deleted meanwhile stays
deleted: only messages a read found are replaced.

`save` tries to write them all: before each new message (the chat service), every few
seconds while any waits (here), and when Parley quits. `over` may be called from a
worker thread (the estimate runs in one): the mapping is replaced, never changed in
place.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import replace

from desktop.core.i18n import tr
from desktop.core.models import Message
from desktop.storage.disk_space import size_text
from desktop.storage.errors import DiskFullError, MessageNotFound, StorageError
from desktop.storage.repository import ChatRepository

log = logging.getLogger(__name__)

RETRY_S = 5.0  # how often a waiting answer is tried again


class UnsavedAnswers:
    def __init__(
        self, repository: ChatRepository, saved: Callable[[Message], None], retry_s: float = RETRY_S
    ) -> None:
        self._repo = repository
        self._saved = saved  # told of each answer once it is on disk
        self._retry_s = retry_s
        self._messages: dict[str, Message] = {}
        self._retrying: asyncio.Task[None] | None = None

    def keep(self, message: Message) -> None:
        """`message` (with its `save_error`) could not be saved: keep it until it can."""
        self._messages = {**self._messages, message.id: message}
        if self._retrying is None or self._retrying.done():
            self._retrying = asyncio.get_running_loop().create_task(
                self._retry(), name="save-unsaved-answers"
            )

    def over(self, messages: Iterable[Message]) -> list[Message]:
        """`messages` as read from the database, each kept answer in its stored copy's
        place."""
        kept = self._messages
        return [kept.get(m.id, m) for m in messages]

    def one(self, message: Message | None) -> Message | None:
        return None if message is None else self._messages.get(message.id, message)

    def save(self) -> bool:
        """Save every kept answer; True when none is left. Each one saved is announced
        (`saved`) without its "not saved" mark."""
        for message_id, message in list(self._messages.items()):
            saved = replace(message, save_error=None)
            deleted = False
            try:
                self._repo.save_message(saved)
            except MessageNotFound:
                log.info("unsaved answer %s was deleted meanwhile", message_id)
                deleted = True
            except StorageError:
                return False  # still no room: the next attempt tries them all again
            self._messages = {k: v for k, v in self._messages.items() if k != message_id}
            if not deleted:
                self._saved(saved)
        return True

    async def close(self) -> None:
        """Stop retrying (Parley quits; the caller saves what it can one last time)."""
        task, self._retrying = self._retrying, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _retry(self) -> None:
        while self._messages:
            await asyncio.sleep(self._retry_s)
            self.save()


def not_saved_text(error: StorageError) -> str:
    """What the answer shows while it is not on disk."""
    if isinstance(error, DiskFullError):
        if error.free_bytes is None:
            return tr(
                "Not saved yet: the disk holding {folder} is full. The answer stays here, "
                "and Parley saves it once there is room."
            ).format(folder=error.folder)
        return tr(
            "Not saved yet: the disk holding {folder} is full ({free} free). The answer stays "
            "here, and Parley saves it once there is room."
        ).format(folder=error.folder, free=size_text(error.free_bytes))
    return tr("Not saved yet: {error} Parley tries again at the next save.").format(error=error)
