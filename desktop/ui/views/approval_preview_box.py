"""The pieces of the approval dialog that draw a call: the monospace box of what will
happen, and the badge of its risk, both in the colours of the current theme.

The box is as tall and as wide as its text wants, up to what the dialog allows it, so
a one-line command gets a one-line box and a long diff scrolls inside the box. Its text
comes capped and marked from the view-model (`approval_preview`): the box only lays
it out, wrapping long lines anywhere, and tints a diff's added and removed lines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QSize
from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QGuiApplication,
    QPalette,
    QTextBlockFormat,
    QTextCursor,
    QTextOption,
)
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from desktop.ui.viewmodels.approvals import RiskLevel
from desktop.ui.viewmodels.file_change import LineKind
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.plain_text_view import PlainTextView
from desktop.ui.views.theme import QSS_DARK, QSS_LIGHT

_MEASURED_LINE = 2_000  # longer lines are estimated from the average character width
_DIFF = {  # line backgrounds of a diff: (light, dark)
    LineKind.ADDED: ("#e3f4e6", "#1f3a28"),
    LineKind.REMOVED: ("#fdecec", "#3f2326"),
}


_DARK_BELOW = 128  # a window colour darker than this is the dark theme's


def is_dark(_widget: QWidget) -> bool:
    """The application's theme (a widget's own palette follows its style sheet)."""
    window = QGuiApplication.palette().color(QPalette.ColorRole.Window)
    return window.lightness() < _DARK_BELOW


def colours(widget: QWidget) -> dict[str, str]:
    """The theme's named colours (those of `parley.qss`) for the theme `widget` is in."""
    return QSS_DARK if is_dark(widget) else QSS_LIGHT


class PreviewBox(PlainTextView):
    """What will happen, in a monospace box sized to its text (see `fit`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setObjectName("ApprovalPreview")
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._lines: list[str] = []
        self._kinds: tuple[LineKind, ...] = ()
        self._hint = QSize(320, self._chrome_height() + self._line_height())

    def set_preview(self, text: str, kinds: Sequence[LineKind] = ()) -> None:
        self.show_text(text)
        self._lines = text.split("\n")
        self._kinds = tuple(kinds)
        self.restyle()

    def restyle(self) -> None:
        """The box and a diff's tints in the current theme's colours."""
        theme = colours(self)
        self.setStyleSheet(
            f"QPlainTextEdit {{ background: {theme['base']}; color: {theme['text']};"
            f" border: 1px solid {theme['border']}; border-radius: 6px; padding: 2px; }}"
        )
        dark = is_dark(self)
        block = self.document().firstBlock()
        for kind in self._kinds:
            if not block.isValid():
                break
            tint = _DIFF.get(kind)
            form = QTextBlockFormat()
            if tint is not None:
                form.setBackground(QColor(tint[1] if dark else tint[0]))
            cursor = QTextCursor(block)
            cursor.setBlockFormat(form)
            if kind is LineKind.HUNK:
                muted = cursor.charFormat()
                muted.setForeground(QColor(theme["muted"]))
                cursor.movePosition(
                    QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
                )
                cursor.mergeCharFormat(muted)
            block = block.next()

    # --- size -------------------------------------------------------------------------

    def _line_height(self) -> int:
        return self.fontMetrics().lineSpacing()

    def _chrome_width(self) -> int:
        margin = int(self.document().documentMargin())
        scroll = self.verticalScrollBar().sizeHint().width()
        return 2 * self.frameWidth() + 2 * margin + scroll + 12

    def _chrome_height(self) -> int:
        margin = int(self.document().documentMargin())
        # the frame, the document's margins, the style sheet's padding and half a line
        return 2 * self.frameWidth() + 2 * margin + 4 + self._line_height() // 2

    def _advance(self, line: str) -> int:
        metrics = self.fontMetrics()
        if len(line) > _MEASURED_LINE:
            return len(line) * metrics.averageCharWidth()
        return metrics.horizontalAdvance(line)

    def text_width(self) -> int:
        """The width that shows every line unwrapped."""
        widest = max((self._advance(line) for line in self._lines), default=0)
        return widest + self._chrome_width()

    def height_for(self, width: int) -> int:
        """The height that shows every line at `width`, wrapped lines counted."""
        room = max(1, width - self._chrome_width())
        rows = sum(max(1, math.ceil(self._advance(line) / room)) for line in self._lines)
        return max(1, rows) * self._line_height() + self._chrome_height()

    def set_hint(self, size: QSize) -> None:
        self._hint = size
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        return self._hint

    def minimumSizeHint(self) -> QSize:
        lines = min(3, max(1, len(self._lines)))
        return QSize(160, lines * self._line_height() + self._chrome_height())


class RiskBadge(PlainLabel):
    """The risk in words on a coloured pill: red for commands and unknown tools, amber
    for changes, neutral for reading."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setObjectName("RiskBadge")
        self.level = RiskLevel.DANGER

    def set_risk(self, text: str, level: RiskLevel) -> None:
        self.setText(text)
        self.level = level
        self.setAccessibleName(text)
        self.restyle()

    def restyle(self) -> None:
        theme = colours(self)
        background, border, text = {
            RiskLevel.DANGER: (theme["error_bg"], theme["error_border"], theme["error_text"]),
            RiskLevel.CAUTION: (theme["warn_bg"], theme["warn_border"], theme["text"]),
            RiskLevel.LOW: (theme["hover"], theme["border"], theme["muted"]),
        }[self.level]
        self.setStyleSheet(
            f"QLabel {{ background: {background}; border: 1px solid {border}; color: {text};"
            " border-radius: 9px; padding: 1px 8px; font-size: 11px; font-weight: 600; }"
        )


def primary_style(widget: QWidget) -> str:
    """The look of the dialog's one primary button (its border as wide with the focus
    as without: the dialog is fitted to its buttons)."""
    theme = colours(widget)
    ring = theme["text"]
    return (
        f"QPushButton {{ background: {theme['accent']}; color: #ffffff; font-weight: 600;"
        f" border: 2px solid {theme['accent']}; }}"
        f" QPushButton:hover {{ background: {theme['accent_hover']}; }}"
        f" QPushButton:focus {{ border-color: {ring}; }}"
        f" QPushButton:disabled {{ background: {theme['disabled']}; color: {theme['muted']};"
        f" border-color: {theme['border']}; }}"
    )
