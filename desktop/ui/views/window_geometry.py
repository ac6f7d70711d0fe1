"""Keeping windows on screen, and remembering where the person put them.

The main window's first rectangle fits the screen it opens on (a 1366×768 laptop, or
a 1280×720 screen at 2× scaling, which is 640×360 logical pixels); a size saved on a
bigger screen is shrunk to the one it comes back on.

The floating chat window places itself (it has no window-manager frame to lean on), so
it must never end up where nobody can reach it: after a monitor is unplugged, a smaller
screen, a saved position from another desk. Pure rectangle arithmetic lives here so it
is tested without windows; `SavedGeometry` reads and writes the same `window.ini` the
main window uses, under its own key.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QSettings, QSize

DEFAULT_SIZE = QSize(420, 560)
MIN_SIZE = QSize(320, 360)
CORNER_MARGIN = 24  # px between the default position and the screen's corner
MAIN_SIZE = QSize(1100, 720)  # the main window's first size, where the screen has room
MAIN_MIN_SIZE = QSize(640, 420)
# Of the screen's free area a first main window may take: the rest is left for the
# window frame and title bar (outside the rectangle Qt sizes), and to see it is a window.
MAIN_SHARE = 0.9


def clamp(rect: QRect, area: QRect) -> QRect:
    """`rect` moved (and, when larger than `area`, shrunk) to lie wholly inside `area`."""
    width = min(rect.width(), area.width())
    height = min(rect.height(), area.height())
    x = min(max(rect.x(), area.left()), area.left() + area.width() - width)
    y = min(max(rect.y(), area.top()), area.top() + area.height() - height)
    return QRect(x, y, width, height)


def area_for(rect: QRect, areas: Sequence[QRect], fallback: QRect) -> QRect:
    """The screen area showing most of `rect`, else the one nearest to its centre, so
    a window half on the left monitor stays on the left monitor."""
    if not areas:
        return fallback
    best = max(areas, key=lambda area: _overlap(rect, area))
    if _overlap(rect, best) > 0:
        return best
    centre = rect.center()
    return min(areas, key=lambda area: _distance(centre, area))


def default_rect(area: QRect, size: QSize = DEFAULT_SIZE) -> QRect:
    """Bottom-right corner of `area`, out of the way of what the person works on."""
    rect = QRect(QPoint(0, 0), size)
    rect.moveBottomRight(area.bottomRight() - QPoint(CORNER_MARGIN, CORNER_MARGIN))
    return clamp(rect, area)


def first_main_rect(area: QRect, preferred: QSize = MAIN_SIZE) -> QRect:
    """The main window's first rectangle: `preferred`, or as much of `area` as
    `MAIN_SHARE` allows when that is smaller, centred in `area`."""
    size = preferred.boundedTo(
        QSize(int(area.width() * MAIN_SHARE), int(area.height() * MAIN_SHARE))
    )
    rect = QRect(QPoint(0, 0), size)
    rect.moveCenter(area.center())
    return clamp(rect, area)


def minimum_within(minimum: QSize, area: QRect) -> QSize:
    """A minimum size that never asks for more than a first window takes of the screen
    (`first_main_rect`): else the window could not be made to fit, whatever else is done."""
    return minimum.boundedTo(QSize(int(area.width() * MAIN_SHARE), int(area.height() * MAIN_SHARE)))


def _overlap(a: QRect, b: QRect) -> int:
    shared = a.intersected(b)
    return shared.width() * shared.height() if shared.isValid() else 0


def _distance(point: QPoint, area: QRect) -> int:
    dx = max(area.left() - point.x(), 0, point.x() - area.right())
    dy = max(area.top() - point.y(), 0, point.y() - area.bottom())
    return dx * dx + dy * dy


class SavedGeometry:
    """One window's rectangle in `window.ini`, beside the main window's own keys."""

    def __init__(self, file: Path, key: str) -> None:
        self._settings = QSettings(str(file), QSettings.Format.IniFormat)
        self._key = key

    def load(self) -> QRect | None:
        value = self._settings.value(self._key)
        if isinstance(value, QRect) and value.isValid():
            return value
        return None

    def save(self, rect: QRect) -> None:
        self._settings.setValue(self._key, rect)
        self._settings.sync()

    def forget(self) -> None:
        self._settings.remove(self._key)
        self._settings.sync()
