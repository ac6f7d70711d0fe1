"""Parley's side of the typesetting child (`tex_worker`): started on the first formula,
asked one formula at a time, started again after a crash, ended when idle or closed.

`TexProcess.typeset` blocks (the typesetter's worker thread calls it, never the GUI
thread), waiting on a pipe, which holds no interpreter lock. A formula that takes longer
than `TIMEOUT_S` ends the child (the next formula starts a new one); a child that ends
`MAX_FAILURES` times in a row without answering is not started again, so a broken
installation costs one message per formula, not a process per formula.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import threading
from typing import IO

from desktop.core.child_command import (
    MATHS_WORKER_FLAG,
    child_command,
    child_environment,
    own_session,
)

TIMEOUT_S = 20.0  # one formula; the guard's limits keep real ones far below
MAX_FAILURES = 3

# Problems of the process itself, beside the typesetter's (see `tex_worker`).
TIMED_OUT = "timed-out"
STOPPED = "stopped"  # the child ended while typesetting (crashed, killed, closed)
UNAVAILABLE = "unavailable"  # the child cannot be started, or failed too often


class TexProcess:
    """One typesetting child, asked by one thread at a time; `stop` and `close` may
    come from any thread (the one asking then gets `STOPPED`)."""

    def __init__(self, *, timeout_s: float = TIMEOUT_S) -> None:
        self.timeout_s = timeout_s
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._closed = False
        self._failures = 0
        self.starts = 0  # children started, for tests

    @property
    def pid(self) -> int | None:
        """The running child's process id, if one runs."""
        process = self._process
        return None if process is None or process.poll() is not None else process.pid

    def typeset(self, tex: str, display: bool, colour: str, size: float) -> dict[str, str]:
        """The child's answer for one formula (see `tex_worker.typeset_svg`), or a
        problem of the process: `TIMED_OUT`, `STOPPED`, `UNAVAILABLE`."""
        process = self._running()
        if process is None:
            return {"problem": UNAVAILABLE}
        request = {"tex": tex, "display": display, "colour": colour, "size": size}
        timed_out = threading.Event()

        def give_up() -> None:
            timed_out.set()
            _kill(process)

        timer = threading.Timer(self.timeout_s, give_up)
        timer.daemon = True
        timer.start()
        try:
            stdin, stdout = _pipes(process)
            stdin.write(json.dumps(request).encode("ascii") + b"\n")
            stdin.flush()
            line = stdout.readline()
        except (OSError, ValueError):  # the child is gone: a broken or closed pipe
            line = b""
        finally:
            timer.cancel()
        try:
            answer = json.loads(line) if line else None
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            self._ended(process)
            return {"problem": TIMED_OUT if timed_out.is_set() else STOPPED}
        self._failures = 0
        return {str(key): str(value) for key, value in answer.items()}

    def stop(self) -> None:
        """End the child (it holds about 40 MB); the next formula starts another."""
        with self._lock:
            process, self._process = self._process, None
        if process is not None:
            _end(process)

    def close(self) -> None:
        """End the child for good: nothing is typeset any more."""
        with self._lock:
            self._closed = True
        self.stop()

    def _running(self) -> subprocess.Popen[bytes] | None:
        with self._lock:
            if self._process is not None and self._process.poll() is not None:
                _end(self._process)  # died between formulas (killed, out of memory)
                self._process = None
                self._failures += 1
            if self._closed or self._failures >= MAX_FAILURES:
                return None
            if self._process is not None:
                return self._process
            try:
                self._process = subprocess.Popen(
                    child_command("desktop.render.tex_worker", MATHS_WORKER_FLAG),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    env=child_environment(),
                    **own_session(),
                )
            except OSError:
                self._failures = MAX_FAILURES
                self._process = None
                return None
            self.starts += 1
            return self._process

    def _ended(self, process: subprocess.Popen[bytes]) -> None:
        """`process` stopped answering: it goes, and counts as a failure unless it was
        stopped on purpose."""
        with self._lock:
            if self._process is process:
                self._process = None
                self._failures += 1
        _end(process)


def _pipes(process: subprocess.Popen[bytes]) -> tuple[IO[bytes], IO[bytes]]:
    if process.stdin is None or process.stdout is None:
        raise ValueError("the child has no pipes")
    return process.stdin, process.stdout


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):
        process.kill()


def _end(process: subprocess.Popen[bytes]) -> None:
    """Kill the child and reap it (it has nothing to save), closing its pipes."""
    _kill(process)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()
