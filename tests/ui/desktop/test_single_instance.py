"""One Parley per data folder: real processes started as a person starts them."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtNetwork import QLocalSocket

from desktop.ui.desktop.single_instance import (
    MAX_FILES,
    MAX_MESSAGE_BYTES,
    Handover,
    claim,
    encode_message,
    parse_message,
    server_name,
)
from tests.support.paths import ROOT
from tests.support.waiting import CEILING_S

START_TIMEOUT_S = 90.0  # a cold start on a busy two-core machine


@pytest.fixture
def runtime_dir(monkeypatch) -> Iterator[Path]:
    """A private socket folder, short enough for a Unix socket path, shared with the
    children so this process computes the same server names they use."""
    folder = Path(tempfile.mkdtemp(prefix="prl"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Launcher:
    """Starts `main.py` children and makes sure none outlives the test."""

    def __init__(self, out_dir: Path) -> None:
        self._out_dir = out_dir
        self.children: list[subprocess.Popen[bytes]] = []

    def start(self, data_dir: Path, *args: str) -> subprocess.Popen[bytes]:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        env.pop("PARLEY_DATA_DIR", None)
        out = self._out_dir / f"child-{len(self.children)}.out"
        with out.open("wb") as sink:
            child = subprocess.Popen(
                [sys.executable, str(ROOT / "main.py"), "--data-dir", str(data_dir), *args],
                cwd=ROOT,
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        self.children.append(child)
        return child

    def output(self, child: subprocess.Popen[bytes]) -> str:
        index = self.children.index(child)
        return (self._out_dir / f"child-{index}.out").read_text(errors="replace")

    def stop_all(self) -> None:
        for child in self.children:
            if child.poll() is None:
                child.kill()
            child.wait(timeout=CEILING_S)


@pytest.fixture
def launcher(tmp_path, runtime_dir) -> Iterator[Launcher]:
    children = Launcher(tmp_path)
    try:
        yield children
    finally:
        children.stop_all()


def _answers(data_dir: Path) -> bool:
    """Something accepts connections on the folder's name (then we hang up, unsent)."""
    socket = QLocalSocket()
    socket.connectToServer(server_name(data_dir))
    connected = socket.waitForConnected(200)
    socket.abort()
    return connected


def _wait_for(condition: Callable[[], bool], what: str, timeout: float = START_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.1)


def _log(data_dir: Path) -> str:
    path = data_dir / "logs" / "parley.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _blob(data_dir: Path, content: bytes, suffix: str) -> Path:
    """Where the attachment store keeps a copy of `content` (content-addressed)."""
    digest = hashlib.sha256(content).hexdigest()
    return data_dir / "attachments" / digest[:2] / f"{digest}{suffix}"


@pytest.mark.slow
def test_a_second_launch_hands_its_files_over_and_a_crash_leaves_nothing_in_the_way(
    qapp, tmp_path, launcher
):
    data = tmp_path / "data"
    first = launcher.start(data)
    _wait_for(lambda: _answers(data), "the first Parley listens")

    notes = tmp_path / "notes.txt"
    content = b"handed over from a second launch\n"
    notes.write_bytes(content)
    missing = tmp_path / "missing.txt"
    second = launcher.start(data, str(notes), str(missing), str(tmp_path))
    assert second.wait(timeout=START_TIMEOUT_S) == 0, launcher.output(second)

    # The running Parley put the file on its composer: the store now holds its copy.
    _wait_for(lambda: _blob(data, content, ".txt").is_file(), "the file is attached")
    # Only the existing regular file came through, not the missing one nor the folder.
    assert "hand-over received: 1 file(s), activate=True" in _log(data)
    assert first.poll() is None

    first.kill()  # a crash: on Unix its socket file stays behind
    first.wait(timeout=CEILING_S)
    if sys.platform != "win32":
        assert Path(server_name(data)).exists()
    assert not _answers(data)
    third = launcher.start(data, "--smoke-test")
    assert third.wait(timeout=START_TIMEOUT_S) == 0, launcher.output(third)
    assert "smoke test passed" in launcher.output(third)
    if sys.platform != "win32":
        assert not Path(server_name(data)).exists()  # an orderly exit removes it


@pytest.mark.slow
def test_simultaneous_launches_leave_one_parley_per_data_folder(qapp, tmp_path, launcher):
    shared, other = tmp_path / "shared", tmp_path / "other"
    twins = [launcher.start(shared), launcher.start(shared)]
    beside = launcher.start(other)

    _wait_for(lambda: any(t.poll() is not None for t in twins), "one of the twins exits")
    exited = next(t for t in twins if t.poll() is not None)
    assert exited.returncode == 0, launcher.output(exited)
    _wait_for(lambda: _answers(shared), "the remaining twin listens")
    _wait_for(lambda: "hand-over received: 0 file(s)" in _log(shared), "the hand-over arrives")
    _wait_for(lambda: _answers(other), "the Parley on another folder listens")
    time.sleep(1.0)  # neither of the long-running ones gives up on its own
    assert [t.poll() for t in twins].count(None) == 1
    assert beside.poll() is None
    assert server_name(shared) != server_name(other)


@pytest.mark.skipif(sys.platform == "win32", reason="a Unix socket path in the way")
def test_a_name_that_cannot_be_listened_on_leaves_start_up_going_without_listening(
    qapp, tmp_path, runtime_dir
):
    """A folder where the socket belongs: listening fails (not "address in use"), and
    Parley starts without single-instance rather than not at all."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    Path(server_name(data_dir)).mkdir()
    server = claim(data_dir)
    assert server is not None
    assert not server.listening


def test_a_message_round_trips_and_only_existing_regular_files_come_through(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("x", encoding="utf-8")
    sent = Handover((notes, tmp_path / "gone.txt", tmp_path), activate=False)
    line = encode_message(sent)
    assert line.endswith(b"\n") and b"\n" not in line[:-1]
    assert parse_message(line[:-1]) == Handover((notes,), activate=False)
    many = Handover(tuple(notes for _ in range(MAX_FILES + 5)))
    assert len(parse_message(encode_message(many)[:-1]).files) == MAX_FILES


@pytest.mark.parametrize(
    "line",
    [
        b"not json",
        b"\xff\xfe",
        b"[]",
        json.dumps({"files": "/etc/passwd"}).encode(),
        json.dumps({"files": [1]}).encode(),
        json.dumps({"files": [], "activate": "yes"}).encode(),
        json.dumps({"files": [], "run": "rm -rf"}).encode(),
        json.dumps({"files": ["/x"] * (MAX_FILES + 1)}).encode(),
        b'{"files": ["' + b"a" * MAX_MESSAGE_BYTES + b'"]}',
    ],
)
def test_anything_but_a_hand_over_message_is_rejected(line):
    with pytest.raises(ValueError):
        parse_message(line)


def test_relative_paths_are_not_taken(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "here.txt").write_text("x", encoding="utf-8")
    assert parse_message(json.dumps({"files": ["here.txt"]}).encode()).files == ()
