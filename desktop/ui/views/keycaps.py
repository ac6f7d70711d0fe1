"""Keys drawn as key caps: one small rounded box per key of a shortcut ("Ctrl", "Shift",
"E"), in the platform's own names (⌘ ⇧ on macOS), in the palette's colours.

A row may offer several shortcuts for one thing (Ctrl+= or Ctrl++): they stand side by
side with a muted "or" between them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QKeyCombination, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QKeySequence, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

_NATIVE = QKeySequence.SequenceFormat.NativeText
_MODIFIERS = (  # Qt's order of modifiers in a shortcut's text
    Qt.KeyboardModifier.MetaModifier,
    Qt.KeyboardModifier.ControlModifier,
    Qt.KeyboardModifier.AltModifier,
    Qt.KeyboardModifier.ShiftModifier,
)
# Keys whose names read better as the symbol printed on the key.
_SYMBOLS = {
    Qt.Key.Key_Left: "←",
    Qt.Key.Key_Right: "→",
    Qt.Key.Key_Up: "↑",
    Qt.Key.Key_Down: "↓",
}
ARROWS = "←↑→↓"  # one cap for "any arrow key"

PAD_X = 6
PAD_Y = 2
GAP = 4  # between caps of one shortcut
ALT_GAP = 8  # around the "or" between shortcuts
RADIUS = 4.0

Chord = QKeySequence | tuple[str, ...]  # a shortcut, or cap texts given as they are


def modifier_name(modifier: Qt.KeyboardModifier) -> str:
    """A modifier's name as this platform writes it ("Ctrl", or "⌘" on macOS)."""
    text = QKeySequence(QKeyCombination(modifier, Qt.Key.Key_A)).toString(_NATIVE)
    return text.removesuffix("A").removesuffix("+")


def key_name(key: Qt.Key) -> str:
    if key in _SYMBOLS:
        return _SYMBOLS[key]
    if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and sys.platform != "darwin":
        # Qt says "Return"; the key on a PC keyboard reads "Enter".
        return QCoreApplication.translate("KeyCaps", "Enter")
    return QKeySequence(QKeyCombination(key)).toString(_NATIVE)


def caps_of(chord: Chord) -> list[str]:
    """The caps of one shortcut: its modifiers, then its key, for each key press."""
    if isinstance(chord, tuple):
        return list(chord)
    caps: list[str] = []
    for index in range(chord.count()):
        combination: QKeyCombination = chord[index]  # type: ignore[index]
        modifiers = combination.keyboardModifiers()
        caps += [modifier_name(m) for m in _MODIFIERS if modifiers & m]
        caps.append(key_name(combination.key()))
    return caps


def typed(chord: Chord) -> bool:
    """Whether a person types this on an ordinary keyboard: not a key of its own
    ("Zoom In", "Find") that some keyboards have and Qt lists among a standard key's
    bindings."""
    if isinstance(chord, tuple):
        return True
    return all(
        chord[i].key().value < Qt.Key.Key_Back.value  # type: ignore[index]
        for i in range(chord.count())
    )


def spoken(chord: Chord) -> str:
    """One shortcut as text, for screen readers and tooltips."""
    if isinstance(chord, tuple):
        return "+".join(chord)
    return chord.toString(_NATIVE)


class KeyCaps(QWidget):
    """Caps for one or more shortcuts; painted, so a cap never wraps or elides."""

    def __init__(self, chords: Sequence[Chord], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("KeyCaps")
        self.caps: list[list[str]] = [caps_of(chord) for chord in chords]
        self._or = self.tr("or")
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(f" {self._or} ".join(spoken(chord) for chord in chords))

    def _cap_font(self) -> QFont:
        font = self.font()
        if font.pointSizeF() > 0:
            font.setPointSizeF(font.pointSizeF() * 0.9)
        return font

    def _cap_width(self, metrics: QFontMetrics, text: str) -> int:
        height = metrics.height() + 2 * PAD_Y
        return max(height, metrics.horizontalAdvance(text) + 2 * PAD_X)  # at least square

    def sizeHint(self) -> QSize:
        metrics = QFontMetrics(self._cap_font())
        words = QFontMetrics(self.font())
        width = 0
        for index, caps in enumerate(self.caps):
            if index:
                width += words.horizontalAdvance(self._or) + 2 * ALT_GAP
            width += sum(self._cap_width(metrics, cap) for cap in caps)
            width += GAP * max(0, len(caps) - 1)
        height = max(metrics.height() + 2 * PAD_Y + 2, words.height())  # +2: the cap's edge
        return QSize(width, height)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, _event: QPaintEvent) -> None:
        palette = self.palette()
        font = self._cap_font()
        metrics = QFontMetrics(font)
        words = QFontMetrics(self.font())
        cap_height = metrics.height() + 2 * PAD_Y
        top = (self.height() - cap_height - 2) / 2
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        x = float(self.width() - self.sizeHint().width())  # right-aligned in its cell
        for index, caps in enumerate(self.caps):
            if index:
                painter.setFont(self.font())
                painter.setPen(palette.color(palette.ColorRole.PlaceholderText))
                advance = words.horizontalAdvance(self._or)
                rect = QRectF(x + ALT_GAP, 0, advance, self.height())
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, self._or)
                x += advance + 2 * ALT_GAP
            painter.setFont(font)
            for cap in caps:
                width = self._cap_width(metrics, cap)
                box = QRectF(x + 0.5, top + 0.5, width - 1, cap_height)
                # The key's lower edge: a second, darker box one pixel below.
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(palette.color(palette.ColorRole.Mid))
                painter.drawRoundedRect(box.translated(0, 2), RADIUS, RADIUS)
                painter.setBrush(palette.color(palette.ColorRole.Base))
                painter.setPen(palette.color(palette.ColorRole.Mid))
                painter.drawRoundedRect(box, RADIUS, RADIUS)
                painter.setPen(palette.color(palette.ColorRole.Text))
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter, cap)
                x += width + GAP
            x -= GAP
        painter.end()
