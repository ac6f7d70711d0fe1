"""The cards under an answer: the sources it cites, in first-citation order, each once;
none for a source it was given but does not cite, nor for a number it was not given."""

from __future__ import annotations

from dataclasses import replace

from desktop.core.models import CitationPart, Message, MessageStatus, Role, TextPart
from desktop.render import render_markdown
from desktop.ui.viewmodels.citation_card import short_excerpt
from desktop.ui.viewmodels.message_renderer import MessageRenderer

GUIDE = CitationPart(
    1, "lib", "/docs/guide.pdf", "travel/guide.pdf", "Tram 28 runs all day.", page=3
)
TRAMS = CitationPart(
    2, "lib", "/docs/trams.md", "travel/trams.md", "Buy a day pass.", heading_path="Lisbon › Trams"
)
FOOD = CitationPart(3, "lib", "/docs/food.md", "food.md", "Pastéis de nata. " * 30)

TEXT = "Buy a pass [2]. Tram 28 [1][2], not `[3]`; unknown [7]; a list [1, 3]."


def answer(text: str = TEXT, *parts: CitationPart, streaming: bool = False) -> Message:
    return Message(
        "a",
        "c",
        None,
        Role.ASSISTANT,
        [TextPart(text), *(parts or (GUIDE, TRAMS, FOOD))],
        MessageStatus.STREAMING if streaming else MessageStatus.COMPLETE,
    )


def test_cards_follow_the_first_citation_order_and_carry_what_a_card_shows():
    item = MessageRenderer().item(answer())
    assert [card.number for card in item.citations] == [2, 1, 3]
    trams, guide, food = item.citations
    assert (trams.file_name, trams.location, trams.excerpt) == (
        "trams.md",
        "Lisbon › Trams",
        "Buy a day pass.",
    )
    assert (guide.file_name, guide.location) == ("guide.pdf", "p. 3")
    assert len(food.excerpt) <= 161 and food.excerpt.endswith("…")
    assert food.part is FOOD  # what opening the source needs
    assert item.html == render_markdown(TEXT, citations={1, 2, 3})


def test_only_sources_the_text_cites_and_the_answer_was_given_make_cards():
    item = MessageRenderer().item(answer("Only [2] and [7].", GUIDE, TRAMS))
    assert [card.number for card in item.citations] == [2]
    assert [card.number for card in item.sources] == [1, 2]
    assert item.source(1) is not None and item.source(7) is None
    given_none = Message("b", "c", None, Role.ASSISTANT, [TextPart("No sources [1].")])
    plain = MessageRenderer().item(given_none)
    assert plain.citations == () and plain.html == render_markdown("No sources [1].")


def test_a_streaming_answer_gets_a_card_once_a_whole_marker_is_in():
    renderer = MessageRenderer()
    shown = []
    for end in range(1, len(TEXT) + 1):
        item = renderer.item(answer(TEXT[:end], streaming=True))
        shown.append(tuple(card.number for card in item.citations))
    assert shown[TEXT.index("[2]") + 1] == ()  # "[2" is not a marker yet
    assert shown[TEXT.index("[2]") + 2] == (2,)
    assert shown[-1] == (2, 1, 3)
    done = renderer.item(answer(TEXT))
    assert [card.number for card in done.citations] == [2, 1, 3]


def test_a_source_given_later_turns_its_number_into_a_link_and_a_card():
    renderer = MessageRenderer()
    first = renderer.item(answer("See [1] and [2].", GUIDE, streaming=True))
    assert [card.number for card in first.citations] == [1]
    later = renderer.item(answer("See [1] and [2].", GUIDE, TRAMS, streaming=True))
    assert [card.number for card in later.citations] == [1, 2]
    done = renderer.item(answer("See [1] and [2].", GUIDE))  # finished with fewer: re-rendered
    assert [card.number for card in done.citations] == [1]
    assert replace(done, html_source="x").citations == ()


def test_an_excerpt_is_shortened_on_a_word():
    assert short_excerpt("  a\n passage  ") == "a passage"
    long = "word " * 100
    short = short_excerpt(long)
    assert short.endswith("word…") and len(short) <= 161
