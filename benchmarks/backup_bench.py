"""Backing up a data folder into an encrypted archive (desktop/engine/backup/): time,
memory and size.

Run from the repository root:  python benchmarks/backup_bench.py [--messages 100000]

Builds a data folder with `--messages` messages (conversations of 20, one to fourteen
sentences each, indexed for search as Parley stores them) and `--files` stored files of
1 MiB of random bytes, then, each phase in a process of its own so its peak memory is
its own:
- backup: `write_backup` to a local folder, passphrase key and all. Target: <= 20 s.
- baseline: the same work without encryption: SQLite's backup API into a temp copy,
  then a plain tar of it and the files (what the archive costs beyond copying).
- open: `open_backup` of that archive into a fresh folder (decrypt, check, unpack).
- scrypt: locking one key with the passphrase alone (the fixed cost of every backup and
  every opening; age tunes it to the computer).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import sqlite3
import sys
import tarfile
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.phases import run_phase

PER_CONVERSATION = 20
PASSPHRASE = "violet staircase umbrella 42"
WORDS = [
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "a",
    "lazy",
    "dog",
    "while",
    "trains",
    "run",
    "late",
    "and",
    "tokyo",
    "kyoto",
    "lisbon",
    "garden",
    "budget",
    "invoice",
    "python",
    "function",
    "return",
    "value",
]
SETTINGS = json.dumps({"theme": "dark", "language": "en"}).encode()


def _text(rng: random.Random, sentences: int) -> str:
    return " ".join(
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 16))).capitalize() + "."
        for _ in range(sentences)
    )


def build(folder: Path, total: int, files: int) -> None:
    from sqlalchemy import insert

    from desktop.core.attachments import AttachmentKind
    from desktop.core.models import Conversation, Message, MessageStatus, Role, TextPart
    from desktop.storage import mapping
    from desktop.storage.attachments import AttachmentStore
    from desktop.storage.database import Database
    from desktop.storage.tables import conversations, messages

    rng = random.Random(7)
    db = Database.open(folder / "parley.db")
    start = datetime(2023, 1, 1, tzinfo=UTC)
    for first in range(0, total, 10_000):
        conversation_rows, message_rows = [], []
        for c in range(first // PER_CONVERSATION, (first + 10_000) // PER_CONVERSATION):
            cid, at, parent = f"c{c:06d}", start + timedelta(minutes=7 * c), None
            for k in range(PER_CONVERSATION):
                mid = f"{cid}m{k}"
                message = Message(
                    id=mid,
                    conversation_id=cid,
                    parent_id=parent,
                    role=Role.USER if k % 2 == 0 else Role.ASSISTANT,
                    parts=[TextPart(_text(rng, rng.randint(1, 3) if k % 2 == 0 else 8))],
                    status=MessageStatus.COMPLETE,
                    created_at=at + timedelta(seconds=30 * k),
                )
                message_rows.append(mapping.message_to_row(message))
                parent = mid
            conversation_rows.append(
                mapping.conversation_to_row(
                    Conversation(
                        id=cid,
                        title=f"Conversation {c}",
                        created_at=at,
                        updated_at=at,
                        active_leaf_id=parent,
                    )
                )
            )
        with db.write() as conn:
            conn.execute(insert(conversations), conversation_rows)
            conn.execute(insert(messages), message_rows)
    store = AttachmentStore(folder / "attachments", db.engine)
    for index in range(files):
        store.put_bytes(
            os.urandom(1024 * 1024),
            name=f"file-{index}.bin",
            mime="application/octet-stream",
            kind=AttachmentKind.DOCUMENT,
        )
    db.close()


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def phase_backup(folder: Path) -> dict[str, float]:
    from desktop.engine.backup.archive import write_backup
    from desktop.storage.database import Database

    db = Database.open(folder / "parley.db")
    before = _peak_mb()
    started = time.perf_counter()
    manifest = write_backup(
        folder / "out" / "parley.backup",
        db=db,
        attachments_root=folder / "attachments",
        settings_json=SETTINGS,
        passphrase=PASSPHRASE,
        device="bench",
    )
    seconds = time.perf_counter() - started
    db.close()
    return {
        "seconds": seconds,
        "messages": manifest.counts.messages,
        "content_mb": manifest.counts.bytes / 2**20,
        "size_mb": (folder / "out" / "parley.backup").stat().st_size / 2**20,
        "start_mb": before,
        "peak_mb": _peak_mb(),
    }


def phase_baseline(folder: Path) -> dict[str, float]:
    """The floor: the same copy and tar, without encryption or a key."""
    before = _peak_mb()
    started = time.perf_counter()
    source = sqlite3.connect(folder / "parley.db")
    copy = folder / "baseline-copy.db"
    dest = sqlite3.connect(copy)
    source.backup(dest)
    dest.execute("PRAGMA journal_mode = DELETE")
    dest.close()
    source.close()
    out = folder / "out" / "baseline.tar"
    with tarfile.open(out, "w") as tar:
        tar.add(copy, "parley.db")
        tar.add(folder / "attachments", "attachments")
    with open(out, "rb+") as handle:
        os.fsync(handle.fileno())
    copy.unlink()
    return {
        "seconds": time.perf_counter() - started,
        "size_mb": out.stat().st_size / 2**20,
        "start_mb": before,
        "peak_mb": _peak_mb(),
    }


def phase_open(folder: Path) -> dict[str, float]:
    from desktop.engine.backup.unpack import open_backup

    before = _peak_mb()
    started = time.perf_counter()
    open_backup(folder / "out" / "parley.backup", PASSPHRASE, folder / "opened")
    return {"seconds": time.perf_counter() - started, "start_mb": before, "peak_mb": _peak_mb()}


def phase_scrypt(_folder: Path) -> dict[str, float]:
    from desktop.engine.backup.crypto import key_block, new_identity, read_key_block
    from desktop.engine.backup.crypto import unlock_identity as unlock

    before = _peak_mb()
    started = time.perf_counter()
    block = key_block(new_identity(), PASSPHRASE)
    lock_s = time.perf_counter() - started
    locked = read_key_block(io.BytesIO(block), Path("bench"))
    started = time.perf_counter()
    unlock(locked, PASSPHRASE)
    unlock_s = time.perf_counter() - started
    return {"lock_s": lock_s, "unlock_s": unlock_s, "start_mb": before, "peak_mb": _peak_mb()}


PHASES = {
    "backup": phase_backup,
    "baseline": phase_baseline,
    "open": phase_open,
    "scrypt": phase_scrypt,
}


def _run(phase: str, folder: Path) -> dict[str, float]:
    return run_phase(__file__, phase, folder)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase", choices=list(PHASES))
    parser.add_argument("--folder")
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=20)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(PHASES[args.phase](Path(args.folder))))
        return
    # Where /tmp is kept in memory (tmpfs) the figures flatter: set TMPDIR to a real disk.
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "out").mkdir()
        started = time.perf_counter()
        build(folder, args.messages, args.files)
        db_mb = (folder / "parley.db").stat().st_size / 2**20
        print(
            f"built {args.messages:,} messages ({db_mb:.0f} MB database) and "
            f"{args.files} files of 1 MiB in {time.perf_counter() - started:.0f} s"
        )
        baseline = _run("baseline", folder)
        backup = _run("backup", folder)
        opened = _run("open", folder)
        scrypt = _run("scrypt", folder)
        print("backup, each phase in its own process")
        print(
            f"write_backup: {backup['messages']:,.0f} messages, {backup['content_mb']:.0f} MB "
            f"of content in {backup['seconds']:.1f} s (target <= 20 s); archive "
            f"{backup['size_mb']:.0f} MB; peak {backup['peak_mb']:.0f} MB resident "
            f"({backup['start_mb']:.0f} MB before)"
        )
        print(
            f"baseline (SQLite backup API + plain tar, no encryption): "
            f"{baseline['seconds']:.1f} s, {baseline['size_mb']:.0f} MB, "
            f"peak {baseline['peak_mb']:.0f} MB"
        )
        print(
            f"open_backup (decrypt, check, unpack): {opened['seconds']:.1f} s, "
            f"peak {opened['peak_mb']:.0f} MB ({opened['start_mb']:.0f} MB before)"
        )
        print(
            f"scrypt alone: locking the key {scrypt['lock_s']:.1f} s, "
            f"unlocking it {scrypt['unlock_s']:.1f} s; peak {scrypt['peak_mb']:.0f} MB "
            f"({scrypt['start_mb']:.0f} MB before: scrypt is memory-hard by design)"
        )


if __name__ == "__main__":
    main()
