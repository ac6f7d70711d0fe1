"""A layout that places widgets left to right and wraps them onto new lines, so a row
of chips grows taller in a narrow window instead of widening it."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget, QWidgetItem


class FlowLayout(QLayout):
    """Lays its widgets out left to right, wrapping onto new lines as needed."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self.setContentsMargins(0, 0, 0, 0)

    @property
    def gap(self) -> int:
        """Pixels between widgets, across and between lines."""
        return self._gap

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # type: ignore[override]
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # type: ignore[override]
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def place(self, widgets: list[QWidget]) -> None:
        """Exactly these widgets, in this order (items are kept for widgets already in)."""
        items = {item.widget(): item for item in self._items}
        self._items = [items.get(w) or QWidgetItem(w) for w in widgets]
        for widget in widgets:
            if widget not in items:
                self.addChildWidget(widget)
        self.invalidate()

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        """One line of all the chips: the width a bubble would like."""
        visible = [i.sizeHint() for i in self._items if not i.isEmpty()]
        if not visible:
            return QSize(0, 0)
        width = sum(s.width() for s in visible) + self._gap * (len(visible) - 1)
        return QSize(width, max(s.height() for s in visible))

    def minimumSize(self) -> QSize:
        size = QSize(0, 0)
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _arrange(self, rect: QRect, *, move: bool) -> int:
        x, y, line = rect.x(), rect.y(), 0
        for item in self._items:
            if item.isEmpty():
                continue
            hint = item.sizeHint()
            if x > rect.x() and x + hint.width() > rect.right() + 1:
                x, y, line = rect.x(), y + line + self._gap, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._gap
            line = max(line, hint.height())
        return y + line - rect.y()
