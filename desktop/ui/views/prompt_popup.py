"""The list of saved prompts that opens over the composer ("/" or the Prompts button).

A child of the window rather than a popup window: the composer keeps the keyboard focus
while the person types after "/" (the composer forwards Up, Down, Enter, Tab and Esc
here), and no window manager has a say in where it appears. Opened from a menu it has
a filter field of its own, which then holds the focus.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QPainter,
    QPalette,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from desktop.core.prompts import SavedPrompt
from desktop.ui.plain_text import tooltip
from desktop.ui.views.labels import PlainLabel

VISIBLE_ROWS = 6  # more scroll
WIDTH = 420  # pixels at most; narrower windows get less
GAP = 6  # between the caret's line and the list
MARGIN = 8  # kept free at the window's edges
_ID_ROLE = Qt.ItemDataRole.UserRole
_PREVIEW_ROLE = Qt.ItemDataRole.UserRole + 1

# Drawn from the palette, so it follows the light and dark themes.
_STYLE = """
QFrame#PromptPopup { background: palette(base); border: 1px solid palette(mid);
  border-radius: 8px; }
QListWidget#PromptPopupList { background: transparent; border: none; outline: 0; }
QLabel#PromptPopupNote { color: palette(placeholder-text); padding: 6px 4px; }
QLabel#PromptPopupHint { color: palette(placeholder-text); font-size: 11px; }
"""


class _PromptRowDelegate(QStyledItemDelegate):
    """A row: the title, and under it the start of the text in a muted colour."""

    def _fonts(self, option: QStyleOptionViewItem) -> tuple[QFont, QFont]:
        title = QFont(option.font)  # type: ignore[attr-defined]
        title.setWeight(QFont.Weight.DemiBold)
        preview = QFont(option.font)  # type: ignore[attr-defined]
        preview.setPointSizeF(max(6.0, preview.pointSizeF() * 0.9))
        return title, preview

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        title, preview = self._fonts(option)
        height = QFontMetrics(title).height() + QFontMetrics(preview).height() + 14
        return QSize(200, height)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        rect: QRect = option.rect  # type: ignore[attr-defined]
        palette: QPalette = option.palette  # type: ignore[attr-defined]
        state = option.state  # type: ignore[attr-defined]
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if state & QStyle.StateFlag.State_Selected or state & QStyle.StateFlag.State_MouseOver:
            tint = QColor(palette.color(QPalette.ColorRole.Highlight))
            tint.setAlphaF(0.22 if state & QStyle.StateFlag.State_Selected else 0.10)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(tint)
            painter.drawRoundedRect(rect.adjusted(2, 1, -2, -1), 6, 6)
        title_font, preview_font = self._fonts(option)
        inner = rect.adjusted(10, 6, -10, -6)
        title_metrics = QFontMetrics(title_font)
        painter.setFont(title_font)
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        title = title_metrics.elidedText(
            str(index.data(Qt.ItemDataRole.DisplayRole)), Qt.TextElideMode.ElideRight, inner.width()
        )
        title_rect = QRect(inner.left(), inner.top(), inner.width(), title_metrics.height())
        painter.drawText(
            title_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title
        )
        painter.setFont(preview_font)
        painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
        preview_metrics = QFontMetrics(preview_font)
        preview = preview_metrics.elidedText(
            str(index.data(_PREVIEW_ROLE) or ""), Qt.TextElideMode.ElideRight, inner.width()
        )
        preview_rect = QRect(
            inner.left(), title_rect.bottom() + 1, inner.width(), preview_metrics.height()
        )
        painter.drawText(
            preview_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, preview
        )
        painter.restore()


class PromptPopup(QFrame):
    """Shows prompts to choose from; says why when there are none."""

    chosen = Signal(str)  # a prompt's id
    dismissed = Signal()  # Esc in the filter field, or the field was left
    filterChanged = Signal(str)  # the filter field's text (opened from a menu)
    settingsRequested = Signal()  # "Open Settings" under "No saved prompts"

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("PromptPopup")
        self.setStyleSheet(_STYLE)
        self.setAccessibleName(self.tr("Saved prompts"))
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(self.tr("Find a prompt"))
        self.filter.setAccessibleName(self.tr("Find a prompt"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.filterChanged)
        self.filter.installEventFilter(self)
        self.list = QListWidget(self)
        self.list.setObjectName("PromptPopupList")
        self.list.setAccessibleName(self.tr("Saved prompts"))
        # The composer (or the filter field) keeps the focus; clicks still choose.
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.list.setMouseTracking(True)
        self.list.setItemDelegate(_PromptRowDelegate(self.list))
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list.itemClicked.connect(lambda item: self.chosen.emit(item.data(_ID_ROLE)))
        self.note = PlainLabel("", self)
        self.note.setObjectName("PromptPopupNote")
        self.note.setWordWrap(True)
        self.settings_button = QPushButton(self.tr("Open Settings"), self)
        self.settings_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.settings_button.clicked.connect(self.settingsRequested)
        self.hint = PlainLabel(self.tr("↑↓ to move · Enter to insert · Esc to close"), self)
        self.hint.setObjectName("PromptPopupHint")
        note_row = QHBoxLayout()
        note_row.setContentsMargins(0, 0, 0, 0)
        note_row.addWidget(self.note, 1)
        note_row.addWidget(self.settings_button, 0, Qt.AlignmentFlag.AlignVCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        layout.addWidget(self.filter)
        layout.addWidget(self.list)
        layout.addLayout(note_row)
        layout.addWidget(self.hint, 0, Qt.AlignmentFlag.AlignRight)
        self.menu = False  # opened from a menu: the filter field is shown and focused
        self.hide()

    # --- contents -------------------------------------------------------------------

    def show_prompts(
        self, prompts: list[SavedPrompt], note: str, *, can_open_settings: bool
    ) -> None:
        """List `prompts` (the first selected); with none, show `note` instead."""
        self.list.clear()
        for prompt in prompts:
            item = QListWidgetItem(prompt.title, self.list)
            item.setData(_ID_ROLE, prompt.id)
            item.setData(_PREVIEW_ROLE, " ".join(prompt.text.split())[:200])
            item.setToolTip(tooltip(prompt.text[:300]))
        if prompts:
            self.list.setCurrentRow(0)
        self.list.setVisible(bool(prompts))
        self.hint.setVisible(bool(prompts))
        self.note.setText(note)
        self.note.setVisible(not prompts)
        self.settings_button.setVisible(not prompts and can_open_settings)

    def current_id(self) -> str:
        item = self.list.currentItem()
        return str(item.data(_ID_ROLE)) if item is not None and self.list.isVisible() else ""

    def ids(self) -> list[str]:
        """The prompts listed, in order (for tests and accessibility checks)."""
        return [str(self.list.item(row).data(_ID_ROLE)) for row in range(self.list.count())]

    def move_selection(self, rows: int) -> None:
        """Move the selection `rows` down (negative: up), wrapping at the ends."""
        count = self.list.count()
        if count:
            self.list.setCurrentRow((self.list.currentRow() + rows) % count)

    # --- showing ----------------------------------------------------------------------

    def open_at(self, caret: QRect) -> None:
        """Show above the caret's line (`caret` in the parent's coordinates), or under
        it when there is more room there."""
        parent = self.parentWidget()
        assert parent is not None
        self.filter.setVisible(self.menu)
        width = min(WIDTH, max(160, parent.width() - 2 * MARGIN))
        rows = min(VISIBLE_ROWS, self.list.count())
        row_height = self.list.sizeHintForRow(0) if rows else 0
        self.list.setFixedHeight(rows * row_height + 4 if rows else 0)
        self.setFixedWidth(width)
        self.adjustSize()
        height = self.sizeHint().height()
        self.resize(width, height)
        x = max(MARGIN, min(caret.left() - 10, parent.width() - width - MARGIN))
        above = caret.top() - GAP - height
        below = caret.bottom() + GAP
        room_below = parent.height() - below - MARGIN
        y = above if above >= MARGIN or room_below < height else below
        self.move(x, max(MARGIN, y))
        self.show()
        self.raise_()
        if self.menu:
            self.filter.setFocus(Qt.FocusReason.PopupFocusReason)

    def close_popup(self) -> None:
        self.hide()
        self.menu = False
        self.filter.blockSignals(True)
        self.filter.clear()
        self.filter.blockSignals(False)

    # --- the filter field's keys (opened from a menu) ---------------------------------

    def handle_key(self, event: QKeyEvent) -> bool:
        """Up, Down, Enter, Tab and Esc for the list; True when the key was used."""
        key = event.key()
        if key == Qt.Key.Key_Escape:
            self.dismissed.emit()
            return True
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down) and self.current_id():
            self.move_selection(-1 if key == Qt.Key.Key_Up else 1)
            return True
        if key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown) and self.current_id():
            self.move_selection(-VISIBLE_ROWS if key == Qt.Key.Key_PageUp else VISIBLE_ROWS)
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab) and self.current_id():
            self.chosen.emit(self.current_id())
            return True
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.filter and isinstance(event, QKeyEvent):
            if event.type() == QEvent.Type.ShortcutOverride and event.key() == Qt.Key.Key_Escape:
                event.accept()  # Esc closes this list, not whatever else Esc is bound to
                return True
            if event.type() == QEvent.Type.KeyPress and self.handle_key(event):
                return True
        if watched is self.filter and event.type() == QEvent.Type.FocusOut and self.isVisible():
            self.dismissed.emit()
        return super().eventFilter(watched, event)
