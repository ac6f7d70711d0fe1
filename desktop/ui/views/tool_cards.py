"""Tool calls inside an answer: one compact card each, folded open for the details.

A card's header is one line: the tool's name, what it was asked (the arguments on one
line, elided) and where the call stands; the decision, timing, arguments and result
are inside. Every other part is a word-wrapped label, so the card answers
`heightForWidth` and the transcript measures it like the rest of the message; folding
shows or hides children, which makes the transcript place its rows again.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase, QMouseEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from desktop.ui.icons import set_icon
from desktop.ui.plain_text import button_text
from desktop.ui.viewmodels.attachment_tray import AttachmentFiles
from desktop.ui.viewmodels.tool_card import ToolCard
from desktop.ui.views.attachment_chips import SentChips
from desktop.ui.views.elided import ElidedLabel
from desktop.ui.views.labels import MarkupLabel, PlainLabel, escape
from desktop.ui.views.memory_row import MemorySaveRow


def _mono_label(parent: QWidget, name: str) -> QLabel:
    label = PlainLabel("", parent)
    label.setObjectName(name)
    label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class ToolCardWidget(QFrame):
    openOutput = Signal(str)  # the output's path, relative to the data folder
    memoryUndo = Signal(str, str)  # call id, the text saved
    memoryEdit = Signal(str, str, str)  # call id, the text saved, the new text

    def __init__(
        self, card: ToolCard, parent: QWidget | None = None, files: AttachmentFiles | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("ToolCard")
        self._files = files
        self._card = card
        self.chips: SentChips | None = None  # images the tool returned
        self.memory: MemorySaveRow | None = None  # what a memory_save kept
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("ToolCardToggle")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_icon(self.toggle, "chevron-right", size=12)
        self.toggle.setAutoRaise(True)
        self.toggle.toggled.connect(self._on_toggled)
        # What the model asked for, on one line: a click on it opens the card too.
        self.headline = ElidedLabel("", self)
        self.headline.setObjectName("ToolHeadline")
        self.headline.mousePressEvent = self._click_toggle  # type: ignore[method-assign]
        self.state = PlainLabel("", self)
        self.state.setObjectName("ToolState")
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.setSpacing(6)
        header.addWidget(self.toggle)
        header.addWidget(self.headline, 1)
        header.addWidget(self.state)
        self.details = QWidget(self)
        self.summary = PlainLabel("", self.details)  # may quote a tool's error
        self.summary.setObjectName("MetaLabel")
        self.summary.setWordWrap(True)
        self.arguments_title = PlainLabel(self.tr("Arguments"), self.details)
        self.arguments_title.setObjectName("MetaLabel")
        self.arguments = _mono_label(self.details, "ToolArguments")
        self.result_title = PlainLabel(self.tr("Result"), self.details)
        self.result_title.setObjectName("MetaLabel")
        self.result = _mono_label(self.details, "ToolResult")
        self.output = MarkupLabel("", self.details)  # the escaped path and an Open link
        self.output.setObjectName("MetaLabel")
        self.output.setWordWrap(True)
        self.output.linkActivated.connect(
            lambda _link: self.openOutput.emit(self._card.output_path)
        )
        inner = self._inner = QVBoxLayout(self.details)
        inner.setContentsMargins(20, 0, 0, 0)
        inner.setSpacing(2)
        for widget in (
            self.summary,
            self.arguments_title,
            self.arguments,
            self.result_title,
            self.result,
            self.output,
        ):
            inner.addWidget(widget)
        self.details.hide()
        layout = self._outer = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 4)
        layout.setSpacing(2)
        layout.addLayout(header)
        layout.addWidget(self.details)
        self.show_card(card)

    @property
    def card(self) -> ToolCard:
        return self._card

    def show_card(self, card: ToolCard) -> None:
        self._card = card
        self.setProperty("toolState", card.state)
        self.state.setProperty("toolState", card.state)
        self.state.style().polish(self.state)  # its colour follows the state
        self.toggle.setText(button_text(card.name))
        self.toggle.setAccessibleName(
            self.tr("Tool call %1: %2").replace("%1", card.name).replace("%2", card.state_label)
        )
        self.headline.setText(card.headline)
        self.state.setText(card.state_label)
        self.summary.setText(card.summary)
        self.summary.setVisible(bool(card.summary))
        self.arguments.setText(card.arguments or "{}")
        self.result_title.setVisible(bool(card.result))
        self.result.setVisible(bool(card.result))
        self.result.setText(card.result)
        self.output.setVisible(bool(card.output_path))
        if card.output_path:
            self.output.setText(
                self.tr("Full output: %1 — <a href='open'>Open</a>").replace(
                    "%1", escape(card.output_path)
                )
            )
        self._show_files(card.attachment_ids)
        self._show_memory(card.memory_saved)

    def _show_memory(self, text: str) -> None:
        if not text:
            if self.memory is not None:
                self.memory.hide()
            return
        if self.memory is None:
            self.memory = MemorySaveRow(text, self)
            self.memory.undoRequested.connect(
                lambda saved: self.memoryUndo.emit(self._card.call_id, saved)
            )
            self.memory.editRequested.connect(
                lambda saved, new: self.memoryEdit.emit(self._card.call_id, saved, new)
            )
            self._outer.insertWidget(self._outer.indexOf(self.details), self.memory)
        self.memory.show_text(text)
        self.memory.show()

    def _show_files(self, ids: tuple[str, ...]) -> None:
        shown = self.chips.property("attachmentIds") if self.chips is not None else None
        if self._files is None or tuple(shown or ()) == ids:
            return
        if self.chips is not None:
            self.chips.hide()
            self.chips.deleteLater()
            self.chips = None
        attachments = self._files.lookup(ids)
        if attachments:
            self.chips = SentChips(self._files, attachments, self.details)
            self.chips.setProperty("attachmentIds", list(ids))
            self._inner.insertWidget(self._inner.indexOf(self.output), self.chips)

    def _click_toggle(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.toggle.toggle()

    def _on_toggled(self, expanded: bool) -> None:
        set_icon(self.toggle, "chevron-down" if expanded else "chevron-right", size=12)
        self.details.setVisible(expanded)


class ToolCards(QWidget):
    """The cards of one message, kept (and their folding kept) across updates."""

    openOutput = Signal(str)
    memoryUndo = Signal(str, str)
    memoryEdit = Signal(str, str, str)

    def __init__(self, parent: QWidget | None = None, files: AttachmentFiles | None = None) -> None:
        super().__init__(parent)
        self._files = files
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(4)
        self.cards: list[ToolCardWidget] = []

    def show_cards(self, cards: tuple[ToolCard, ...]) -> None:
        for index, card in enumerate(cards):
            if index < len(self.cards):
                self.cards[index].show_card(card)
            else:
                widget = ToolCardWidget(card, self, self._files)
                widget.openOutput.connect(self.openOutput)
                widget.memoryUndo.connect(self.memoryUndo)
                widget.memoryEdit.connect(self.memoryEdit)
                self._layout.addWidget(widget)
                self.cards.append(widget)
        while len(self.cards) > len(cards):
            widget = self.cards.pop()
            widget.hide()
            widget.deleteLater()
        self.setVisible(bool(cards))

    def show_memory_status(self, call_id: str, status: str, undone: bool, text: str) -> None:
        """What an action on a saved memory did; `text`: its words since an Edit."""
        for widget in self.cards:
            if widget.card.call_id == call_id and widget.memory is not None:
                if text:
                    widget.memory.show_text(text)
                widget.memory.show_status(status, undone)
