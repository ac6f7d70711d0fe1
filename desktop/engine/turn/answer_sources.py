"""Every source one answer is given, under one numbering: passages of the person's
documents, messages of their earlier chats, web pages.

The model cites sources by number (`[n]`), so a number must mean one source for the
whole answer whichever tool found it: numbers go on from the sources the answer
already has (passages found up front, or a continued answer's), a source found again
keeps its number, and searches run together are numbered in the order the model called
them, not in the order they finish (`line_up`), so an answer numbers the same way
every time. Each new source is handed to `found` at once: the answer keeps it as a
`CitationPart`, so its card can show as soon as the model cites it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from desktop.core.models import CitationPart, SourceKind

SourceKey = tuple[SourceKind, str]
MakeCitation = Callable[[int], CitationPart]


def source_key(citation: CitationPart) -> SourceKey:
    """What makes two citations the same source."""
    match citation.kind:
        case SourceKind.DOCUMENT:
            return citation.kind, str(citation.chunk_id)
        case SourceKind.CHAT:
            return citation.kind, citation.message_id or f"title:{citation.conversation_id}"
        case SourceKind.WEB:
            return citation.kind, citation.url
    raise ValueError(f"not a source kind: {citation.kind!r}")


class Place:
    """A search's place in line: numbered only once every search called before it is."""

    def __init__(self, earlier: asyncio.Future[None] | None) -> None:
        self._earlier = earlier
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def reached(self) -> None:
        if self._earlier is not None:
            await asyncio.shield(self._earlier)

    def leave(self) -> None:
        if not self.done.done():
            self.done.set_result(None)


class AnswerSources:
    def __init__(
        self,
        given: Sequence[CitationPart] = (),
        found: Callable[[Sequence[CitationPart]], None] = lambda _parts: None,
    ) -> None:
        self.given = tuple(given)
        self._numbers: dict[SourceKey, int] = {source_key(c): c.number for c in given}
        self._next_number = max((c.number for c in given), default=0) + 1
        self._found = found
        self._last_place: Place | None = None

    def line_up(self) -> Place:
        """A place for a search starting now; `leave()` it when done, however it ends
        (a later search waits for it)."""
        place = Place(self._last_place.done if self._last_place is not None else None)
        self._last_place = place
        return place

    def number_of(self, key: SourceKey) -> int | None:
        return self._numbers.get(key)

    def add(self, found: Sequence[tuple[SourceKey, MakeCitation]]) -> list[CitationPart]:
        """Number the sources not known yet (in order) and announce them; those already
        numbered are left as they are. Returns the new citations."""
        new: list[CitationPart] = []
        for key, make in found:
            if key in self._numbers:
                continue
            citation = make(self._next_number)
            self._numbers[key] = citation.number
            self._next_number += 1
            new.append(citation)
        if new:
            self._found(new)
        return new
