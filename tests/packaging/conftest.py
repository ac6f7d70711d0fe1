"""The bundle, built once per test session (the tests that use it are in one file, and
a worker process runs whole files), and the figures the packaging tests measured
(bundle size, build times), shown after the run: the size target is read from the
figure, and a timing is never a pass/fail condition.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.figures import note_figure
from tests.support.paths import ROOT

SPEC = ROOT / "packaging" / "parley.spec"


def size_mb(folder: Path) -> float:
    """What the folder's files weigh, links counted once (as on disk after install)."""
    files = (p for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
    return sum(p.stat().st_size for p in files) / 1e6


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """dist/parley, built once for the whole session (PyInstaller, one folder) and shared
    by the bundle and .deb tests: a build costs about a minute on two cores. Its work
    folder is a fresh temporary one, so no earlier build's cache leaks in."""
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        pytest.fail('PyInstaller is missing: pip install -e ".[test]" (it is in the test extra)')
    folder = tmp_path_factory.mktemp("pyinstaller")
    started = time.monotonic()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(folder / "dist"),
            "--workpath",
            str(folder / "build"),
            str(SPEC),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    shutil.rmtree(folder / "build", ignore_errors=True)  # ≈ 100 MB nobody reads
    built = folder / "dist" / "parley"
    note_figure(f"PyInstaller bundle built in {time.monotonic() - started:.1f} s")
    note_figure(f"bundle size: {size_mb(built):.1f} MB (target ≤ 150 MB)")
    return built
