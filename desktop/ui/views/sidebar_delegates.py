"""How sidebar rows are painted: section headers, and search hits with highlighted words."""

from __future__ import annotations

import html

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from desktop.ui.viewmodels.conversations import ConversationListModel
from desktop.ui.viewmodels.search import SearchModel

Index = QModelIndex | QPersistentModelIndex


class ConversationDelegate(QStyledItemDelegate):
    """Section headers as small muted captions; conversations as the style draws them.

    A header is as tall as a chat row (see `sizeHint`); its caption sits low in it,
    nearer the chats it heads.
    """

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        if not index.data(ConversationListModel.HeaderRole):
            super().paint(painter, option, index)
            return
        painter.save()
        font = option.font
        font.setPointSizeF(font.pointSizeF() * 0.85)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
        rect = option.rect.adjusted(10, 8, -6, 0)
        painter.drawText(
            rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, index.data()
        )
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        """One height for headers and chats: the list relies on uniform item sizes."""
        size = super().sizeHint(option, index)
        return QSize(size.width(), size.height() + 10)


def snippet_html(snippet: str, highlights: list[tuple[int, int]]) -> str:
    """The snippet escaped, with the matched ranges in bold."""
    parts: list[str] = []
    cursor = 0
    for start, end in sorted(highlights):
        if start < cursor:
            continue
        parts.append(html.escape(snippet[cursor:start]))
        parts.append(f"<b>{html.escape(snippet[start:end])}</b>")
        cursor = end
    parts.append(html.escape(snippet[cursor:]))
    return "".join(parts)


class SearchHitDelegate(QStyledItemDelegate):
    """Title on the first line, the matching text below it with the match in bold."""

    PADDING = 8

    def _document(self, option: QStyleOptionViewItem, index: Index) -> QTextDocument:
        document = QTextDocument()
        document.setDefaultFont(option.font)
        document.setDocumentMargin(0)
        title = html.escape(str(index.data()))
        snippet = snippet_html(
            str(index.data(SearchModel.SnippetRole) or ""),
            [tuple(h) for h in index.data(SearchModel.HighlightsRole) or []],
        )
        muted = option.palette.color(QPalette.ColorRole.PlaceholderText).name()
        document.setHtml(
            f"<div style='font-weight:600'>{title}</div><div style='color:{muted}'>{snippet}</div>"
        )
        document.setTextWidth(max(50, option.rect.width() - 2 * self.PADDING))
        return document

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        self.initStyleOption(option, index)
        option.text = ""
        style = option.widget.style() if option.widget else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)
        document = self._document(option, index)
        painter.save()
        rect = option.rect
        painter.translate(rect.left() + self.PADDING, rect.top() + self.PADDING / 2)
        document.drawContents(painter, QRectF(0, 0, rect.width(), rect.height()))
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        document = self._document(option, index)
        return QSize(int(document.idealWidth()), int(document.size().height()) + self.PADDING)
