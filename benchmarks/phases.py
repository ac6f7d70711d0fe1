"""Running one phase of a benchmark in a process of its own, so the peak memory it
reports (`ru_maxrss`) is that phase's alone and not the largest of all before it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run_phase(script: str, phase: str, folder: Path) -> dict[str, float]:
    """`python script --phase phase --folder folder`; the JSON object it prints last."""
    out = subprocess.run(
        [sys.executable, script, "--phase", phase, "--folder", str(folder)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result
