"""A private X server for tests that need a real display (xcb, key grabs).

Xvfb writes its display number to a pipe once it accepts connections (`-displayfd`):
waiting for the socket file instead raced with a server that had made its socket but
did not accept connections yet ("could not connect to display"). The number is a random
one far from the usual :0: left to Xvfb, every server took the lowest free one, so a
server starting on :0 while another worker's was still shutting down there lost its
socket to the old one's clean-up ("could not connect to display :0"). A number in use
makes Xvfb exit at once, and another is tried.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.support.waiting import CEILING_S


@contextlib.contextmanager
def private_display(*tools: str, size: str = "1024x768x24") -> Iterator[str]:
    """Start Xvfb and yield its DISPLAY (":N"). Where Xvfb or one of `tools` is
    missing the test skips, unless PARLEY_REQUIRE_XVFB is set (CI installs them)."""
    missing = [tool for tool in ("Xvfb", *tools) if shutil.which(tool) is None]
    if missing or sys.platform != "linux":
        packages = " ".join(dict.fromkeys(t.lower() for t in ("Xvfb", *tools)))
        reason = f"needs {' and '.join(missing) or 'Linux'} (apt-get install {packages})"
        if os.environ.get("PARLEY_REQUIRE_XVFB"):
            pytest.fail(reason)
        pytest.skip(reason)
    server, number = _start(size)
    for _ in range(_ATTEMPTS - 1):
        if number:
            break
        server.wait(CEILING_S)
        server, number = _start(size)
    try:
        assert number, f"Xvfb did not start (exit status {server.poll()})"
        yield f":{number}"
    finally:
        server.terminate()
        try:
            server.wait(CEILING_S)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


_ATTEMPTS = 8


def _command(display: int, ready_fd: int, size: str) -> list[str]:
    return [
        "Xvfb",
        f":{display}",
        "-displayfd",
        str(ready_fd),
        "-nolisten",
        "tcp",
        "-screen",
        "0",
        size,
    ]


def _start(size: str) -> tuple[subprocess.Popen[bytes], str]:
    """Xvfb on a random display, and its number once it is ready ("" if it exited)."""
    display = random.randrange(200, 30000)
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        _command(display, write_end, size),
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    with os.fdopen(read_end) as pipe:  # EOF without a number: Xvfb exited at start
        return server, pipe.readline().strip()
