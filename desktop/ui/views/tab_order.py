"""Tab in the order the screen reads: left column before right, top to bottom, each
row left to right.

Qt's Tab order is the order widgets were made in, and a widget made later goes last:
the transcript makes message widgets as they scroll into view, the composer's chips
come and go, so after a few messages Tab went from the Send button into an answer and
from there to the sidebar. Here the order is worked out when Tab is pressed, from
where widgets are: siblings side by side (overlapping vertically) go left to right,
stacked ones top to bottom, and a widget comes before what is inside it (the
transcript, then the messages it shows). Only what is on screen takes part: a message
scrolled out of the transcript is reached by scrolling, not by Tab.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QWidget


def reading_order(root: QWidget) -> list[QWidget]:
    """The widgets under `root` Tab can reach now, in reading order."""
    found: list[QWidget] = []
    _collect(root, found)
    return found


def next_in_reading_order(root: QWidget, current: QWidget | None, forward: bool) -> QWidget | None:
    """The widget Tab (or Shift+Tab) moves to from `current`; None when `current` is
    not under `root` (then Qt's own order applies)."""
    order = reading_order(root)
    widget = current
    while widget is not None and widget not in order:
        widget = widget.parentWidget() if widget is not root else None
    if widget is None or not order:
        return None
    step = 1 if forward else -1
    return order[(order.index(widget) + step) % len(order)]


def _collect(parent: QWidget, found: list[QWidget]) -> None:
    for child in _children_in_reading_order(parent):
        if _reachable(child):
            found.append(child)
        if not isinstance(child, QComboBox | QAbstractSpinBox):  # their editor is them
            _collect(child, found)


def _children_in_reading_order(parent: QWidget) -> list[QWidget]:
    children = [
        child
        for child in parent.children()
        if isinstance(child, QWidget) and not child.isWindow() and not child.isHidden()
    ]
    children.sort(key=lambda w: (w.geometry().top(), w.geometry().left()))
    rows: list[list[QWidget]] = []
    extent = QRect()
    for child in children:
        box = child.geometry()
        if rows and _side_by_side(extent, box):
            rows[-1].append(child)
            extent = extent.united(box)
        else:
            rows.append([child])
            extent = box
    return [w for row in rows for w in sorted(row, key=lambda w: w.geometry().left())]


def _side_by_side(row: QRect, box: QRect) -> bool:
    """Whether `box` sits in the row `row` spans: they share at least half the height
    of the lower one."""
    shared = min(row.bottom(), box.bottom()) - max(row.top(), box.top()) + 1
    return shared * 2 >= min(row.height(), box.height()) and shared > 0


def _reachable(widget: QWidget) -> bool:
    return (
        widget.isEnabled()
        and widget.isVisible()
        and widget.focusProxy() is None
        and bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)
        and _on_screen(widget)
    )


def _on_screen(widget: QWidget) -> bool:
    """Whether some of `widget` shows inside every widget around it (a message
    scrolled out of the transcript does not)."""
    window = widget.window()
    shown = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        shown &= QRect(parent.mapTo(window, QPoint(0, 0)), parent.size())
        parent = parent.parentWidget()
    return not shown.isEmpty()
