"""Multi-device sync (desktop/engine/sync/) over loopback WsgiDAV: time, requests, memory.

Run from the repository root:  python benchmarks/sync_bench.py [--messages 10000]

Builds device A's data folder: `--messages` finished messages in conversations of 10
(user questions of about 300-800 characters, answers of 600-1,500, one answer in ten
with a code block) and `--files` attached files of 2 MiB of random bytes, then starts
WsgiDAV on 127.0.0.1 (as the tests do) and runs each step in a process of its own, so
the peak memory it reports is its own. Every step talks to the server through the
`SyncService` the app builds, whose httpx client counts the requests it sends.

1. first sync: A creates the vault (scrypt, timed apart) and sends everything; B joins
   with the recovery key and receives the messages. The pull runs on an event loop with
   a 5 ms ticker beside it: its longest gap is how long the window would freeze. Then B
   fetches every attached file (`fetch_attachment`: they come lazily, when shown).
   Targets: first pull of 10,000 messages <= 10 s, the GUI responsive.
2. A writes 1,000 more messages and syncs (target <= 3 s); B receives them.
3. one answer: A adds a question and its answer, syncs; B syncs.
4. no-op: A syncs, B syncs, nothing having changed (target: 1 listing + one head GET
   per device, <= 300 ms).
5. baseline: the same objects (A's sealed segments, the attached files) PUT and GET as
   plain files through the same `WebDavStore`, without encryption or database work.

With SYNC_BENCH_PROFILE=<folder>, each step writes a cProfile there (<step>.prof), its
worker-thread work run on the event loop's thread so the profile sees it (the times
and stalls printed are then not the real ones).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.backup_bench import PASSPHRASE
from benchmarks.backup_bench import WORDS as BACKUP_WORDS
from benchmarks.phases import run_phase

T = TypeVar("T")
PER_CONVERSATION = 10
FILE_BYTES = 2 * 1024 * 1024
# The backup benchmark's words and passphrase, with a few more of a programmer's.
WORDS = [
    *BACKUP_WORDS,
    *("because", "however", "database", "query", "index", "cache", "request"),
    *("response", "server", "client", "thread", "memory"),
]
CODE = '''```python
def total(items: list[dict[str, float]]) -> float:
    """Sum the price of every item, skipping the ones without one."""
    result = 0.0
    for item in items:
        price = item.get("price")
        if price is not None:
            result += price * item.get("quantity", 1)
    return round(result, 2)
```'''


# --- building device A ----------------------------------------------------------------


def _text(rng: random.Random, low: int, high: int) -> str:
    target = rng.randint(low, high)
    sentences: list[str] = []
    size = 0
    while size < target:
        sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18)))
        sentences.append(sentence.capitalize() + ".")
        size += len(sentences[-1]) + 1
    return " ".join(sentences)[:target]


def add_messages(folder: Path, first: int, count: int, files: int = 0, seed: int = 7) -> None:
    """`count` messages in new conversations c{first // 10}...; the first `files` user
    messages each carry one new attached file of 2 MiB."""
    from sqlalchemy import insert

    from desktop.core.attachments import AttachmentKind
    from desktop.core.models import (
        ContextSnapshot,
        Conversation,
        Message,
        MessageStatus,
        Role,
        TextPart,
    )
    from desktop.storage import mapping
    from desktop.storage.attachments import AttachmentStore
    from desktop.storage.database import Database
    from desktop.storage.tables import conversations, messages

    rng = random.Random(seed + first)
    db = Database.open(folder / "parley.db")
    store = AttachmentStore(folder / "attachments", db.engine)
    attached = [
        store.put_bytes(
            os.urandom(FILE_BYTES),
            name=f"report-{index}.bin",
            mime="application/octet-stream",
            kind=AttachmentKind.DOCUMENT,
        ).id
        for index in range(files)
    ]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    conversation_rows, message_rows = [], []
    for c in range(first // PER_CONVERSATION, (first + count) // PER_CONVERSATION):
        cid, at, parent = f"c{c:06d}", start + timedelta(minutes=7 * c), None
        for k in range(PER_CONVERSATION):
            mid = f"{cid}m{k}"
            user = k % 2 == 0
            text = _text(rng, 300, 800) if user else _text(rng, 600, 1500)
            if not user and k % 10 == 1 and c % 2 == 0:
                text = text[: len(text) // 2] + "\n\n" + CODE + "\n\n" + text[len(text) // 2 :]
            context = ContextSnapshot(context_captured=True)
            if user and attached:
                context = ContextSnapshot(attachment_ids=(attached.pop(),), context_captured=True)
            message = Message(
                id=mid,
                conversation_id=cid,
                parent_id=parent,
                role=Role.USER if user else Role.ASSISTANT,
                parts=[TextPart(text)],
                status=MessageStatus.COMPLETE,
                created_at=at + timedelta(seconds=30 * k),
                context=context,
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
    db.close()


# --- one device, as the app builds it -------------------------------------------------


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Device:
    """A data folder with the `SyncService` the app builds, its client counting requests."""

    def __init__(self, root: Path, name: str) -> None:
        import httpx

        from desktop.core.dispatch import EventBus
        from desktop.core.events import EngineEvent
        from desktop.core.paths import DataPaths
        from desktop.engine.settings_service import SettingsService
        from desktop.engine.sync.service import SyncService
        from desktop.storage.attachments import AttachmentStore
        from desktop.storage.database import Database
        from desktop.storage.repository import ChatRepository
        from desktop.storage.secrets import SecretStore

        self.requests: Counter[str] = Counter()

        async def count(request: httpx.Request) -> None:
            self.requests[request.method] += 1

        self.client = httpx.AsyncClient(event_hooks={"request": [count]})
        self.paths = DataPaths(root)
        self.paths.ensure()
        self.db = Database.open(self.paths.database)
        self.repo = ChatRepository(self.db)
        self.attachments = AttachmentStore(self.paths.attachments, self.db.engine)
        self.settings = SettingsService(self.paths.settings, SecretStore(), self.client)
        events: EventBus[EngineEvent] = EventBus()
        self.service = SyncService(
            self.paths, self.db, self.attachments, self.settings, events, device_name=name
        )

    def take_requests(self) -> dict[str, int]:
        counted = dict(self.requests)
        self.requests.clear()
        return counted

    async def aclose(self) -> None:
        await self.service.aclose()
        await self.client.aclose()
        self.db.close()


def _install_keyring() -> None:
    """Headless machines have no keyring: keep the vault key in memory."""
    import keyring

    from tests.support.memory_keyring import MemoryKeyring

    keyring.set_keyring(MemoryKeyring())


def _target(folder: Path) -> Any:
    from desktop.core.remote_target import WebDavTarget

    return WebDavTarget((folder / "url.txt").read_text() + "/parley")


async def _device(folder: Path, name: str, *, join: bool = True) -> Device:
    _install_keyring()
    device = Device(folder / name, name)
    if join:  # the vault key kept in the first step's process only: join again
        key = (folder / "recovery.txt").read_text()
        await device.service.join_vault(_target(folder), key)
        device.take_requests()
    return device


async def _timed(device: Device, work: Awaitable[T]) -> tuple[T, float, dict[str, int]]:
    device.take_requests()
    started = time.perf_counter()
    result = await work
    return result, time.perf_counter() - started, device.take_requests()


async def _with_ticker(work: Awaitable[T], period: float = 0.005) -> tuple[T, float]:
    """`work`'s result and the longest the event loop left a `period` ticker waiting
    beyond its period, in seconds."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    done = False

    async def tick() -> None:
        nonlocal worst
        last = loop.time()
        while not done:
            await asyncio.sleep(period)
            now = loop.time()
            worst = max(worst, now - last - period)
            last = now

    ticker = asyncio.ensure_future(tick())
    try:
        result = await work
    finally:
        done = True
        await ticker
    return result, worst


def _run_async(main: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
    async def wrapped() -> dict[str, Any]:
        return await main()

    return asyncio.run(wrapped())


def _profiled(name: str, main: Callable[[], Awaitable[dict[str, Any]]]) -> Any:
    """With SYNC_BENCH_PROFILE=<folder> set, a cProfile of the step lands there."""
    if not os.environ.get("SYNC_BENCH_PROFILE"):
        return _run_async(main)
    import cProfile

    async def inline(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return function(*args, **kwargs)

    # cProfile sees one thread: run the worker-thread work on the loop's while profiling.
    asyncio.to_thread = inline  # type: ignore[assignment]
    profile = cProfile.Profile()
    result = profile.runcall(_run_async, main)
    profile.dump_stats(str(Path(os.environ["SYNC_BENCH_PROFILE"]) / f"{name}.prof"))
    return result


# --- the steps, each in a process of its own -------------------------------------------


def phase_create(folder: Path) -> dict[str, Any]:
    """A makes the vault (its own process: scrypt's memory is not the push's)."""

    async def main() -> dict[str, Any]:
        a = await _device(folder, "A", join=False)
        started = time.perf_counter()
        key = await a.service.create_vault(_target(folder), PASSPHRASE)
        seconds = time.perf_counter() - started
        (folder / "recovery.txt").write_text(key)
        await a.aclose()
        return {"seconds": seconds, "peak_mb": _peak_mb()}

    return _run_async(main)


def phase_push(folder: Path) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        a = await _device(folder, "A")
        before = _peak_mb()
        (report, stall), seconds, requests = await _timed(a, _with_ticker(a.service.sync_now()))
        await a.aclose()
        return {
            "seconds": seconds,
            "sent": report.sent,
            "stall_s": stall,
            "requests": requests,
            "start_mb": before,
            "peak_mb": _peak_mb(),
        }

    result: dict[str, Any] = _profiled("push", main)
    return result


def phase_pull(folder: Path) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        b = await _device(folder, "B")
        before = _peak_mb()
        (report, stall), seconds, requests = await _timed(b, _with_ticker(b.service.sync_now()))
        pull_peak = _peak_mb()
        with b.db.read() as conn:
            ids = [row[0] for row in conn.exec_driver_sql("SELECT id FROM attachments")]
            count = conn.exec_driver_sql("SELECT count(*) FROM messages").scalar_one()
        files = [item for item in (b.attachments.get(i) for i in ids) if item is not None]
        b.take_requests()
        started = time.perf_counter()
        fetched = 0
        for item in files:
            fetched += await b.service.fetch_attachment(item.sha256, b.attachments.blob_path(item))
        fetch_s = time.perf_counter() - started
        fetch_requests = b.take_requests()
        await b.aclose()
        return {
            "seconds": seconds,
            "received": report.received,
            "sent": report.sent,
            "messages": count,
            "stall_s": stall,
            "requests": requests,
            "start_mb": before,
            "pull_peak_mb": pull_peak,
            "fetch_s": fetch_s,
            "fetched": fetched,
            "fetch_requests": fetch_requests,
            "peak_mb": _peak_mb(),
        }

    result: dict[str, Any] = _profiled("pull", main)
    return result


def phase_more(folder: Path) -> dict[str, Any]:
    """A writes 1,000 more messages and sends them."""
    start = int((folder / "messages.txt").read_text())
    add_messages(folder / "A", start, 1000, seed=11)

    async def main() -> dict[str, Any]:
        a = await _device(folder, "A")
        report, seconds, requests = await _timed(a, a.service.sync_now())
        await a.aclose()
        return {"seconds": seconds, "sent": report.sent, "requests": requests}

    result: dict[str, Any] = _profiled("more", main)
    return result


def _sync_step(name: str, device_name: str) -> Callable[[Path], dict[str, Any]]:
    def phase(folder: Path) -> dict[str, Any]:
        async def main() -> dict[str, Any]:
            device = await _device(folder, device_name)
            (report, stall), seconds, requests = await _timed(
                device, _with_ticker(device.service.sync_now())
            )
            await device.aclose()
            return {
                "seconds": seconds,
                "received": report.received,
                "sent": report.sent,
                "stall_s": stall,
                "requests": requests,
            }

        result: dict[str, Any] = _profiled(name, main)
        return result

    return phase


def phase_answer(folder: Path) -> dict[str, Any]:
    """A: one question and its answer in an existing chat, then a sync."""

    async def main() -> dict[str, Any]:
        from desktop.core.models import Message, MessageStatus, Role, TextPart, new_id

        a = await _device(folder, "A")
        rng = random.Random(3)
        conversation = "c000000"
        parent = a.repo.latest_leaf(conversation, f"{conversation}m0")
        for role, text in ((Role.USER, _text(rng, 300, 800)), (Role.ASSISTANT, CODE)):
            message = Message(
                id=new_id(),
                conversation_id=conversation,
                parent_id=parent,
                role=role,
                parts=[TextPart(text)],
                status=MessageStatus.COMPLETE,
            )
            a.repo.add_message(message)
            parent = message.id
        a.repo.set_active_leaf(conversation, parent)
        report, seconds, requests = await _timed(a, a.service.sync_now())
        await a.aclose()
        return {"seconds": seconds, "sent": report.sent, "requests": requests}

    result: dict[str, Any] = _profiled("answer", main)
    return result


def phase_baseline(folder: Path) -> dict[str, Any]:
    """The same objects as plain files: A's sealed segments as bytes, the attached files
    as files, PUT then GET through the same store, no encryption, no database."""
    server_root = folder / "server" / "parley" / "parley-sync" / "v1" / "devices"
    segments = sorted(server_root.glob("*/seg-*.age"), key=lambda p: int(p.stem[4:]))
    first_push = int((folder / "first-segments.txt").read_text())
    segments = segments[:first_push]
    files = sorted((folder / "A" / "attachments").rglob("*"))
    files = [f for f in files if f.is_file() and f.stat().st_size >= FILE_BYTES]

    async def main() -> dict[str, Any]:
        import httpx

        from desktop.core.remote_target import WebDavTarget
        from desktop.engine.remote.factory import make_store

        async with httpx.AsyncClient() as client:
            url = (folder / "url.txt").read_text() + "/baseline"
            store = make_store(WebDavTarget(url), None, client)
            await store.check()
            datas = [path.read_bytes() for path in segments]
            started = time.perf_counter()
            for n, data in enumerate(datas):
                await store.put_bytes(f"seg/{n}", data)
            put_segments = time.perf_counter() - started
            started = time.perf_counter()
            for n, path in enumerate(files):
                await store.put_file(f"blob/{n}", path)
            put_files = time.perf_counter() - started
            started = time.perf_counter()
            for n in range(len(datas)):
                await store.get_bytes(f"seg/{n}")
            get_segments = time.perf_counter() - started
            with tempfile.TemporaryDirectory() as tmp:
                started = time.perf_counter()
                for n in range(len(files)):
                    await store.get_file(f"blob/{n}", Path(tmp) / f"{n}.bin")
                get_files = time.perf_counter() - started
        return {
            "segments": len(datas),
            "segment_mb": sum(len(d) for d in datas) / 2**20,
            "files": len(files),
            "file_mb": sum(f.stat().st_size for f in files) / 2**20,
            "put_segments_s": put_segments,
            "put_files_s": put_files,
            "get_segments_s": get_segments,
            "get_files_s": get_files,
        }

    return _run_async(main)


PHASES: dict[str, Callable[[Path], dict[str, Any]]] = {
    "create": phase_create,
    "push": phase_push,
    "pull": phase_pull,
    "more": phase_more,
    "catchup": _sync_step("catchup", "B"),
    "answer": phase_answer,
    "receive": _sync_step("receive", "B"),
    "noop-a": _sync_step("noop-a", "A"),
    "noop-b": _sync_step("noop-b", "B"),
    "baseline": phase_baseline,
}


def _run(phase: str, folder: Path) -> dict[str, Any]:
    try:
        return run_phase(__file__, phase, folder)
    except subprocess.CalledProcessError as error:
        print(f"step {phase} failed:\n{error.stderr}", file=sys.stderr)
        raise


def _requests(counted: dict[str, int]) -> str:
    total = sum(counted.values())
    if not total:
        return "no requests"
    parts = ", ".join(f"{n} {method}" for method, n in sorted(counted.items()))
    return f"{total} requests ({parts})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase", choices=list(PHASES))
    parser.add_argument("--folder")
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=50)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(PHASES[args.phase](Path(args.folder))))
        return
    from tests.support.remote_servers import wsgidav_server

    # Where /tmp is kept in memory (tmpfs) the figures flatter: set TMPDIR to a real disk.
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        (folder / "A").mkdir()
        add_messages(folder / "A", 0, args.messages, files=args.files)
        (folder / "messages.txt").write_text(str(args.messages))
        print(
            f"built {args.messages:,} messages in {args.messages // PER_CONVERSATION:,} "
            f"conversations and {args.files} attached files of 2 MiB "
            f"in {time.perf_counter() - started:.0f} s"
        )
        load_before = os.getloadavg()[0]
        with wsgidav_server(folder / "server", folder / "work") as url:
            (folder / "url.txt").write_text(url)
            create = _run("create", folder)
            push = _run("push", folder)
            segments = sorted((folder / "server").rglob("seg-*.age"))
            (folder / "first-segments.txt").write_text(str(len(segments)))
            pull = _run("pull", folder)
            more = _run("more", folder)
            catchup = _run("catchup", folder)
            answer = _run("answer", folder)
            receive = _run("receive", folder)
            noop_a = _run("noop-a", folder)
            noop_b = _run("noop-b", folder)
            base = _run("baseline", folder)
        plain_up = base["put_segments_s"] + base["put_files_s"]
        load = os.getloadavg()[0]
        print(
            f"sync over loopback WsgiDAV, each step in its own process "
            f"(load average {load_before:.1f} before, {load:.1f} after, {os.cpu_count()} cores)"
        )
        print(
            f"create vault (scrypt locking the key, own process): {create['seconds']:.1f} s, "
            f"peak {create['peak_mb']:.0f} MB"
        )
        print(
            f"first sync from A: {push['sent']:,} records in {len(segments)} segments "
            f"({base['segment_mb']:.1f} MB) and {base['files']} files "
            f"({base['file_mb']:.0f} MB) in {push['seconds']:.1f} s, "
            f"{_requests(push['requests'])}; longest event-loop stall "
            f"{push['stall_s'] * 1000:.0f} ms; peak {push['peak_mb']:.0f} MB "
            f"({push['start_mb']:.0f} MB before)"
        )
        print(
            f"  baseline, the same objects PUT as plain files: {plain_up:.1f} s "
            f"({base['put_segments_s']:.2f} s segments, {base['put_files_s']:.1f} s files)"
        )
        print(
            f"first pull on B: {pull['received']:,} records applied "
            f"({pull['messages']:,} messages) in {pull['seconds']:.1f} s (target <= 10 s), "
            f"{pull['sent']:,} records sent back; "
            f"longest event-loop stall {pull['stall_s'] * 1000:.0f} ms; "
            f"{_requests(pull['requests'])}; peak {pull['pull_peak_mb']:.0f} MB "
            f"({pull['start_mb']:.0f} MB before)"
        )
        print(
            f"  baseline, GET of the same segments: {base['get_segments_s']:.2f} s "
            f"(the pull is {pull['seconds'] / max(base['get_segments_s'], 1e-9):.0f}x)"
        )
        print(
            f"fetching B's {pull['fetched']} attached files: {pull['fetch_s']:.1f} s, "
            f"{_requests(pull['fetch_requests'])}; peak {pull['peak_mb']:.0f} MB"
        )
        print(f"  baseline, GET of the same files unencrypted: {base['get_files_s']:.1f} s")
        print(
            f"push of 1,000 new messages from A: {more['sent']:,} records in "
            f"{more['seconds']:.2f} s (target <= 3 s), {_requests(more['requests'])}"
        )
        print(
            f"  B receiving them: {catchup['received']:,} records in "
            f"{catchup['seconds']:.2f} s, stall {catchup['stall_s'] * 1000:.0f} ms, "
            f"{_requests(catchup['requests'])}"
        )
        print(
            f"one answer: A sends {answer['sent']} records in {answer['seconds'] * 1000:.0f} ms, "
            f"{_requests(answer['requests'])}; B receives {receive['received']} in "
            f"{receive['seconds'] * 1000:.0f} ms, {_requests(receive['requests'])}"
        )
        for name, step in (("A", noop_a), ("B", noop_b)):
            print(
                f"no-op sync on {name}: {step['seconds'] * 1000:.0f} ms (target <= 300 ms), "
                f"{_requests(step['requests'])} (target: 1 listing + 1 head GET per device); "
                f"received {step['received']}, sent {step['sent']}"
            )


if __name__ == "__main__":
    main()
