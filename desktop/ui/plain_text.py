"""Text from outside Parley is shown as text, never read as markup.

A server's error, a model's title, a file's name, a tool's description: Qt guesses what
such text is wherever it is left to (a QLabel or QMessageBox on `AutoText`, every tool
tip) and renders anything that looks like HTML (`Qt.mightBeRichText`) as rich text, so
`<img src="file:///…">` in an error message would load a picture from disk and `<a>`
would become a link. Labels therefore say what they hold (`desktop.ui.views.labels`);
where Parley writes markup itself, outside text goes in through `escape`; tool tips,
which cannot be told, go through `tooltip`.

Buttons, actions, menu entries, check boxes and tabs read "&" as the mark of a keyboard
mnemonic: a suggestion "Compare Q&A tools" would show "Compare QA tools" with the A
underlined, and Alt+A would press it. Outside text goes on them through `button_text`.
"""

from __future__ import annotations

import html

from PySide6.QtGui import Qt


def escape(text: str) -> str:
    """Outside text for inside Parley's own markup."""
    return html.escape(text, quote=True)


def tooltip(text: str) -> str:
    """`text` for `setToolTip` (or an item's tool tip role), shown as it is: unchanged
    unless Qt would take it for HTML, then escaped, line breaks kept."""
    if not Qt.mightBeRichText(text):
        return text
    return Qt.convertFromPlainText(text, Qt.WhiteSpaceMode.WhiteSpaceNormal)


def button_text(text: str) -> str:
    """`text` for a button's, an action's or a menu entry's `setText`, shown as it is:
    each "&" doubled, which Qt shows as one "&" and never takes for a mnemonic."""
    return text.replace("&", "&&")
