"""The real entry point, in a child process, as a person or a packaging check starts it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.storage.migrations import SCHEMA_VERSION
from tests.support.paths import ROOT, SCHEMAS
from tests.support.waiting import wait_until


def run_parley(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})}
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_smoke_test_starts_the_app_round_trips_the_database_and_exits_0(tmp_path):
    result = run_parley("--smoke-test", "--data-dir", str(tmp_path / "data"))
    assert result.returncode == 0, result.stderr
    assert "smoke test passed" in result.stdout
    assert (tmp_path / "data" / "parley.db").is_file()
    log = (tmp_path / "data" / "logs" / "parley.log").read_text(encoding="utf-8")
    assert "starting" in log and "Parley stopped" in log
    assert "still running at quit" not in log  # every part ended its own work
    assert "ping" not in log  # message text never reaches the log


def test_the_data_folder_can_come_from_the_environment(tmp_path):
    result = run_parley("--smoke-test", env={"PARLEY_DATA_DIR": str(tmp_path / "env-data")})
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "env-data" / "parley.db").is_file()


def test_an_unusable_data_folder_is_a_clear_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = run_parley("--smoke-test", "--data-dir", str(blocker / "data"))
    assert result.returncode == 2
    assert "cannot use the data folder" in result.stderr


def test_a_damaged_database_is_reported_and_left_unchanged(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    damaged = bytes(range(256)) * 40
    (data / "parley.db").write_bytes(damaged)
    result = run_parley("--smoke-test", "--data-dir", str(data))
    assert result.returncode == 1
    assert "could not start" in result.stderr and "parley.db" in result.stderr
    assert (data / "parley.db").read_bytes() == damaged


def test_a_database_upgraded_without_a_column_starts_and_takes_messages(tmp_path):
    """A version-5 file that an earlier release upgraded without
    `conversations.workspace_file` (tests/fixtures/schemas/README.md)."""
    data = tmp_path / "data"
    shutil.copytree(SCHEMAS / "v5-without-workspace-file", data)
    result = run_parley("--smoke-test", "--data-dir", str(data))
    assert result.returncode == 0, result.stderr
    assert "smoke test passed" in result.stdout
    # One copy before the upgrade, named for the version it upgrades to.
    assert (data / f"parley.db.pre-v{SCHEMA_VERSION}.bak").is_file()


@pytest.mark.slow
def test_starting_on_a_full_disk_says_the_disk_is_full_and_where(small_disk):
    data = small_disk.root / "data"
    assert run_parley("--smoke-test", "--data-dir", str(data)).returncode == 0  # a history
    small_disk.fill()

    result = run_parley("--smoke-test", "--data-dir", str(data))

    assert result.returncode == 1
    assert f"the disk holding {data} is full (0 bytes free)" in result.stderr
    assert "damaged" not in result.stderr
    # One line about the log that cannot be written, not a traceback per record.
    assert "Traceback" not in result.stderr and "Logging error" not in result.stderr
    small_disk.release()
    assert run_parley("--smoke-test", "--data-dir", str(data)).returncode == 0


def _log_of(data: Path) -> str:
    log = data / "logs" / "parley.log"
    return log.read_text(encoding="utf-8") if log.exists() else ""


def _start_parley(data: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--data-dir", str(data)],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_until_ready(process: subprocess.Popen[str], data: Path) -> None:
    def ready() -> bool:
        assert process.poll() is None, process.communicate()
        return "Parley ready" in _log_of(data)

    wait_until(ready, "Parley never came up")


@pytest.mark.parametrize(
    ("signum", "exit_status"),
    [(signal.SIGINT, 130), (signal.SIGTERM, 0)],
    ids=["SIGINT", "SIGTERM"],
)
def test_a_quit_signal_shuts_parley_down_in_order(tmp_path, signum, exit_status):
    """Ctrl+C in the terminal (SIGINT) or a kill/logout (SIGTERM): the same orderly way
    out as File → Quit, with no traceback and the database closed."""
    data = tmp_path / "data"
    process = _start_parley(data)
    try:
        _wait_until_ready(process, data)
        process.send_signal(signum)
        _out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == exit_status, err
    assert "Traceback" not in err
    log = _log_of(data)
    name = signal.Signals(signum).name
    assert f"{name} received: quitting" in log
    assert log.index(f"{name} received") < log.index("Parley stopped")
    # The database was closed: its last connection folded the write-ahead log back in.
    assert (data / "parley.db").is_file() and not (data / "parley.db-wal").exists()
    # What closing the window saves is on disk, though the process ends without the
    # interpreter's final collections (`core/collector.py`).
    assert "geometry=" in (data / "window.ini").read_text(encoding="utf-8")
    assert log.rstrip().endswith("Parley stopped")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for Qt's lock")
def test_a_second_ctrl_c_ends_a_shutdown_that_is_held_up(tmp_path):
    """The orderly way out can wait a long time on something outside Parley: here
    another program holds the lock of the window-state file that closing the window
    saves (Qt waits for that lock inside one call, where no Python code runs). A second
    Ctrl+C ends Parley then and there."""
    data = tmp_path / "data"
    process = _start_parley(data)
    lock = data / "window.ini.lock"
    try:
        _wait_until_ready(process, data)
        # Qt's lock file: held by this (live) process, so Qt waits for it to go.
        executable = Path(os.readlink(f"/proc/{os.getpid()}/exe")).name
        lock.write_text(f"{os.getpid()}\n{executable}\n{socket.gethostname()}\n")

        process.send_signal(signal.SIGINT)

        def quitting() -> bool:
            assert process.poll() is None, process.communicate()
            return "SIGINT received: quitting" in _log_of(data)

        wait_until(quitting, "the first Ctrl+C was not taken")
        process.send_signal(signal.SIGINT)
        # Kept fresh, the lock never turns stale: only the second Ctrl+C can end it.

        def ended() -> bool:
            os.utime(lock)
            return process.poll() is not None

        wait_until(ended, "the second Ctrl+C did not end Parley")
        _out, err = process.communicate(timeout=60)
    finally:
        lock.unlink(missing_ok=True)
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == -signal.SIGINT, err  # a shell shows status 130
    assert "Parley stopped" not in _log_of(data)  # it did not wait for the lock
