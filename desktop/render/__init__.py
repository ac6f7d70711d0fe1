"""Markdown -> inert HTML for the chat view: pure functions, no Qt (see SPEC.md section 1).

The view feeds `render_markdown()` (or a `StreamingRenderer` while a reply streams) into
a QTextBrowser with `document_css()`, opens a clicked link only if `is_safe_link()`, and
copies ``code_blocks(text)[copy_index(url)]`` when a "Copy" link is clicked. With remote
images allowed it passes the images it has loaded, and fetches `pending_images(html)`.
"""

from desktop.render.guard import fallback_reason, plain_text_html
from desktop.render.images import is_web_image, pending_images
from desktop.render.links import copy_href, copy_index, is_safe_link
from desktop.render.markdown import code_blocks, render_markdown
from desktop.render.streaming import StreamingRenderer
from desktop.render.theme import document_css, document_html

__all__ = [
    "StreamingRenderer",
    "code_blocks",
    "copy_href",
    "copy_index",
    "document_css",
    "document_html",
    "fallback_reason",
    "is_safe_link",
    "is_web_image",
    "pending_images",
    "plain_text_html",
    "render_markdown",
]
