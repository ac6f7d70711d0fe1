"""A virtualised, absolutely placed list of message widgets in a scroll area.

Only rows within a margin of the viewport have a widget; the others are a height in
`Rows` (measured once seen, estimated from text length before). Rows near the viewport
get widgets at once, the wider margin is prepared one row per idle turn, and widgets
that leave it are destroyed (their measured height is kept) unless they are pinned
(being edited). When heights change, the first visible row stays where it was on screen,
or, while following the end, the view sticks to the bottom.

Scrolling moves the rows with `QWidget.scroll` (pixels are moved, not repainted) and the
viewport paints its own background, so a repaint never climbs into the window behind.
`Transcript` adds the chat: which widget a message gets, actions, the jump button.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QHideEvent, QKeyEvent, QPainter, QPaintEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QAbstractScrollArea, QFrame, QWidget

from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.views.message_widget import MessageWidget
from desktop.ui.views.row_geometry import TextMetrics
from desktop.ui.views.transcript_rows import Anchor, Rows

MAX_TEXT_WIDTH = 820  # comfortable line length for reading
SIDE_MARGIN = 24
PADDING = 16  # above the first and below the last message
ROW_SPACING = 10
STICK_MARGIN = 48  # px from the bottom that still counts as "at the bottom"
NEAR_MARGIN = 120  # px beyond the viewport whose rows must have widgets at once
MIN_MARGIN = 600  # px prepared in idle time beyond the viewport (at least one viewport)
FALLBACK_SIZE = (760, 600)  # viewport size assumed before the first layout
_SETTLE_ROUNDS = 4


class VirtualList(QAbstractScrollArea):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows = Rows(ROW_SPACING, PADDING)
        self._widgets: dict[str, MessageWidget] = {}
        self._stick = True
        self._adjusting = False
        self._column_width = 0
        self._placed_value = 0  # the scroll value the rows were last placed for
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.setInterval(0)
        self._idle.timeout.connect(self._on_idle)
        self._stale = False  # font or style changed: measure everything again when idle
        self._estimated = True  # False: rows reset while hidden have no heights yet
        self._hidden_updates: set[str] = set()  # ids of rows updated while hidden
        # Opaque: a repaint stops here instead of repainting every ancestor behind it.
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.verticalScrollBar().setSingleStep(40)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)

    def _create(self, item: MessageItem) -> MessageWidget:
        """The widget for a row (subclasses decide); shown once placed."""
        raise NotImplementedError

    def _placed(self) -> None:
        """Called after every placement (subclasses move overlays)."""

    def _follows(self, item: MessageItem) -> bool:
        """Whether a newly added row makes the view follow the end again."""
        return False

    # --- the public surface -----------------------------------------------------------

    def message_widget(self, message_id: str) -> MessageWidget | None:
        """The widget of a message near the viewport, or None when it has none now."""
        return self._widgets.get(message_id)

    def message_ids(self) -> list[str]:
        return self._rows.ids()

    def message_widgets(self) -> list[MessageWidget]:
        """The widgets of the messages near the viewport, in no particular order."""
        return list(self._widgets.values())

    def top_message_id(self) -> str:
        """The first message visible at the top of the view ("" when there is none)."""
        anchor = self._rows.anchor_at(self.verticalScrollBar().value())
        return anchor[0] if anchor is not None else ""

    @property
    def at_bottom(self) -> bool:
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - STICK_MARGIN

    def reset(self, items: list[MessageItem]) -> None:
        """Show a new list; the same conversation re-shown keeps what was on screen."""
        anchor = self._anchor()
        for widget in self._widgets.values():
            self._discard(widget)
        self._widgets.clear()
        # Hidden (no chat shown yet), the width is unknown: estimate once it is shown.
        self._estimated = self.isVisible()
        self._rows.reset(items, self._column(), self._metrics(), estimate=self._estimated)
        self._stick = anchor is None or anchor[0] not in self._rows
        self._refresh(anchor)

    def prepend(self, items: list[MessageItem]) -> None:
        """Older rows above the first (a long chat is read from its end): what is on
        screen stays where it is, and a view at the end stays at the end."""
        items = [item for item in items if item.id not in self._rows]
        if items:
            anchor = self._anchor()
            self._rows.prepend(items, self._column(), self._metrics(), estimate=self._estimated)
            self._refresh(anchor)

    def add(self, item: MessageItem) -> None:
        if item.id in self._rows:
            self.update_message(item)
            return
        anchor = self._anchor()
        self._rows.append(item, self._column(), self._metrics())
        if self._follows(item):
            self._stick = True
        self._refresh(anchor)

    def update_message(self, item: MessageItem) -> None:
        row = self._rows.row_of(item.id)
        if row is None:
            return
        if not self.isVisible():
            # A window put away (the floating chat, closed while an answer streams) does
            # not render each update: its rows take the latest when it is shown again.
            self._rows.replace(row, item)
            self._hidden_updates.add(item.id)
            self._estimated = False
            return
        anchor = self._anchor()
        self._rows.replace(row, item)
        widget = self._widgets.get(item.id)
        if widget is not None:
            widget.update_item(item)
        else:
            self._rows.estimate(row, self._column(), self._metrics())
        self._refresh(anchor)

    def scroll_to_bottom(self) -> None:
        self._stick = True
        self._refresh(None)

    def scroll_to_message(self, message_id: str) -> None:
        """Bring a message to the top of the view (a search hit, an edit)."""
        if message_id in self._rows:
            self._stick = False
            self._refresh((message_id, PADDING))
            self._stick = self.at_bottom  # near the end anyway: keep following it

    # --- keeping widgets, heights and the scroll position in step -------------------

    def _refresh(self, anchor: Anchor | None) -> None:
        """Scroll (to the bottom, or keeping `anchor` in place), then give the rows near the
        viewport widgets and measure them; measuring changes heights, so repeat until
        nothing moves (usually once; a few times after a jump into unmeasured rows).

        A hidden list waits: its size is not known yet (one never shown is 100 px wide,
        so its widgets would be laid out and measured at that width, then again), and
        `showEvent` refreshes it once it has its real size.
        """
        if not self.isVisible():
            return
        for _round in range(_SETTLE_ROUNDS):
            self._apply_scroll(anchor)
            self._sync_widgets()
            if not self._measure():
                break
        else:
            self._apply_scroll(anchor)
        self._place()
        self._placed()

    def _sync_widgets(self) -> None:
        """Rows near the viewport get widgets now; the wider margin is prepared when idle."""
        keep = self._rows_near(self._margin())
        for message_id, widget in list(self._widgets.items()):
            row = self._rows.row_of(message_id)
            if row is None or (row not in keep and not widget.is_editing):
                self._discard(self._widgets.pop(message_id))
        items = self._rows.items
        for row in self._rows_near(NEAR_MARGIN):
            if items[row].id not in self._widgets:
                self._widgets[items[row].id] = self._create(items[row])
        for message_id, widget in self._widgets.items():
            widget.set_latest(self._rows.row_of(message_id) == len(items) - 1)
        if self.isVisible() and any(items[row].id not in self._widgets for row in keep):
            self._idle.start()

    def _on_idle(self) -> None:
        if self._stale:
            self._stale = False
            anchor = self._anchor()
            self._reestimate()
            self._refresh(anchor)
        else:
            self._prepare_margin()

    def _reestimate(self) -> None:
        self._rows.reestimate(set(self._widgets), self._column(), self._metrics())
        self._estimated = True

    def _prepare_margin(self) -> None:
        """One row of the margin per idle turn: scrolling into it then costs nothing."""
        value, items, top = (
            self.verticalScrollBar().value(),
            self._rows.items,
            self._rows.geometry.top,
        )
        missing = [r for r in self._rows_near(self._margin()) if items[r].id not in self._widgets]
        if missing:
            row = min(missing, key=lambda r: abs(top(r) - value))
            anchor = self._anchor()
            self._widgets[items[row].id] = self._create(items[row])
            self._refresh(anchor)

    def _margin(self) -> int:
        return max(self._viewport_size()[1], MIN_MARGIN)

    def _rows_near(self, margin: int) -> range:
        value = self.verticalScrollBar().value()
        return self._rows.near(value, self._viewport_size()[1], margin)

    def _measure(self) -> bool:
        changed = False
        width, geometry = self._column(), self._rows.geometry
        for message_id, widget in self._widgets.items():
            row = self._rows.row_of(message_id)
            if row is not None:
                changed |= geometry.set_height(row, widget.measure(width))
        return changed

    def _apply_scroll(self, anchor: Anchor | None) -> None:
        bar = self.verticalScrollBar()
        height = self._viewport_size()[1]
        maximum = max(0, self._rows.geometry.total() - height)
        wanted = self._rows.value_for(anchor) if anchor is not None else None
        if self._stick:
            value = maximum
        elif wanted is not None:
            value = wanted
        else:
            value = bar.value()
        self._adjusting = True
        try:
            bar.setPageStep(max(1, height - 40))
            bar.setRange(0, maximum)
            bar.setValue(max(0, min(maximum, value)))
        finally:
            self._adjusting = False

    def _place(self) -> None:
        """Move rows to the scroll position; a plain scroll moves pixels, not repaints."""
        value = self.verticalScrollBar().value()
        if value != self._placed_value:
            self.viewport().scroll(0, self._placed_value - value)
            self._placed_value = value
        viewport_width = self._viewport_size()[0]
        width = self._column()
        left = (viewport_width - width) // 2
        geometry = self._rows.geometry
        for message_id, widget in self._widgets.items():
            row = self._rows.row_of(message_id)
            if row is None:
                continue
            widget.setGeometry(left, geometry.top(row) - value, width, geometry.height(row))
            if widget.isHidden():
                widget.show()

    def _anchor(self) -> Anchor | None:
        """What to keep in place while heights change; None when following the end."""
        return None if self._stick else self._rows.anchor_at(self.verticalScrollBar().value())

    @staticmethod
    def _discard(widget: MessageWidget) -> None:
        widget.hide()
        widget.deleteLater()

    def _column(self) -> int:
        width = self._viewport_size()[0]
        self._column_width = max(200, min(MAX_TEXT_WIDTH, width - 2 * SIDE_MARGIN))
        return self._column_width

    def _viewport_size(self) -> tuple[int, int]:
        viewport = self.viewport()
        if not viewport.testAttribute(Qt.WidgetAttribute.WA_Resized):
            return FALLBACK_SIZE  # not laid out yet: a typical size beats 100 x 30
        return viewport.width(), viewport.height()

    def _metrics(self) -> TextMetrics:
        fm = self.fontMetrics()
        line = fm.lineSpacing()
        return TextMetrics(fm.averageCharWidth(), line, 20 + 2 * line + 4, 8 + 2 * line + 6)

    # --- events ------------------------------------------------------------------------

    def _on_scrolled(self, _value: int) -> None:
        if self._adjusting:
            return
        self._stick = self.at_bottom
        self._refresh(self._anchor())

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        """Rows are moved by `_place` (QAbstractScrollArea would repaint everything)."""

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        painter.fillRect(event.rect(), self.palette().window())

    def viewportEvent(self, event: QEvent) -> bool:
        """A message changed size by itself (reasoning folded, editing): place rows again."""
        if event.type() == QEvent.Type.LayoutRequest:
            anchor = self._anchor()
            if self._measure():  # usually nothing: updates were measured already
                self._refresh(anchor)
            return True
        return super().viewportEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        """No idle work while hidden (nor a live timer in a window being destroyed)."""
        self._idle.stop()
        super().hideEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        updated, self._hidden_updates = self._hidden_updates, set()
        for message_id in updated:
            widget, row = self._widgets.get(message_id), self._rows.row_of(message_id)
            if widget is not None and row is not None:
                widget.update_item(self._rows.items[row])
        if not self._estimated:
            self._reestimate()
        self._refresh(self._anchor())

    def resizeEvent(self, event: QResizeEvent) -> None:
        anchor = self._anchor()
        super().resizeEvent(event)
        previous = self._column_width
        if self._column() != previous or not self._estimated:
            self._reestimate()
        self._refresh(anchor)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            # Measure again once the children have taken the new font or style.
            self._stale = True
            self._idle.start()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        bar = self.verticalScrollBar()
        key = event.key()
        if key == Qt.Key.Key_PageUp:
            bar.triggerAction(bar.SliderAction.SliderPageStepSub)
        elif key == Qt.Key.Key_PageDown:
            bar.triggerAction(bar.SliderAction.SliderPageStepAdd)
        elif key == Qt.Key.Key_Up:
            bar.triggerAction(bar.SliderAction.SliderSingleStepSub)
        elif key == Qt.Key.Key_Down:
            bar.triggerAction(bar.SliderAction.SliderSingleStepAdd)
        elif key == Qt.Key.Key_Home:
            bar.setValue(0)
        elif key == Qt.Key.Key_End:
            self.scroll_to_bottom()
        else:
            super().keyPressEvent(event)
