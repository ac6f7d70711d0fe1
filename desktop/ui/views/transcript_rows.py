"""The transcript's messages in order, and where each sits: the data behind the widgets.

Kept apart from the widget so the bookkeeping (which row an id is, estimated heights,
the anchor that keeps what is read in place) is plain Python the widget drives.
"""

from __future__ import annotations

from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.views.row_geometry import RowGeometry, TextMetrics, estimate_height

Anchor = tuple[str, int]  # (message id of the first visible row, its top - scroll value)


class Rows:
    def __init__(self, spacing: int, padding: int) -> None:
        self.items: list[MessageItem] = []
        self.geometry = RowGeometry(spacing, padding)
        self._index: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, message_id: object) -> bool:
        return message_id in self._index

    def row_of(self, message_id: str) -> int | None:
        return self._index.get(message_id)

    def ids(self) -> list[str]:
        return [item.id for item in self.items]

    def reset(
        self, items: list[MessageItem], width: int, metrics: TextMetrics, *, estimate: bool = True
    ) -> None:
        """`estimate` False: heights stay 0 until `reestimate` (the width is not known)."""
        self.items = list(items)
        self._index = {item.id: row for row, item in enumerate(self.items)}
        if estimate:
            self.geometry.reset([estimate_height(item, width, metrics) for item in self.items])
        else:
            self.geometry.reset([0] * len(self.items))

    def prepend(
        self, items: list[MessageItem], width: int, metrics: TextMetrics, *, estimate: bool = True
    ) -> None:
        """Rows above the first; `estimate` as in `reset`."""
        self.items[:0] = items
        self._index = {item.id: row for row, item in enumerate(self.items)}
        heights = [estimate_height(item, width, metrics) if estimate else 0 for item in items]
        self.geometry.prepend(heights)

    def append(self, item: MessageItem, width: int, metrics: TextMetrics) -> None:
        self._index[item.id] = len(self.items)
        self.items.append(item)
        self.geometry.append(estimate_height(item, width, metrics))

    def replace(self, row: int, item: MessageItem) -> None:
        self.items[row] = item

    def estimate(self, row: int, width: int, metrics: TextMetrics) -> None:
        self.geometry.set_height(row, estimate_height(self.items[row], width, metrics))

    def reestimate(self, keep: set[str], width: int, metrics: TextMetrics) -> None:
        """Heights measured at another width or font are stale; `keep` are being measured."""
        for row, item in enumerate(self.items):
            if item.id not in keep:
                self.geometry.set_height(row, estimate_height(item, width, metrics))

    def near(self, value: int, height: int, margin: int) -> range:
        """Rows within `margin` px of a viewport `height` tall scrolled to `value`."""
        return self.geometry.rows_between(value - margin, value + height + margin)

    def anchor_at(self, value: int) -> Anchor | None:
        """The first row visible at scroll `value` and how far above the top it starts."""
        if not self.items:
            return None
        row = self.geometry.row_at(value)
        return self.items[row].id, self.geometry.top(row) - value

    def value_for(self, anchor: Anchor) -> int | None:
        """The scroll value that puts the anchor row back where it was on screen."""
        row = self._index.get(anchor[0])
        return None if row is None else self.geometry.top(row) - anchor[1]
