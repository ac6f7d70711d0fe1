"""How Parley starts one of its own modules as a child process, from a source checkout,
an installed package or a bundle alike."""

from __future__ import annotations

import os
import sys
from typing import Any

import desktop

# What `desktop.launch.main` takes as "be this worker": a bundled (frozen) Parley's
# executable cannot run `python -m`, so it runs itself with one of these.
OCR_WORKER_FLAG = "--ocr-worker"
MATHS_WORKER_FLAG = "--maths-worker"

# Where `desktop` is imported from, so the child finds the same Parley however it started.
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(desktop.__file__)))


def child_command(module: str, flag: str) -> list[str]:
    """`python -m module`; a bundled (frozen) Parley has no `-m`, so it runs its own
    executable with `flag`, which `desktop.launch.main` hands to the module's `main`."""
    if getattr(sys, "frozen", False):
        return [sys.executable, flag]
    return [sys.executable, "-m", module]


def child_environment() -> dict[str, str]:
    """This process's environment, with Parley's own package importable."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_ROOT, env.get("PYTHONPATH")) if p)
    return env


def own_session() -> dict[str, Any]:
    """Popen options that keep the child out of the terminal's process group: Ctrl+C in
    the terminal reaches Parley, which ends its children itself."""
    if sys.platform == "win32":
        return {"creationflags": 0x00000200}  # CREATE_NEW_PROCESS_GROUP
    return {"start_new_session": True}
