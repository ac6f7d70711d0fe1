"""The scrolling list of messages, virtualised so long conversations stay smooth.

Only rows within a margin of the viewport have a `MessageWidget`; the others are a
height (measured once seen, estimated from text length before) in `RowGeometry`. Rows
are placed absolutely on the viewport, widgets that leave the margin are destroyed (their
measured height is kept) unless they are being edited, and when heights above the
viewport change the first visible row stays where it was on screen.

While an answer streams the view sticks to the bottom, unless the person scrolled up:
then it stays put and a "Jump to latest" button offers the way back.

`message_widget(id)` returns None for a message that is not near the viewport.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import (
    QHideEvent,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QFrame,
    QMessageBox,
    QPushButton,
    QWidget,
)

from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.views.confirm import confirm_delete
from desktop.ui.views.message_widget import AssistantMessage, MessageWidget
from desktop.ui.views.row_geometry import RowGeometry, TextMetrics, estimate_height
from desktop.ui.views.user_message import UserMessage

MAX_TEXT_WIDTH = 820  # comfortable line length for reading
SIDE_MARGIN = 24
PADDING = 16  # above the first and below the last message
ROW_SPACING = 14
STICK_MARGIN = 48  # px from the bottom that still counts as "at the bottom"
NEAR_MARGIN = 120  # px beyond the viewport whose rows must have widgets at once
MIN_MARGIN = 600  # px prepared in idle time beyond the viewport (at least one viewport)
FALLBACK_SIZE = (760, 600)  # viewport size assumed before the first layout
_SETTLE_ROUNDS = 4

_Anchor = tuple[str, int]  # (message id of the first visible row, its top - scroll value)


class Transcript(QAbstractScrollArea):
    def __init__(self, chat: ChatViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._chat = chat
        self._items: list[MessageItem] = []
        self._rows: dict[str, int] = {}
        self._geometry = RowGeometry(ROW_SPACING, PADDING)
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
        self.setObjectName("Transcript")
        self.viewport().setObjectName("TranscriptViewport")
        # Opaque: a repaint stops here instead of repainting every ancestor behind it.
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.verticalScrollBar().setSingleStep(40)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)

        self.jump_button = QPushButton(self.tr("↓  Jump to latest"), self)
        self.jump_button.setObjectName("JumpButton")
        self.jump_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.jump_button.setToolTip(self.tr("Scroll to the newest message (End)"))
        self.jump_button.clicked.connect(self.scroll_to_bottom)
        self.jump_button.hide()

        chat.messagesReset.connect(self.reset)
        chat.messageAdded.connect(self.add)
        chat.messageUpdated.connect(self.update_message)
        chat.focusMessage.connect(self.scroll_to_message)
        app = cast(QApplication, QApplication.instance())
        app.focusChanged.connect(self._on_focus_changed)

    # --- the public surface -----------------------------------------------------------

    def message_widget(self, message_id: str) -> MessageWidget | None:
        """The widget of a message near the viewport, or None when it has none now."""
        return self._widgets.get(message_id)

    def message_ids(self) -> list[str]:
        return [item.id for item in self._items]

    @property
    def at_bottom(self) -> bool:
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - STICK_MARGIN

    def reset(self, items: list[MessageItem]) -> None:
        """Show a new list; the same conversation re-shown keeps what was on screen."""
        anchor = None if self._stick else self._anchor()
        for widget in self._widgets.values():
            self._discard(widget)
        self._widgets.clear()
        self._items = list(items)
        self._rows = {item.id: row for row, item in enumerate(self._items)}
        width, metrics = self._column(), self._metrics()
        self._geometry.reset([estimate_height(item, width, metrics) for item in self._items])
        self._stick = anchor is None or anchor[0] not in self._rows
        self._refresh(anchor)

    def add(self, item: MessageItem) -> None:
        if item.id in self._rows:
            self.update_message(item)
            return
        anchor = None if self._stick else self._anchor()
        self._rows[item.id] = len(self._items)
        self._items.append(item)
        self._geometry.append(estimate_height(item, self._column(), self._metrics()))
        if item.is_user:
            self._stick = True  # the person just sent: follow the answer
        self._refresh(anchor)

    def update_message(self, item: MessageItem) -> None:
        row = self._rows.get(item.id)
        if row is None:
            return
        anchor = None if self._stick else self._anchor()
        self._items[row] = item
        widget = self._widgets.get(item.id)
        if widget is not None:
            widget.update_item(item)
        else:
            self._geometry.set_height(row, estimate_height(item, self._column(), self._metrics()))
        self._refresh(anchor)

    def scroll_to_bottom(self) -> None:
        self._stick = True
        self._refresh(None)

    def scroll_to_message(self, message_id: str) -> None:
        """Bring a message to the top of the view (a search hit, an edit)."""
        if message_id in self._rows:
            self._stick = False
            self._refresh((message_id, PADDING))

    def start_edit(self, message_id: str) -> None:
        """Open a user message's inline editor, scrolling it into view first."""
        self.scroll_to_message(message_id)
        widget = self._widgets.get(message_id)
        if widget is not None:
            widget.begin_edit()

    def confirm_delete(self, message_id: str) -> QMessageBox:
        return confirm_delete(
            self,
            self.tr("Delete message?"),
            self.tr("Delete this message and everything after it in this branch of the chat?"),
            lambda: self._chat.delete_message(message_id),
        )

    # --- keeping widgets, heights and the scroll position in step -------------------

    def _refresh(self, anchor: _Anchor | None) -> None:
        """Scroll (to the bottom, or keeping `anchor` in place), then give the rows near the
        viewport widgets and measure them; measuring changes heights, so repeat until
        nothing moves (usually once; a few times after a jump into unmeasured rows).
        """
        for _round in range(_SETTLE_ROUNDS):
            self._apply_scroll(anchor)
            self._sync_widgets()
            if not self._measure():
                break
        else:
            self._apply_scroll(anchor)
        self._place()
        self._update_jump_button()

    def _sync_widgets(self) -> None:
        """Rows near the viewport get widgets now; the wider margin is prepared when idle."""
        keep = self._rows_near(self._margin())
        for message_id, widget in list(self._widgets.items()):
            row = self._rows.get(message_id)
            if row is None or (row not in keep and not widget.is_editing):
                self._discard(self._widgets.pop(message_id))
        last = len(self._items) - 1
        for row in self._rows_near(NEAR_MARGIN):
            item = self._items[row]
            if item.id not in self._widgets:
                self._widgets[item.id] = self._create(item)
        for message_id, widget in self._widgets.items():
            widget.set_latest(self._rows[message_id] == last)
        if self.isVisible() and any(self._items[row].id not in self._widgets for row in keep):
            self._idle.start()

    def _on_idle(self) -> None:
        if self._stale:
            self._stale = False
            anchor = self._anchor_or_none()
            self._reestimate()
            self._refresh(anchor)
        else:
            self._prepare_margin()

    def _reestimate(self) -> None:
        """Heights measured at another width or font are stale: estimate rows without widgets."""
        width, metrics = self._column(), self._metrics()
        for row, item in enumerate(self._items):
            if item.id not in self._widgets:
                self._geometry.set_height(row, estimate_height(item, width, metrics))

    def _prepare_margin(self) -> None:
        """One row of the margin per idle turn: scrolling into it then costs nothing."""
        value = self.verticalScrollBar().value()
        missing = [
            r for r in self._rows_near(self._margin()) if self._items[r].id not in self._widgets
        ]
        if not missing:
            return
        row = min(missing, key=lambda r: abs(self._geometry.top(r) - value))
        anchor = self._anchor_or_none()
        self._widgets[self._items[row].id] = self._create(self._items[row])
        self._refresh(anchor)

    def _margin(self) -> int:
        return max(self._viewport_size()[1], MIN_MARGIN)

    def _rows_near(self, margin: int) -> range:
        value = self.verticalScrollBar().value()
        height = self._viewport_size()[1]
        return self._geometry.rows_between(value - margin, value + height + margin)

    def _measure(self) -> bool:
        changed = False
        width = self._column()
        for message_id, widget in self._widgets.items():
            row = self._rows[message_id]
            changed |= self._geometry.set_height(row, widget.measure(width))
        return changed

    def _apply_scroll(self, anchor: _Anchor | None) -> None:
        bar = self.verticalScrollBar()
        height = self._viewport_size()[1]
        maximum = max(0, self._geometry.total() - height)
        if self._stick:
            value = maximum
        elif anchor is not None and anchor[0] in self._rows:
            value = self._geometry.top(self._rows[anchor[0]]) - anchor[1]
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
        for message_id, widget in self._widgets.items():
            row = self._rows[message_id]
            top = self._geometry.top(row) - value
            widget.setGeometry(left, top, width, self._geometry.height(row))
            if widget.isHidden():
                widget.show()

    def _anchor(self) -> _Anchor | None:
        if not self._items:
            return None
        value = self.verticalScrollBar().value()
        row = self._geometry.row_at(value)
        return self._items[row].id, self._geometry.top(row) - value

    def _create(self, item: MessageItem) -> MessageWidget:
        kind = UserMessage if item.is_user else AssistantMessage
        widget = kind(item, self._chat, self.viewport(), self._column())
        widget.editSubmitted.connect(self._chat.edit_message)
        widget.regenerateRequested.connect(self._chat.regenerate)
        widget.versionRequested.connect(self._chat.show_version)
        widget.continueRequested.connect(self._chat.continue_message)
        widget.retryRequested.connect(self._chat.retry)
        widget.deleteRequested.connect(self.confirm_delete)
        return widget  # shown by `_place` once it has its size: no layout at a wrong width

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

    def _update_jump_button(self) -> None:
        show = bool(self._items) and not self.at_bottom
        if show:
            self.jump_button.adjustSize()
            area = self.viewport().geometry()
            x = area.x() + (area.width() - self.jump_button.width()) // 2
            y = area.bottom() - self.jump_button.height() - 12
            self.jump_button.move(x, y)
            self.jump_button.raise_()
        self.jump_button.setVisible(show)

    # --- events ------------------------------------------------------------------------

    def _on_scrolled(self, _value: int) -> None:
        if self._adjusting:
            return
        self._stick = self.at_bottom
        self._refresh(None if self._stick else self._anchor())

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        """Rows are moved by `_place` (QAbstractScrollArea would repaint everything)."""

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        painter.fillRect(event.rect(), self.palette().window())

    def viewportEvent(self, event: QEvent) -> bool:
        """A message changed size by itself (reasoning folded, editing): place rows again."""
        if event.type() == QEvent.Type.LayoutRequest:
            anchor = self._anchor_or_none()
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
        self._refresh(self._anchor_or_none())

    def resizeEvent(self, event: QResizeEvent) -> None:
        anchor = None if self._stick else self._anchor()
        super().resizeEvent(event)
        previous = self._column_width
        if self._column() != previous:
            self._reestimate()
        self._refresh(anchor)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            # Measure again once the children have taken the new font or style.
            self._stale = True
            self._idle.start()

    def _anchor_or_none(self) -> _Anchor | None:
        return None if self._stick else self._anchor()

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

    def _on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        for widget in (old, new):
            message = self._message_of(widget)
            if message is not None:
                message.refresh_actions()

    def _message_of(self, widget: QObject | None) -> MessageWidget | None:
        while widget is not None and widget is not self:
            if isinstance(widget, MessageWidget):
                return widget
            widget = widget.parent()
        return None
