"""One answer's memories: the block its system text carries, and what its memory tools
do, under handles (`m1`, `m2`) that stand for memories in this answer only.

The assistant decides how memories are used (`Assistant.memory`): all of them, newest
first up to the block's size, or the few that best answer the person's message. Its own
memories are always in scope; the global ones only when it opts in. A memory the model
saves goes to the assistant's own scope, marked with the chat and answer it came from,
so the answer's card can offer Edit and Undo. Ids never reach a provider: the model
names memories by handle. A handle is a digest of the memory's id and the chat's, the
same in every answer of that chat, so one read in an earlier answer (still in the
history the model sees) names the same memory, never another; a handle that names no
memory of the assistant's scopes names nothing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from desktop.core.assistants import Assistant
from desktop.core.errors import ParleyError
from desktop.core.memory import Memory, MemoryMode, scope_for, scopes_for
from desktop.engine.memory.block import Handles, memory_block, plain_handle
from desktop.engine.memory.service import MemoryService
from desktop.engine.tools.registry import ToolFailure
from desktop.storage.errors import StorageError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MemoryBlock:
    text: str  # "" when there is nothing to show
    words_only_reason: str | None = None


def handle_for(conversation_id: str, memory_id: str) -> str:
    """`m` and six characters of a digest: short to write, stable within a chat, and
    not the id (nor the same handle in another chat)."""
    digest = hashlib.sha256(f"{conversation_id}:{memory_id}".encode()).digest()
    return "m" + base64.b32encode(digest).decode("ascii")[:6].lower()


class AnswerMemory:
    def __init__(
        self, service: MemoryService, assistant: Assistant, conversation_id: str, message_id: str
    ) -> None:
        self._service = service
        self._mode = assistant.memory
        self._scopes = scopes_for(assistant.id, assistant.global_memories)
        self._own_scope = scope_for(assistant.id)
        self._conversation_id = conversation_id
        self._message_id = message_id
        self._handles = Handles(partial(handle_for, conversation_id))

    async def block(self, question: str) -> MemoryBlock:
        """The memories this answer starts with, as the system text shows them."""
        try:
            if self._mode is MemoryMode.ALL:
                memories: Sequence[Memory] = await self._service.all_in(self._scopes)
                return MemoryBlock(memory_block(memories, self._handles))
            if self._mode is MemoryMode.RETRIEVE and question:
                found = await self._service.search(self._scopes, question)
                return MemoryBlock(
                    memory_block(found.memories, self._handles), found.words_only_reason
                )
        except ParleyError as error:
            log.warning("memories could not be read: %s", type(error).__name__)
        return MemoryBlock("")

    # --- the tools ----------------------------------------------------------------------

    async def search(self, query: str) -> str:
        try:
            found = await self._service.search(self._scopes, query)
        except ParleyError as error:
            raise _failure(error) from None
        return json.dumps(
            {"memories": [self._shown(m) for m in found.memories]}, ensure_ascii=False
        )

    async def save(self, text: str) -> str:
        try:
            outcome = await self._service.save(
                self._own_scope,
                text,
                source_conversation_id=self._conversation_id,
                source_message_id=self._message_id,
                duplicate_scopes=self._scopes,
            )
        except ParleyError as error:
            raise _failure(error) from None
        shown = self._shown(outcome.memory)
        if outcome.duplicate_of is not None:
            return json.dumps(
                {
                    **shown,
                    "saved": False,
                    "note": "This is already remembered. To change it, call memory_update "
                    "with its handle.",
                },
                ensure_ascii=False,
            )
        return json.dumps({**shown, "saved": True}, ensure_ascii=False)

    async def update(self, handle: str, text: str) -> str:
        memory_id = await self._memory_id(handle)
        try:
            memory = await self._service.update(memory_id, text)
        except ParleyError as error:
            raise _failure(error) from None
        return json.dumps({**self._shown(memory), "updated": True}, ensure_ascii=False)

    async def delete(self, handle: str) -> str:
        memory_id = await self._memory_id(handle)
        try:
            await self._service.delete(memory_id)
        except ParleyError as error:
            raise _failure(error) from None
        return json.dumps({"handle": handle, "deleted": True}, ensure_ascii=False)

    async def _memory_id(self, handle: str) -> str:
        memory_id = self._handles.memory_id(handle)
        if memory_id is None:  # given in an earlier answer of this chat, perhaps
            wanted = plain_handle(handle)
            try:
                memories = await self._service.list(self._scopes)
            except ParleyError as error:
                raise _failure(error) from None
            for memory in memories:
                if self._handles.next_for(memory.id) == wanted:
                    self._handles.handle(memory.id)
                    memory_id = memory.id
                    break
        if memory_id is None:
            raise ToolFailure(
                f"There is no memory {handle!r} in this answer: use a handle from the "
                "memories shown or from memory_search."
            )
        return memory_id

    def _shown(self, memory: Memory) -> dict[str, str]:
        return {"handle": self._handles.handle(memory.id), "text": memory.text}


def _failure(error: ParleyError) -> ToolFailure:
    """What the model reads of a failure: a storage error's own words name folders on
    this computer, which no provider is told."""
    if isinstance(error, StorageError):
        return ToolFailure("Parley could not read or write its memories just now.")
    return ToolFailure(str(error))
