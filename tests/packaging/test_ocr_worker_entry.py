"""A bundled Parley has no `python -m`: its OCR engine runs the executable itself with
`--ocr-worker`, which `desktop.launch.main` hands to the worker before loading Qt."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from desktop.engine.ocr.local_engine import OCR_WORKER_FLAG, worker_command
from tests.support.ocr_images import text_image
from tests.support.paths import ROOT


def test_a_bundled_parley_starts_the_worker_as_itself(monkeypatch):
    assert worker_command() == [sys.executable, "-m", "desktop.engine.ocr.worker"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert worker_command() == [sys.executable, OCR_WORKER_FLAG]


@pytest.mark.slow
def test_the_worker_flag_reads_an_image_and_prints_only_the_answer(tmp_path):
    image = tmp_path / "scan.png"
    image.write_bytes(text_image("Invoice number 4711"))
    env = {**os.environ}
    env.pop("QT_QPA_PLATFORM", None)  # the worker must not need a display: it starts no Qt
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), OCR_WORKER_FLAG, str(image)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    (boxes,) = json.loads(result.stdout)["images"]
    assert " ".join(box["text"] for box in boxes) == "Invoice number 4711"
