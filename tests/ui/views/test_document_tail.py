"""A streamed message document equals a full setHtml of the same HTML, after every update."""

from __future__ import annotations

import random

import pytest
from PySide6.QtGui import QTextDocument

from desktop.render import StreamingRenderer, document_css, render_markdown
from desktop.ui.views.document_tail import TailWriter, split_units
from desktop.ui.views.rich_text import RichText
from tests.support.markdown_corpus import (
    MIXED,
    TRICKY,
    UNTERMINATED_FENCE,
    WITH_FOOTNOTE,
    random_documents,
)

# Shapes that exercised Qt's importer quirks: empty elements after tables, lists and rules,
# an empty first element, a table whose last cell is empty, nested quotes and lists.
EDGES = [
    "1. First step\n\n   ```bash\n   pip install x\n   ```\n\n2. Second\n   > quoted\n   > - l\n",
    "> - q1\n> - q2\n>\n> ```\n> code\n> ```\n\nAfter.\n\n***\n\n# H\n\n---\n---\n\n| x |\n|---|\n",
    "#\n\n##\n\n-\n\n1.\n\n>\n\n```\n```\n\n~~~\n~~~\n\nend\n",
    "| a | b |\n|---|:-:|\n| 1 | 2 |\nFoo\n- list after a table with an empty cell\n",
    "---\n\n# Heading\npara\n\n- a\n-\n\ntext\n",
    "Text with a footnote[^n].\n\n[^n]: the note\n\nMore.\n",
]


def full_document(html: str, css: str) -> QTextDocument:
    document = QTextDocument()
    document.setDefaultStyleSheet(css)
    document.setHtml(html)
    return document


def stream(text: str, *, seed: int, max_step: int, dark: bool = False, check_every: bool = True):
    """Feed growing prefixes through a TailWriter; compare with a fresh full render."""
    css = document_css(dark)
    document = QTextDocument()
    document.setDefaultStyleSheet(css)
    writer = TailWriter(document)
    renderer = StreamingRenderer(dark=dark)
    rng = random.Random(seed)
    end = 0
    while end < len(text):
        end = min(len(text), end + rng.randint(1, max_step))
        html = renderer.render(text[:end])
        writer.set_html(html)
        if check_every or end == len(text):
            expected = full_document(html, css)
            assert document.toHtml() == expected.toHtml(), text[:end]
    return document, writer


@pytest.mark.parametrize("text", [MIXED, UNTERMINATED_FENCE, WITH_FOOTNOTE, *TRICKY, *EDGES])
def test_every_update_matches_a_full_render(qapp, text: str) -> None:
    stream(text, seed=len(text), max_step=4)


@pytest.mark.parametrize("seed", range(6))
def test_random_documents_match_after_every_update(qapp, seed: int) -> None:
    for number, text in enumerate(
        random_documents(seed=40 + seed, count=8, min_parts=2, max_parts=12)
    ):
        stream(text, seed=number, max_step=3 + 10 * (number % 3), dark=bool(seed % 2))


def test_only_the_tail_is_reimported(qapp) -> None:
    text = "".join(f"Paragraph {n} has some words in it.\n\n" for n in range(200))
    document, writer = stream(text, seed=1, max_step=40, check_every=False)
    updates = -(-len(text) // 20)  # at least this many updates happened (steps <= 40)
    assert writer.reimported_units < 3 * updates  # not 200 units per update
    assert document.blockCount() == full_document(render_markdown(text), "").blockCount()


def _edited(text: str, rng: random.Random) -> str:
    """`text` with one letter in its first two thirds changed: one block changes in
    place, as when a formula in an early paragraph is typeset or an image loads."""
    letters = [n for n, char in enumerate(text[: len(text) * 2 // 3]) if char.isalpha()]
    if not letters:
        return text
    at = rng.choice(letters)
    return text[:at] + ("q" if text[at] != "q" else "z") + text[at + 1 :]


@pytest.mark.parametrize("seed", range(4))
def test_blocks_changed_in_place_match_after_every_update(qapp, seed: int) -> None:
    rng = random.Random(seed)
    css = document_css(bool(seed % 2))
    for original in [*EDGES, *random_documents(seed=70 + seed, count=6, min_parts=4, max_parts=14)]:
        text = original
        document = QTextDocument()
        document.setDefaultStyleSheet(css)
        writer = TailWriter(document)
        end = 0
        while end < len(text):
            end = min(len(text), end + rng.randint(1, 12))
            if rng.random() < 0.5:
                text = _edited(text, rng)
            html = render_markdown(text[:end], dark=bool(seed % 2))
            writer.set_html(html)
            assert document.toHtml() == full_document(html, css).toHtml(), text[:end]


def test_a_paragraph_changed_far_above_the_end_is_replaced_where_it_stands(qapp) -> None:
    paragraphs = [f"Paragraph {n} has some words in it.\n\n" for n in range(200)]
    document = QTextDocument()
    writer = TailWriter(document)
    writer.set_html(render_markdown("".join(paragraphs)))
    before = writer.reimported_units
    paragraphs[3] = "Paragraph three, now **changed**.\n\n"
    html = render_markdown("".join(paragraphs) + "More")  # and the end grows
    writer.set_html(html)
    assert writer.reimported_units - before <= 3  # the changed one and the end, not 197
    assert document.toHtml() == full_document(html, "").toHtml()


def test_units_are_top_level_elements_with_whitespace_in_front() -> None:
    html = "<p>a</p>\n<ul>\n<li>b</li>\n</ul>\n<hr />\n<p>c</p>\n"
    assert split_units(html) == ["<p>a</p>", "\n<ul>\n<li>b</li>\n</ul>\n<hr />", "\n<p>c</p>\n"]
    assert "".join(split_units(render_markdown(MIXED))) == render_markdown(MIXED)


def test_a_streamed_message_widget_equals_a_full_render_at_the_end(qapp) -> None:
    """The RichText path the chat view uses: growing updates, then the final HTML."""
    text = MIXED * 2
    css = document_css(False)
    view = RichText()
    view.document().setDefaultStyleSheet(css)
    renderer = StreamingRenderer()
    for end in range(7, len(text) + 7, 7):
        view.set_html(renderer.render(text[:end]), growing=True)
    final = render_markdown(text)
    view.set_html(final)  # the finished message: same HTML, so nothing is re-imported
    expected = full_document(final, css)
    assert view.document().toPlainText() == expected.toPlainText()
    assert view.document().blockCount() == expected.blockCount()
    assert view.document().toHtml() == expected.toHtml()


def test_a_streamed_document_stays_the_writers_when_the_finished_html_differs(qapp) -> None:
    """The completing update (a code block highlighted at last, a formula typeset) and
    any later change of a streamed message rewrite what changed, not the whole message;
    a message that never streamed is set whole."""
    paragraphs = [f"Paragraph {n} with some words.\n\n" for n in range(150)]
    text = "".join(paragraphs)
    css = document_css(False)
    view = RichText()
    view.document().setDefaultStyleSheet(css)
    view.set_html(render_markdown(text), growing=True)
    before = view.tail.reimported_units
    paragraphs[5] = "Paragraph five, now *finished*.\n\n"
    final = render_markdown("".join(paragraphs))
    view.set_html(final)  # finished, and one early block differs
    assert view.tail.built and 1 <= view.tail.reimported_units - before <= 3  # not all 150
    assert view.document().toHtml() == full_document(final, css).toHtml()
    opened = RichText()
    opened.set_html(final)  # opened from the database: one setHtml, no writer
    assert not opened.tail.built and opened.tail.reimported_units == 0


def test_a_block_changed_far_above_the_end_is_not_laid_out_with_all_below_it(qapp) -> None:
    # Qt lays out again everything an edit block spans: the change far above and the
    # growing end are told apart, so the 190 paragraphs between are not in either.
    paragraphs = [f"Paragraph {n} has some words in it.\n\n" for n in range(200)]
    document = QTextDocument()
    document.documentLayout()  # Qt reports changes to a document that is laid out
    writer = TailWriter(document)
    writer.set_html(render_markdown("".join(paragraphs)))
    changes: list[tuple[int, int, int]] = []
    document.contentsChange.connect(lambda at, removed, added: changes.append((at, removed, added)))
    paragraphs[3] = "Paragraph three, now **changed**.\n\n"
    html = render_markdown("".join(paragraphs) + "More")
    writer.set_html(html)
    assert document.toHtml() == full_document(html, "").toHtml()
    one_paragraph = len("Paragraph 100 has some words in it.")
    assert changes and max(added for _at, _removed, added in changes) < 4 * one_paragraph
