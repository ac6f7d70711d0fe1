"""Memories: facts the person asked an assistant to keep across conversations.

- `service.MemoryService`: save (near-duplicates return the memory already kept), edit,
  delete with Undo, list, and search (words and vectors, fused by rank), with every
  database call in a worker thread. A memory is saved even when its embedding fails:
  it is then found by its words (`Memory.words_only`).
- `block`: what a model reads (`memory_block`, each memory labelled by a per-answer
  handle from `Handles`, never its id) and the Markdown export.
- `embedding`: which embedding model memories use (`embedder_from_choice`), read at
  each call, and a text embedded with it, a failure told rather than raised.
- `vectors`: the vectors of one embedding model kept between searches.

The plain data is `desktop.core.memory`; the rows, `desktop.storage.memories`.
"""
