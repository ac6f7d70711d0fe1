"""How much of a long text a view lays out, and the words for what it leaves out.

Laying out megabytes of text would freeze the window, so a view shows at most
`MAX_SHOWN_CHARS` of a text. Most show its start ("… and N more characters, not
shown."); a text the person must judge before something runs (a tool call's arguments)
shows its start and its end with the number left out between, so nothing can hide
behind a long start. Every one of these strings lives here, in one translation context.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QLocale

from desktop.core.i18n import tr  # lupdate files a count's plural only from tr()
from desktop.render.guard import MAX_SHOWN_CHARS as MAX_SHOWN_CHARS
from desktop.render.plain import SOFT_BREAK as SOFT_BREAK  # views copy text without it
from desktop.render.plain import SOFT_BREAK_NAME as SOFT_BREAK_NAME  # how each is marked
from desktop.render.plain import run_pieces as run_pieces  # where long runs get them


def _number(value: int) -> str:
    return QLocale().toString(value)


def cut_note(shown: int, total: int) -> str:
    """Under a text shown from its start: e.g. "Showing the first 100,000 of 10,485,760
    characters."."""
    return (
        QCoreApplication.translate("LongText", "Showing the first %1 of %2 characters.")
        .replace("%1", _number(shown))
        .replace("%2", _number(total))
    )


def hidden_note(hidden: int) -> str:
    """After a text's start: e.g. "… and 1,234 more characters, not shown."."""
    return tr("… and %Ln more character(s), not shown.", "", hidden)


def gap_note(hidden: int) -> str:
    """Between a text's start and its end: e.g. "… 1,234 characters not shown …"."""
    return tr("… %Ln character(s) not shown …", "", hidden)


@dataclass(frozen=True, slots=True)
class Ends:
    """A text's start and end as a view lays them out; `hidden` characters between them
    are not shown (0: `head` is the whole text and `tail` is empty)."""

    head: str
    tail: str
    hidden: int

    @property
    def total(self) -> int:
        return len(self.head) + self.hidden + len(self.tail)


def ends(text: str, limit: int = MAX_SHOWN_CHARS) -> Ends:
    """The whole `text` when it fits in `limit` characters, else its first and last
    `limit / 2`."""
    if len(text) <= limit:
        return Ends(text, "", 0)
    half = limit // 2
    tail = limit - half
    return Ends(text[:half], text[len(text) - tail :], len(text) - limit)


def ends_note(shown: Ends) -> str:
    """What a view of `shown` leaves out, and how to have all of it ("" for none)."""
    if not shown.hidden:
        return ""
    return (
        QCoreApplication.translate(
            "LongText",
            "Too long to show whole: showing the first %1 and the last %2 of %3 characters. "
            "Copy all or save them to read every one.",
        )
        .replace("%1", _number(len(shown.head)))
        .replace("%2", _number(len(shown.tail)))
        .replace("%3", _number(shown.total))
    )
