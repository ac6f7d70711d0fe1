"""The first window waits only for what it needs: the database, settings, the sidebar
and the chat view. A Parley started in a child process lists the modules loaded when
its window is first shown; the heavy ones a person may never use must not be there,
and no module's source text was read to get there."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.support.paths import ROOT
from tests.support.waiting import CEILING_S

# Top-level packages the first window must not import, with what each costs or is for.
LATER = {
    "mcp": "the MCP SDK (about 2 s of imports), loaded when a server first starts",
    "mcp_types": "the MCP SDK's types",
    "httpx2": "the MCP SDK's HTTP client",
    "pypdf": "PDF text (0.5 s), loaded when a PDF is first read",
    "rapidocr": "the local OCR engine, run in a child process",
    "onnxruntime": "the OCR engine's runtime",
    "desktop_notifier": "desktop notifications, loaded for the first one",
    "keyring": "the keyring and its backends (10 MB), loaded when a key is first needed",
    "charset_normalizer": "the encoding guesser's tables, loaded for the first text file",
    "olefile": "legacy Office files, loaded for the first one",
    "click": "httpx's command-line client (with rich), which Parley never runs",
    "rich": "the same client's terminal output",
}


def test_the_first_window_is_shown_without_the_modules_it_does_not_need(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "tests.support.first_window_modules", str(tmp_path / "data")],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=CEILING_S,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    found = json.loads(result.stdout.splitlines()[-1])
    loaded = {name.split(".")[0] for name in found["modules"]}
    assert "desktop" in loaded and "PySide6" in loaded  # the list is the window's
    early = {name: why for name, why in LATER.items() if name in loaded}
    assert not early, early
    # PySide6's `__feature__` hook reads the source of every module imported after Qt
    # (`desktop/ui/pyside_sources.py`): 700 files, 24 MB kept, 0.3 s, unless turned off.
    files = [name for name in found["sources"] if not name.startswith("<")]  # not generated
    assert len(files) < 20, files
    # The collector, paused while Parley starts (`core/collector.py`), runs again once the
    # window is up, and passes over what start-up built.
    assert found["collector"]["enabled"]
    assert found["collector"]["frozen"] > 10_000, found["collector"]
