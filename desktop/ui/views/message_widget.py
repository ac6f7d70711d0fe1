"""One message in the transcript; `AssistantMessage` here, the person's bubble in `user_message`.

A message widget shows a `MessageItem` and reports what the person asks of it through
signals carrying the message id; the transcript forwards them to the view-model. Its
action row shows on hover, while focus is inside it (so Tab reaches the buttons) and
always on the latest message; it keeps its space when hidden so text never jumps. A
message too long to show in full gets a `CutBar` under its text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QUrl, Signal
from PySide6.QtGui import QEnterEvent, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.icons import IconLabel, set_icon
from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.message_item import MessageItem, ToolSegment
from desktop.ui.views.citation_cards import CitationCards
from desktop.ui.views.cut_bar import CutBar
from desktop.ui.views.labels import MarkupLabel, PlainLabel
from desktop.ui.views.message_actions import ActionSlot, MessageActions, has_actions
from desktop.ui.views.notice_detail import NoticeDetailDialog, notice_index, notices_html
from desktop.ui.views.rich_text import RichText
from desktop.ui.views.tool_cards import ToolCards, ToolCardWidget


def _label(name: str, parent: QWidget) -> QLabel:
    """Plain text: errors quote servers, file names and paths."""
    label = PlainLabel("", parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class MessageWidget(QFrame):
    editSubmitted = Signal(str, str)  # message id, new text
    regenerateRequested = Signal(str)
    versionRequested = Signal(str, int)  # message id, -1 previous / +1 next
    deleteRequested = Signal(str)  # the transcript asks for confirmation first
    continueRequested = Signal(str)
    retryRequested = Signal(str)
    pinRequested = Signal(str)  # toggle: the transcript's context model knows the state
    _pinned = False
    _header: QWidget | None = None  # a row above the message (the summary divider)
    _pin_marker: QWidget | None = None
    _cut_bar: CutBar | None = None  # built for a message too long to show in full

    def __init__(
        self,
        item: MessageItem,
        chat: ChatViewModel,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._item = item
        self._latest = False
        self._hovered = False
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

        self.body = RichText(self)
        self.body.setObjectName("MessageBody")
        self.body.set_image_source(chat.transcript.image)
        self.body.document().setDefaultStyleSheet(chat.transcript.document_css)
        self.body.linkActivated.connect(self._on_link)
        self.notices = MarkupLabel("", self)  # escaped notices, "Show text" links
        self.notices.setObjectName("MetaLabel")
        self.notices.setWordWrap(True)
        self.notices.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.notices.linkActivated.connect(self._open_notice)
        self.error_box = _label("ErrorBox", self)
        self.status = _label("StatusLabel", self)
        self.action_slot = ActionSlot(self)

    @property
    def actions(self) -> MessageActions:  # type: ignore[override]  # see the docstring
        """The action row, built on first use (see `ActionSlot`).

        This shadows `QWidget.actions()` for Python callers (Qt's own code is unaffected);
        `action_row` is the same without the clash.
        """
        row = self.action_slot.row
        if row is None:
            row = self.action_slot.ensure_row()
            row.copyClicked.connect(self._copy_message)
            row.editClicked.connect(self.begin_edit)
            row.regenerateClicked.connect(lambda: self.regenerateRequested.emit(self._id))
            row.versionClicked.connect(lambda step: self.versionRequested.emit(self._id, step))
            row.continueClicked.connect(lambda: self.continueRequested.emit(self._id))
            row.retryClicked.connect(lambda: self.retryRequested.emit(self._id))
            row.pinClicked.connect(lambda: self.pinRequested.emit(self._id))
            row.set_pinned(self._pinned)
            row.deleteClicked.connect(lambda: self.deleteRequested.emit(self._id))
            row.show_item(self._item)
            previous: QWidget = self.body  # built late, so put it after the text for Tab
            for button in row.buttons:
                QWidget.setTabOrder(previous, button)
                previous = button
        return row

    @property
    def action_row(self) -> MessageActions:
        return self.actions

    def text_views(self) -> list[RichText]:
        """The message's text, in reading order (in-chat find highlights in these)."""
        return [self.body]

    @property
    def _id(self) -> str:
        return self._item.id

    @property
    def item(self) -> MessageItem:
        return self._item

    @property
    def is_editing(self) -> bool:
        return False

    @property
    def header(self) -> QWidget | None:
        return self._header

    @property
    def pinned(self) -> bool:
        return self._pinned

    def set_header(self, header: QWidget | None) -> None:
        """Show `header` above the message (None removes the current one)."""
        if header is self._header:
            return
        if self._header is not None:
            self._header.hide()
            self._header.deleteLater()
        self._header = header
        if header is not None:
            header.setParent(self)
            self._top_layout().insertWidget(0, header)
            header.show()

    def set_pinned(self, pinned: bool) -> None:
        """Mark the message as pinned: always sent in full, never summarised."""
        self._pinned = pinned
        if pinned and self._pin_marker is None:
            marker = self._pin_marker = QWidget(self)
            marker.setObjectName("PinMarker")
            text = _label("PinMarkerText", marker)
            text.setText(self.tr("Pinned — always sent in full"))
            text.setWordWrap(False)
            row = QHBoxLayout(marker)
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(4)
            row.addWidget(IconLabel("pin", marker, size=12, tone="accent"))
            row.addWidget(text, 1)
            layout = self._top_layout()
            layout.insertWidget(1 if self._header is not None else 0, marker)
        if self._pin_marker is not None:
            self._pin_marker.setVisible(pinned)
        if self.action_slot.row is not None:
            self.action_slot.row.set_pinned(pinned)

    def _top_layout(self) -> QVBoxLayout:
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        return layout

    def begin_edit(self) -> None:
        """Only the person's own messages can be edited (see `UserMessage`)."""

    @property
    def cut_bar(self) -> CutBar:
        if self._cut_bar is None:
            bar = self._cut_bar = CutBar(self)
            bar.copyClicked.connect(self._copy_message)
            bar.saveClicked.connect(self._save_message)
            layout, index = self._cut_bar_place()
            layout.insertWidget(index, bar)
        return self._cut_bar

    def _cut_bar_place(self) -> tuple[QVBoxLayout, int]:
        """Where the cut bar goes: right under the text."""
        raise NotImplementedError

    def update_item(self, item: MessageItem) -> None:
        self._item = item
        if item.cut_note or self._cut_bar is not None:
            self.cut_bar.set_note(item.cut_note)
        self.notices.setVisible(bool(item.notices))
        self.notices.setText(notices_html(item.notices, self.tr("Show text")))
        self.error_box.setVisible(bool(item.error))
        self.error_box.setText(item.error)
        self.status.setVisible(bool(item.status_label))
        self.status.setText(item.status_label)
        if self.action_slot.row is not None:
            self.action_slot.row.show_item(item)
        self.refresh_actions()

    def _open_notice(self, link: str) -> None:
        index = notice_index(link)
        if index is None or not 0 <= index < len(self._item.notices):
            return
        dialog = NoticeDetailDialog(self._item.notices[index], self.window())
        dialog.show()

    def measure(self, column_width: int) -> int:
        """The height this message needs in a column `column_width` wide."""
        self.fit_to(column_width)
        height = self.heightForWidth(column_width)
        return height if height > 0 else self.sizeHint().height()

    def fit_to(self, column_width: int) -> None:
        """Adjust inner widths to the column before measuring (bubbles override this)."""

    # --- when the action row shows -------------------------------------------------

    def set_latest(self, latest: bool) -> None:
        if latest != self._latest:
            self._latest = latest
            self.refresh_actions()

    def refresh_actions(self) -> None:
        focus = QApplication.focusWidget()
        focused = focus is not None and self.isAncestorOf(focus)
        shown = self._latest or self._hovered or focused
        if shown and has_actions(self._item) and not self.is_editing:
            self.actions.show()
        elif self.action_slot.row is not None:
            self.action_slot.row.hide()

    def enterEvent(self, event: QEnterEvent) -> None:
        self._hovered = True
        self.refresh_actions()
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._hovered = False
        self.refresh_actions()
        super().leaveEvent(event)

    def _on_link(self, url: QUrl) -> None:
        self._chat.activate_link(url.toString(), self._item.markdown, self._item.sources)

    def _copy_message(self) -> None:
        QGuiApplication.clipboard().setText(self._item.markdown)
        self.actions.flash_copied()

    def _save_message(self) -> None:
        """Ask where, then have the view-model write the whole text there."""
        name = self.tr("message.txt") if self._item.is_user else self.tr("answer.md")
        dialog = QFileDialog(self.window(), self.tr("Save Message"), str(Path.home() / name))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        message_id = self._id
        dialog.fileSelected.connect(lambda path: self._chat.save_message(message_id, path))
        dialog.open()


@dataclass(frozen=True, slots=True)
class AllCards:
    """Every tool card of an answer, in order, whichever run of calls holds it."""

    cards: list[ToolCardWidget]


class ReasoningCard(QFrame):
    """The model's reasoning: a muted, bordered card that folds. It streams open while
    the model thinks ("Thinking…") and folds away once the answer starts ("Thought for
    N s"), unless the person opened or closed it themselves."""

    def __init__(self, chat: ChatViewModel, wrap_width: int, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("ReasoningCard")
        self.touched = False  # the person opened/closed it: stop auto-toggling
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("ReasoningToggle")
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.body = RichText(self)
        self.body.setObjectName("ReasoningBody")
        self.body.set_image_source(chat.transcript.image)
        self.body.document().setDefaultStyleSheet(chat.transcript.document_css)
        self.body.set_wrap_width(wrap_width - 2 * _CARD_PADDING - 2)
        self.body.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(_CARD_PADDING, 2, _CARD_PADDING, 2)
        layout.setSpacing(2)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.body)

    def show_item(self, item: MessageItem) -> None:
        has_reasoning = bool(item.reasoning_label)
        self.setVisible(has_reasoning)
        self.toggle.setText(item.reasoning_label)
        self.toggle.setAccessibleName(self.tr("Reasoning: %1").replace("%1", item.reasoning_label))
        if has_reasoning and not self.touched:
            self.toggle.setChecked(item.reasoning_live)
        expanded = has_reasoning and self.toggle.isChecked()
        set_icon(self.toggle, "chevron-down" if expanded else "chevron-right", size=12)
        self.setProperty("expanded", expanded)
        self.style().polish(self)
        self.body.setVisible(expanded)
        if expanded:  # rendered only once opened: most reasoning is never read
            self.body.set_html(item.reasoning_html, growing=item.reasoning_live)


_CARD_PADDING = 8


class AssistantMessage(MessageWidget):
    """A full-width answer: reasoning (built when there is some), then its text and tool
    calls in the order it wrote them, its sources, notices, and the footer."""

    def __init__(
        self,
        item: MessageItem,
        chat: ChatViewModel,
        parent: QWidget | None = None,
        width_hint: int = 0,
    ) -> None:
        """`width_hint`: the column width, so the text is laid out once, at that width."""
        super().__init__(item, chat, parent)
        self.setObjectName("AssistantMessage")
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)  # no background: see RichText
        self._reasoning: ReasoningCard | None = None
        self._texts: list[RichText] = [self.body]  # its text between tool calls, in order
        self._tool_groups: list[ToolCards] = []  # its runs of tool calls, in order
        self._flow: list[QWidget] = [self.body]  # both, as they sit in the layout
        self._citations: CitationCards | None = None  # built for answers that cite sources
        self._approval: QPushButton | None = None
        self.meta = _label("MetaLabel", self)
        # One line whatever shows beside it: the row appearing on hover must not re-wrap it.
        self.meta.setWordWrap(False)
        self.meta.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        footer = QHBoxLayout()
        footer.setContentsMargins(0, 0, 0, 0)
        footer.setSpacing(8)
        footer.addWidget(self.meta, 1)
        footer.addWidget(self.action_slot)
        layout = self._layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 4, 2, 4)
        layout.setSpacing(6)
        for widget in (self.body, self.notices, self.error_box, self.status):
            layout.addWidget(widget)
        layout.addLayout(footer)
        self._wrap_width = width_hint - 4  # minus the side margins
        self.body.set_wrap_width(self._wrap_width)
        self.update_item(item)

    def _cut_bar_place(self) -> tuple[QVBoxLayout, int]:
        return self._layout, self._layout.indexOf(self._flow[-1]) + 1

    def text_views(self) -> list[RichText]:
        views = [self.reasoning_body] if self._reasoning is not None else []
        return [view for view in (*views, *self._texts) if view.isVisibleTo(self)]

    @property
    def reasoning_card(self) -> ReasoningCard:
        if self._reasoning is None:
            card = self._reasoning = ReasoningCard(self._chat, self._wrap_width, self)
            card.toggle.clicked.connect(self._on_reasoning_clicked)
            card.hide()
            self._layout.insertWidget(0, card)
        return self._reasoning

    @property
    def reasoning_toggle(self) -> QToolButton:
        return self.reasoning_card.toggle

    @property
    def reasoning_body(self) -> RichText:
        return self.reasoning_card.body

    @property
    def tool_cards(self) -> AllCards:
        return AllCards([card for group in self._tool_groups for card in group.cards])

    def _tool_group(self, index: int) -> ToolCards:
        """The `index`th run of tool calls' cards, made when first needed."""
        memories = self._chat.memory_cards
        while len(self._tool_groups) <= index:
            group = ToolCards(self, self._chat.tray.files)
            group.openOutput.connect(self._chat.outputs.open)
            group.memoryUndo.connect(lambda call_id, text: memories.undo(call_id, self._id, text))
            group.memoryEdit.connect(
                lambda call_id, text, new: memories.edit(call_id, self._id, text, new)
            )
            if not self._tool_groups:
                memories.changed.connect(self._memory_changed)
            self._tool_groups.append(group)
        return self._tool_groups[index]

    def _text_view(self, index: int) -> RichText:
        """The `index`th piece of text's view (the first is `body`)."""
        while len(self._texts) <= index:
            view = RichText(self)
            view.setObjectName("MessageBody")
            view.set_image_source(self._chat.transcript.image)
            view.document().setDefaultStyleSheet(self._chat.transcript.document_css)
            view.linkActivated.connect(self._on_link)
            view.set_wrap_width(self._wrap_width)
            self._texts.append(view)
        return self._texts[index]

    @property
    def citation_cards(self) -> CitationCards:
        """The sources the answer cites, under its text (and its tool calls)."""
        if self._citations is None:
            self._citations = CitationCards(self)
            self._citations.opened.connect(self._open_source)
            self._layout.insertWidget(self._layout.indexOf(self.notices), self._citations)
        return self._citations

    def _memory_changed(self, call_id: str) -> None:
        memories = self._chat.memory_cards
        for group in self._tool_groups:
            group.show_memory_status(
                call_id, memories.status(call_id), memories.undone(call_id), memories.text(call_id)
            )

    def _open_source(self, number: int) -> None:
        card = self._item.source(number)
        if card is not None:
            self._chat.open_citation(card)

    @property
    def approval_button(self) -> QPushButton:
        if self._approval is None:
            button = self._approval = QPushButton(self.tr("Review tool calls…"), self)
            button.setObjectName("ApprovalButton")
            button.clicked.connect(lambda: self._chat.approvals.reveal(self._id))
            self._layout.insertWidget(
                self._layout.indexOf(self.status) + 1, button, 0, Qt.AlignmentFlag.AlignLeft
            )
        return self._approval

    def update_item(self, item: MessageItem) -> None:
        if item.reasoning_label or self._reasoning is not None:
            self.reasoning_card.show_item(item)
        self._show_flow(item)
        for card in item.tools:
            if card.memory_saved:
                self._memory_changed(card.call_id)
        if item.awaiting_approval or self._approval is not None:
            self.approval_button.setVisible(item.awaiting_approval)
        if item.citations or self._citations is not None:
            self.citation_cards.show_cards(item.citations)
        self.meta.setVisible(bool(item.meta) and not item.streaming)
        self.meta.setText(item.meta)
        super().update_item(item)

    def _show_flow(self, item: MessageItem) -> None:
        """The answer's text and tool calls, in the order it wrote them."""
        flow: list[QWidget] = []
        texts = groups = 0
        segments = item.segments
        for segment in segments:
            if isinstance(segment, ToolSegment):
                group = self._tool_group(groups)
                group.show_cards(item.tools[segment.start : segment.stop])
                flow.append(group)
                groups += 1
            else:
                view = self._text_view(texts)
                last = segment is segments[-1]
                view.set_html(segment.html, growing=item.streaming and last)
                view.show()
                flow.append(view)
                texts += 1
        if not segments:
            # Its whole text in one view: "…" while an answer without reasoning starts.
            shown = bool(item.html) or (item.streaming and not item.reasoning_label)
            placeholder = self.tr("…") if item.streaming else ""
            self.body.set_html(item.html or placeholder, growing=item.streaming)
            self.body.setVisible(shown)
            flow.append(self.body)
            texts = 1
            if item.tools:  # an item made without its order: the calls after the text
                self._tool_group(0).show_cards(item.tools)
                flow.append(self._tool_groups[0])
                groups = 1
        elif not texts:
            self.body.hide()  # only tool calls so far: the text view waits, empty
            flow.insert(0, self.body)
            texts = 1
        for extra in (*self._texts[texts:], *self._tool_groups[groups:]):
            extra.hide()
        self._place(flow)

    def _place(self, flow: list[QWidget]) -> None:
        """Put the flow's widgets in order right after the reasoning card."""
        first = 0 if self._reasoning is None else self._layout.indexOf(self._reasoning) + 1
        for offset, widget in enumerate(flow):
            if self._layout.indexOf(widget) != first + offset:
                self._layout.removeWidget(widget)
                self._layout.insertWidget(first + offset, widget)
        self._flow = flow

    def _on_reasoning_clicked(self) -> None:
        self.reasoning_card.touched = True
        self.update_item(self._item)
