"""Icons inside rendered HTML: ``<img src="parley-icon:NAME?color=RRGGBB&size=N">``.

The renderer never imports Qt, so it only names the icon, its colour and its size; the
message view draws it (``desktop/ui/views/rich_text.py`` with ``desktop/ui/icons.py``),
crisp at the screen's pixel ratio. The colour is the render palette's, so the URL
changes with the theme and Qt's resource cache never shows one theme's drawing in the
other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it.common.utils import escapeHtml

ICON_SCHEME = "parley-icon"
INLINE_ICON_PX = 14  # beside small text: a code block's Copy
_MAX_PX = 64
_SRC_RE = re.compile(
    rf"{ICON_SCHEME}:([a-z][a-z0-9-]{{0,31}})\?color=([0-9a-fA-F]{{6}})&size=([0-9]{{1,2}})"
)


@dataclass(frozen=True, slots=True)
class IconRef:
    name: str
    colour: str  # "#rrggbb"
    size: int  # device-independent pixels, square


def icon_src(name: str, colour: str, size: int = INLINE_ICON_PX) -> str:
    """The URL that names icon `name` in `colour` ("#rrggbb"), `size` px square."""
    return f"{ICON_SCHEME}:{name}?color={colour.lstrip('#')}&size={size}"


def inline_icon(name: str, colour: str, size: int = INLINE_ICON_PX) -> str:
    """An ``<img>`` of the icon, as tall as `size` and centred on the text's line."""
    return (
        f'<img src="{escapeHtml(icon_src(name, colour, size))}" width="{size}" '
        f'height="{size}" style="vertical-align: middle;" />'
    )


def parse_icon_src(url: str) -> IconRef | None:
    """The icon a ``parley-icon:`` URL names; None for anything else or a malformed one."""
    match = _SRC_RE.fullmatch(url)
    if match is None:
        return None
    size = int(match.group(3))
    if not 0 < size <= _MAX_PX:
        return None
    return IconRef(match.group(1), f"#{match.group(2).lower()}", size)
