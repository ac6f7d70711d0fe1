"""The real local OCR engine (RapidOCR in a child process): it reads drawn text, leaves
no process behind however the call ends, and says clearly when it cannot work."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from desktop.engine.ocr.local_engine import LocalOcrEngine, OcrError, TextBox, reading_order
from tests.support.ocr_images import text_image

WORKER = b"desktop.engine.ocr.worker"
needs_proc = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")


def worker_processes() -> list[int]:
    """Pids of OCR workers this test process started that still exist (zombies too)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and WORKER in cmdline:
            found.append(int(entry.name))
    return found


def test_the_engine_is_installed_for_the_tests():
    # The test extra pulls in parley[ocr]: without it the tests below prove nothing.
    assert LocalOcrEngine().available


@pytest.mark.slow
@needs_proc
def test_reads_the_words_drawn_on_an_image_and_ends_its_process():
    invoice = text_image("Invoice number 4711", "Total due: 12 apples")
    blank = text_image()
    texts = asyncio.run(LocalOcrEngine().transcribe([invoice, blank]))
    assert texts == ["Invoice number 4711\nTotal due: 12 apples", ""]
    assert worker_processes() == []


@needs_proc
def test_cancelling_kills_the_engine():
    async def main() -> tuple[int, asyncio.Task[list[str]]]:
        task = asyncio.create_task(LocalOcrEngine().transcribe([text_image("Stop me")]))
        deadline = time.monotonic() + 10
        while not worker_processes():
            assert time.monotonic() < deadline, "the engine never started"
            await asyncio.sleep(0.02)
        (pid,) = worker_processes()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return pid, task

    pid, task = asyncio.run(main())
    assert task.cancelled()
    assert not Path(f"/proc/{pid}").exists()
    assert worker_processes() == []


@needs_proc
def test_a_timeout_stops_the_engine_with_a_clear_error():
    engine = LocalOcrEngine(timeout_s=0.3)  # loading the models alone takes longer
    with pytest.raises(OcrError, match=r"did not finish within 0\.3 s and was stopped"):
        asyncio.run(engine.transcribe([text_image("Too slow")]))
    assert worker_processes() == []


def test_a_crash_in_the_engine_becomes_a_clear_error():
    with pytest.raises(OcrError, match=r"^The local OCR engine failed: .*image"):
        asyncio.run(LocalOcrEngine().transcribe([b"this is not an image"]))


def test_missing_modules_mean_not_installed():
    engine = LocalOcrEngine(modules=("rapidocr", "parley_no_such_module"))
    assert not engine.available
    with pytest.raises(OcrError, match=r"not installed \(pip install 'parley\[ocr\]'\)"):
        asyncio.run(engine.transcribe([text_image("Hello")]))


def test_no_images_starts_nothing():
    assert asyncio.run(LocalOcrEngine(modules=("parley_no_such_module",)).transcribe([])) == []


def box(text: str, left: float, top: float, right: float, bottom: float) -> TextBox:
    return TextBox(text, ((left, top), (right, top), (right, bottom), (left, bottom)))


def test_reading_order_puts_pieces_of_a_line_together_left_to_right():
    pieces = [
        box("paid", 420, 92, 480, 132),
        box("Total due", 20, 90, 300, 134),
        box("Invoice", 20, 20, 320, 60),
        box("  ", 500, 20, 520, 60),
    ]
    assert reading_order(pieces) == "Invoice\nTotal due paid"
    assert reading_order([]) == ""
