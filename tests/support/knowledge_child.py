"""One indexing pass in a child process, for a test to kill with SIGKILL part-way.

    python -m tests.support.knowledge_child DATA_DIR FOLDER MARKER

Indexes FOLDER into the index under DATA_DIR with an in-process embedder, and creates
MARKER once the embedder has been asked for its second batch: the pass is then
part-way, with words and vectors already stored and more to come. The next few calls
take a few milliseconds each (a model server's time to answer), so the kill may land
while vectors are written; after them the embedder never answers, so however late the
kill arrives on a busy machine, the pass cannot have finished.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from desktop.core.knowledge import EmbeddingChoice, EmbeddingKind, LibrarySettings
from desktop.engine.knowledge.indexer import IndexPass
from desktop.storage.knowledge_index import open_index
from desktop.storage.knowledge_store import KnowledgeStore
from tests.support.knowledge import HashingEmbedder

MODEL = EmbeddingChoice("local", "embed-small")
MARK_AFTER_CALLS = 2
ANSWERED_AFTER_MARK = 4  # calls answered after the marker, before the embedder hangs
ANSWER_S = 0.01


class _MarkingEmbedder(HashingEmbedder):
    def __init__(self, marker: Path) -> None:
        super().__init__()
        self._marker = marker

    async def embed(self, texts: Sequence[str], kind: EmbeddingKind) -> list[list[float]]:
        vectors = await super().embed(texts, kind)
        if self.calls == MARK_AFTER_CALLS:
            self._marker.touch()
        elif self.calls <= MARK_AFTER_CALLS + ANSWERED_AFTER_MARK:
            await asyncio.sleep(ANSWER_S)
        else:
            await asyncio.Event().wait()  # until the kill
        return vectors


def main(argv: list[str]) -> int:
    data_dir, folder, marker = (Path(arg) for arg in argv[1:4])
    engine = open_index(data_dir)
    library = LibrarySettings("lib", "Library", (str(folder),), embedding=MODEL)
    index_pass = IndexPass(KnowledgeStore(engine), library, _MarkingEmbedder(marker), print)
    asyncio.run(index_pass.run())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
