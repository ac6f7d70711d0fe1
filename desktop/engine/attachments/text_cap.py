"""Extracted text and the cap on its length.

A document's text goes into every request that carries it, so it is capped
(`MAX_EXTRACTED_CHARS`) and the result says when it was cut: the person sees a notice
rather than a model silently answering from part of a file. Extractors stop reading as
soon as the cap is reached.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop.core.limits import MAX_EXTRACTED_CHARS


@dataclass(frozen=True, slots=True)
class Extracted:
    text: str
    truncated: bool = False
    units: int | None = None  # pages of a PDF, slides of a presentation


class TextCap:
    """Collects text pieces until the cap; `add` returns False once nothing more fits."""

    def __init__(self, limit: int = MAX_EXTRACTED_CHARS):
        self._limit = limit
        self._pieces: list[str] = []
        self._length = 0
        self.truncated = False

    def add(self, piece: str) -> bool:
        if self.truncated:
            return False
        room = self._limit - self._length
        if len(piece) > room:
            self._pieces.append(piece[:room])
            self._length = self._limit
            self.truncated = True
            return False
        self._pieces.append(piece)
        self._length += len(piece)
        return True

    def result(self, units: int | None = None) -> Extracted:
        return Extracted("".join(self._pieces).strip(), self.truncated, units)
