"""The open chat's messages as the transcript shows them: which are on screen, their
rendered items, streaming updates at a pace the GUI thread affords, older messages read
in idle steps, and images and typeset formulas as they arrive.

The chat view-model decides which chat is open (`show`, `clear`) and hands it the
engine's message events (`message_changed`); everything about turning messages into
rows is here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QObject, QTimer, QUrl, Signal
from PySide6.QtGui import QGuiApplication, QImage, QPalette

from desktop.core.models import Message, MessageStatus
from desktop.engine.turn import versions
from desktop.engine.turn.chat_service import ChatService
from desktop.render.theme import document_css
from desktop.ui.image_loader import ImageLoader
from desktop.ui.math_images import MATH_SCHEME, MathStyle, MathTypesetter
from desktop.ui.render_ahead import RenderAhead
from desktop.ui.viewmodels.collector import collector_paused
from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.viewmodels.message_renderer import MessageRenderer
from desktop.ui.viewmodels.update_pacer import UpdatePacer

# A chat opens at its end: this many of its newest messages are read before the first
# paint, the older ones afterwards, this many per idle turn, above those shown.
FIRST_MESSAGES = 100
OLDER_STEP = 500


class TranscriptModel(QObject):
    messagesReset = Signal(list)  # list[MessageItem]
    messagesPrepended = Signal(list)  # list[MessageItem]: older ones of the open chat
    messageAdded = Signal(object)  # MessageItem
    messageUpdated = Signal(object)  # MessageItem
    focusMessage = Signal(str)  # scroll to this message (a search hit)
    messagesRead = Signal(list)  # list[Message]: read from the chat, newest batch first
    # What is on screen must be shown again (the theme, the formulas' style or the
    # remote-image setting changed): the chat view-model opens the chat again.
    stale = Signal()

    def __init__(
        self,
        chat: ChatService,
        note_files: Callable[[Message], None],
        images: ImageLoader | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._note_files = note_files  # the attachments a message shows, for their chips
        self._images = images
        self.maths = MathTypesetter(self)  # formulas, typeset in a child process
        self.maths.typeset.connect(self._on_maths_typeset)
        self._maths_restyle = QTimer(self)  # the view's text style changed: show it again
        self._maths_restyle.setSingleShot(True)
        self._maths_restyle.setInterval(0)
        self._maths_restyle.timeout.connect(self._restyle)
        # Streaming answers, split and rendered in a worker while their updates wait.
        self.ahead = RenderAhead(self)
        self._renderer = MessageRenderer(
            request_image=images.request if images else None,
            maths=self.maths,
            ahead=self.ahead.submit,
        )
        if images is not None:
            images.loaded.connect(self._on_image_loaded)
            images.evicted.connect(self._renderer.image_evicted)
        self._pacer = UpdatePacer(self._show_streamed, self)
        self._dark = False
        self._conversation_id = ""
        self._shown: set[str] = set()  # ids of the messages currently on screen
        self._streamed: dict[str, Message] = {}  # the latest update of each streaming one
        self._path: list[str] = []  # the active branch, root first
        # Child ids per parent id, in creation order, where they label something (see
        # versions.version_groups): each message's "‹ 2/3 ›" is read from it.
        self._children: dict[str | None, list[str]] = {}
        self._older: list[str] = []  # ids of the open chat's messages not read yet
        self._oldest_read: str | None = None  # the first message the transcript has
        self._older_timer = QTimer(self)
        self._older_timer.setSingleShot(True)
        self._older_timer.setInterval(0)
        self._older_timer.timeout.connect(self._load_older)

    @property
    def blocks_taken_ahead(self) -> int:
        """Blocks of streaming answers shown as the worker rendered them (tests, benches)."""
        return self._renderer.blocks_taken_ahead

    @property
    def update_pacer(self) -> UpdatePacer:
        """Paces streaming updates (benchmarks and tests read its counters)."""
        return self._pacer

    @property
    def document_css(self) -> str:
        """The default stylesheet for rendered messages in the current theme."""
        return document_css(self._dark)

    def set_cost_text(self, cost_text: Callable[[Message], str]) -> None:
        """What a finished answer's footer says it cost."""
        self._renderer.cost_text = cost_text

    # --- what in-chat find searches (see find.py) -------------------------------------

    @property
    def conversation_id(self) -> str:
        """The chat shown ("" for a new chat)."""
        return self._conversation_id

    def path_ids(self) -> list[str]:
        """The shown branch's message ids, root first, read or not yet."""
        return list(self._path)

    def read_messages(self, message_ids: list[str]) -> list[Message]:
        """These messages of the shown chat as they are now (a streaming answer as far as
        it has come); ones deleted meanwhile are left out."""
        messages = self._chat.messages_by_id(message_ids)
        return [self._streamed.get(m.id, m) for m in messages]

    def reveal(self, message_id: str) -> None:
        """Make sure a message of the shown branch has a row: one not read yet is read
        now, with everything after it, and scrolled to (`focusMessage`)."""
        if message_id in self._older:
            self.show(self._conversation_id, message_id)

    # --- which chat is shown ----------------------------------------------------------

    def show(self, conversation_id: str, focus_message_id: str = "") -> None:
        """Show the chat's active branch from its newest messages (or from the search hit
        `focus_message_id`); the older ones follow in idle steps."""
        again = conversation_id == self._conversation_id
        self._conversation_id = conversation_id
        with collector_paused():  # thousands of rows, messages, items: see collector.py
            path, children = self._chat.active_branch_ids(conversation_id)
            self._children = versions.version_groups(children, path[-1] if path else None)
            self._renderer.forget_all()
            self._pacer.discard()
            first = self._first_to_read(path, focus_message_id, again)
            self._path = path
            self._shown = set(path)
            self._older = path[:first]
            self._oldest_read = path[first] if first < len(path) else None
            messages = self._chat.messages_by_id(path[first:])
            items = [self._item(m) for m in messages]
        self.messagesReset.emit(items)
        self.messagesRead.emit(messages)
        if self._older:
            self._older_timer.start()
        if focus_message_id in self._shown:
            self.focusMessage.emit(focus_message_id)

    def clear(self) -> None:
        """Nothing shown: a new chat."""
        self._conversation_id = ""
        self._renderer.forget_all()
        self._pacer.discard()
        self._streamed.clear()
        self._shown = set()
        self._path = []
        self._children = {}
        self._older = []
        self._oldest_read = None
        self._older_timer.stop()
        self.messagesReset.emit([])

    def message_changed(self, message: Message) -> None:
        """A message of the open chat changed (or is new): update its row, or add it
        when it is a new node at the tip; a streaming one through the pacer."""
        if message.conversation_id != self._conversation_id:
            return
        if message.id in self._shown:
            if message.status is MessageStatus.STREAMING:
                self._streamed[message.id] = message
                self._renderer.prefetch(message)
                self._pacer.submit(message)
            else:
                self._streamed.pop(message.id, None)
                self._pacer.discard(message.id)
                self.messageUpdated.emit(self._item(message))
            return
        tip = self._path[-1] if self._path else None
        if message.parent_id != tip:
            return  # another branch of this chat (e.g. a version switched away from)
        # A new node at the tip: the newest child of its parent (edits and new answers
        # switch the path first, so they arrive through a fresh `show`).
        siblings = self._children.setdefault(message.parent_id, [])
        if message.id not in siblings:
            siblings.append(message.id)
        self._path.append(message.id)
        self._shown.add(message.id)
        self.messageAdded.emit(self._item(message))

    # --- how it is shown --------------------------------------------------------------

    def set_dark(self, dark: bool) -> None:
        """Code colours follow the theme: what is on screen is shown again."""
        self._dark = dark
        self._renderer.set_dark(dark)
        # Formulas in the theme's text colour (the palette is the theme's by now).
        colour = QGuiApplication.palette().color(QPalette.ColorRole.Text).name()
        if self.maths.set_style(replace(self.maths.style, colour=colour)):
            self._renderer.forget_all()
        self._maths_restyle.stop()  # shown again now, in the style already set
        self._restyle()

    def set_math_style(self, style: MathStyle) -> None:
        """Formulas in the text's colour and size, at the screen's pixel ratio (the view
        says which); what is on screen is shown again in it, once, a moment later."""
        shown = self.maths.in_use  # else nothing on screen has a formula: nothing to redo
        if self.maths.set_style(style) and shown:
            self._renderer.forget_all()
            self._maths_restyle.start()

    def allow_remote_images(self, enabled: bool) -> None:
        """Images become links, or are requested, in what is on screen now."""
        if self._renderer.set_remote_images(enabled and self._images is not None):
            self._restyle()

    def image(self, url: QUrl) -> QImage | None:
        """A loaded image (or typeset formula) for the message views; None when it is not
        (or no longer) loaded."""
        if url.scheme() == MATH_SCHEME:
            return self.maths.image(url)
        return self._images.image(url) if self._images is not None else None

    # --- internals --------------------------------------------------------------------

    def _restyle(self) -> None:
        if self._conversation_id:
            self.stale.emit()

    def _first_to_read(self, path: list[str], focus_message_id: str, again: bool) -> int:
        """Where reading a branch starts before the first paint: at its newest messages,
        or further back for a search hit; the older ones are read after it, step by step
        (`_load_older`). A chat shown again (a version switched, the theme changed) is
        read as far back as before, so what the person is looking at is still there."""
        first = max(0, len(path) - FIRST_MESSAGES)
        if focus_message_id in path:
            first = min(first, path.index(focus_message_id))
        if again:
            oldest = self._oldest_read
            first = min(first, path.index(oldest) if oldest in path else 0)
        return first

    def _load_older(self) -> None:
        """The next older messages of the open chat, shown above the others; one step
        per idle turn, so the person can read and scroll while a long chat is read."""
        if not self._older:
            return
        step, self._older = self._older[-OLDER_STEP:], self._older[:-OLDER_STEP]
        self._oldest_read = step[0]
        with collector_paused():
            messages = self._chat.messages_by_id(step)
            items = [self._item(m) for m in messages]
        self.messagesPrepended.emit(items)
        self.messagesRead.emit(messages)
        if self._older:
            self._older_timer.start()

    def _item(self, message: Message) -> MessageItem:
        version = versions.version_of(self._children, message.id, message.parent_id)
        self._note_files(message)
        return self._renderer.item(message, version)

    def _show_streamed(self, message: Message) -> None:
        """A paced streaming update (see UpdatePacer), if its message is still on screen."""
        if message.id in self._shown and message.conversation_id == self._conversation_id:
            self.messageUpdated.emit(self._item(message))

    def _on_maths_typeset(self, keys: list[str]) -> None:
        """Show the formulas now typeset (or failed) in the messages showing their source;
        a streaming answer through the pacer, like any of its updates."""
        for message in self._renderer.maths_typeset(keys):
            if message.id not in self._shown or message.conversation_id != self._conversation_id:
                continue
            if message.status is not MessageStatus.STREAMING:
                self.messageUpdated.emit(self._item(message))
            elif message.id in self._streamed:  # still streaming: its latest update again
                self._pacer.submit(self._streamed[message.id])

    def _on_image_loaded(self, url: str) -> None:
        """Show the image in the finished answers that link to it; a streaming answer
        picks it up with its next update."""
        for message in self._renderer.image_loaded(url):
            if (
                message.id in self._shown
                and message.conversation_id == self._conversation_id
                and message.status is not MessageStatus.STREAMING
            ):
                self.messageUpdated.emit(self._item(message))
