"""The composer's tray: the files waiting to go with the next message, as chips.

The chips wrap onto new rows and the tray grows with them, up to a few rows; past that
it scrolls, so every chip (and its remove button) can be reached however many files
wait, while the text box stays in sight. A chip that gets the keyboard focus is
scrolled into view.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QApplication, QFrame, QScrollArea, QSizePolicy, QWidget

from desktop.ui.viewmodels.attachment_tray import AttachmentTray
from desktop.ui.views.attachment_chips import TrayChips

MAX_ROWS = 3  # rows of chips shown before the tray scrolls


class ChipTray(QScrollArea):
    def __init__(self, tray: AttachmentTray, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("ChipTray")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.viewport().setAutoFillBackground(False)
        self.chips = TrayChips(tray, self)
        self.chips.setAutoFillBackground(False)
        self.setWidget(self.chips)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        tray.changed.connect(self._follow)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)
        self._follow()

    def rows_height(self, rows: int) -> int:
        """The height of `rows` rows of chips."""
        chips = list(self.chips.chips.values())
        row = max((c.sizeHint().height() for c in chips), default=0)
        return rows * row + (rows - 1) * self.chips.spacing()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        """All the rows `width` needs, at most `MAX_ROWS`."""
        needed = self.chips.heightForWidth(width)
        return min(needed, self.rows_height(MAX_ROWS)) if needed > 0 else 0

    def sizeHint(self) -> QSize:
        hint = self.chips.sizeHint()
        return QSize(hint.width(), self.heightForWidth(max(1, self.width())))

    def minimumSizeHint(self) -> QSize:
        return QSize(0, min(self.heightForWidth(max(1, self.width())), self.rows_height(1)))

    def _follow(self, *_: object) -> None:
        self.setVisible(bool(self.chips.chips))
        self.updateGeometry()

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        """Tab reached a chip's button (or removing a chip moved the focus on): show
        the whole chip."""
        chip = next((c for c in self.chips.chips.values() if new and c.isAncestorOf(new)), None)
        if chip is not None:
            self.ensureWidgetVisible(chip, 0, 0)
