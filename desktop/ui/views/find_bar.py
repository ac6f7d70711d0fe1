"""The in-chat find bar: a search field, "3 of 12", previous / next, match case, close.

It sits at the top of the chat. Typing searches (the find model waits for a pause);
Enter goes to the next match and Shift+Enter to the previous one, wrapping around; Esc
or the close button closes it, which clears the highlights. The field is a `QLineEdit`
and the count a `PlainLabel`: text taken from a message stays plain text.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import (
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPalette,
)
from PySide6.QtWidgets import QCheckBox, QFrame, QHBoxLayout, QLineEdit, QSizePolicy, QWidget

from desktop.ui.icons import icon, icon_button
from desktop.ui.viewmodels.find import FindModel
from desktop.ui.views.labels import PlainLabel

FIELD_WIDTH = 280
MAX_PREFILL = 200  # characters of a selection taken as the query


class FindField(QLineEdit):
    """The query: Enter / Shift+Enter step through the matches, Esc closes."""

    nextRequested = Signal()
    previousRequested = Signal()
    closeRequested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.previousRequested.emit()
            else:
                self.nextRequested.emit()
        elif key == Qt.Key.Key_Escape:
            self.closeRequested.emit()
        else:
            super().keyPressEvent(event)


def prefill(selection: str) -> str:
    """A selection as a query: one line, without the renderer's soft breaks, not too long."""
    text = selection.replace("\u200b", "")
    for separator in ("\u2029", "\u2028", "\r", "\n", "\t"):
        text = text.replace(separator, " ")
    return text.strip()[:MAX_PREFILL]


class FindBar(QFrame):
    closed = Signal()  # the person closed it (focus goes back to the composer)
    stepped = Signal()  # the person moved to another match: show it now

    def __init__(
        self, find: FindModel, anchor: Callable[[], str], parent: QWidget | None = None
    ) -> None:
        """`anchor`: the message the person is looking at (a search starts there)."""
        super().__init__(parent)
        self.setObjectName("FindBar")
        self._find = find
        self._anchor = anchor

        self.field = FindField(self)
        self.field.setObjectName("FindField")
        self.field.setPlaceholderText(self.tr("Find in chat"))
        self.field.setAccessibleName(self.tr("Find in chat"))
        self.field.setClearButtonEnabled(True)
        self.field.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        self.field.setMaximumWidth(FIELD_WIDTH)
        self.field.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.count = PlainLabel("", self)
        self.count.setObjectName("FindCount")
        self.count.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.count.setMinimumWidth(self.count.fontMetrics().horizontalAdvance("0000 of 0000"))
        self.previous_button = icon_button(
            self, "chevron-up", self.tr("Previous match (Shift+Enter)")
        )
        self.next_button = icon_button(self, "chevron-down", self.tr("Next match (Enter)"))
        self.case_button = QCheckBox(self.tr("Match case"), self)
        self.case_button.setObjectName("FindCase")
        self.close_button = icon_button(self, "close", self.tr("Close find (Esc)"))
        for button in (self.previous_button, self.next_button, self.close_button):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)

        row = QHBoxLayout(self)
        row.setContentsMargins(24, 6, 24, 6)
        row.setSpacing(4)
        row.addStretch(1)
        row.addWidget(self.field, 100)
        row.addSpacing(6)
        row.addWidget(self.count)
        row.addWidget(self.previous_button)
        row.addWidget(self.next_button)
        row.addSpacing(6)
        row.addWidget(self.case_button)
        row.addSpacing(6)
        row.addWidget(self.close_button)

        self.field.textChanged.connect(self._on_text_changed)
        self.field.nextRequested.connect(self.next)
        self.field.previousRequested.connect(self.previous)
        self.field.closeRequested.connect(self.close_find)
        self.next_button.clicked.connect(self.next)
        self.previous_button.clicked.connect(self.previous)
        self.case_button.toggled.connect(find.set_case_sensitive)
        self.close_button.clicked.connect(self.close_find)
        find.changed.connect(self._update)
        self._update()

    def open(self, text: str = "") -> None:
        """Show the bar with the field focused and selected; `text` (a selection)
        replaces the query. The search runs again for what is on screen now."""
        query = prefill(text)
        self.show()
        if query and query != self.field.text():
            self.field.setText(query)  # searches
        elif self.field.text():
            self._find.set_query(self.field.text(), self._anchor())
        self.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.field.selectAll()

    def next(self) -> None:
        self._find.next()
        self.stepped.emit()

    def previous(self) -> None:
        self._find.previous()
        self.stepped.emit()

    def close_find(self) -> None:
        """Hide the bar and clear the highlights; the query stays for next time."""
        if self.isHidden():
            return
        self._find.close()
        self.hide()
        self.closed.emit()

    def _on_text_changed(self, text: str) -> None:
        if self.isVisible():
            self._find.set_query(text, self._anchor())

    def _update(self) -> None:
        label = self._find.label()
        self.count.setText(label)
        self.field.setAccessibleDescription(label)  # read out with the field
        has_matches = self._find.total > 0
        self.previous_button.setEnabled(has_matches)
        self.next_button.setEnabled(has_matches)
        missing = self._find.active and not has_matches and not self._find.searching
        self.count.setProperty("tone", "error" if missing else None)
        self.count.style().unpolish(self.count)
        self.count.style().polish(self.count)

    def paintEvent(self, event: QPaintEvent) -> None:
        """A hairline under the bar, where the transcript starts."""
        super().paintEvent(event)
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.Mid))
        painter.drawLine(0, self.height() - 1, self.width(), self.height() - 1)
