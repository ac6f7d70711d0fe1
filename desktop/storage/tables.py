"""The current database schema as SQLAlchemy Core tables.

These objects describe the schema the code *queries*; they are never used to create it.
Tables are created and changed only by the numbered steps in `migrations.py`, which are
frozen once released, so an old database and a new one end up with the same schema.
A test checks that a fully migrated database matches these definitions.

Times are integer epoch milliseconds (UTC), so ordering and comparisons happen in SQL
without time-zone parsing. JSON columns are plain TEXT: `mapping.py` owns their format.

The full-text indexes (FTS5 virtual tables and the triggers that feed them, created by
migration steps 2, 3 and 7) are not described here: SQLAlchemy has no model for virtual
tables, and only `search.py` and `memories.py` query them, by the names below, in
plain SQL.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Table,
    Text,
    text,
)

metadata = MetaData()

conversations = Table(
    "conversations",
    metadata,
    Column("id", Text, primary_key=True),
    Column("title", Text, nullable=False),
    Column("assistant_id", Text),
    Column("created_at", Integer, nullable=False),
    Column("updated_at", Integer, nullable=False),
    Column("pinned", Boolean, nullable=False, server_default=text("0")),
    Column("archived", Boolean, nullable=False, server_default=text("0")),
    # Not a foreign key: the leaf may be deleted with its subtree, and readers fall back
    # to the newest leaf when it dangles (see ChatRepository.active_path).
    Column("active_leaf_id", Text),
    Column("summary_text", Text),
    Column("summary_covered_ids", Text),  # JSON list of message ids
    Column("workspace", Text),
    Column("workspace_file", Text),  # sent, read fresh, with every message
    Column("system_prompt", Text),  # the conversation's own, if its assistant allows one
    Column("pinned_message_ids", Text),  # JSON list: always sent in full
    # When the person last changed the title, pin, archive flag, assistant, system prompt
    # or pinned messages (step 8; None: never since). `updated_at` is activity only, so
    # a restore compares this to keep the newer of two renames.
    Column("changed_at", Integer),
    # Search walks non-archived conversations newest first and stops at its limit.
    Index("ix_conversations_recent", "archived", "updated_at"),
)
# The conversation's columns the person sets, whose last change is `changed_at`.
PERSON_SET_COLUMNS = (
    "title",
    "pinned",
    "archived",
    "assistant_id",
    "system_prompt",
    "pinned_message_ids",
)

messages = Table(
    "messages",
    metadata,
    Column("id", Text, primary_key=True),
    Column(
        "conversation_id",
        Text,
        ForeignKey("conversations.id", ondelete="CASCADE"),
        nullable=False,
    ),
    # Deleting a node deletes its whole subtree: a reply without its question is noise.
    Column("parent_id", Text, ForeignKey("messages.id", ondelete="CASCADE")),
    Column("role", Text, nullable=False),
    Column("parts", Text, nullable=False, server_default=text("'[]'")),  # JSON list
    Column("status", Text, nullable=False),
    Column("provider_id", Text),
    Column("model", Text),
    Column("input_tokens", Integer),
    Column("output_tokens", Integer),
    Column("reasoning_tokens", Integer),
    Column("first_token_ms", Integer),
    Column("created_at", Integer, nullable=False),
    Column("finished_at", Integer),
    Column("context", Text, nullable=False, server_default=text("'{}'")),  # JSON object
    # The visible text, for the full-text index only (see mapping.message_update_values).
    Column("search_text", Text, nullable=False, server_default=text("''")),
    # The (conversation_id, created_at) index also serves every lookup by conversation_id
    # alone (it is the leading column), so no separate single-column index is kept.
    Index("ix_messages_conversation_created", "conversation_id", "created_at"),
    # Cascading deletes look children up by parent_id; without an index each delete
    # would scan the whole table.
    Index("ix_messages_parent", "parent_id"),
    # Start-up looks for rows a crash left `streaming`.
    Index("ix_messages_status", "status"),
)

# Attached files (SPEC section 7). The bytes live in the content-addressed store
# (`attachments.py`); a row is one sending of a file. Messages refer to rows by id from
# their JSON (`context.attachment_ids`, a tool call's `attachment_ids`), not by foreign
# key, so the garbage collector finds unreferenced rows with json_each.
attachments = Table(
    "attachments",
    metadata,
    Column("id", Text, primary_key=True),
    Column("sha256", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("mime", Text, nullable=False),
    Column("size", Integer, nullable=False),
    Column("kind", Text, nullable=False),
    Column("created_at", Integer, nullable=False),
    Column("text_chars", Integer),
    Column("truncated", Boolean, nullable=False, server_default=text("0")),
    Column("width", Integer),
    Column("height", Integer),
    # Garbage collection asks, per stored file, whether any row still uses its hash.
    Index("ix_attachments_sha256", "sha256"),
)

# Facts kept across conversations (migration step 7, `memories.py`). A deleted memory
# keeps its row, with `deleted_at` set: every read leaves it out.
memories = Table(
    "memories",
    metadata,
    Column("id", Text, primary_key=True),
    Column("scope", Text, nullable=False),  # "global" or "assistant:<id>"
    Column("text", Text, nullable=False),
    Column("created_at", Integer, nullable=False),
    Column("updated_at", Integer, nullable=False),  # the text's last change
    Column("source_conversation_id", Text),
    Column("source_message_id", Text),
    Column("deleted_at", Integer),
    Column("embedding", LargeBinary),  # float32 little-endian, L2-normalised
    Column("model_key", Text),  # the embedding model's `EmbeddingChoice.key`
    # Every read asks for the live memories of a few scopes, newest first.
    # When an undo last brought it back from `deleted_at` (step 8): a change of its own,
    # which a restore weighs against a backup taken while it was deleted.
    Column("restored_at", Integer),
    Index("ix_memories_scope", "scope", "deleted_at", "updated_at"),
    # A search reads one model's vectors, and first whether they changed (from the
    # index alone: the rows hold the vectors, a scan of them reads every page).
    Index("ix_memories_model", "model_key", "updated_at", "deleted_at"),
)

# What the person deleted on this device, by exact id (migration step 8,
# `tombstones.py`): a restored backup or another device's copy must not bring it back.
# kind: "conversation" or "message".
tombstones = Table(
    "tombstones",
    metadata,
    Column("kind", Text, primary_key=True),
    Column("id", Text, primary_key=True),
    Column("deleted_at", Integer, nullable=False),
    sqlite_with_rowid=False,
)

# FTS5 tables (external content: they index `messages.search_text` and
# `conversations.title` by rowid and store no copy of the text).
MESSAGES_FTS = "messages_fts"
CONVERSATIONS_FTS = "conversations_fts"
# FTS5 tables for 1-2 character queries (migration step 3, `short_index.py`); their
# external content is a view over the same columns.
MESSAGES_SHORT_FTS = "messages_short_fts"
CONVERSATIONS_SHORT_FTS = "conversations_short_fts"
# The memories' word index (step 7): its own copy of the words, rowid = the memory's.
MEMORIES_FTS = "memories_fts"
