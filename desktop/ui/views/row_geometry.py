"""Where each message row sits in a virtualised transcript: heights, tops, visible ranges.

Only rows near the viewport have widgets, so every other row's height is an estimate
from its text length until a widget has measured it; measured heights are kept when the
widget goes away (until the width or font changes). Tops are prefix sums, rebuilt
lazily from the first changed row, so a streaming answer at the end costs O(1) and a
change near the top costs one pass.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from itertools import accumulate

from desktop.ui.viewmodels.message_item import MAX_SHOWN_CHARS, MessageItem


@dataclass(frozen=True, slots=True)
class TextMetrics:
    """What an estimate needs to know about the transcript's font and chrome."""

    char_width: float
    line_height: int
    user_chrome: int  # bubble padding + action row
    assistant_chrome: int  # margins + footer


def estimate_height(item: MessageItem, column_width: int, metrics: TextMetrics) -> int:
    """A plausible height for `item` before it is measured (cheap: no layout)."""
    text = item.markdown
    width = column_width * 0.8 if item.is_user else column_width
    per_line = max(8, int(width / max(1.0, metrics.char_width)))
    # Wrapped length plus half the line breaks: prose lines are long, code lines short.
    # Only the start of a very long message is shown.
    shown = min(len(text), MAX_SHOWN_CHARS)
    lines = shown // per_line + text.count("\n", 0, shown) // 2 + 1
    extra = 0
    if not item.is_user:
        extra += (text.count("```", 0, shown) // 2) * 2 * metrics.line_height  # code headers
        extra += metrics.line_height + 8 if item.reasoning_label else 0
        extra += 3 * metrics.line_height if item.error else 0
    chrome = metrics.user_chrome if item.is_user else metrics.assistant_chrome
    return lines * metrics.line_height + extra + chrome


class RowGeometry:
    """Heights and tops of rows separated by `spacing`, after a top `padding`."""

    def __init__(self, spacing: int, padding: int) -> None:
        self._spacing = spacing
        self._padding = padding
        self._heights: list[int] = []
        self._tops: list[int] = []
        self._valid = 0  # tops[:valid] are up to date

    def __len__(self) -> int:
        return len(self._heights)

    def reset(self, heights: list[int]) -> None:
        self._heights = list(heights)
        self._valid = 0

    def append(self, height: int) -> None:
        self._heights.append(height)

    def prepend(self, heights: list[int]) -> None:
        self._heights[:0] = heights
        self._valid = 0

    def height(self, row: int) -> int:
        return self._heights[row]

    def set_height(self, row: int, height: int) -> bool:
        """Record a height (measured or estimated); True when it changed."""
        if self._heights[row] == height:
            return False
        self._heights[row] = height
        self._valid = min(self._valid, row + 1)
        return True

    def top(self, row: int) -> int:
        self._update_tops()
        return self._tops[row]

    def bottom(self, row: int) -> int:
        return self.top(row) + self._heights[row]

    def total(self) -> int:
        """Content height including the padding above and below."""
        if not self._heights:
            return 0
        return self.bottom(len(self._heights) - 1) + self._padding

    def row_at(self, y: int) -> int:
        """The row whose span (with the spacing after it) contains `y`, clamped."""
        self._update_tops()
        if not self._tops:
            return -1
        return max(0, min(len(self._tops) - 1, bisect.bisect_right(self._tops, y) - 1))

    def rows_between(self, y0: int, y1: int) -> range:
        if not self._heights:
            return range(0)
        return range(self.row_at(y0), self.row_at(y1) + 1)

    def _update_tops(self) -> None:
        count = len(self._heights)
        if self._valid >= count and len(self._tops) == count:
            return
        start = min(self._valid, len(self._tops))
        if start == 0:
            first = self._padding
        else:
            first = self._tops[start - 1] + self._heights[start - 1] + self._spacing
        step = self._spacing
        tail = accumulate((h + step for h in self._heights[start:-1]), initial=first)
        self._tops[start:] = list(tail) if start < count else []
        self._valid = count
