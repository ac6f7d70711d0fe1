"""Parley's own icons: one small set of SVGs (resources/icons/ui), drawn in the palette's colours.

Each icon is a single-colour line drawing whose SVG says `currentColor`; it is drawn in a
colour taken from the application palette *when it is painted* (`PaletteIconEngine`), so
a theme switch re-tints every button without any widget listening for it, and a 2x
screen gets a pixmap drawn at twice the size rather than a 1x one stretched.

A button's look by state: quiet (the muted text colour) at rest, the text colour under
the mouse, the accent colour when checked (a pinned message), faint when disabled.
Rendered pixmaps are cached per name, colour, size and pixel ratio.

Use `icon(name)` for a `QIcon`, `set_icon(button, name)` to give a button one (it also
records the name in the button's "iconName" property, which tests read), and
`icon_button(...)` for a ready icon-only tool button, `IconLabel` for an icon that is
not a button. `icon_image(...)` is the same
drawing as a `QImage` in a given colour, for rich text (`parley-icon:` URLs).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Literal

from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QIcon,
    QIconEngine,
    QImage,
    QPainter,
    QPaintEvent,
    QPalette,
    QPixmap,
)
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QAbstractButton, QToolButton, QWidget

from desktop.ui.resources import resource_path

Tone = Literal["muted", "text", "accent", "danger"]

# Every icon in resources/icons/ui; tests check each one is there and draws something.
ICON_NAMES = (
    "arrow-down",
    "attach",
    "check",
    "chevron-down",
    "chevron-left",
    "chevron-right",
    "chevron-up",
    "close",
    "continue",
    "copy",
    "delete",
    "edit",
    "grip",
    "more",
    "open-in-main",
    "pin",
    "plus",
    "prompts",
    "regenerate",
    "retry",
    "save",
    "search",
    "send",
    "stop",
    "tool",
    "warning",
)
ICON_PX = 16  # an icon beside text, or on a small button
TITLE_BAR_ICON_PX = 20  # the floating window's title bar
ICON_NAME_PROPERTY = "iconName"

# How far towards the background a muted or disabled icon is mixed, so that both follow
# any palette: 0.4 gives the stylesheet's muted grey in both Parley themes.
_MUTED_MIX = 0.4
_DISABLED_MIX = 0.68
_DARK_BELOW = 128  # a window lightness under this is a dark theme
_DANGER = {False: QColor("#c42b1c"), True: QColor("#ff8a80")}  # light, dark background


@cache
def _svg(name: str) -> bytes:
    """The icon's SVG, or b"" when missing: a lost icon must not stop start-up."""
    try:
        return resource_path("icons", "ui", f"{name}.svg").read_bytes()
    except OSError:
        return b""


def icon_image(name: str, colour: QColor | str, size: int | QSize, dpr: float = 1.0) -> QImage:
    """`name` drawn in `colour`, `size` device-independent pixels at `dpr` (a QImage of
    size x dpr pixels that says its pixel ratio). Transparent when the icon is missing."""
    side = size if isinstance(size, QSize) else QSize(size, size)
    rgba = QColor(colour).rgba()
    # A copy (Qt shares the pixels): a caller changing it must not change the cache.
    return QImage(_rendered(name, rgba, side.width(), side.height(), round(dpr * 100)))


@lru_cache(maxsize=512)
def _rendered(name: str, rgba: int, width: int, height: int, dpr_percent: int) -> QImage:
    dpr = dpr_percent / 100
    image = QImage(
        max(1, round(width * dpr)), max(1, round(height * dpr)), QImage.Format.Format_ARGB32
    )
    image.fill(Qt.GlobalColor.transparent)
    colour = QColor.fromRgba(rgba)
    svg = _svg(name).replace(b"currentColor", colour.name().encode("ascii"))
    if svg:
        renderer = QSvgRenderer(QByteArray(svg))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setOpacity(colour.alphaF())
        renderer.render(painter, QRectF(0, 0, image.width(), image.height()))
        painter.end()
    image.setDevicePixelRatio(dpr)
    return image


@lru_cache(maxsize=512)
def _pixmap(name: str, rgba: int, width: int, height: int, dpr_percent: int) -> QPixmap:
    return QPixmap.fromImage(_rendered(name, rgba, width, height, dpr_percent))


def _mix(colour: QColor, background: QColor, amount: float) -> QColor:
    def channel(a: int, b: int) -> int:
        return round(a + (b - a) * amount)

    return QColor(
        channel(colour.red(), background.red()),
        channel(colour.green(), background.green()),
        channel(colour.blue(), background.blue()),
    )


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < _DARK_BELOW


def tone_colour(
    tone: Tone,
    palette: QPalette,
    mode: QIcon.Mode = QIcon.Mode.Normal,
    state: QIcon.State = QIcon.State.Off,
) -> QColor:
    """The colour an icon of `tone` is drawn in, for a button in `mode` and `state`."""
    role = QPalette.ColorRole
    text = palette.color(role.WindowText)
    window = palette.color(role.Window)
    if mode == QIcon.Mode.Disabled:
        return _mix(text, window, _DISABLED_MIX)
    if mode == QIcon.Mode.Selected:
        return palette.color(role.HighlightedText)
    if tone == "danger":
        return QColor(_DANGER[is_dark(palette)])
    if tone == "accent" or state == QIcon.State.On:
        return palette.color(role.Highlight)
    if tone == "text" or mode == QIcon.Mode.Active:  # Active: under the mouse
        return text
    return _mix(text, window, _MUTED_MIX)


class PaletteIconEngine(QIconEngine):
    """Draws one icon in the application palette's colour of the moment (see the module
    docstring), at the pixel ratio it is asked for."""

    def __init__(self, name: str, tone: Tone = "muted") -> None:
        super().__init__()
        self._name = name
        self._tone: Tone = tone

    def scaledPixmap(
        self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float
    ) -> QPixmap:
        colour = tone_colour(self._tone, QGuiApplication.palette(), mode, state)
        return _pixmap(
            self._name, colour.rgba(), size.width(), size.height(), round(max(scale, 1.0) * 100)
        )

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        return self.scaledPixmap(size, mode, state, 1.0)

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        device = painter.device()
        scale = device.devicePixelRatioF() if device is not None else 1.0
        painter.drawPixmap(rect, self.scaledPixmap(rect.size(), mode, state, scale))

    def actualSize(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QSize:
        return size

    def clone(self) -> QIconEngine:
        return PaletteIconEngine(self._name, self._tone)

    def key(self) -> str:
        return "ParleyPaletteIcon"

    def iconName(self) -> str:
        return self._name

    def isNull(self) -> bool:
        return not _svg(self._name)


def icon(name: str, tone: Tone = "muted") -> QIcon:
    """The icon `name` (one of `ICON_NAMES`), tinted from the palette when painted."""
    return QIcon(PaletteIconEngine(name, tone))


def set_icon(
    button: QAbstractButton, name: str, *, tone: Tone = "muted", size: int = ICON_PX
) -> None:
    """Give `button` the icon `name` at `size` px; the name is kept as its "iconName"."""
    button.setIcon(icon(name, tone))
    button.setIconSize(QSize(size, size))
    button.setProperty(ICON_NAME_PROPERTY, name)


def icon_button(
    parent: QWidget | None,
    name: str,
    tip: str,
    *,
    object_name: str = "MessageAction",
    size: int = ICON_PX,
    tone: Tone = "muted",
) -> QToolButton:
    """An icon-only, flat tool button whose tooltip is also its accessible name (a screen
    reader has no text to read otherwise). Style comes from `object_name`'s rules."""
    button = QToolButton(parent)
    button.setObjectName(object_name)
    button.setProperty("iconOnly", True)
    button.setAutoRaise(True)
    button.setCursor(Qt.CursorShape.PointingHandCursor)
    button.setToolTip(tip)
    button.setAccessibleName(tip)
    set_icon(button, name, tone=tone, size=size)
    return button


class IconLabel(QWidget):
    """An icon that is not a button (a drag handle): drawn at paint time in the palette's
    colour, and, like a label, it passes its mouse clicks on to its parent."""

    def __init__(
        self, name: str, parent: QWidget | None = None, *, size: int = ICON_PX, tone: Tone = "muted"
    ) -> None:
        super().__init__(parent)
        self._icon = icon(name, tone)
        self._side = size
        self.setProperty(ICON_NAME_PROPERTY, name)
        self.setFixedSize(size, size)

    def sizeHint(self) -> QSize:
        return QSize(self._side, self._side)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        mode = QIcon.Mode.Normal if self.isEnabled() else QIcon.Mode.Disabled
        self._icon.paint(painter, self.rect(), Qt.AlignmentFlag.AlignCenter, mode)
        painter.end()
