"""What the short-query index (schema step 3) costs: file size, the upgrade, and writes.

Run from the repository root:  python benchmarks/search_index_bench.py [--messages N]

Builds the history of benchmarks/search_bench.py (100,000 messages by default) in a
database at schema version 2, then upgrades it to version 3 as the app does at start-up
and prints the upgrade time and how much the file grew. Then, against a database at
version 2 as the baseline in the same run, times what the app does per message at
version 3: adding a message (one transaction each, like a send) and saving a streamed
reply as it grows (each save changes the text, so each one re-indexes it). The two
databases get the same writes, interleaved, so both see the same machine load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from search_bench import build  # the same generated history

from desktop.core.models import Message, MessageStatus, Role, TextPart, new_id
from desktop.storage.database import Database
from desktop.storage.migrations import MIGRATIONS, backup_database, migrate
from desktop.storage.repository import ChatRepository
from desktop.storage.short_index import index_text
from desktop.storage.sqlite_engine import create_sqlite_engine

V2 = MIGRATIONS[:2]
ADDS = 1000
REPLY_CHARS = 8000
SAVES = 40


def _open_at_v2(path: Path) -> Database:
    engine = create_sqlite_engine(path)
    migrate(engine, V2)
    return Database(engine, path)


def _file_mb(db: Database) -> float:
    """The file's size with the WAL folded in (what a closed database takes on disk)."""
    with db.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    return db.path.stat().st_size / 1e6


def _seconds(fn: Callable[[], object]) -> float:
    began = time.perf_counter()
    fn()
    return time.perf_counter() - began


def upgrade_figures(folder: Path, total: int, rng: random.Random) -> list[str]:
    """Prints the upgrade's figures; returns the history's message texts."""
    db = _open_at_v2(folder / "history.db")
    with db:
        built = _seconds(lambda: build(db, total, rng))
        before = _file_mb(db)
        with db.read() as conn:
            chars = int(
                conn.exec_driver_sql("SELECT sum(length(search_text)) FROM messages").scalar_one()
            )
            texts = [r[0] for r in conn.exec_driver_sql("SELECT search_text FROM messages")]
        terms = _seconds(lambda: [index_text(t) for t in texts])
        backup = _seconds(lambda: backup_database(db.engine, 3))
        upgrade = _seconds(lambda: migrate(db.engine))
        after = _file_mb(db)
    print(
        f"history: {total:,} messages, {chars / 1e6:.1f} M characters, built at v2 in {built:.1f} s"
    )
    print(f"file at v2: {before:.1f} MB; at v3: {after:.1f} MB")
    print(
        f"short-query index: +{after - before:.1f} MB (+{(after - before) / before:.1%}), "
        f"{(after - before) * 1e6 / chars:.2f} bytes per indexed character"
    )
    print(
        f"upgrade v2 -> v3: {upgrade:.1f} s, of which the pre-upgrade backup about "
        f"{backup:.1f} s and computing the indexed terms (Python) {terms:.1f} s"
    )
    return texts


def _message(conversation_id: str, parent: str | None, body: str, at: datetime) -> Message:
    return Message(
        id=new_id(),
        conversation_id=conversation_id,
        parent_id=parent,
        role=Role.USER if parent is None else Role.ASSISTANT,
        parts=[TextPart(body)],
        status=MessageStatus.COMPLETE,
        created_at=at,
    )


def _ms(fn: Callable[[], object]) -> float:
    return _seconds(fn) * 1000


def write_figures(folder: Path, texts: list[str], rng: random.Random) -> None:
    baseline = _open_at_v2(folder / "v2.db")
    current = Database.open(folder / "v3.db")
    repos = {"v2": ChatRepository(baseline), "v3": ChatRepository(current)}
    chats = {name: repo.create_conversation("Writes") for name, repo in repos.items()}
    at = datetime(2024, 1, 1, tzinfo=UTC)
    adds: dict[str, list[float]] = {name: [] for name in repos}
    for n in range(ADDS):
        body = rng.choice(texts)
        for name, repo in repos.items():
            message = _message(chats[name].id, None, body, at + timedelta(seconds=n))
            adds[name].append(_ms(lambda r=repo, m=message: r.add_message(m)))

    reply = ""
    while len(reply) < REPLY_CHARS:
        reply += rng.choice(texts) + "\n\n"
    reply = reply[:REPLY_CHARS]
    saves: dict[str, list[float]] = {name: [] for name in repos}
    streaming = {
        name: repo.add_message(_message(chats[name].id, None, "", at - timedelta(days=1)))
        for name, repo in repos.items()
    }
    for step in range(1, SAVES + 1):
        for name, repo in repos.items():
            message = streaming[name]
            message.parts = [TextPart(reply[: len(reply) * step // SAVES])]
            saves[name].append(_ms(lambda r=repo, m=message: r.save_message(m)))
    baseline.close()
    current.close()

    print("\nwrites (ms, median; v2 = without the short-query index, same run):")
    print(f"{'':<44}{'v2':>7}{'v3':>7}{'added':>8}")
    for label, samples in (
        (f"add a message (1 of {ADDS:,}, one transaction)", adds),
        (f"save a streamed reply growing to {len(reply):,} chars", saves),
    ):
        v2, v3 = statistics.median(samples["v2"]), statistics.median(samples["v3"])
        print(f"{label:<44}{v2:>7.2f}{v3:>7.2f}{v3 - v2:>+8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    args = parser.parse_args()
    rng = random.Random(20240501)
    with tempfile.TemporaryDirectory() as folder:
        texts = upgrade_figures(Path(folder), args.messages, rng)
        write_figures(Path(folder), texts, rng)


if __name__ == "__main__":
    main()
