"""The text behind a notice ("2 images were read with OCR"): read-only, selectable,
in a non-modal window so the person can compare it with the answer."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QVBoxLayout, QWidget

from desktop.ui.viewmodels.message_item import Notice
from desktop.ui.views.plain_text_view import PlainTextView

LINK_PREFIX = "notice:"


def notices_html(notices: tuple[Notice, ...], link_text: str) -> str:
    """One line per notice; a notice with detail ends in a link to open it."""
    lines = []
    for index, notice in enumerate(notices):
        line = escape(notice.text)
        if notice.detail:
            line += f' · <a href="{LINK_PREFIX}{index}">{escape(link_text)}</a>'
        lines.append(line)
    return "<br>".join(lines)


def notice_index(link: str) -> int | None:
    if not link.startswith(LINK_PREFIX):
        return None
    try:
        return int(link.removeprefix(LINK_PREFIX))
    except ValueError:
        return None


class NoticeDetailDialog(QDialog):
    def __init__(self, notice: Notice, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(notice.text)
        self.text = PlainTextView(notice.detail or "", self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(520, 420)
