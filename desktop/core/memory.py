"""Memories: short facts the person asked an assistant to keep across conversations.

A memory belongs to one scope: `global` (every assistant that opts in sees it) or
`assistant:<id>` (that assistant only). The person's own words decide what is kept, so
a memory is never rewritten behind their back: it is saved, edited, or deleted, and a
deletion is a tombstone (`deleted_at`) rather than a removed row, so a stale edit or
an older synced copy can never bring it back.

This module is the plain data the engine, storage and UI share; searching and the text
a model reads are the engine's (`engine/memory/`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

from desktop.core.errors import ParleyError, SettingsError
from desktop.core.i18n import tr
from desktop.core.knowledge import EmbeddingChoice, dump_embedding, parse_embedding

GLOBAL_SCOPE: Final = "global"
ASSISTANT_SCOPE_PREFIX: Final = "assistant:"

MEMORY_BLOCK_MAX_CHARS: Final = 4000  # all-in mode: the block in the system text, at most
MEMORY_RETRIEVE_LIMIT: Final = 6  # retrieval mode: memories an answer is given, at most
DUPLICATE_COSINE: Final = 0.92  # a new memory this close to a stored one is that one
# One memory fits in the block several times over: a memory is a fact, not a document.
MEMORY_MAX_CHARS: Final = 2000


class MemoryMode(StrEnum):
    """How an assistant's answers see its memories."""

    OFF = "off"
    ALL = "all"  # every memory (newest first, up to MEMORY_BLOCK_MAX_CHARS) in the system text
    RETRIEVE = "retrieve"  # the MEMORY_RETRIEVE_LIMIT best for the person's message


@dataclass(frozen=True, slots=True)
class Memory:
    id: str
    scope: str  # GLOBAL_SCOPE or "assistant:<id>"
    text: str
    created_at: datetime
    updated_at: datetime  # the last change of the text
    source_conversation_id: str | None
    source_message_id: str | None
    deleted_at: datetime | None = None  # the tombstone; a deleted memory stays deleted
    # No vector is stored for it (the embedder was down when it was saved or edited):
    # it is found by its words only until it is embedded again.
    words_only: bool = False

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None


class MemoryNotFound(ParleyError):
    """No memory has that id."""

    def __init__(self, memory_id: str):
        super().__init__(tr("That memory no longer exists."))
        self.memory_id = memory_id


class MemoryDeleted(ParleyError):
    """The memory was deleted: it is not changed, nor deleted again."""

    def __init__(self, memory_id: str):
        super().__init__(tr("That memory was deleted; save it again to keep it."))
        self.memory_id = memory_id


class InvalidMemory(ParleyError):
    """A memory's text or scope that cannot be stored."""


def scope_for(assistant_id: str | None) -> str:
    """The scope a memory saved for this assistant goes to (None: no assistant, global)."""
    return f"{ASSISTANT_SCOPE_PREFIX}{assistant_id}" if assistant_id else GLOBAL_SCOPE


def scopes_for(assistant_id: str | None, include_global: bool) -> tuple[str, ...]:
    """The scopes an answer of this assistant may read: its own, and the global ones only
    when it opted in. Without an assistant there is only the global scope."""
    if not assistant_id:
        return (GLOBAL_SCOPE,)
    own = scope_for(assistant_id)
    return (own, GLOBAL_SCOPE) if include_global else (own,)


def check_scope(scope: str) -> str:
    """`scope` if it is one a memory may have; raises `InvalidMemory` otherwise."""
    if scope == GLOBAL_SCOPE:
        return scope
    if scope.startswith(ASSISTANT_SCOPE_PREFIX) and scope[len(ASSISTANT_SCOPE_PREFIX) :].strip():
        return scope
    raise InvalidMemory(tr("A memory belongs to all assistants or to one assistant."))


def clean_text(text: str) -> str:
    """The text as stored: stripped, not empty, not longer than MEMORY_MAX_CHARS (a
    longer one is refused rather than cut: the person keeps all of what they wrote)."""
    cleaned = text.strip()
    if not cleaned:
        raise InvalidMemory(tr("A memory needs some text."))
    if len(cleaned) > MEMORY_MAX_CHARS:
        raise InvalidMemory(
            tr("A memory can be at most {limit} characters long; this one has {length}.").format(
                limit=f"{MEMORY_MAX_CHARS:,}", length=f"{len(cleaned):,}"
            )
        )
    return cleaned


def normalised(text: str) -> str:
    """What two memories must share to be the same fact: case folded, runs of white space
    as one space, trailing punctuation dropped ("Likes tea." is "likes tea")."""
    folded = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    end = len(folded)
    while end and (unicodedata.category(folded[end - 1]).startswith("P") or folded[end - 1] == " "):
        end -= 1
    return folded[:end]


@dataclass(frozen=True, slots=True)
class MemorySettings:
    """Settings → Memory: the model that embeds memories for retrieval (None: found
    by their words only)."""

    embedding: EmbeddingChoice | None = None


def parse_memory_settings(data: Any) -> MemorySettings:
    if not isinstance(data, dict):
        raise SettingsError("memory", tr("must be an object"))
    unknown = sorted(set(data) - {"embedding"})
    if unknown:
        raise SettingsError(f"memory.{unknown[0]}", tr("unknown setting (check the spelling)"))
    return MemorySettings(parse_embedding(data.get("embedding"), "memory.embedding"))


def dump_memory_settings(settings: MemorySettings) -> dict[str, Any]:
    if settings.embedding is None:
        return {}
    return {"embedding": dump_embedding(settings.embedding)}
