"""Knowledge libraries: the person's folders and files, indexed so answers can cite them.

A library's definition lives in settings.json (`"libraries"`, a list) beside the
assistants; an assistant names the libraries it may use. The index itself (sources,
chunks, word index, vectors) is a separate, rebuildable database the engine keeps
(`engine/knowledge/`). This module holds the plain data both sides share: the
definitions, what a search returns, and what indexing reports.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_PROVIDER_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_KEYS = {"id", "name", "paths", "include", "exclude", "embedding", "enabled"}
_EMBEDDING_KEYS = {"provider", "model", "dimensions"}
MAX_DIMENSIONS = 8192
MAX_PASSAGES = 6  # passages a request carries, and a search returns at most


@dataclass(frozen=True, slots=True)
class EmbeddingChoice:
    """The model that turns a library's passages into vectors: a configured provider's
    embedding model, optionally asked for fewer `dimensions` (OpenAI, Gemini)."""

    provider_id: str
    model: str
    dimensions: int | None = None

    @property
    def key(self) -> str:
        """Which vectors belong together: a changed model or size is a new key."""
        size = f"@{self.dimensions}" if self.dimensions else ""
        return f"{self.provider_id}/{self.model}{size}"


@dataclass(frozen=True, slots=True)
class LibrarySettings:
    """One library: where its files are, which of them count, and how it is embedded
    (None: searched by words only)."""

    id: str
    name: str
    paths: tuple[str, ...] = ()  # folders (walked) and single files
    include: tuple[str, ...] = ()  # glob patterns on the library-relative path; () = all
    exclude: tuple[str, ...] = ()
    embedding: EmbeddingChoice | None = None
    enabled: bool = True


class EmbeddingKind(StrEnum):
    """What a text is embedded as: some models embed passages and questions apart."""

    DOCUMENT = "document"
    QUERY = "query"


class SourceStatus(StrEnum):
    PENDING = "pending"  # found, not yet indexed (or changed since)
    INDEXED = "indexed"
    FAILED = "failed"  # the reason is kept with it
    SKIPPED = "skipped"  # not a kind Parley reads


class LibraryState(StrEnum):
    IDLE = "idle"
    SCANNING = "scanning"
    INDEXING = "indexing"
    RE_EMBEDDING = "re-embedding"  # the embedding model changed: words still work
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class FailedSource:
    path: str  # library-relative
    reason: str  # in the person's words: damaged, too large, no text layer


@dataclass(frozen=True, slots=True)
class IndexProgress:
    """Where a library's indexing is: sent on the engine's event bus as it goes."""

    library_id: str
    state: LibraryState
    done: int = 0  # files handled in this pass
    total: int = 0  # files to handle in this pass
    current_file: str = ""  # library-relative
    counts: Mapping[SourceStatus, int] = field(default_factory=dict)
    failed: tuple[FailedSource, ...] = ()
    partial: tuple[FailedSource, ...] = ()  # indexed, but only in part: why
    error: str = ""  # why the pass stopped early (the embedder is unreachable, ...)
    notice: str = ""  # what the person should know of a pass that went on (a folder away)


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrieved chunk. `path` is absolute (for the source panel and Open file);
    `relative_path` is what a model may see."""

    chunk_id: int
    library_id: str
    path: str
    relative_path: str
    text: str
    heading_path: str = ""
    page: int | None = None
    char_start: int = 0
    char_end: int = 0
    source_sha256: str = ""
    score: float = 0.0


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """A search's passages, best first, and why vectors were not used, if they were not
    (shown with the answer: "searched by words only: ...")."""

    passages: tuple[Passage, ...]
    words_only_reason: str = ""


# --- settings.json -----------------------------------------------------------------


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SettingsError(where, tr("must be a list of strings"))
    return tuple(dict.fromkeys(v.strip() for v in value if v.strip()))


def parse_embedding(value: Any, where: str) -> EmbeddingChoice | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise SettingsError(where, tr("must be an object or null"))
    unknown = sorted(set(value) - _EMBEDDING_KEYS)
    if unknown:
        raise SettingsError(f"{where}.{unknown[0]}", tr("unknown setting (check the spelling)"))
    provider = value.get("provider")
    if not isinstance(provider, str) or not _PROVIDER_ID.match(provider):
        raise SettingsError(f"{where}.provider", tr("must be a provider id"))
    model = value.get("model")
    if not isinstance(model, str) or not model.strip():
        raise SettingsError(f"{where}.model", tr("must not be empty"))
    dimensions = value.get("dimensions")
    if dimensions is not None and (
        isinstance(dimensions, bool)
        or not isinstance(dimensions, int)
        or not 1 <= dimensions <= MAX_DIMENSIONS
    ):
        raise SettingsError(
            f"{where}.dimensions",
            tr("must be a whole number from 1 to {most}, or null").format(most=MAX_DIMENSIONS),
        )
    return EmbeddingChoice(provider, model.strip(), dimensions)


def parse_library(data: Any, where: str) -> LibrarySettings:
    if not isinstance(data, dict):
        raise SettingsError(where, tr("must be an object"))
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SettingsError(f"{where}.{unknown[0]}", tr("unknown setting (check the spelling)"))
    library_id = data.get("id")
    if not isinstance(library_id, str) or not _ID.match(library_id):
        raise SettingsError(
            f"{where}.id", tr("must be 1-40 lowercase letters, digits, '-' or '_' (e.g. 'writer')")
        )
    name = data.get("name", "")
    if not isinstance(name, str) or not name.strip():
        raise SettingsError(f"{where}.name", tr("must not be empty"))
    enabled = data.get("enabled", True)
    if not isinstance(enabled, bool):
        raise SettingsError(f"{where}.enabled", tr("must be true or false"))
    return LibrarySettings(
        id=library_id,
        name=name.strip(),
        paths=_strings(data.get("paths", []), f"{where}.paths"),
        include=_strings(data.get("include", []), f"{where}.include"),
        exclude=_strings(data.get("exclude", []), f"{where}.exclude"),
        embedding=parse_embedding(data.get("embedding"), f"{where}.embedding"),
        enabled=enabled,
    )


def parse_libraries(data: Any) -> tuple[LibrarySettings, ...]:
    if not isinstance(data, list):
        raise SettingsError("libraries", tr("must be a list"))
    libraries = [parse_library(item, f"libraries[{i}]") for i, item in enumerate(data)]
    seen: set[str] = set()
    for i, library in enumerate(libraries):
        if library.id in seen:
            raise SettingsError(
                f"libraries[{i}].id", tr("{id!r} is used twice").format(id=library.id)
            )
        seen.add(library.id)
    return tuple(libraries)


def dump_embedding(choice: EmbeddingChoice) -> dict[str, Any]:
    return {
        "provider": choice.provider_id,
        "model": choice.model,
        **({"dimensions": choice.dimensions} if choice.dimensions else {}),
    }


def dump_library(library: LibrarySettings) -> dict[str, Any]:
    data: dict[str, Any] = {"id": library.id, "name": library.name, "paths": list(library.paths)}
    if library.include:
        data["include"] = list(library.include)
    if library.exclude:
        data["exclude"] = list(library.exclude)
    if library.embedding is not None:
        data["embedding"] = dump_embedding(library.embedding)
    if not library.enabled:
        data["enabled"] = False
    return data
