"""The code stays as ruff is configured in pyproject.toml (lint and format)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT


def _ruff() -> list[str]:
    beside_python = Path(sys.executable).with_name("ruff")
    if beside_python.exists():
        return [str(beside_python)]
    found = shutil.which("ruff")
    if found is None:
        pytest.fail("ruff is not installed (it is part of the test extra)")
    return [found]


@pytest.mark.parametrize("command", [["check", "."], ["format", "--check", "."]])
def test_ruff_is_clean(command):
    result = subprocess.run(
        [*_ruff(), *command], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
