"""What one save of a streaming answer costs the loop thread, by the answer's length.

Run from the repository root:  python benchmarks/streaming_save_bench.py

While an answer streams, the engine saves it every DB_WRITE_INTERVAL_S on the loop
thread (the GUI thread), so one save must stay well under a second and a crash loses
at most the interval plus one save. Parley's streaming save writes the parts and leaves
the full-text index alone until the answer ends; the baseline, in the same run and on
the same database, is a save that also re-indexes the text (as every streaming save
did before, and as the one save at the end still does).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop.core.limits import DB_WRITE_INTERVAL_S
from desktop.core.models import ContextSnapshot, MessageStatus, ModelRef, TextPart
from desktop.engine.turn import versions
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository

SIZES = (20_000, 200_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000)
REPEAT = 3
WORDS = ("alpha", "beta", "gamma", "delta", "Straße", "日本語", "naïve", "x = f(y)")


def prose(size: int, rng: random.Random) -> str:
    lines = []
    total = 0
    while total < size:
        line = " ".join(rng.choice(WORDS) for _ in range(16)) + "\n"
        lines.append(line)
        total += len(line)
    return "".join(lines)[:size]


def main() -> None:
    rng = random.Random(7)
    text = prose(SIZES[-1], rng)
    with tempfile.TemporaryDirectory() as folder:
        database = Database.open(Path(folder) / "parley.db")
        repo = ChatRepository(database)
        chat = repo.create_conversation("Saves")
        question = repo.add_message(versions.user_message(chat.id, None, "?", ContextSnapshot()))
        answer = repo.add_message(versions.placeholder(chat.id, question.id, ModelRef("p", "m")))
        print(
            f"one save of a growing answer (ms, median of {REPEAT}); saves every "
            f"{DB_WRITE_INTERVAL_S} s while it streams"
        )
        print(f"{'answer so far':>14}{'Parley':>10}{'re-indexing (baseline)':>26}")
        for size in SIZES:
            timings: dict[MessageStatus, list[float]] = {
                MessageStatus.STREAMING: [],
                MessageStatus.COMPLETE: [],
            }
            for n in range(REPEAT):
                for status, times in timings.items():
                    # Each save changes the text, as the next deltas of a stream do.
                    body = text[: size - REPEAT * 2 + n * 2 + (status is MessageStatus.COMPLETE)]
                    message = replace(answer, parts=[TextPart(body)], status=status)
                    started = time.perf_counter()
                    repo.save_message(message)
                    times.append((time.perf_counter() - started) * 1000)
            parley = statistics.median(timings[MessageStatus.STREAMING])
            baseline = statistics.median(timings[MessageStatus.COMPLETE])
            print(f"{size:>14,}{parley:>10.0f}{baseline:>26.0f}")
        database.close()


if __name__ == "__main__":
    main()
