"""Repaint only what an edit of a message's document changed, not what Qt laid out again.

Qt lays a document out again from a checkpoint some way above an edit (about 150-300 px
before the end of a streaming answer) and asks the text view to repaint everything from
there down: on each streamed update, repainting the visible part of an answer cost
about 2 ms of the GUI thread, most of it text that had not moved. `ChangedRepaints`
takes over the text view's repaint requests from its text control; while a document
edit runs (`edit`), it keeps them, and afterwards repaints from the top of the first
block the edit changed (of the top-level table around it, for a code block, quote or
table) down. The blocks above were laid out again at the same width from the same
content, so their pixels are the same. Any other request (a selection, a cursor, a
link under the mouse) is forwarded as it comes.

Qt's text control is private: found by its class name and taken over through its
`updateRequest` signal. Where it cannot be (another Qt), nothing changes: Qt repaints as
it always did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from PySide6.QtCore import SIGNAL, QObject, QRectF
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QTextEdit

_CONTROL_CLASS = "QWidgetTextControl"
_UPDATE_REQUEST = SIGNAL("updateRequest(QRectF)")


class ChangedRepaints:
    """Takes over the repaint requests of `edit`'s text control (see the module doc)."""

    def __init__(self, edit: QTextEdit) -> None:
        self._edit = edit
        self._kept: list[QRectF] | None = None  # requests kept while an edit runs
        control = next(
            (c for c in edit.children() if c.metaObject().className() == _CONTROL_CLASS), None
        )
        # Every receiver (None, None): an overload PySide6's stubs lack.
        if control is not None and QObject.disconnect(control, _UPDATE_REQUEST, None, None):  # type: ignore[call-overload]
            QObject.connect(control, _UPDATE_REQUEST, self._request)

    @contextmanager
    def edit(self, changed_from: Callable[[], int]) -> Iterator[None]:
        """Keep the repaint requests of the document edit inside; then repaint what they
        asked for from the top of the block at document position `changed_from()` down
        (nothing before that position changed)."""
        self._kept = []
        top = 0.0  # after a failed edit: all it asked for
        try:
            yield
            if self._kept:  # an edit that changed nothing asks for nothing
                top = top_of(self._edit.document(), changed_from())
        finally:
            kept, self._kept = self._kept, None
            for kept_rect in kept:
                rect = kept_rect
                if rect.isValid() and rect.top() < top:
                    rect = QRectF(rect.left(), top, rect.width(), max(0.0, rect.bottom() - top))
                self._request(rect)

    def _request(self, rect: QRectF) -> None:
        """As QTextEdit repaints a content rectangle (it scrolls by its scroll bars)."""
        if self._kept is not None:
            self._kept.append(QRectF(rect))
            return
        viewport = self._edit.viewport()
        if not rect.isValid():
            viewport.update()
            return
        x = self._edit.horizontalScrollBar().value()
        y = self._edit.verticalScrollBar().value()
        visible = QRectF(x, y, viewport.width(), viewport.height())
        shown = rect.intersected(visible).toAlignedRect()
        if not shown.isEmpty():
            viewport.update(shown.translated(-x, -y))


def top_of(document: QTextDocument, position: int) -> float:
    """The top, in document coordinates, of what holds `position`: its block, or the
    top-level frame (table) around it."""
    layout = document.documentLayout()
    root = document.rootFrame()
    frame = document.frameAt(position)
    while frame is not None and frame.parentFrame() is not None and frame.parentFrame() != root:
        frame = frame.parentFrame()
    if frame is not None and frame != root:
        return layout.frameBoundingRect(frame).top()
    return layout.blockBoundingRect(document.findBlock(position)).top()
