"""The sources an answer cites, as compact cards in a row under it (wrapping onto more
lines in a narrow window); a click on a card, or Enter on it, opens its source.

Everything on a card comes from a file or a model, so every label is plain text. A card
has a fixed width and lines that do not wrap (the excerpt is fitted to two lines here),
so its height is known without laying text out at a width: the transcript measures
the row with the rest of the message.
"""

from __future__ import annotations

from itertools import pairwise

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QMouseEvent, QTextLayout
from PySide6.QtWidgets import QFrame, QHBoxLayout, QVBoxLayout, QWidget

from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.citation_card import CitationCard
from desktop.ui.views.flow_layout import FlowLayout
from desktop.ui.views.labels import PlainLabel

CARD_WIDTH = 240  # px, the whole card
_PADDING = 8  # px inside the card's border, each side
_TOOLTIP_CHARS = 600  # of the passage in a card's tool tip


def fit_lines(text: str, font: QFont, width: int, lines: int = 2) -> str:
    """`text` broken into at most `lines` lines of `width` pixels, the last one elided."""
    metrics = QFontMetrics(font)
    layout = QTextLayout(text, font)
    layout.beginLayout()
    starts: list[int] = []
    while len(starts) < lines:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        starts.append(line.textStart())
    layout.endLayout()
    if not starts:
        return ""
    shown = [text[a:b].strip() for a, b in pairwise(starts)]
    last = text[starts[-1] :].strip()
    shown.append(metrics.elidedText(last, Qt.TextElideMode.ElideRight, width))
    return "\n".join(shown)


class CitationCardWidget(QFrame):
    clicked = Signal(int)  # the source's number

    def __init__(self, card: CitationCard, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CitationCard")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setFixedWidth(CARD_WIDTH)
        self.number = PlainLabel("", self)
        self.number.setObjectName("CitationNumber")
        self.file_name = PlainLabel("", self)
        self.file_name.setObjectName("CitationFile")
        self.location = PlainLabel("", self)
        self.location.setObjectName("CitationLocation")
        self.excerpt = PlainLabel("", self)
        self.excerpt.setObjectName("CitationExcerpt")
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.setSpacing(6)
        top.addWidget(self.number)
        top.addWidget(self.file_name, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(_PADDING, 6, _PADDING, 6)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.location)
        layout.addWidget(self.excerpt)
        self._card = card
        self.show_card(card)

    @property
    def card(self) -> CitationCard:
        return self._card

    def show_card(self, card: CitationCard) -> None:
        self._card = card
        for label in (self.number, self.file_name, self.location, self.excerpt):
            label.ensurePolished()  # the stylesheet's font sizes, before measuring
        inner = CARD_WIDTH - 2 * _PADDING - 2  # the border
        self.number.setText(f"[{card.number}]")
        name_width = inner - self.number.sizeHint().width() - 6
        self.file_name.setText(
            self.file_name.fontMetrics().elidedText(
                card.file_name, Qt.TextElideMode.ElideMiddle, name_width
            )
        )
        self.location.setText(
            self.location.fontMetrics().elidedText(
                card.location, Qt.TextElideMode.ElideRight, inner
            )
        )
        self.location.setVisible(bool(card.location))
        self.excerpt.setText(fit_lines(card.excerpt, self.excerpt.font(), inner))
        self.excerpt.setVisible(bool(card.excerpt))
        passage = card.part.excerpt
        if len(passage) > _TOOLTIP_CHARS:
            passage = passage[:_TOOLTIP_CHARS] + "…"
        where = " · ".join(t for t in (card.shown_path, card.location) if t)
        self.setToolTip(tooltip(f"{where}\n\n{passage}"))
        self.setAccessibleName(
            self.tr("Source %1: %2").replace("%1", str(card.number)).replace("%2", where)
        )

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.rect().contains(
            event.position().toPoint()
        ):
            self.clicked.emit(self._card.number)
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.clicked.emit(self._card.number)
            return
        super().keyPressEvent(event)


class CitationCards(QWidget):
    """The cards of one answer, in the order given (its first-citation order)."""

    opened = Signal(int)  # the number of the source to open

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CitationCards")
        self._flow = FlowLayout(self, spacing=6)
        self.cards: list[CitationCardWidget] = []

    def show_cards(self, cards: tuple[CitationCard, ...]) -> None:
        if tuple(widget.card for widget in self.cards) == cards:
            return
        for widget in self.cards:
            widget.hide()
            widget.deleteLater()
        self.cards = []
        for card in cards:
            widget = CitationCardWidget(card, self)
            widget.clicked.connect(self.opened)
            self.cards.append(widget)
        self._flow.place(list(self.cards))
        self.setVisible(bool(cards))
        self.updateGeometry()
