"""The main window fits the screen it opens on: the first time (no saved size), with a
size saved on a bigger screen, and at 2× scaling."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QRect

from desktop.ui.views.window_geometry import (
    MAIN_MIN_SIZE,
    MAIN_SIZE,
    first_main_rect,
    minimum_within,
)

ROOT = Path(__file__).resolve().parents[3]
LOGGED = re.compile(
    r"main window (\d+)x(\d+) at (-?\d+),(-?\d+); "
    r"screen area (\d+)x(\d+) at (-?\d+),(-?\d+), scale ([\d.]+)"
)


def test_the_first_rect_is_the_default_size_centred_where_there_is_room():
    area = QRect(0, 0, 1920, 1040)
    rect = first_main_rect(area)
    assert rect.size() == MAIN_SIZE
    assert rect.center() == area.center()


def test_the_first_rect_fits_a_small_or_scaled_screen():
    for area in (QRect(0, 0, 1366, 738), QRect(0, 0, 640, 360), QRect(1920, 0, 800, 600)):
        rect = first_main_rect(area)
        assert area.contains(rect), (area, rect)
        assert rect.size().expandedTo(minimum_within(MAIN_MIN_SIZE, area)) == rect.size()
        assert rect.width() < area.width() and rect.height() < area.height()  # a margin
    small = QRect(0, 0, 640, 360)
    assert minimum_within(MAIN_MIN_SIZE, small) == first_main_rect(small).size()
    assert minimum_within(MAIN_MIN_SIZE, QRect(0, 0, 1920, 1080)) == MAIN_MIN_SIZE


def test_the_window_opens_inside_the_screen_and_a_too_big_saved_size_shrinks(driver, tmp_path):
    parley = driver.start(tmp_path)
    window = parley.window
    area = window.screen().availableGeometry()
    assert area.contains(window.geometry())
    assert window.minimumWidth() <= area.width() and window.minimumHeight() <= area.height()
    window.resize(area.width() * 3, area.height() * 3)  # saved as it was left
    driver.close(parley)

    again = driver.start(tmp_path).window
    assert area.contains(again.geometry()), (area, again.geometry())


def started(data: Path, scale: str) -> tuple[QRect, QRect, float]:
    """Start Parley as the desktop does, at `scale`; the window and screen area it logged."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--smoke-test", "--data-dir", str(data)],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_SCALE_FACTOR": scale},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    log = (data / "logs" / "parley.log").read_text(encoding="utf-8")
    found = LOGGED.findall(log)
    assert found, log[-2000:]
    w, h, x, y, aw, ah, ax, ay, factor = found[-1]
    window = QRect(int(x), int(y), int(w), int(h))
    return window, QRect(int(ax), int(ay), int(aw), int(ah)), float(factor)


def test_at_twice_the_scale_the_window_fits_the_smaller_logical_screen(tmp_path):
    window, area, _ = started(tmp_path, "1")
    assert area.contains(window)
    # The same data folder on a screen with half the logical pixels: the saved size
    # shrinks to fit it.
    window, scaled, factor = started(tmp_path, "2")
    assert factor == 2.0
    assert scaled.width() < area.width()
    assert scaled.contains(window), (scaled, window)
    # And a first start at 2×.
    window, scaled, _ = started(tmp_path / "fresh", "2")
    assert scaled.contains(window), (scaled, window)
