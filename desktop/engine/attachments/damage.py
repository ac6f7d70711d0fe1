"""Saying that a document is damaged, in words, while the parser's own words go to the log.

Parsers describe damage in their terms ("Bad CRC-32 for file 'word/document.xml'",
"Stream has ended unexpectedly"), which tells the person nothing they can act on. What
they can act on is that the file itself is broken (get another copy, save it again),
so that is what the refusal says; the parser's detail is logged for whoever looks into
it. The log line names the format and the error, not the file: logs never carry what
the person works on.
"""

from __future__ import annotations

import logging

from desktop.core.attachments import AttachmentError
from desktop.core.i18n import QT_TR_NOOP, tr

log = logging.getLogger(__name__)

DETAIL_CHARS = 300  # of the parser's message in the log


# Every format named with its article, so each is translated as a whole.
_WITH_ARTICLE = (
    QT_TR_NOOP("a PNG image"),
    QT_TR_NOOP("a JPEG image"),
    QT_TR_NOOP("a WebP image"),
    QT_TR_NOOP("a text file"),
    QT_TR_NOOP("a Word document"),
    QT_TR_NOOP("a PowerPoint presentation"),
    QT_TR_NOOP("a PDF document"),
    QT_TR_NOOP("an Office document"),
)


def articled(label: str) -> str:
    """ "a Word document", "an Office document" (one of `_WITH_ARTICLE`, untranslated)."""
    return f"{'an' if label[:1] in 'AEIOU' else 'a'} {label}"


def with_article(label: str) -> str:
    """`articled(label)` in the language shown."""
    return tr(articled(label))


def damaged(name: str, label: str, error: BaseException | str | None = None) -> AttachmentError:
    """The refusal for a file of format `label` ("Word document") that its parser could
    not read; `error` is what the parser raised (or warned), for the log."""
    if isinstance(error, BaseException):
        detail = (str(error) or type(error).__name__)[:DETAIL_CHARS]
        log.warning("%s could not be parsed: %s: %s", label, type(error).__name__, detail)
    elif error is not None:
        log.warning("%s could not be parsed: %s", label, error[:DETAIL_CHARS])
    return AttachmentError(
        name,
        tr("the file is damaged and cannot be read as {format}").format(format=with_article(label)),
    )


def unrecognised(name: str, label: str) -> AttachmentError:
    """The refusal for a file named as `label` whose content is not that format at all
    (cut off before its header, or something else under that name)."""
    return AttachmentError(
        name,
        tr("the file is damaged, or it is not really {format}").format(format=with_article(label)),
    )
