"""A read-only rich-text area that is exactly as tall as its content.

Messages are stacked in a scroll area, so each one must size itself to its text
instead of scrolling on its own. Links are never followed by Qt: clicks are handed to
the owner, which decides (only http/https/mailto reach the system browser).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QUrl, Signal
from PySide6.QtGui import QResizeEvent, QTextOption
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QWidget


class RichText(QTextBrowser):
    linkActivated = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setReadOnly(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
            | Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.document().setDocumentMargin(2)
        option = self.document().defaultTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.document().setDefaultTextOption(option)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.anchorClicked.connect(self.linkActivated)
        self._html = ""

    def set_html(self, html: str) -> None:
        """Replace the content only when it changed (streaming sends many equal updates)."""
        if html != self._html:
            self._html = html
            self.setHtml(html)
            self._fit()

    def loadResource(self, type: int, name: QUrl) -> object:
        """Never load anything referenced by content: no images, no files, no network."""
        return None

    def _fit(self, *_: object) -> None:
        height = int(self.document().size().height() + 0.999) + self.frameWidth() * 2
        if height != self.height():
            self.setFixedHeight(max(height, 1))
            self.updateGeometry()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.document().setTextWidth(self.viewport().width())
        self._fit()

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.height())
