"""Help → Keyboard Shortcuts (F1): a titled sheet of every shortcut, grouped by the
part of the window it works in, each key drawn as a key cap.

The rows come from the caller (`MainMenus.shortcut_sections`), which reads the menu
actions themselves: the sheet cannot name a key the menus do not have.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.views.keycaps import Chord, KeyCaps
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.window_geometry import clamp

MIN_WIDTH = 480
TWO_COLUMNS_FROM = 1000  # px of screen width from which the sections sit in two columns
MAX_HEIGHT = 820
CHROME = 120  # the title, the Close button and the margins around the list


@dataclass(frozen=True)
class ShortcutRow:
    text: str
    keys: tuple[Chord, ...]  # alternatives: any of them does it


@dataclass(frozen=True)
class ShortcutSection:
    title: str
    rows: Sequence[ShortcutRow]


def split_columns(sections: Sequence[ShortcutSection], two: bool) -> list[list[ShortcutSection]]:
    """Sections in reading order, split where the first column holds about half the
    rows (a section is never split)."""
    if not two or len(sections) <= 1:
        return [list(sections)]
    total = sum(len(section.rows) + 1 for section in sections)  # +1: the heading
    first: list[ShortcutSection] = []
    count = 0
    for section in sections:
        if first and count + (len(section.rows) + 1) / 2 > total / 2:
            break
        first.append(section)
        count += len(section.rows) + 1
    return [first, list(sections[len(first) :])]


class ShortcutsDialog(QDialog):
    def __init__(self, sections: Sequence[ShortcutSection], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ShortcutsSheet")
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
        self.title = PlainLabel(self.tr("Keyboard Shortcuts"), self)
        self.title.setObjectName("SheetTitle")
        self.title.setAccessibleName(self.title.text())

        body = QWidget()
        body.setObjectName("ShortcutsBody")
        self.headings: list[PlainLabel] = []
        self.rows: list[tuple[str, PlainLabel, KeyCaps]] = []  # section, action, caps
        shown = [
            ShortcutSection(section.title, [row for row in section.rows if row.keys])
            for section in sections
        ]
        shown = [section for section in shown if section.rows]  # no key bound here
        owner = parent or self
        two = owner.screen().availableGeometry().width() >= TWO_COLUMNS_FROM
        row_layout = QHBoxLayout(body)
        row_layout.setContentsMargins(24, 4, 24, 16)
        row_layout.setSpacing(40)
        for part in split_columns(shown, two):
            column = QVBoxLayout()
            column.setSpacing(6)
            for section in part:
                self._add_section(body, column, section)
            column.addStretch(1)
            row_layout.addLayout(column, 1)

        self.scroll_area = QScrollArea(self)
        self.scroll_area.setObjectName("ShortcutsScroll")
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(body)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 20, 0, 12)
        layout.setSpacing(8)
        title_row = QVBoxLayout()
        title_row.setContentsMargins(24, 0, 24, 0)
        title_row.addWidget(self.title)
        layout.addLayout(title_row)
        layout.addWidget(self.scroll_area, 1)
        button_row = QVBoxLayout()
        button_row.setContentsMargins(24, 0, 24, 0)
        button_row.addWidget(buttons)
        layout.addLayout(button_row)
        self._fit(body)

    def _add_section(self, body: QWidget, column: QVBoxLayout, section: ShortcutSection) -> None:
        heading = PlainLabel(section.title, body)
        heading.setObjectName("ShortcutSection")
        self.headings.append(heading)
        if column.count():
            column.addSpacing(10)
        column.addWidget(heading)
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(24)
        grid.setVerticalSpacing(6)
        grid.setColumnStretch(0, 1)
        for index, row in enumerate(section.rows):
            label = PlainLabel(row.text, body)
            label.setObjectName("ShortcutAction")
            label.setWordWrap(True)
            caps = KeyCaps(row.keys, body)
            label.setBuddy(caps)
            grid.addWidget(label, index, 0, Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(caps, index, 1, Qt.AlignmentFlag.AlignRight)
            self.rows.append((section.title, label, caps))
        column.addLayout(grid)

    def _fit(self, body: QWidget) -> None:
        """As tall as the list where the screen allows; it scrolls beyond that."""
        hint = body.sizeHint()
        scroll_bar = self.scroll_area.verticalScrollBar().sizeHint().width()
        wanted = QRect(0, 0, max(MIN_WIDTH, hint.width() + scroll_bar), hint.height() + CHROME)
        wanted.setHeight(min(wanted.height(), MAX_HEIGHT))
        owner = self.parentWidget() or self
        self.resize(clamp(wanted, owner.screen().availableGeometry()).size())

    def keys_of(self, text: str) -> list[list[str]]:
        """The caps shown for the row whose action reads `text` (for tests)."""
        return next((caps.caps for _section, label, caps in self.rows if label.text() == text), [])
