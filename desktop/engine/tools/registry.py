"""What a tool is to the engine: a definition and a coroutine that runs it.

A tool reports a failure the model should read (a path outside the workspace, a file
that does not exist) by raising `ToolFailure`; anything else it raises is a bug,
logged and reported to the model as an unexpected error. Cancellation is never caught.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from desktop.core.models import CitationPart, SourceKind
from desktop.core.search import SearchHit, SearchScope
from desktop.core.tools import ToolDefinition
from desktop.engine.tools.web_port import Web
from desktop.providers.base import ToolSpec


class ToolFailure(Exception):
    """A refusal or failure explained to the model in `str(error)`."""


class DocumentSearch(Protocol):
    """One answer's searches of the person's documents (`turn/search_ledger.py`)."""

    async def search(self, query: str, limit: int) -> str: ...


class SourcePlace(Protocol):
    async def reached(self) -> None: ...

    def leave(self) -> None: ...


class SourceBook(Protocol):
    """The answer's numbered sources (`turn/answer_sources.py`): a search lines up when
    it starts and numbers what it found once its turn comes."""

    def line_up(self) -> SourcePlace: ...

    def number_of(self, key: tuple[SourceKind, str]) -> int | None: ...

    def add(
        self, found: Sequence[tuple[tuple[SourceKind, str], Callable[[int], CitationPart]]]
    ) -> list[CitationPart]: ...


class MemoryTools(Protocol):
    """One answer's memory tools (`turn/answer_memory.py`): memories named by handle."""

    async def search(self, query: str) -> str: ...

    async def save(self, text: str) -> str: ...

    async def update(self, handle: str, text: str) -> str: ...

    async def delete(self, handle: str) -> str: ...


@dataclass(frozen=True, slots=True)
class ToolContext:
    """What a tool may use for one call.

    `workspace` is the conversation's folder (None: no workspace tools);
    `outputs_dir` holds large outputs saved by earlier calls; `offered` is every tool
    this request really has (for `get_session_capabilities`); `knowledge` searches
    the assistant's libraries for this answer (None: not on demand); `sources` numbers
    what searches find, with the answer's other sources.
    """

    conversation_id: str
    workspace: Path | None
    outputs_dir: Path
    offered: tuple[ToolDefinition, ...] = ()
    search: Callable[[str, int, SearchScope], list[SearchHit]] | None = None
    knowledge: DocumentSearch | None = None
    sources: SourceBook | None = None
    web: Web | None = None  # set when the person has a web search engine
    memory: MemoryTools | None = None  # set when the assistant uses memories


@dataclass(frozen=True, slots=True)
class ToolResult:
    """A result with files kept in the attachment store (an MCP server's images): the
    model reads `text`, the tool card shows the attachments."""

    text: str
    attachment_ids: tuple[str, ...] = ()


Handler = Callable[[Mapping[str, Any], ToolContext], Awaitable[str | ToolResult]]


@dataclass(frozen=True, slots=True)
class Tool:
    definition: ToolDefinition
    run: Handler
    needs_workspace: bool = False

    @property
    def name(self) -> str:
        return self.definition.name


@dataclass(frozen=True, slots=True)
class Toolbox:
    """The tools one generation offers the model, and the context they run in."""

    tools: Mapping[str, Tool] = field(default_factory=dict)
    context: ToolContext | None = None

    def get(self, name: str) -> Tool | None:
        return self.tools.get(name)

    def specs(self) -> tuple[ToolSpec, ...]:
        return tuple(
            ToolSpec(t.definition.name, t.definition.description, t.definition.parameters)
            for t in self.tools.values()
        )
