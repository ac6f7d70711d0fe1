"""What tests ask of a child process Parley started."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """True while a process with this id exists (a reaped child no longer does)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
