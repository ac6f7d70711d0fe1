"""What a citation card under an answer shows for one of its sources: plain, worded data.

An answer keeps every source it was given (`CitationPart`s); the cards are those it
cites, in the order it first cites them, each once (`MessageItem.citations`, from the
links in the rendered text). The card holds its part, so opening the source needs
nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePath

from PySide6.QtCore import QCoreApplication, QDate, QLocale, QUrl

from desktop.core.models import CitationPart, Message, SourceKind

EXCERPT_CHARS = 160  # of the passage on a card (the view fits it to two lines)


@dataclass(frozen=True, slots=True)
class CitationCard:
    number: int
    file_name: str  # a chat's or page's title, for those
    location: str  # "p. 3" or headings; a chat's day; a page's host; "" when none
    excerpt: str  # the passage on one line, shortened
    part: CitationPart

    @property
    def shown_path(self) -> str:
        """The file as the model saw it (its place in the library); a page's address."""
        if self.part.kind is SourceKind.WEB:
            return self.part.url
        if self.part.kind is SourceKind.CHAT:
            return self.part.title
        return self.part.relative_path or self.part.path


def location_text(part: CitationPart) -> str:
    if part.page is not None:
        return QCoreApplication.translate("CitationCard", "p. %1").replace("%1", str(part.page))
    return " ".join(part.heading_path.split())


def short_excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    cut = line[:limit]
    space = cut.rfind(" ")
    if space > limit // 2:  # end on a whole word unless that loses too much
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + "…"


def citation_card(part: CitationPart) -> CitationCard:
    excerpt = short_excerpt(part.excerpt)
    if part.kind is SourceKind.CHAT:
        title = part.title or QCoreApplication.translate("CitationCard", "Untitled chat")
        return CitationCard(part.number, title, _day(part.date), excerpt, part)
    if part.kind is SourceKind.WEB:
        host = QUrl(part.url).host()
        return CitationCard(part.number, part.title or host, host, excerpt, part)
    name = PurePath(part.relative_path or part.path).name or part.path
    return CitationCard(part.number, name, location_text(part), excerpt, part)


def _day(iso: str) -> str:
    """A stored date as the person's locale writes a day ("" when there is none)."""
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return ""
    local = when.astimezone()
    day = QDate(local.year, local.month, local.day)
    return QLocale().toString(day, QLocale.FormatType.ShortFormat)


def citation_cards(message: Message) -> tuple[CitationCard, ...]:
    """A card for each source the answer was given, by number (the first part with a
    number wins: numbers are never given twice, but a stored answer is not trusted)."""
    parts: dict[int, CitationPart] = {}
    for part in message.parts:
        if isinstance(part, CitationPart):
            parts.setdefault(part.number, part)
    return tuple(citation_card(parts[number]) for number in sorted(parts))


def source_numbers(message: Message) -> frozenset[int]:
    """The numbers of the sources the answer was given: its `[n]` for them are links."""
    return frozenset(p.number for p in message.parts if isinstance(p, CitationPart))
