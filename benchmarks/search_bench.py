"""Timings for desktop.storage.search on a 100,000-message history.

Run from the repository root:  python benchmarks/search_bench.py [--messages N]

Builds a temporary database through the real migrations and triggers: 10,000
conversations of 10 messages each (short questions, longer answers, some CJK, some
accented text, some code), then prints milliseconds for several queries through
`search()` and, as a baseline in the same run, through a plain `LIKE '%q%'` scan over
`messages.search_text` with the same filter, order and limit. Also times listing the
10,000 conversations. Target: FTS search <= 50 ms.
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
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert, text

from desktop.core.models import Conversation, Message, MessageStatus, Role, TextPart
from desktop.storage import mapping
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.search import like_pattern, search
from desktop.storage.tables import conversations, messages

PER_CONVERSATION = 10
REPEAT = 15

# Roughly Zipf-shaped: early words are far more frequent than late ones.
_WORDS = (
    "the of and to a in is you that it for on are with as this be at have from or by not "
    "but what all can your when use which will there their one about how if each more "
    "file code function data value error list string return python type call example "
    "change time first need using model test case user line server request version "
    "result query database table index thread window memory network config output "
    "async await loop event signal widget layout render stream token message provider "
    "kubernetes docker pipeline gradient tensor compiler parser lexer grammar recipe "
    "garden travel budget invoice contract meeting schedule deadline vacation museum "
    "café résumé naïve façade München São Paulo Kraków Zürich piñata jalapeño"
)
_VOCABULARY = _WORDS.split()
_CJK = (
    "你好世界",
    "数据库查询优化",
    "这个问题的答案是什么",
    "今天天气很好我们去公园散步",
    "搜索引擎需要中文分词",
    "请帮我写一个函数",
    "東京の天気はどうですか",
    "日本語の文章を翻訳してください",
    "안녕하세요 반갑습니다",
)
_CODE = (
    "```python\ndef handler(event):\n    return {'status': 200, 'body': event}\n```",
    "```sql\nSELECT id, title FROM conversations ORDER BY updated_at DESC;\n```",
    "Run `pip install --upgrade pip` and then `pytest -q`.",
)
RARE_WORD = "xylophone"  # planted in a handful of messages
# Titles come from their own words, so that common query words exercise the message
# index rather than filling the 50 results with title hits.
_TOPICS = (
    "Trip planning",
    "Bug hunt",
    "Recipe ideas",
    "Weekly report",
    "Job interview prep",
    "Birthday gift",
    "Tax questions",
    "Garden layout",
    "Novel outline",
    "周末计划",
)


def _word(rng: random.Random) -> str:
    # Inverse-power sampling: index ~ len * u^3 favours the start of the list.
    return _VOCABULARY[int(len(_VOCABULARY) * rng.random() ** 3)]


def _sentence(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.08:
        return rng.choice(_CJK) + "。"
    if roll < 0.11:
        return rng.choice(_CODE)
    words = [_word(rng) for _ in range(rng.randint(5, 16))]
    return " ".join(words).capitalize() + rng.choice(".?!")


def _text(rng: random.Random, sentences: int) -> str:
    return " ".join(_sentence(rng) for _ in range(sentences))


def build(db: Database, total: int, rng: random.Random) -> None:
    start = datetime(2023, 1, 1, tzinfo=UTC)
    conversation_rows = []
    message_rows = []
    rare_left = 12
    for c in range(total // PER_CONVERSATION):
        cid = f"c{c:06d}"
        first_at = start + timedelta(minutes=7 * c)
        parent: str | None = None
        for k in range(PER_CONVERSATION):
            is_user = k % 2 == 0
            body = _text(rng, rng.randint(1, 3) if is_user else rng.randint(3, 14))
            if rare_left and rng.random() < 0.0002:
                body += f" A {RARE_WORD} solo."
                rare_left -= 1
            mid = f"{cid}m{k}"
            message_rows.append(
                mapping.message_to_row(
                    Message(
                        id=mid,
                        conversation_id=cid,
                        parent_id=parent,
                        role=Role.USER if is_user else Role.ASSISTANT,
                        parts=[TextPart(body)],
                        status=MessageStatus.COMPLETE,
                        created_at=first_at + timedelta(seconds=30 * k),
                    )
                )
            )
            parent = mid
        title = f"{rng.choice(_TOPICS)} {c}"
        conversation_rows.append(
            mapping.conversation_to_row(
                Conversation(
                    id=cid,
                    title=title,
                    created_at=first_at,
                    updated_at=first_at + timedelta(seconds=30 * PER_CONVERSATION),
                    active_leaf_id=parent,
                    archived=rng.random() < 0.02,
                )
            )
        )
    with db.write() as conn:
        conn.execute(insert(conversations), conversation_rows)
        conn.execute(insert(messages), message_rows)


def _timed(fn: Callable[[], object]) -> tuple[float, float, int]:
    fn()  # warm the page cache and the statement cache
    samples = []
    size = 0
    for _ in range(REPEAT):
        began = time.perf_counter()
        result = fn()
        samples.append((time.perf_counter() - began) * 1000)
        size = len(result) if isinstance(result, list) else 0
    p95 = statistics.quantiles(samples, n=20)[-1]
    return statistics.median(samples), p95, size


_BASELINE = text(
    "SELECT m.id, m.search_text FROM messages AS m"
    " JOIN conversations AS c ON c.id = m.conversation_id"
    " WHERE m.search_text LIKE :q ESCAPE '\\' AND c.archived = 0"
    " ORDER BY c.updated_at DESC, m.created_at DESC LIMIT 50"
)


def _baseline(db: Database, query: str) -> list[object]:
    with db.read() as conn:
        return list(conn.execute(_BASELINE, {"q": like_pattern(query)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    args = parser.parse_args()
    rng = random.Random(20240501)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        with Database.open(path) as db:
            began = time.perf_counter()
            build(db, args.messages, rng)
            built = time.perf_counter() - began
            with db.read() as conn:
                chars = conn.execute(text("SELECT sum(length(search_text)) FROM messages"))
                total_chars = int(chars.scalar_one())
            print(
                f"built {args.messages:,} messages / {args.messages // PER_CONVERSATION:,} "
                f"conversations ({total_chars / 1e6:.1f} M chars of text) in {built:.1f} s; "
                f"file {path.stat().st_size / 1e6:.0f} MB"
                f" (+ WAL {path.with_name(path.name + '-wal').stat().st_size / 1e6:.0f} MB)"
            )

            queries = [
                ("common word", "the"),
                ("mid word", "database"),
                ("rare word", RARE_WORD),
                ("no match", "zzyzx"),
                ("two words", "python error"),
                ("accented", "résumé"),
                ("CJK 3+ chars", "数据库"),
                ("CJK 2 chars", "世界"),
                ("2 chars, common", "th"),
                ("2 chars, rare", "qz"),
            ]
            print(
                f"\n{'query':<18}{'text':<14}{'hits':>5}  {'search() ms':>15}  {'LIKE scan ms':>15}"
            )
            print(f"{'':<18}{'':<14}{'':>5}  {'median':>7} {'p95':>7}  {'median':>7} {'p95':>7}")
            for label, query in queries:
                fts_median, fts_p95, hits = _timed(partial(search, db, query))
                like_median, like_p95, _ = _timed(partial(_baseline, db, query))
                print(
                    f"{label:<18}{query:<14}{hits:>5}  {fts_median:>7.1f} {fts_p95:>7.1f}"
                    f"  {like_median:>7.1f} {like_p95:>7.1f}"
                )

            repo = ChatRepository(db)
            list_median, list_p95, listed = _timed(repo.list_conversations)
            print(
                f"\nlist_conversations: {listed:,} conversations, "
                f"median {list_median:.1f} ms, p95 {list_p95:.1f} ms"
            )


if __name__ == "__main__":
    main()
