"""Dropping files onto a part of the window: any widget can become a drop target.

`FileDrop` watches a target widget (and, for text editors and scroll areas, the inner
widgets that really receive drags), accepts drags that carry local files, outlines the
target while files hover over it, and reports the dropped paths. Other drags (text,
web links) pass through untouched, so dropping text into the composer still inserts it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt, Signal
from PySide6.QtGui import QColor, QDragEnterEvent, QDragMoveEvent, QDropEvent, QPainter, QPen
from PySide6.QtWidgets import QWidget


def local_files(mime: QMimeData | None) -> list[Path]:
    """The local files a drag or a paste carries (web URLs are not files)."""
    if mime is None or not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]


class DropHighlight(QWidget):
    """An outline drawn over the target while files hover; clicks go through it."""

    def __init__(self, target: QWidget) -> None:
        super().__init__(target)
        self.setObjectName("DropHighlight")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.hide()

    def cover(self) -> None:
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
        self.raise_()
        self.show()

    def paintEvent(self, event: object) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        accent = self.palette().color(self.palette().ColorRole.Highlight)
        fill = QColor(accent)
        fill.setAlpha(28)
        pen = QPen(accent, 2, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(fill)
        painter.drawRoundedRect(self.rect().adjusted(2, 2, -2, -2), 10, 10)
        painter.end()


class FileDrop(QObject):
    """Makes `target` accept dropped files; `watch` adds the inner widgets that receive
    drags themselves (a text editor's viewport, say)."""

    filesDropped = Signal(list)  # list[Path]

    def __init__(self, target: QWidget, watch: tuple[QWidget, ...] = ()) -> None:
        super().__init__(target)
        self.target = target
        self.highlight = DropHighlight(target)
        for widget in (target, *watch):
            widget.setAcceptDrops(True)
            widget.installEventFilter(self)

    @property
    def highlighted(self) -> bool:
        return self.highlight.isVisible()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            assert isinstance(event, (QDragEnterEvent, QDragMoveEvent))
            if not local_files(event.mimeData()):
                return False  # not files: the widget's own handling (or none) applies
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
            if not self.highlighted:
                self.highlight.cover()
            return True
        if kind == QEvent.Type.DragLeave:
            self.highlight.hide()
            return False
        if kind == QEvent.Type.Drop:
            assert isinstance(event, QDropEvent)
            paths = local_files(event.mimeData())
            self.highlight.hide()
            if not paths:
                return False
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
            self.filesDropped.emit(paths)
            return True
        return False
