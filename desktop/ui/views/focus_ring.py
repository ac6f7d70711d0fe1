"""A visible focus ring for keyboard users, in every window of the app.

Fusion marks keyboard focus faintly (and our style sheet hides it on the flat buttons
and lists); a person moving with Tab must see where they are, in both themes. A QSS
`:focus` border would also show after every mouse click, and changing a border resizes
the widget, so the row it sits in jumps. Instead one overlay, a child of the focused
widget's parent that lets the mouse through, paints a 2 px ring in the theme's accent
colour just outside the widget (inside it where its parent has no room around it,
such as a transcript filling the column). It shows only when the focus came from the
keyboard (Qt marks the window with `WA_KeyboardFocusChange` then, and clears it on a
click), like the web's `:focus-visible`.

A widget that shows its own focus clearly sets the `ownFocusRing` property (the
composer's text box, whose whole frame turns the accent colour).
"""

from __future__ import annotations

from contextlib import suppress

from PySide6.QtCore import QEvent, QObject, QRect, QRectF, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

WIDTH = 2
GAP = 1  # px between the widget and the ring outside it
RADIUS = 6.0
OWN_RING = "ownFocusRing"  # a property: this widget shows its focus itself
_MOVES = (
    QEvent.Type.Move,
    QEvent.Type.Resize,
    QEvent.Type.Show,
    QEvent.Type.Hide,
    QEvent.Type.EnabledChange,
)


class FocusRingOverlay(QWidget):
    def __init__(self) -> None:
        super().__init__(None)
        self.setObjectName("FocusRing")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.hide()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(self.palette().color(self.palette().ColorRole.Highlight), WIDTH)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        inset = WIDTH / 2
        painter.drawRoundedRect(
            QRectF(self.rect()).adjusted(inset, inset, -inset, -inset), RADIUS, RADIUS
        )
        painter.end()


class FocusRing(QObject):
    """Follows the application's focus; owns the one overlay."""

    def __init__(self, app: QApplication, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ring = FocusRingOverlay()
        self._target: QWidget | None = None
        app.focusChanged.connect(self._on_focus_changed)

    @property
    def _overlay(self) -> FocusRingOverlay:
        """The overlay, made again when the widget it sat in was deleted with it."""
        if not isValid(self._ring):
            self._ring = FocusRingOverlay()
        return self._ring

    @property
    def target(self) -> QWidget | None:
        """The widget the ring is shown around, if it is shown."""
        return self._target if self._overlay.isVisible() else None

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        self._follow(new if new is not None and _wants_ring(new) else None)

    def _follow(self, widget: QWidget | None) -> None:
        old = self._target
        if old is not None and old is not widget:
            with suppress(RuntimeError):  # deleted while it had the focus
                old.removeEventFilter(self)
        self._target = widget
        if widget is None:
            self._overlay.hide()
            return
        if old is not widget:
            widget.installEventFilter(self)
        self._place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._target:
            kind = event.type()
            if kind in _MOVES:
                self._place()
        return False

    def _place(self) -> None:
        widget, overlay = self._target, self._overlay
        parent = widget.parentWidget() if widget is not None else None
        if widget is None or parent is None or not widget.isVisible() or not widget.isEnabled():
            overlay.hide()
            return
        if overlay.parentWidget() is not parent:
            overlay.setParent(parent)
        overlay.setGeometry(ring_rect(widget.geometry(), parent.rect()))
        overlay.show()
        overlay.raise_()


def ring_rect(widget: QRect, room: QRect) -> QRect:
    """Where the ring goes in the parent: just around the widget, or on its own edge
    where the parent has no room around it."""
    margin = WIDTH + GAP
    outside = widget.adjusted(-margin, -margin, margin, margin)
    if room.contains(outside):
        return outside
    return widget.intersected(room)


def _wants_ring(widget: QWidget) -> bool:
    if widget.isWindow() or bool(widget.property(OWN_RING)):
        return False
    window = widget.window()
    if window.windowType() == Qt.WindowType.Popup:  # a menu, a combo box's list
        return False
    return window.testAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange)
