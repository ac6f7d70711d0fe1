"""Labels and message boxes that say how to read their text (see `desktop.ui.plain_text`).

`PlainLabel` is the label to use: it shows its text exactly, whatever the text looks
like. `MarkupLabel` is for Parley's own markup (a bold name, a link Parley handles);
every piece of outside text in it goes through `escape`. A `QFormLayout` row given a
string makes a label Qt leaves guessing: `plain_form_labels` settles those.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QLabel, QMessageBox, QWidget

from desktop.ui.plain_text import escape

__all__ = ["MarkupLabel", "PlainLabel", "escape", "message_box", "plain_form_labels"]


class PlainLabel(QLabel):
    """Shows its text as it is: tags, ampersands and all."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)


class MarkupLabel(QLabel):
    """Shows Parley's own rich text; outside text inside it must come through `escape`.
    Links are reported (`linkActivated`) and not opened by the label itself, unless it
    is made with `opens_links`: only for a link to a fixed address Parley wrote (a
    provider preset's key page), never one whose address came from outside."""

    def __init__(
        self, markup: str = "", parent: QWidget | None = None, *, opens_links: bool = False
    ) -> None:
        super().__init__(parent)
        self.opens_links = opens_links
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setOpenExternalLinks(opens_links)
        if opens_links:
            self.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.setText(markup)


def plain_form_labels(form: QFormLayout) -> None:
    """The labels `addRow("Name", field)` made show their text as it is."""
    for row in range(form.rowCount()):
        item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        label = item.widget() if item is not None else None
        if isinstance(label, QLabel):
            label.setTextFormat(Qt.TextFormat.PlainText)


def message_box(
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
    parent: QWidget | None = None,
) -> QMessageBox:
    """A message box that shows `text` as it is (an error's words may be a server's)."""
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    return box


def form_hint(text: str, parent: QWidget) -> QLabel:
    """A settings form's small grey explanation under a field: plain text, wrapped."""
    label = PlainLabel(text, parent)
    label.setObjectName("FormHint")
    label.setWordWrap(True)
    return label
