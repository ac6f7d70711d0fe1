"""Timings for the rolling-context planner on long chats.

Run from the repository root:  python benchmarks/context_bench.py [--messages 5000]

The planner runs before every request, so its cost must not grow with the length of
the chat. Reported, for N messages of ~2,000 characters (English prose mixed with
Chinese): the planner as shipped (it estimates from the newest message back and stops
once the threshold is crossed) against a baseline measured in the same run that
estimates every message of the chat first, as a naive planner would; and the token
estimate's throughput on ~760 KB of mixed prose, code and Chinese.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop.core.models import Message, Role, TextPart
from desktop.engine.context.planner import plan
from desktop.engine.context.tokens import estimate_tokens, message_tokens

PROSE = "The quick brown fox jumps over the lazy dog. " * 20
CODE = "def f(x):\n    return {'a': [x[i] + 1 for i in range(len(x))]}\n" * 20
CHINESE = "我们今天讨论了滚动摘要的设计和实现细节。" * 20


def chat(count: int) -> list[Message]:
    text = (PROSE + CHINESE)[:2000]
    roles = (Role.USER, Role.ASSISTANT)
    return [Message(f"m{i}", "c", None, roles[i % 2], [TextPart(text)]) for i in range(count)]


def best_ms(run: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=5000)
    args = parser.parse_args()
    path = chat(args.messages)
    shipped = best_ms(lambda: plan(path, None))
    naive = best_ms(lambda: (sum(message_tokens(m) for m in path), plan(path, None)))
    text = (PROSE + CODE + CHINESE) * 300
    estimate = best_ms(lambda: estimate_tokens(text))
    print(f"plan, {args.messages} messages:        {shipped:8.1f} ms")
    print(f"baseline (estimate all first): {naive:8.1f} ms")
    print(
        f"estimate_tokens, {len(text) / 1000:.0f} K chars:  {estimate:8.1f} ms "
        f"({len(text) / estimate / 1000:.1f} M chars/s)"
    )


if __name__ == "__main__":
    main()
