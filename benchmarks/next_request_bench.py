"""What the composer's token estimate costs on a long chat.

Run from the repository root:  python benchmarks/next_request_bench.py [--messages 5000]

The meter builds the request the next send would make (engine/prompt/next_request.py) in a
worker thread after each change, from a real database of N messages (questions and
Markdown answers of 300-3,500 characters). Reported: the first estimate of an opened
chat (it reads and decodes the whole branch), the next ones while the person types
(nothing is read), one after the chat changed (the branch's ids are read again), and,
as baselines measured in the same run, reading the whole branch as a send does
(`active_path`) and the planner alone on it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from chat_view_bench import build_conversation  # noqa: E402

from desktop.core.models import ModelRef  # noqa: E402
from desktop.engine.context.planner import plan  # noqa: E402
from desktop.engine.prompt.next_request import Draft, NextRequest  # noqa: E402
from desktop.engine.settings_service import SettingsService  # noqa: E402
from desktop.engine.turn.chat_service import ChatService  # noqa: E402
from desktop.storage.database import Database  # noqa: E402
from desktop.storage.repository import ChatRepository  # noqa: E402
from desktop.storage.secrets import SecretStore  # noqa: E402


def timed(run: Callable[[], object], repeat: int = 5) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="parley-bench-") as name:
        folder = Path(name)
        settings = {
            "version": 1,
            "providers": [
                {
                    "id": "local",
                    "name": "Local",
                    "base_url": "http://127.0.0.1:9/v1",
                    "models": ["m"],
                }
            ],
        }
        (folder / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        conversation_id = build_conversation(folder, args.messages)
        database = Database.open(folder / "parley.db")
        try:
            repository = ChatRepository(database)
            service = SettingsService(folder / "settings.json", SecretStore())
            chat = ChatService(repository, service)
            draft = Draft(conversation_id, "What did we decide?", (), ModelRef("local", "m"))

            def cold() -> None:  # a fresh estimator has read nothing yet
                fresh = NextRequest(
                    repository,
                    service,
                    chat.assistant_of,
                    files=None,
                    tools=None,
                    context=chat.context,
                )
                fresh.tokens(draft)

            first = timed(cold)
            chat.next_request.tokens(draft)
            warm = timed(lambda: chat.next_request.tokens(draft), repeat=10)

            def changed() -> None:  # a new answer came in: the branch's ids are read again
                chat.next_request.invalidate()
                chat.next_request.tokens(draft)

            after_change = timed(changed)
            path = repository.active_path(conversation_id)
            read = timed(lambda: repository.active_path(conversation_id))
            planned = timed(lambda: plan(path, None))
        finally:
            database.close()
    print(f"next request estimate, {args.messages} messages (in a worker thread):")
    print(f"  first, the branch read and decoded   {min(first):7.1f} ms")
    print(
        f"  next ones, the branch cached          {min(warm):7.1f} ms "
        f"(median {statistics.median(warm):.1f})"
    )
    print(f"  after the chat changed (ids re-read)  {min(after_change):7.1f} ms")
    print(f"baseline: read the whole branch        {min(read):7.1f} ms")
    print(f"baseline: the planner alone            {min(planned):7.1f} ms")


if __name__ == "__main__":
    main()
