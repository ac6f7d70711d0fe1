"""The knowledge index: a SQLite file beside parley.db (``knowledge/index.db``, WAL).

Separate from the chat database on purpose: it can be deleted and rebuilt from the
person's files at any time, backups of the chats stay small, and indexing (long write
transactions in a worker thread) never contends with an answer being saved.

Tables:
- ``sources``: one row per file of a library (its library-relative path), with the size
  and mtime it had when read, the SHA-256 of its bytes, its status
  (`SourceStatus`: pending, indexed, failed, skipped) and the reason it failed.
- ``chunks``: a source's passages in order (ids never reused: an answer's citation
  names the chunk it quoted), with the heading path and page they sit
  under and their character offsets into the document's text (`documents.read_document`).
- ``chunks_fts``: FTS5 over each chunk's text as `words_for_index` prepares it (rowid =
  chunk id); ``chunks_vocab`` gives each term's document frequency, so a query can drop
  terms too common to tell passages apart.
- ``vectors``: a chunk's embedding under one model key (`EmbeddingChoice.key`),
  float32 little-endian, L2-normalised.
- ``embed_cache``: embeddings by the SHA-256 of the text and the model key, so a chunk
  whose text did not change is never sent to the embedder again (a moved file, a
  re-chunked file, a changed model switched back).

`SCHEMA_VERSION` is kept in ``meta``; an index of another version is deleted and built
again (it is a cache of the files, never the only copy of anything).
"""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy import Connection, Engine, text

from desktop.storage.sqlite_engine import create_sqlite_engine, write_transaction

SCHEMA_VERSION = 1
INDEX_FILE = Path("knowledge") / "index.db"
CHANGED_KEY = "changed:"  # meta key prefix of a library's change counter

_DDL = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS sources (
        id INTEGER PRIMARY KEY,
        library_id TEXT NOT NULL,
        path TEXT NOT NULL,
        size INTEGER NOT NULL DEFAULT 0,
        mtime_ns INTEGER NOT NULL DEFAULT 0,
        sha256 TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL,
        error TEXT NOT NULL DEFAULT '',
        chunks INTEGER NOT NULL DEFAULT 0,
        indexed_at REAL,
        UNIQUE (library_id, path)
    )""",
    """CREATE TABLE IF NOT EXISTS chunks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        source_id INTEGER NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        text TEXT NOT NULL,
        heading_path TEXT NOT NULL DEFAULT '',
        page INTEGER,
        char_start INTEGER NOT NULL,
        char_end INTEGER NOT NULL,
        text_sha256 TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS chunks_by_source ON chunks (source_id, ordinal)",
    "CREATE INDEX IF NOT EXISTS chunks_by_text ON chunks (text_sha256)",
    # A chunk's source without reading its row (which holds its text): the word search
    # checks 100 ranked chunks this way on every question, 0.5 ms less at 100,000
    # chunks. Added to indexes made before it when they are next opened.
    "CREATE INDEX IF NOT EXISTS chunks_sources ON chunks (id, source_id)",
    """CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5 (
        words, tokenize = 'unicode61 remove_diacritics 2'
    )""",
    "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vocab USING fts5vocab (chunks_fts, 'row')",
    """CREATE TRIGGER IF NOT EXISTS chunks_fts_delete AFTER DELETE ON chunks BEGIN
        DELETE FROM chunks_fts WHERE rowid = old.id;
    END""",
    """CREATE TABLE IF NOT EXISTS vectors (
        chunk_id INTEGER NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
        model_key TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (chunk_id, model_key)
    )""",
    "CREATE INDEX IF NOT EXISTS vectors_by_model ON vectors (model_key)",
    """CREATE TABLE IF NOT EXISTS embed_cache (
        text_sha256 TEXT NOT NULL,
        model_key TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (text_sha256, model_key)
    )""",
)

# CJK ideographs, kana and Hangul: no spaces between words, so unicode61 would see a
# whole sentence as one token. Each run is indexed as its overlapping two-character
# pieces (and a lone character as itself), which is what a query's run becomes too.
_CJK_RUN = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+"
)


def _bigrams(match: re.Match[str]) -> str:
    run = match.group()
    if len(run) == 1:
        return f" {run} "
    return " " + " ".join(run[i : i + 2] for i in range(len(run) - 1)) + " "


def words_for_index(passage: str) -> str:
    """What the word index is fed for `passage` (and a query is split by): spaced
    scripts as they are, CJK runs as overlapping character pairs."""
    return _CJK_RUN.sub(_bigrams, passage)


def open_index(data_dir: Path) -> Engine:
    """The index under `data_dir`, created (or rebuilt, when of another version) as
    needed. Raises `OSError` / SQLAlchemy errors when the folder cannot be written."""
    path = data_dir / INDEX_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_sqlite_engine(path)
    with engine.connect() as connection:
        version = _version(connection)
    if version not in (None, SCHEMA_VERSION):
        engine.dispose()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        engine = create_sqlite_engine(path)
    with write_transaction(engine) as connection:
        for statement in _DDL:
            connection.execute(text(statement))
        connection.execute(
            text("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', :v)"),
            {"v": str(SCHEMA_VERSION)},
        )
    return engine


def _version(connection: Connection) -> int | None:
    exists = connection.execute(
        text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
    ).first()
    if exists is None:
        return None
    row = connection.execute(text("SELECT value FROM meta WHERE key = 'schema'")).first()
    return int(row[0]) if row is not None and str(row[0]).isdigit() else -1
