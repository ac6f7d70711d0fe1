"""A provider's mark when Parley has none of its own: a round badge with its initials in
a colour of its own.

The colour is one of a small palette of deep tones, picked by a checksum of the
provider's id (a preset's id, or the id a configured provider was saved under) rather
than by Python's `hash()`, so it is the same in every run and on every machine, and the
same service looks the same in the preset picker and in the list of providers. The
checksum is salted so the presets Parley ships each get a colour of their own. Every
tone carries white letters at a WCAG contrast of at least 4.5:1 and stands apart from
both themes' window colours.
"""

from __future__ import annotations

import re
import zlib
from functools import lru_cache
from typing import Final

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap

# Pixel sizes drawn into each icon: a list row, a button, and their 2× versions.
SIZES: Final = (16, 20, 24, 32, 40, 48, 64)
MIN_CONTRAST: Final = 4.5  # white text on the badge
PALETTE: Final = (
    "#c62828",  # red
    "#ad1457",  # pink
    "#6a1b9a",  # purple
    "#4527a0",  # deep purple
    "#283593",  # indigo
    "#1565c0",  # blue
    "#00838f",  # cyan
    "#00695c",  # teal
    "#2e7d32",  # green
    "#4e7a1f",  # olive green
    "#b4490d",  # burnt orange
    "#6d4c41",  # brown
    "#455a64",  # blue grey
)
SALT: Final = "11:"  # the presets' ids fall on nine different tones with it
MAX_LETTERS: Final = 2
ACRONYM: Final = 3  # an all-capitals word this short is kept as it is ("LM")
_LINEAR_BELOW: Final = 0.03928  # sRGB: the linear part of the curve

_HUMP = re.compile(r"[A-Z][a-z]")  # where a camel-cased name starts a word ("DeepSeek")


def initials(name: str) -> str:
    """One or two letters for `name`: the first letters of its first two words ("My
    Server" -> "MS"), a short all-capitals word as it is ("LM Studio" -> "LM"), the
    humps of one camel-cased word ("DeepSeek" -> "DS"), else its first letter."""
    words = [w for w in re.split(r"[\s\-_/.,()]+", name.strip()) if w]
    if not words:
        return "?"
    first = words[0]
    if MAX_LETTERS <= len(first) <= ACRONYM and first.isupper() and first.isalpha():
        return first[:MAX_LETTERS]
    if len(words) >= MAX_LETTERS:
        return (first[0] + words[1][0]).upper()
    humps = [m.start() for m in _HUMP.finditer(first) if m.start() > 0]
    if humps:
        return (first[0] + first[humps[0]]).upper()
    return first[0].upper()


def _luminance(colour: QColor) -> float:
    """Relative luminance (WCAG 2)."""

    def channel(value: float) -> float:
        return value / 12.92 if value <= _LINEAR_BELOW else ((value + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.redF())
        + 0.7152 * channel(colour.greenF())
        + 0.0722 * channel(colour.blueF())
    )


def contrast_with_white(colour: QColor) -> float:
    return 1.05 / (_luminance(colour) + 0.05)


def monogram_colour(key: str) -> QColor:
    """The badge colour for `key` (a provider or preset id)."""
    return QColor(PALETTE[zlib.crc32((SALT + key).encode("utf-8")) % len(PALETTE)])


def monogram_pixmap(text: str, colour: QColor, size: int) -> QPixmap:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    painter.drawEllipse(QRectF(0, 0, size, size))
    font = QFont()
    font.setBold(True)
    # Two letters take a smaller size than one, so both fit inside the circle.
    font.setPixelSize(max(6, round(size * (0.40 if len(text) > 1 else 0.50))))
    painter.setFont(font)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(QRectF(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, text)
    painter.end()
    return pixmap


@lru_cache(maxsize=128)
def monogram_icon(name: str, key: str) -> QIcon:
    """The badge as an icon: drawn at each of `SIZES`, so it is sharp at 2× as well
    (kept: a list redrawn after each save asks for the same ones again)."""
    text, colour = initials(name), monogram_colour(key)
    icon = QIcon()
    for size in SIZES:
        pixmap = monogram_pixmap(text, colour, size)
        # The same in a selected row: Qt would otherwise tint it with the selection.
        for mode in (QIcon.Mode.Normal, QIcon.Mode.Selected, QIcon.Mode.Active):
            icon.addPixmap(pixmap, mode)
    return icon
