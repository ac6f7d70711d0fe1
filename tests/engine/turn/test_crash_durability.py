"""kill -9 in the middle of an answer loses at most the last second of it (README, SPEC 9).

A real Parley engine streams in a child process (tests/support/stream_child.py) from the
loopback server. The child reports each save of the answer on its own event-loop clock:
when it began and when it committed. Text that arrives just after one save began is on
disk once the next save has committed, so that span, for every pair of saves, is what a
crash could lose; it must stay under a second. It is the throttle's cadence and the
commit's cost as the child itself lived them, not a race between our code and the test
(a loaded machine slows both ends alike). After the kill, what the database holds needs
no clock: the stream's beginning, intact, reopened as interrupted.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import selectors
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.core.models import MessageStatus
from desktop.engine.turn.chat_service import ChatService
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from tests.support.paths import ROOT
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, SendNow, Sleep, chat_chunk, sse_response
from tests.support.waiting import CEILING_S, wait_until

LOSS_BOUND_S = 1.0  # "the text received up to about a second before is kept"
CHUNK_GAP_S = 0.02
SAVES_TO_WATCH = 6
CHUNK = re.compile(r"\[(\d+)\]")


def _numbered_chunks(sent: list[int], count: int) -> list[object]:
    """`count` chunks "[i]", CHUNK_GAP_S apart; `sent` lists those the server sent."""
    steps: list[object] = []
    for i in range(count):

        def make(i: int = i) -> bytes:
            sent.append(i)
            return chat_chunk(content=f"[{i}]")

        steps += [SendNow(make), Sleep(CHUNK_GAP_S)]
    return steps


def _read_line(child: subprocess.Popen[str], timeout: float = CEILING_S) -> str:
    assert child.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(child.stdout, selectors.EVENT_READ)
        if not selector.select(timeout):
            raise AssertionError("the child went quiet")
    return child.stdout.readline()


def _saved_text(db_path: Path, message_id: str) -> str:
    conn = sqlite3.connect(db_path, timeout=30)
    try:
        row = conn.execute("SELECT parts FROM messages WHERE id = ?", (message_id,)).fetchone()
    finally:
        conn.close()
    parts = json.loads(row[0]) if row else []
    return "".join(p.get("text", "") for p in parts if p.get("type") == "text")


@pytest.mark.slow
def test_kill_9_mid_stream_loses_at_most_the_last_second(tmp_path: Path, sse_server) -> None:
    sent: list[int] = []
    sse_server.enqueue(
        sse_response(*_numbered_chunks(sent, 3000), chat_chunk(finish_reason="stop"), DONE)
    )
    write_settings(tmp_path, sse_server.base_url)
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.support.stream_child", str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    db_path = tmp_path / "parley.db"
    saves: list[tuple[float, float, int]] = []  # began, done (child's clock), characters
    try:
        line = _read_line(child, timeout=60)
        assert line.startswith("sent "), line
        answer_id = line.split()[1]
        while len(saves) < SAVES_TO_WATCH:
            word, began, done, chars = _read_line(child).split()
            assert word == "saved"
            saves.append((float(began), float(done), int(chars)))
        # Mid-stream, as a crash would: once the server has sent more than the last
        # reported save could hold, so there is text in flight to lose.
        reported = len(sent)
        wait_until(lambda: len(sent) > reported, "the stream stopped before the kill")
        os.kill(child.pid, signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(30)
        if child.stdout is not None:
            child.stdout.close()
    assert child.returncode == -signal.SIGKILL

    # While it streamed: from one save's start to the next one's commit, less than a
    # second each time (the save interval plus the commit, as the child measured them).
    exposed = [done - began for (began, _, _), (_, done, _) in itertools.pairwise(saves)]
    assert max(exposed) < LOSS_BOUND_S, [round(s, 3) for s in exposed]
    assert [chars for *_, chars in saves] == sorted(chars for *_, chars in saves)

    # After the kill: the saved text is the stream's beginning, intact, and holds at
    # least what the last reported save did.
    text = _saved_text(db_path, answer_id)
    numbers = [int(i) for i in CHUNK.findall(text)]
    assert text == "".join(f"[{i}]" for i in range(len(numbers)))
    assert len(text) >= saves[-1][2] > 0

    # The next start finds it cut off, and keeps exactly that text.
    with Database.open(db_path) as db:
        repo = ChatRepository(db)
        assert ChatService(repo, providers=None).recover() == [answer_id]  # type: ignore[arg-type]
        recovered = repo.get_message(answer_id)
        assert recovered.status is MessageStatus.INTERRUPTED and recovered.text == text
