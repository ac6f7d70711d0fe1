"""Library files on disk and the citation parts an answer keeps for passages of them."""

from __future__ import annotations

import hashlib
from pathlib import Path

from desktop.core.models import CitationPart


def write_document(path: Path, text: str) -> Path:
    """A text file as a library holds it (bytes as given: offsets are into `text`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def cite(number: int, path: Path, passage: str, **fields: object) -> CitationPart:
    """The citation of `passage` in the file at `path` as it is now: its offsets in the
    file's text and the file's digest, as retrieval records them."""
    text = path.read_text(encoding="utf-8")
    start = text.index(passage)
    values: dict[str, object] = {
        "char_start": start,
        "char_end": start + len(passage),
        "source_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "heading_path": "",
        **fields,
    }
    return CitationPart(
        number,
        "library-1",
        str(path),
        path.name,
        passage,
        **values,  # type: ignore[arg-type]
    )
