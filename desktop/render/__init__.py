"""Markdown -> inert HTML for the chat view: pure functions, no Qt (see SPEC.md section 1).

How much of a message is shown, and how much of that is formatted, is decided up front
by a cost model (`guard.plan`), so no message can keep the GUI thread busy for long.

The view feeds `render_markdown()` (or a `StreamingRenderer` while a reply streams) into
a QTextBrowser with `document_css()`, opens a clicked link only if `is_safe_link()`, and
copies ``code_blocks(text)[copy_index(url)]`` when a "Copy" link is clicked. With remote
images allowed it passes the images it has loaded, and fetches `pending_images(html)`.
An answer given sources passes their numbers (`citations=`): its ``[n]`` markers become
links whose `cite_number(url)` says which source to open, and `cited_in_html(html)`
lists the numbers cited, in order, for the cards under the answer.
"""

from desktop.render.citations import cited_in_html
from desktop.render.guard import MAX_SHOWN_CHARS, Plan, fallback_reason, shown_source
from desktop.render.images import is_web_image, pending_images
from desktop.render.links import cite_href, cite_number, copy_href, copy_index, is_safe_link
from desktop.render.markdown import (
    Rendered,
    cited_numbers,
    code_blocks,
    render_markdown,
    render_message,
)
from desktop.render.plain import SOFT_BREAK, plain_text_html
from desktop.render.planner import plan
from desktop.render.streaming import StreamingRenderer
from desktop.render.theme import document_css, document_html

__all__ = [
    "MAX_SHOWN_CHARS",
    "SOFT_BREAK",
    "Plan",
    "Rendered",
    "StreamingRenderer",
    "cite_href",
    "cite_number",
    "cited_in_html",
    "cited_numbers",
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
    "plan",
    "render_markdown",
    "render_message",
    "shown_source",
]
