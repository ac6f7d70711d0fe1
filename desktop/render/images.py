"""Which images a message may show inline, and how the HTML says which are still loading.

Rendering never fetches anything. When the person allows remote images, the caller
passes the set of image URLs it has already loaded (``render_markdown(..., images=...)``):
those become ``<img>``; every other web image stays the usual link ("🖼 alt" to its URL)
with the `PENDING_CLASS` class, which `pending_images()` reads back so the caller knows
what to fetch. With ``images=None`` (remote images off) images are plain links, as ever.

Only ``http``/``https`` images qualify here (never ``file:`` or ``data:``, which Qt would
read on its own); which of those are actually fetched is the loader's decision (Parley's
fetches only ``https``). An image inside a link stays text: a link cannot hold another.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

from desktop.render.links import is_safe_link

PENDING_CLASS = "pending-image"
_PENDING_RE = re.compile(rf'<a href="([^"]*)" class="{PENDING_CLASS}"')


def is_web_image(src: str) -> bool:
    """True for an http(s) URL with a host (and nothing hidden in it)."""
    return is_safe_link(src) and urlsplit(src.strip()).scheme.lower() in ("http", "https")


def pending_images(rendered: str) -> list[str]:
    """The image URLs that `rendered` (our own HTML) shows as links until they load.

    Our HTML escapes every character of the message, so only the renderer itself can
    write the marker this looks for.
    """
    if PENDING_CLASS not in rendered:
        return []
    return list(dict.fromkeys(html.unescape(url) for url in _PENDING_RE.findall(rendered)))
