"""In-chat find on screen: the matches highlighted in the laid-out messages, and the
current one scrolled into view.

Only messages near the viewport have widgets (see `virtual_list`), so highlights are
painted when a message is laid out (`Transcript.widgetCreated`), when its text changes,
and when the search changes. Each laid-out message is searched on its rendered text,
across every text view it shows (`MessageWidget.text_views()`, in reading order), and
tells the find model how many matches it shows, so the count agrees with what is
highlighted. The highlights are the views' extra selections (the text and the person's
own selection stay as they are), in the palette's highlight colour: faint for every
match, strong for the current one.

Going to a match in a message without a widget (or not read yet) reads it, scrolls the
list to it, then within it to the match.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QRegularExpression, QTimer
from PySide6.QtGui import QColor, QPalette, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QTextEdit

from desktop.ui.icons import is_dark
from desktop.ui.viewmodels.find import FindModel
from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.viewmodels.transcript import TranscriptModel
from desktop.ui.views.message_widget import MessageWidget
from desktop.ui.views.rich_text import RichText
from desktop.ui.views.transcript import Transcript

# Every match: the highlight colour, mostly see-through (more opaque on a dark ground,
# where the same alpha all but vanishes). The current match: the colour itself.
FAINT_ALPHA = {False: 80, True: 105}  # by dark theme
MAX_HOPS = 8  # messages skipped in a row whose matches turn out not to show
_SOFT_BREAK = r"\x{200B}?"  # the renderer's zero-width breaks in long runs (render/plain.py)

Found = list[tuple[RichText, QTextCursor]]


def pattern(needle: str) -> QRegularExpression:
    """`needle` as a pattern for the rendered text: any run of white space for a space
    (a line break inside a paragraph, a no-break space) and a soft break allowed after
    each character. Case is left to `QTextDocument.find`'s flags (which override it)."""
    parts = []
    for char in needle:
        if char == " ":
            parts.append(r"[\s\x{200B}]+")
        else:
            parts.append(QRegularExpression.escape(char) + _SOFT_BREAK)
    source = "".join(parts).removesuffix(_SOFT_BREAK)
    return QRegularExpression(source, QRegularExpression.PatternOption.UseUnicodePropertiesOption)


def find_all(
    document: QTextDocument, expression: QRegularExpression, case: bool
) -> list[QTextCursor]:
    """Every match in the document, in order, not overlapping."""
    flags = QTextDocument.FindFlag.FindCaseSensitively if case else QTextDocument.FindFlag(0)
    found: list[QTextCursor] = []
    position = 0
    while True:
        cursor = document.find(expression, position, flags)
        if cursor.isNull() or not cursor.hasSelection():
            return found
        found.append(cursor)
        position = cursor.selectionEnd()


class FindHighlights(QObject):
    def __init__(self, find: FindModel, transcript: Transcript, messages: TranscriptModel) -> None:
        super().__init__(transcript)
        self._find = find
        self._list = transcript
        self._current_id = ""  # the message painted with the current match
        self._pattern: tuple[str, QRegularExpression] | None = None
        self._showing = False
        # The current match is shown on the next turn: it may move while messages are
        # being laid out, and the list must not scroll in the middle of that.
        self._show_timer = QTimer(self)
        self._show_timer.setSingleShot(True)
        self._show_timer.setInterval(0)
        self._show_timer.timeout.connect(self.show_current)
        # A message just laid out is painted once it is placed and shown (its text
        # views say what they show only then), on the next turn.
        self._created: list[MessageWidget] = []
        self._created_timer = QTimer(self)
        self._created_timer.setSingleShot(True)
        self._created_timer.setInterval(0)
        self._created_timer.timeout.connect(self._paint_created)
        transcript.widgetCreated.connect(self._on_widget_created)
        find.matchesChanged.connect(self.refresh)
        find.currentChanged.connect(self._show_timer.start)
        messages.messageUpdated.connect(self._on_updated)

    def refresh(self) -> None:
        """Highlight (or clear) every laid-out message for the search as it is now."""
        for widget in self._list.message_widgets():
            self._paint(widget)
        if not self._find.active:
            self._current_id = ""

    def show_current(self) -> None:
        """Scroll the current match into view (reading its message first if need be)
        and paint it as the current one."""
        self._show_timer.stop()
        if self._showing:
            return
        self._showing = True
        try:
            self._show_current()
        finally:
            self._showing = False

    def _show_current(self) -> None:
        previous = self._current_id
        found: Found = []
        widget: MessageWidget | None = None
        for _hop in range(MAX_HOPS):
            match = self._find.current
            if match is None:
                break
            self._find.reveal(match.message_id)
            widget = self._list.message_widget(match.message_id)
            if widget is None:
                self._list.scroll_to_message(match.message_id)
                widget = self._list.message_widget(match.message_id)
            if widget is None:
                break  # no longer on the branch
            found = self._paint(widget)  # counts what shows: the current may move on
            if self._find.current == match:
                break
        match = self._find.current
        self._current_id = match.message_id if match is not None else ""
        if previous and previous != self._current_id:
            old = self._list.message_widget(previous)
            if old is not None:
                self._paint(old)
        shown = widget is not None and match is not None and match.message_id == widget.item.id
        if shown and match is not None and widget is not None and match.occurrence < len(found):
            self._scroll_to(widget, *found[match.occurrence])

    def _scroll_to(self, widget: MessageWidget, view: RichText, cursor: QTextCursor) -> None:
        """Bring the match into the viewport, a third from its top, unless it is in view."""
        layout = widget.layout()
        if layout is not None:
            layout.activate()  # a widget just laid out: its text view's place is known
        start = QTextCursor(cursor)
        start.setPosition(cursor.selectionStart())
        rect = view.cursorRect(start)
        viewport = self._list.viewport()
        top = view.viewport().mapTo(viewport, rect.topLeft()).y()
        if top >= 0 and top + rect.height() <= viewport.height():
            return
        bar = self._list.verticalScrollBar()
        bar.setValue(bar.value() + top - viewport.height() // 3)

    def _on_widget_created(self, widget: MessageWidget) -> None:
        if self._find.active:
            self._created.append(widget)
            self._created_timer.start()

    def _paint_created(self) -> None:
        created, self._created = self._created, []
        for widget in created:
            if self._list.message_widget(widget.item.id) is widget:  # not discarded since
                self._paint(widget)

    def _paint(self, widget: MessageWidget) -> Found:
        """Highlight the message's matches; tell the model how many show."""
        views = [v for v in widget.text_views() if v.isVisibleTo(widget)]
        found: Found = []
        if self._find.active:
            expression = self._expression()
            case = self._find.case_sensitive
            for view in views:
                found.extend((view, c) for c in find_all(view.document(), expression, case))
            self._find.note_shown(widget.item.id, len(found))
        match = self._find.current
        current = match.occurrence if match and match.message_id == widget.item.id else -1
        faint, strong = self._formats(widget)
        selections: dict[int, list[QTextEdit.ExtraSelection]] = {id(v): [] for v in views}
        for number, (view, cursor) in enumerate(found):
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor  # type: ignore[misc]  # the stubs miss the fields
            selection.format = strong if number == current else faint  # type: ignore[misc]
            selections[id(view)].append(selection)
        for view in widget.text_views():
            if view.extraSelections() or selections.get(id(view)):
                view.setExtraSelections(selections.get(id(view), []))
        return found

    def _expression(self) -> QRegularExpression:
        needle = self._find.needle
        if self._pattern is None or self._pattern[0] != needle:
            self._pattern = (needle, pattern(needle))
        return self._pattern[1]

    @staticmethod
    def _formats(widget: MessageWidget) -> tuple[QTextCharFormat, QTextCharFormat]:
        palette = widget.palette()
        faint = QTextCharFormat()
        colour = QColor(palette.color(QPalette.ColorRole.Highlight))
        colour.setAlpha(FAINT_ALPHA[is_dark(palette)])
        faint.setBackground(colour)
        strong = QTextCharFormat()
        strong.setBackground(palette.color(QPalette.ColorRole.Highlight))
        strong.setForeground(palette.color(QPalette.ColorRole.HighlightedText))
        return faint, strong

    def _on_updated(self, item: MessageItem) -> None:
        """A finished message's text changed (formulas typeset, an answer completed):
        highlight it again. A streaming one is searched again on the next move."""
        if not self._find.active or item.streaming:
            return
        widget = self._list.message_widget(item.id)
        if widget is not None:
            self._paint(widget)
