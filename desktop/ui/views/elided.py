"""Widgets whose text elides (…) instead of pushing the layout wider.

A widget's minimum width normally is its whole text: a long chat title, a model's name
or a folder's name then sets how narrow the chat column may get, and the splitter takes
the difference from the sidebar whenever the text changes (the sidebar jumped at the
start and end of every answer). These keep their preferred width (the whole text, when
there is room) but their minimum does not depend on the text; squeezed, they show it
elided, with all of it in the tool tip.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QHelpEvent, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QSizePolicy,
    QStyle,
    QStyleOptionComboBox,
    QStyleOptionToolButton,
    QStylePainter,
    QToolButton,
    QToolTip,
    QWidget,
)

from desktop.ui.plain_text import tooltip
from desktop.ui.views.labels import PlainLabel


class ElidedLabel(PlainLabel):
    """One line of plain text. Its minimum width is that of `shortest` (a sample of what
    must stay readable, "…" by default), not of its text."""

    def __init__(
        self,
        text: str = "",
        parent: QWidget | None = None,
        *,
        shortest: str = "…",
        mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight,
    ) -> None:
        super().__init__(text, parent)
        self._shortest = shortest
        self._mode = mode
        self.setWordWrap(False)

    def minimumSizeHint(self) -> QSize:
        margins = self.contentsMargins()
        width = self.fontMetrics().horizontalAdvance(self._shortest) + 2 * max(0, self.indent())
        return QSize(width + margins.left() + margins.right(), super().minimumSizeHint().height())

    def shown_text(self) -> str:
        """The text as drawn at the current width."""
        width = self.contentsRect().width()
        return self.fontMetrics().elidedText(self.text(), self._mode, width)

    def is_elided(self) -> bool:
        return self.shown_text() != self.text()

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.is_elided():
            super().paintEvent(event)  # selection and all, as a label draws itself
            return
        painter = QPainter(self)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            int(self.alignment()),
            self.palette(),
            self.isEnabled(),
            self.shown_text(),
            self.foregroundRole(),
        )

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and self.is_elided() and not self.toolTip():
            assert isinstance(event, QHelpEvent)
            QToolTip.showText(event.globalPos(), tooltip(self.text()), self)
            return True
        return super().event(event)


class WholeLabel(ElidedLabel):
    """One line of plain text shown whole or not at all, in the room the layout gives it
    either way: a hint cut to "Enter to s…" says nothing a person can use."""

    def shown_text(self) -> str:
        text = self.text()
        width = self.contentsRect().width()
        return text if self.fontMetrics().horizontalAdvance(text) <= width else ""

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and self.is_elided() and not self.toolTip():
            return True  # nothing is shown there to explain
        return super().event(event)


class ElidingComboBox(QComboBox):
    """As wide as its longest item where there is room, but never narrower than
    `shortest` characters' worth of text, whatever the items: squeezed, the current item
    shows elided and the tool tip names it in full. `shortest` None: never narrower than
    its longest item (for short labels Parley wrote itself)."""

    def __init__(self, parent: QWidget | None = None, *, shortest: int | None = 8) -> None:
        super().__init__(parent)
        self._tip = ""
        self._shortest = shortest
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.currentTextChanged.connect(self._update_tip)

    def minimumSizeHint(self) -> QSize:
        """The size hint with `shortest` characters in place of the longest item."""
        metrics = self.fontMetrics()
        texts = [self.itemText(i) for i in range(self.count())]
        widest = max((metrics.boundingRect(t).width() for t in texts), default=0)
        if not texts:
            widest = 7 * metrics.horizontalAdvance("x")  # as QComboBox measures no items
        hint = super().sizeHint()
        if self._shortest is None:
            return hint
        width = hint.width() - widest + metrics.horizontalAdvance("x" * self._shortest)
        return QSize(min(width, hint.width()), hint.height())

    def setToolTip(self, tip: str) -> None:
        """What the combo box is for; the elided item's full text is added to it."""
        self._tip = tip
        self._update_tip()

    def shown_text(self) -> str:
        """The current item's text as drawn at the current width."""
        text = self.currentText()
        fitted = self.sizeAdjustPolicy() is QComboBox.SizeAdjustPolicy.AdjustToContents
        if fitted and self.width() >= super().sizeHint().width():
            return text  # the room the style asked for the longest item: drawn as it is
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox,
            option,
            QStyle.SubControl.SC_ComboBoxEditField,
            self,
        )
        return self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, field.width() - 2)

    def is_elided(self) -> bool:
        return self.shown_text() != self.currentText()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        if self.currentIndex() >= 0:
            option.currentText = self.shown_text()
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._update_tip()

    def _update_tip(self, *_: object) -> None:
        text = self.currentText()
        full = "\n".join(t for t in (text, self._tip) if t) if self.is_elided() else self._tip
        super().setToolTip(tooltip(full))


class ElidingToolButton(QToolButton):
    """A text button whose minimum width is that of `shortest`, not of its text; when
    narrower than its text it shows the text elided in the middle (a path's end stays)."""

    def __init__(self, parent: QWidget | None = None, *, shortest: str = "…") -> None:
        super().__init__(parent)
        self._shortest = shortest
        # A tool button is Fixed: as wide as its text. This one may shrink to `shortest`.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def _text_width(self, text: str) -> int:
        """As QToolButton measures its text (a space either side)."""
        metrics = self.fontMetrics()
        size = metrics.size(Qt.TextFlag.TextShowMnemonic, text)
        return size.width() + 2 * metrics.horizontalAdvance(" ")

    def _chrome(self) -> int:
        """The width around the text: frame, padding, the menu arrow."""
        return super().sizeHint().width() - self._text_width(self.text())

    def minimumSizeHint(self) -> QSize:
        width = self._chrome() + self._text_width(self._shortest)
        return QSize(width, super().minimumSizeHint().height())

    def shown_text(self) -> str:
        """The text as drawn at the current width; an "&&" (an "&" shown as itself, see
        `plain_text.button_text`) is never cut in two."""
        width = self.width() - self._chrome() - self._text_width("")
        mode, flags = Qt.TextElideMode.ElideMiddle, Qt.TextFlag.TextShowMnemonic
        return self.fontMetrics().elidedText(self.text(), mode, width, flags)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionToolButton()
        self.initStyleOption(option)
        option.text = self.shown_text()
        painter.drawComplexControl(QStyle.ComplexControl.CC_ToolButton, option)
