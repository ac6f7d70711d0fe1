"""Timings for desktop.storage.search on a 100,000-message history.

Run from the repository root:  python benchmarks/search_bench.py [--messages N]

Builds a temporary database through the real migrations and triggers: 10,000
conversations of 10 messages each (short questions, longer answers, some CJK, some
accented text, some code), then prints milliseconds for several queries through
`search()` and, as a baseline in the same run, through a plain `LIKE '%q%'` scan over
`messages.search_text` with the same filter, order and limit. Also times listing the
10,000 conversations, and what the sidebar pays when a send moves one of them to the
top: the incremental update against a full reload, for the list model alone and with
the sidebar on (an offscreen) screen until the event loop is idle again; the full
reload is also timed with per-row sizes, as the sidebar laid rows out before.
Target: FTS search <= 50 ms.
"""

from __future__ import annotations

import argparse
import os
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
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication
from sqlalchemy import insert, text

from desktop.core.events import ConversationsChanged
from desktop.core.models import Conversation, Message, MessageStatus, Role, TextPart
from desktop.core.settings import Settings
from desktop.engine.library import Library
from desktop.engine.turn.chat_service import ChatService
from desktop.storage import mapping
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.search import like_pattern, search
from desktop.storage.tables import conversations, messages
from desktop.ui.viewmodels.conversations import ConversationListModel
from desktop.ui.viewmodels.search import SearchModel
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.views.sidebar import Sidebar

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
RARE_CJK = "鹦鹉"  # planted with it: a rare two-character CJK word
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
                body += f" A {RARE_WORD} solo. {RARE_CJK}学舌。"
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


def _timed(
    fn: Callable[[], object], setup: Callable[[], object] = lambda: None
) -> tuple[float, float, int]:
    """Median and p95 ms of `fn` (each run after an untimed `setup`), and its size."""
    setup()
    fn()  # warm the page cache and the statement cache
    samples = []
    size = 0
    for _ in range(REPEAT):
        setup()
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
                ("1 char, common", "a"),
                ("1 char, rare", "x"),
                ("CJK 1 char", "世"),
                ("CJK 2, rare", RARE_CJK),
                ("CJK 2, title", "周末"),
                ("punctuation", "%"),
                ("symbols", "C#"),
                ("long + short", "error th"),
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
            summaries_median, summaries_p95, listed = _timed(repo.list_conversation_summaries)
            print(
                f"list_conversation_summaries (the sidebar's full load): {listed:,}, "
                f"median {summaries_median:.1f} ms, p95 {summaries_p95:.1f} ms"
            )
            _sidebar_figures(db, repo, rng)


class _NoProviders:
    settings = Settings()

    async def provider(self, provider_id: str) -> object:
        raise LookupError(provider_id)


def _sidebar_figures(db: Database, repo: ChatRepository, rng: random.Random) -> None:
    """One send's effect on the sidebar: the conversation moves to the top of the list."""
    app = QApplication.instance() or QApplication([])
    chat = ChatService(repo, _NoProviders())
    library = Library(db, repo, chat.events)
    model = ConversationListModel(chat, library, TaskGroup())
    ids = [c.id for c in repo.list_conversations()]

    touched = [""]

    def send() -> None:  # untimed: what a send writes before it announces the change
        touched[0] = rng.choice(ids[len(ids) // 2 :])
        repo.touch(touched[0])

    def announce() -> None:
        chat.events.emit(ConversationsChanged(touched[0]))

    print(f"\nsidebar, {model.conversation_count():,} conversations, after a send (ms):")
    print(f"{'':<42}{'median':>8} {'p95':>7}")
    rows = [("model: incremental update", announce), ("model: full reload", model.refresh)]
    for label, fn in rows:
        median, p95, _ = _timed(fn, send)
        print(f"{label:<42}{median:>8.1f} {p95:>7.1f}")

    sidebar = Sidebar(model, SearchModel(library))
    sidebar.resize(280, 800)
    sidebar.show()
    app.processEvents()

    def until_idle(fn: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            fn()
            app.processEvents()

        return run

    rows = [
        ("with the sidebar: incremental update", until_idle(announce)),
        ("with the sidebar: full reload", until_idle(model.refresh)),
    ]
    for label, fn in rows:
        median, p95, _ = _timed(fn, send)
        print(f"{label:<42}{median:>8.1f} {p95:>7.1f}")
    sidebar.list.setUniformItemSizes(False)  # as before: every row asked for its size
    median, p95, _ = _timed(until_idle(model.refresh), send)
    print(f"{'with the sidebar: full reload, per-row sizes':<42}{median:>8.1f} {p95:>7.1f}")
    sidebar.close()


if __name__ == "__main__":
    main()
