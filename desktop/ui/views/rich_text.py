"""A read-only rich-text area that is exactly as tall as its content at a given width.

Messages are placed by the transcript, so each one reports its height for a width
(`heightForWidth`) instead of scrolling on its own. The wrap width is set explicitly
(QTextEdit would otherwise re-wrap at whatever width the widget has before it is placed,
laying a long answer out twice). While an answer streams, only the
changed end of the document is rewritten (`TailWriter`), so an update costs about the
size of the last block, not of the whole answer. Links are never followed by Qt: clicks
are handed to the owner, which decides (only http/https/mailto reach the system browser).
What a selection copies leaves out the soft breaks the renderer puts into long runs of
text for Qt's layout (see ``soft_breaks``), so it is the text as it came.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from PySide6.QtCore import QEvent, QMimeData, QPointF, QSize, Qt, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QHelpEvent,
    QImage,
    QKeyEvent,
    QTextCursor,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QTextEdit, QToolTip, QWidget

from desktop.render.icon_refs import ICON_SCHEME, parse_icon_src
from desktop.ui.icons import icon_image
from desktop.ui.plain_text import tooltip
from desktop.ui.views.changed_repaints import ChangedRepaints
from desktop.ui.views.document_tail import TailWriter
from desktop.ui.views.formula_copy import with_formula_sources
from desktop.ui.views.soft_breaks import without_soft_breaks

# Keys the transcript scrolls with; a message passes them on unless text is being selected.
_TRANSCRIPT_KEYS = frozenset(
    {Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_Home, Qt.Key.Key_End}
)
DEFAULT_WRAP_WIDTH = 600
_IMAGE_RESOURCE = QTextDocument.ResourceType.ImageResource.value
# Images sized to the column (not the renderer's icons, whose size is fixed).
_FITTED_IMAGE_RE = re.compile(rf'<img src="(?!{ICON_SCHEME}:)')

ImageSource = Callable[[QUrl], QImage | None]


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
        self.setLineWrapMode(QTextEdit.LineWrapMode.FixedPixelWidth)
        self.setLineWrapColumnOrWidth(DEFAULT_WRAP_WIDTH)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
            | Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        )
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        # Text sits at the top left and never scrolls: growing repaints only the new strip.
        for widget in (self, self.viewport()):
            widget.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        document = self.document()
        document.setUndoRedoEnabled(False)  # edits while streaming must not pile up history
        document.setDocumentMargin(2)
        option = document.defaultTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        document.setDefaultTextOption(option)
        document.documentLayout().documentSizeChanged.connect(self._on_size_changed)
        self.anchorClicked.connect(self.linkActivated)
        self._html = ""
        self._tail = TailWriter(document)
        self._repaints = ChangedRepaints(self)
        self._image_source: ImageSource | None = None

    @property
    def tail(self) -> TailWriter:
        return self._tail

    def set_html(self, html: str, *, growing: bool = False) -> None:
        """Show `html`; `growing` (a streaming answer) rewrites only what changed, and so
        does every later change of a document it built: the completing update, formulas
        typeset afterwards (a whole `setHtml` of a 20 KB answer: 110-180 ms)."""
        if html == self._html:
            return
        self._html = html
        if growing or self._tail.built:
            with self._repaints.edit(lambda: self._tail.changed_from):
                self._tail.set_html(html)
        else:
            self._tail.reset()
            self.setHtml(html)
        self.updateGeometry()

    def set_image_source(self, source: ImageSource) -> None:
        """Where the images in the HTML come from (images already loaded, by URL)."""
        self._image_source = source

    def loadResource(self, type: int, name: QUrl | str) -> object:
        """Never load anything referenced by content: no files, no network.

        An image comes only from the image source, scaled down to the wrap width, or is
        one of Parley's icons the renderer placed (``parley-icon:``, drawn for this
        screen); one it does not have is a blank pixel, never None, with which Qt would
        try the URL as a local file name.
        """
        if type != _IMAGE_RESOURCE:
            return None
        url = QUrl(name)
        if url.scheme() == ICON_SCHEME:
            ref = parse_icon_src(url.toString())
            if ref is None:
                return _blank_image()
            return icon_image(ref.name, ref.colour, ref.size, self.devicePixelRatioF())
        image = self._image_source(url) if self._image_source is not None else None
        if image is None or image.isNull():
            return _blank_image()
        width = self.lineWrapColumnOrWidth() - math.ceil(self.document().documentMargin() * 2)
        if image.deviceIndependentSize().width() > width > 0:  # a typeset formula's is 2x at 2x
            ratio = image.devicePixelRatio()
            smooth = Qt.TransformationMode.SmoothTransformation
            image = image.scaledToWidth(round(width * ratio), smooth)
            image.setDevicePixelRatio(ratio)
        return image

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        """The content height when `width` wide (lays the document out at that width)."""
        frame = self.frameWidth() * 2
        self.set_wrap_width(width - frame)
        return max(1, math.ceil(self.document().size().height()) + frame)

    def set_wrap_width(self, width: int) -> None:
        """Wrap at `width` px; set it before the content when the width is known."""
        if width > 0 and width != self.lineWrapColumnOrWidth():
            self.setLineWrapColumnOrWidth(width)
            if _FITTED_IMAGE_RE.search(self._html):  # fitted to the old width: fit them again
                self._tail.reset()
                self.setHtml(self._html)

    def sizeHint(self) -> QSize:
        """The size at the current wrap width.

        Qt's layouts ask `heightForWidth(sizeHint().width())`; any other width than the
        wrap width would re-wrap the text there and back on every layout pass, an
        endless relayout that keeps the GUI thread busy while nothing changes.
        """
        frame = self.frameWidth() * 2
        height = math.ceil(self.document().size().height()) + frame
        return QSize(self.lineWrapColumnOrWidth() + frame, max(1, height))

    def minimumSizeHint(self) -> QSize:
        return QSize(0, 0)

    def viewportEvent(self, event: QEvent) -> bool:
        """A tooltip the content carries (a formula's TeX, why one was not typeset) is
        shown as plain text: Qt would take text that looks like HTML for HTML."""
        if event.type() != QEvent.Type.ToolTip or not isinstance(event, QHelpEvent):
            return super().viewportEvent(event)
        position = (
            self.document()
            .documentLayout()
            .hitTest(
                QPointF(event.pos())
                + QPointF(self.horizontalScrollBar().value(), 0)
                + QPointF(0, self.verticalScrollBar().value()),
                Qt.HitTestAccuracy.ExactHit,
            )
        )
        text = ""
        if position >= 0:
            cursor = QTextCursor(self.document())
            last = self.document().characterCount() - 1
            cursor.setPosition(min(position + 1, last))  # the format of the character there
            text = cursor.charFormat().toolTip()
        if text:
            QToolTip.showText(event.globalPos(), tooltip(text), self)
        else:
            QToolTip.hideText()
            event.ignore()
        return True

    def createMimeDataFromSelection(self) -> QMimeData:
        """The selection as text and HTML, without the soft breaks added for layout,
        formulas as their TeX."""
        cursor = self.textCursor()
        mime = without_soft_breaks(super().createMimeDataFromSelection(), cursor)
        return with_formula_sources(mime, cursor)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Page keys scroll the transcript, not the (never scrolling) message."""
        shift = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        if event.key() in _TRANSCRIPT_KEYS and not shift:
            event.ignore()
            return
        super().keyPressEvent(event)

    def _on_size_changed(self, *_: object) -> None:
        self.updateGeometry()


def _blank_image() -> QImage:
    image = QImage(1, 1, QImage.Format.Format_ARGB32)
    image.fill(QColor(0, 0, 0, 0))
    return image
