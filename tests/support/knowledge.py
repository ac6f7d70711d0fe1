"""Knowledge-index test helpers: an in-process embedding model and real library folders.

`HashingEmbedder` stands in for an external embedding service (the providers' loopback
servers are tested elsewhere): deterministic hashed bag-of-words vectors, computed in
the process, with a record of every call and text it was sent. It can be made to fail
(a server that is down) or to hold each call until released (to cancel a pass while
it waits).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import Engine, text

from desktop.core.errors import ProviderError
from desktop.core.knowledge import EmbeddingKind, SourceStatus
from desktop.core.limits import MAX_DOCUMENT_BYTES
from desktop.engine.knowledge.service import KnowledgeService
from desktop.engine.settings_service import SettingsService
from desktop.engine.turn.chat_service import ChatService
from tests.support.documents import make_docx, make_pdf, make_pptx, make_scan_pdf
from tests.support.waiting import wait_for

DIMENSIONS = 64


def hashed_vector(text: str, dimensions: int = DIMENSIONS) -> list[float]:
    vector = [0.0] * dimensions
    for word in re.findall(r"\w+", text.lower()):
        bucket = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "big")
        vector[bucket % dimensions] += 1.0
    return vector


class HashingEmbedder:
    def __init__(self, dimensions: int = DIMENSIONS) -> None:
        self.dimensions = dimensions
        self.calls = 0  # every call, failed ones included
        self.texts: list[str] = []  # every text sent in a call that answered
        self.batch_sizes: list[int] = []
        self.kinds: set[EmbeddingKind] = set()
        self.failure: Exception | None = None  # raised by each call while set
        self._gate: asyncio.Event | None = None
        self.waiting = 0  # calls held at the gate right now
        self.most_waiting = 0  # the most calls held at once so far

    def fail(self, message: str = "the embedding server is not reachable") -> None:
        self.failure = ProviderError(message, retryable=True)

    def recover(self) -> None:
        self.failure = None

    def hold(self) -> None:
        """Hold each call until `release` (create on the loop that calls it)."""
        self._gate = asyncio.Event()

    def release(self) -> None:
        if self._gate is not None:
            self._gate.set()
            self._gate = None

    async def embed(self, texts: Sequence[str], kind: EmbeddingKind) -> list[list[float]]:
        self.calls += 1
        gate = self._gate
        if gate is not None:
            self.waiting += 1
            self.most_waiting = max(self.most_waiting, self.waiting)
            try:
                await gate.wait()
            finally:
                self.waiting -= 1
        if self.failure is not None:
            raise self.failure
        self.kinds.add(kind)
        self.batch_sizes.append(len(texts))
        self.texts.extend(texts)
        return [hashed_vector(text, self.dimensions) for text in texts]


MARKDOWN = """# Garden notes

Plant tomatoes after the last frost. Water them deeply twice a week.

## Soil

Loam with compost works best. Test the pH every spring; tomatoes like it slightly acid.

## Pests

Aphids gather under the leaves. A strong spray of water moves them on.
"""

CJK = "知识库把文件切成段落。" * 60 + "每个段落都有自己的向量，检索时按相似度排序。" * 40

PDF_PAGES = [
    "The first page talks about bicycles and their gears.",
    "The second page is about trains, timetables and platforms.",
    "The third page covers ferries crossing the harbour at dawn.",
]


def write_library(folder: Path) -> Path:
    """A folder with one file of each kind a library meets, good and bad."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "garden.md").write_text(MARKDOWN, encoding="utf-8")
    (folder / "report.docx").write_bytes(make_docx())
    (folder / "slides.pptx").write_bytes(make_pptx(3))
    (folder / "travel.pdf").write_bytes(make_pdf(PDF_PAGES))
    (folder / "notes-zh.txt").write_text(CJK, encoding="utf-8")
    (folder / "broken.docx").write_bytes(b"PK\x03\x04" + b"\x00not really a zip" * 40)
    (folder / "scan.pdf").write_bytes(make_scan_pdf())
    (folder / "photo.bmp").write_bytes(b"BM" + b"\x00" * 64)
    with open(folder / "huge.txt", "wb") as stream:  # sparse: no disk space used
        stream.truncate(MAX_DOCUMENT_BYTES + 1)
    return folder


def write_many(folder: Path, count: int, paragraphs: int = 3) -> Path:
    """`count` Markdown files of a few passages each, every passage its own text."""
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(count):
        body = "\n\n".join(
            f"## Part {part}\n\n"
            + " ".join(
                f"File {number} part {part} sentence {s} about topic{number}x{part}."
                for s in range(12)
            )
            for part in range(paragraphs)
        )
        (folder / f"file{number:04d}.md").write_text(
            f"# File {number}\n\n{body}\n", encoding="utf-8"
        )
    return folder


def _scalar(engine: Engine, sql: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(sql)).scalar_one())


def assert_consistent(engine: Engine) -> None:
    """Every chunk has its word row and no other word rows exist; no passage is stored
    twice; each indexed source's chunk count is its chunks'; no vector without a chunk;
    SQLite finds the file sound."""
    assert _scalar(engine, "SELECT COUNT(*) FROM chunks") == _scalar(
        engine, "SELECT COUNT(*) FROM chunks_fts"
    )
    assert (
        _scalar(
            engine, "SELECT COUNT(*) FROM chunks_fts WHERE rowid NOT IN (SELECT id FROM chunks)"
        )
        == 0
    )
    doubled = (
        "SELECT COUNT(*) FROM (SELECT source_id, ordinal FROM chunks "
        "GROUP BY source_id, ordinal HAVING COUNT(*) > 1)"
    )
    assert _scalar(engine, doubled) == 0
    assert (
        _scalar(
            engine,
            "SELECT COUNT(*) FROM chunks c JOIN sources s ON s.id = c.source_id "
            "WHERE s.status IN ('failed', 'skipped')",
        )
        == 0
    )
    assert _scalar(
        engine, "SELECT COALESCE(SUM(chunks), 0) FROM sources WHERE status = 'indexed'"
    ) == _scalar(
        engine,
        "SELECT COUNT(*) FROM chunks c JOIN sources s ON s.id = c.source_id "
        "WHERE s.status = 'indexed'",
    )
    assert (
        _scalar(
            engine, "SELECT COUNT(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)"
        )
        == 0
    )
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA integrity_check")).scalar_one() == "ok"


CODES = """# Error codes

## Network

ERR_7734 means the upload was refused because the disk quota is spent.

## Printing

PRN_12 means the printer is out of paper.
"""


def code_library(folder: Path, embedding: dict[str, object] | None = None) -> dict[str, object]:
    """Settings of the library "docs": one Markdown file of two error codes in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "codes.md").write_text(CODES, encoding="utf-8")
    library: dict[str, object] = {"id": "docs", "name": "Docs", "paths": [str(folder)]}
    if embedding is not None:
        library["embedding"] = embedding
    return library


async def indexed_codes(
    data_dir: Path, settings: SettingsService, chat: ChatService, embedder: HashingEmbedder
) -> KnowledgeService:
    """The real knowledge service over `code_library`, indexed, and given to `chat`."""
    service = KnowledgeService(
        data_dir, lambda: settings.settings, lambda _choice: embedder, chat.events
    )
    chat.knowledge = service
    service.rescan("docs")
    await wait_for(
        lambda: (
            not service.indexing(["docs"])
            and service.progress("docs").counts.get(SourceStatus.INDEXED) == 1
        )
    )
    return service
