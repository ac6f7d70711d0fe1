"""A copied selection holds a typeset formula's TeX, not the image's placeholder.

Qt copies an image in a document as U+FFFC (the object replacement character). A
formula's image carries its source, delimiters included, as its tooltip (see
`desktop.render.maths`): the copied text gets that instead, and the HTML is left out,
since its images name resources only this window has. One of Parley's own icons (a code
block's Copy, see `desktop.render.icon_refs`) is decoration: it copies as nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QTextCursor, QTextDocument

from desktop.render.icon_refs import ICON_SCHEME
from desktop.ui.math_images import MATH_SCHEME

OBJECT = "\ufffc"


def formula_sources(document: QTextDocument, start: int, end: int) -> dict[int, str]:
    """Position → TeX of each formula image between `start` and `end` ("" for an icon)."""
    found: dict[int, str] = {}
    block = document.findBlock(start)
    while block.isValid() and block.position() < end:
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            form = fragment.charFormat()
            inside = start <= fragment.position() < end
            if inside and form.isImageFormat():
                name = form.toImageFormat().name()
                if _is_formula(name):
                    found[fragment.position()] = form.toolTip()
                elif name.startswith(f"{ICON_SCHEME}:"):
                    found[fragment.position()] = ""
            fragments += 1
        block = block.next()
    return found


def _is_formula(name: str) -> bool:
    return name.startswith(f"{MATH_SCHEME}:")


def with_formula_sources(mime: QMimeData, cursor: QTextCursor) -> QMimeData:
    """`mime` (Qt's copy of `cursor`'s selection) with each formula as its TeX."""
    if not mime.hasText() or OBJECT not in mime.text():
        return mime
    start, end = cursor.selectionStart(), cursor.selectionEnd()
    sources = formula_sources(cursor.document(), start, end)
    if not sources:
        return mime  # other objects (a remote image): as Qt made it
    # Plain text keeps Qt's positions one for one (a block break is one "\n").
    units = mime.text().encode("utf-16-le")
    pieces: list[bytes] = []
    at = 0
    for position in sorted(sources):
        offset = 2 * (position - start)
        if units[offset : offset + 2] != OBJECT.encode("utf-16-le"):
            continue  # not where it was expected: leave it
        pieces += [units[at:offset], sources[position].encode("utf-16-le")]
        at = offset + 2
    pieces.append(units[at:])
    copied = QMimeData()
    copied.setText(b"".join(pieces).decode("utf-16-le"))
    return copied
