"""Edit and Undo on the card of a memory an answer saved.

A model saves a memory without asking (the person would be asked all day otherwise),
so the answer shows what it saved, where it was said, with the two ways back: change
the words, or undo the save. The card knows the text; the memory is found as the one
that answer saved with that text (or the only one it saved, if the model changed it
since). What each action did is kept by call, so the card says it after every redraw.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Signal

from desktop.core.errors import ParleyError
from desktop.core.memory import Memory
from desktop.engine.memory.service import MemoryService
from desktop.ui.viewmodels.tasks import TaskGroup


class MemoryCardsViewModel(QObject):
    """`changed(call_id)` once an action on that call's memory is done (or failed):
    `status(call_id)` then says what happened."""

    changed = Signal(str)

    def __init__(
        self, memory: MemoryService | None, tasks: TaskGroup, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._memory = memory
        self._tasks = tasks
        self._status: dict[str, str] = {}
        self._undone: set[str] = set()
        self._texts: dict[str, str] = {}  # the words after an Edit, by call

    @property
    def available(self) -> bool:
        return self._memory is not None

    def status(self, call_id: str) -> str:
        return self._status.get(call_id, "")

    def text(self, call_id: str) -> str:
        """The memory's words after an Edit on this card ("" when not edited)."""
        return self._texts.get(call_id, "")

    def undone(self, call_id: str) -> bool:
        return call_id in self._undone

    def undo(self, call_id: str, message_id: str, text: str) -> None:
        self._tasks.start(self._undo(call_id, message_id, text), "memory-undo")

    def edit(self, call_id: str, message_id: str, text: str, new_text: str) -> None:
        self._tasks.start(self._edit(call_id, message_id, text, new_text), "memory-edit")

    async def _saved(self, message_id: str, text: str) -> Memory | None:
        assert self._memory is not None
        mine = [m for m in await self._memory.list() if m.source_message_id == message_id]
        same = [m for m in mine if m.text == text]
        return (same or mine)[0] if len(same) == 1 or (not same and len(mine) == 1) else None

    async def _undo(self, call_id: str, message_id: str, text: str) -> None:
        try:
            memory = await self._saved(message_id, text)
            if memory is None:
                self._status[call_id] = QCoreApplication.translate(
                    "MemoryCard", "This memory is no longer kept."
                )
            else:
                assert self._memory is not None
                await self._memory.delete(memory.id)
                self._status[call_id] = QCoreApplication.translate(
                    "MemoryCard", "Removed from memory."
                )
            self._undone.add(call_id)
        except ParleyError as error:
            self._status[call_id] = QCoreApplication.translate(
                "MemoryCard", "Could not change the memory: %1"
            ).replace("%1", str(error))
        self.changed.emit(call_id)

    async def _edit(self, call_id: str, message_id: str, text: str, new_text: str) -> None:
        try:
            memory = await self._saved(message_id, text)
            if memory is None:
                self._status[call_id] = QCoreApplication.translate(
                    "MemoryCard", "This memory is no longer kept."
                )
                self._undone.add(call_id)
            else:
                assert self._memory is not None
                changed = await self._memory.update(memory.id, new_text)
                self._texts[call_id] = changed.text
                self._status[call_id] = QCoreApplication.translate(
                    "MemoryCard", "Changed to: %1"
                ).replace("%1", changed.text)
        except ParleyError as error:
            self._status[call_id] = QCoreApplication.translate(
                "MemoryCard", "Could not change the memory: %1"
            ).replace("%1", str(error))
        self.changed.emit(call_id)
