"""A private X server for tests that need a real display (xcb, key grabs).

Xvfb picks a free display number itself and writes it to a pipe once it accepts
connections (`-displayfd`). Choosing the number in the test instead raced twice over:
with another worker or a stale socket of an earlier server, and with a server that had
made its socket but did not accept connections yet ("could not connect to display").
"""

from __future__ import annotations

import contextlib
import os
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
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-screen", "0", size],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    try:
        with os.fdopen(read_end) as pipe:  # EOF without a number: Xvfb exited at start
            number = pipe.readline().strip()
        assert number, f"Xvfb did not start (exit status {server.poll()})"
        yield f":{number}"
    finally:
        server.terminate()
        try:
            server.wait(CEILING_S)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
