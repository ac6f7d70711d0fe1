"""Where the source panel puts the passage in its document's text, whatever the stored
offsets and digest say."""

from __future__ import annotations

from desktop.core.models import CitationPart
from desktop.engine.knowledge.documents import DocumentText
from desktop.ui.viewmodels.citation_card import citation_card
from desktop.ui.viewmodels.sources import CONTEXT_CHARS, passage_view

TEXT = "Intro line.\nThe passage itself.\nOutro line."
START = TEXT.index("The passage")
END = START + len("The passage itself.")


def part(**fields: object) -> CitationPart:
    values: dict[str, object] = {"char_start": START, "char_end": END, "source_sha256": "d1"}
    values.update(fields)
    return CitationPart(1, "lib", "/docs/a.md", "a.md", "The passage itself.", **values)  # type: ignore[arg-type]


def test_a_file_with_the_same_digest_shows_the_passage_at_its_offsets():
    view = passage_view(citation_card(part()), DocumentText(TEXT, "d1"))
    assert (view.before, view.passage, view.after) == (TEXT[:START], TEXT[START:END], TEXT[END:])
    assert view.note == "" and view.can_open


def test_without_a_digest_the_quote_is_found_where_it_moved():
    moved = "New first line.\n" + TEXT
    view = passage_view(citation_card(part(source_sha256="")), DocumentText(moved, "d2"))
    assert view.passage == "The passage itself." and view.before == moved[: START + 16]
    assert view.note == ""


def test_without_a_digest_a_text_without_the_quote_counts_as_changed():
    view = passage_view(citation_card(part(source_sha256="")), DocumentText("Other.", "d2"))
    assert view.passage == "The passage itself." and view.before == view.after == ""
    assert "changed since this answer" in view.note


def test_a_long_document_shows_the_text_around_the_passage_from_line_starts():
    line = "x" * 99 + "\n"
    text = line * 1000 + "The passage itself." + "\n" + line * 1000
    start = text.index("The passage")
    cited = part(char_start=start, char_end=start + 19)
    view = passage_view(citation_card(cited), DocumentText(text, "d1"))
    assert view.passage == "The passage itself."
    assert CONTEXT_CHARS - 100 <= len(view.before) <= CONTEXT_CHARS
    assert view.before.startswith("x") and text[start - len(view.before) - 1] == "\n"
    assert CONTEXT_CHARS - 100 <= len(view.after) <= CONTEXT_CHARS
