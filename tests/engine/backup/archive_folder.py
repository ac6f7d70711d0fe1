"""A real Parley data folder to back up, and backup files made by hand to open.

The hand-made files are built from the same pieces a backup is (the passphrase-locked
key block, then a tar encrypted with age to its identity), so a test can put any tar
inside: a newer manifest, a hostile member name. The key block is made once per
`Crafter` (scrypt is slow); each file gets its own payload.
"""

from __future__ import annotations

import io
import json
import sqlite3
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

import pyrage

from desktop.core.attachments import AttachmentKind
from desktop.core.memory import GLOBAL_SCOPE
from desktop.core.models import Message, MessageStatus, Role, TextPart, new_id
from desktop.engine.backup import archive
from desktop.engine.backup.crypto import key_block
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.memories import MemoryRepository
from desktop.storage.migrations import SCHEMA_VERSION
from desktop.storage.repository import ChatRepository

PASSPHRASE = "violet staircase umbrella 42"
SETTINGS = json.dumps({"theme": "dark", "language": "zh_CN", "名字": "测试"}).encode("utf-8")
# Enough bytes that writing or opening takes many chunks (a cancel can land midway).
BIG_FILE_BYTES = 3 * 1024 * 1024


@dataclass
class DataFolder:
    root: Path
    db: Database
    repo: ChatRepository
    memories: MemoryRepository
    store: AttachmentStore
    conversation_ids: list[str] = field(default_factory=list)

    @property
    def attachments_root(self) -> Path:
        return self.store.root

    def chat(self, title: str, count: int) -> str:
        """A conversation of `count` messages in one branch, plus one regenerated answer."""
        conversation = self.repo.new_conversation(title)
        parent: str | None = None
        first_answer: Message | None = None
        for index in range(count):
            message = _message(conversation.id, parent, index, f"{title}: message {index} 东京")
            self.repo.add_messages([message], conversation=conversation)
            parent = message.id
            if index == 1:
                first_answer = message
        if first_answer is not None:  # a sibling: the tree, not only one branch
            sibling = _message(conversation.id, first_answer.parent_id, 1, f"{title}: again")
            self.repo.add_message(sibling)
        self.conversation_ids.append(conversation.id)
        return conversation.id

    def add_message(self, conversation_id: str, text: str) -> None:
        leaf = self.repo.get_conversation(conversation_id)
        assert leaf is not None
        self.repo.add_message(_message(conversation_id, leaf.active_leaf_id, 0, text))

    def stored_files(self) -> dict[str, bytes]:
        """Relative path -> bytes of every stored blob and text (not tmp/, not open/)."""
        return {
            path.relative_to(self.attachments_root).as_posix(): path.read_bytes()
            for path in sorted(self.attachments_root.rglob("*"))
            if path.is_file()
            and path.relative_to(self.attachments_root).parts[0]
            not in (
                "tmp",
                "open",
            )
        }

    def close(self) -> None:
        self.db.close()


def _message(conversation_id: str, parent: str | None, index: int, text: str) -> Message:
    return Message(
        id=new_id(),
        conversation_id=conversation_id,
        parent_id=parent,
        role=Role.USER if index % 2 == 0 else Role.ASSISTANT,
        parts=[TextPart(text)],
        status=MessageStatus.COMPLETE,
    )


def make_data_folder(root: Path, *, big_file: bool = False) -> DataFolder:
    """Three conversations, three memories (one deleted), an image, a document with its
    extracted text, and the store's temp and open-copy leftovers that stay out."""
    root.mkdir(parents=True, exist_ok=True)
    db = Database.open(root / "parley.db")
    folder = DataFolder(
        root,
        db,
        ChatRepository(db),
        MemoryRepository(db),
        AttachmentStore(root / "attachments", db.engine),
    )
    folder.chat("Trip to Kyoto", 6)
    folder.chat("Tax questions", 4)
    folder.chat("空", 1)
    folder.repo.delete_conversation(folder.chat("Deleted", 2))  # leaves a tombstone
    folder.conversation_ids.pop()
    folder.memories.add(GLOBAL_SCOPE, "Lives in Lisbon")
    folder.memories.add("assistant:writer", "Prefers short answers")
    gone = folder.memories.add(GLOBAL_SCOPE, "Owns a cat")
    folder.memories.delete(gone.id)
    image = folder.store.put_bytes(
        b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40,
        name="photo.png",
        mime="image/png",
        kind=AttachmentKind.IMAGE,
    )
    document = folder.store.put_bytes(
        b"%PDF-1.4 " + b"lorem ipsum " * 2000,
        name="Report 2024.PDF",
        mime="application/pdf",
        kind=AttachmentKind.DOCUMENT,
    )
    folder.store.save_text(document, "lorem ipsum, the extracted text", truncated=False)
    plain = folder.store.put_bytes(
        b"no extension", name="README", mime="text/plain", kind=AttachmentKind.DOCUMENT
    )
    folder.store.save_text(plain, "no extension", truncated=False)
    if big_file:
        data = bytes((i * 7919) % 251 for i in range(BIG_FILE_BYTES))
        folder.store.put_bytes(
            data, name="big.bin", mime="application/octet-stream", kind=AttachmentKind.DOCUMENT
        )
    folder.store.open_copy(image)  # attachments/open/<id>/photo.png: not data
    (folder.attachments_root / "tmp").mkdir(exist_ok=True)
    (folder.attachments_root / "tmp" / "part-leftover").write_bytes(b"half a write")
    return folder


def table_rows(db_path: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db_path) as conn:
        return conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()


def manifest_json(**changes: object) -> bytes:
    data: dict[str, object] = {
        "format": 1,
        "created_at": "2026-12-06T08:00:00Z",
        "device": "laptop",
        "app_version": "0.1.0",
        "schema_version": SCHEMA_VERSION,
        "counts": {
            "conversations": 0,
            "messages": 0,
            "memories": 0,
            "attachments": 1,
            "bytes": 4096,
        },
    }
    data.update(changes)
    return json.dumps(data).encode()


def tar_of(*members: tarfile.TarInfo | tuple[str, bytes]) -> bytes:
    """A tar of plain files given as (name, bytes), and of TarInfos as they are."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for member in members:
            if isinstance(member, tarfile.TarInfo):
                tar.addfile(member, io.BytesIO(b"x" * member.size) if member.isreg() else None)
            else:
                name, data = member
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def special(name: str, kind: bytes, target: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


class Crafter:
    """Writes backup files around any tar, all locked with `passphrase`. Its key is
    made as the backup writer makes one (`archive.new_identity`): under `scrypt_once`
    that is the process' one key, whose locked block is derived once."""

    def __init__(self, passphrase: str = PASSPHRASE) -> None:
        self.identity = archive.new_identity()
        self.header = key_block(self.identity, passphrase)

    def write(self, path: Path, payload: bytes) -> Path:
        encrypted = pyrage.encrypt(payload, [self.identity.to_public()])
        path.write_bytes(self.header + encrypted)
        return path
