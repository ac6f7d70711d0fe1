"""The source panel: the passage an answer cites, highlighted in its document's text.

A window of its own, not a side panel: the chat column is kept at a reading width
between the sidebar and the window's edge, and a passage is read beside the answer
that cites it, which a separate, movable window allows on any screen size. It is not
modal, and there is one: opening another source shows that one in it.

The document is shown as plain text (it comes from a file), read-only and selectable;
the passage is highlighted and scrolled into view. "Open file" hands the file to the
system, when the view-model allows it (see `SourcesViewModel`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QPalette, QShowEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.sources import SourcePassage, SourcesViewModel
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.plain_text_view import PlainTextView
from desktop.ui.views.soft_breaks import plain_text_between

_HIGHLIGHT_ALPHA = 90  # of the palette's highlight colour behind the passage


class SourceDialog(QDialog):
    def __init__(self, model: SourcesViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SourceDialog")
        self._model = model
        self._range = (0, 0)  # the passage, in document positions
        self.title = PlainLabel("", self)
        self.title.setObjectName("SourceTitle")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.location = PlainLabel("", self)
        self.location.setObjectName("MetaLabel")
        self.note = PlainLabel("", self)
        self.note.setObjectName("Banner")
        self.note.setWordWrap(True)
        self.text = PlainTextView("", self)
        self.text.setObjectName("SourceText")
        self.open_button = QPushButton(self.tr("Open file"), self)
        self.open_button.clicked.connect(model.open_file)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        bottom = QHBoxLayout()
        bottom.addWidget(self.open_button)
        bottom.addStretch(1)
        bottom.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.location)
        layout.addWidget(self.note)
        layout.addWidget(self.text, 1)
        layout.addLayout(bottom)
        self.resize(640, 560)

    def show_passage(self, passage: SourcePassage) -> None:
        self.setWindowTitle(
            self.tr("Source %1 — %2")
            .replace("%1", str(passage.number))
            .replace("%2", passage.file_name)
        )
        self.title.setText(f"[{passage.number}] {passage.file_name}")
        self.title.setToolTip(passage.path)
        self.location.setText(passage.location)
        self.location.setVisible(bool(passage.location))
        self.note.setText(passage.note)
        self.note.setVisible(bool(passage.note))
        self.open_button.setEnabled(passage.can_open)
        ends = self.text.show_pieces([passage.before, passage.passage, passage.after])
        self._range = (ends[0], ends[1])
        self._highlight()
        self._scroll_to_passage()

    def highlighted_text(self) -> str:
        """The passage as highlighted (without the soft breaks of its layout)."""
        return plain_text_between(self.text.document(), *self._range)

    def _highlight(self) -> None:
        start, end = self._range
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        colour = QColor(self.palette().color(QPalette.ColorRole.Highlight))
        colour.setAlpha(_HIGHLIGHT_ALPHA)
        marked = QTextCharFormat()
        marked.setBackground(colour)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor  # type: ignore[misc]
        selection.format = marked  # type: ignore[misc]
        self.text.setExtraSelections([selection] if end > start else [])

    def _scroll_to_passage(self) -> None:
        """The passage's end, then its start, in view: its first lines are shown even
        when it is taller than the window."""
        start, end = self._range
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(end)
        self.text.setTextCursor(cursor)
        self.text.ensureCursorVisible()
        cursor.setPosition(start)
        self.text.setTextCursor(cursor)
        self.text.centerCursor()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._scroll_to_passage()  # now that the text has its size

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # the theme changed
            self._highlight()


class SourceDialogs:
    """Shows the source panel when the view-model opens a source."""

    def __init__(self, model: SourcesViewModel, parent: QWidget) -> None:
        self._model = model
        self._parent = parent
        self._dialog: SourceDialog | None = None
        # Where the panel goes instead of `parent` (the floating chat, when the person
        # works there), so it is not hidden behind that always-on-top window.
        self.host: Callable[[], QWidget | None] = lambda: None
        model.shown.connect(self._show)

    @property
    def dialog(self) -> SourceDialog | None:
        return self._dialog

    def _show(self, passage: SourcePassage) -> None:
        owner = self.host() or self._parent
        dialog = self._dialog
        if dialog is None:
            dialog = self._dialog = SourceDialog(self._model, owner)
            dialog.destroyed.connect(self._forget)
        elif dialog.parentWidget() is not owner:
            dialog.setParent(owner, dialog.windowFlags())
        dialog.show_passage(passage)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()

    def _forget(self) -> None:
        self._dialog = None
