"""The code type-checks as mypy is configured in pyproject.toml: the whole package with
the project's settings, and the Qt-free layers as strictly as `mypy --strict`."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# A cold check of the package takes about 20 s on an idle machine; this only stops a
# hung run, never a slow one.
HUNG_AFTER_S = 1800


def test_mypy_is_clean():
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed (it is part of the test extra)")
    # Its cache is the default .mypy_cache in the checkout, so a second run is quick.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "pyproject.toml", "desktop"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=HUNG_AFTER_S,
    )
    assert result.returncode == 0, result.stdout + result.stderr
