"""Cutting a document's text into passages: headings, pages, slides, boundaries, CJK."""

from __future__ import annotations

import hashlib
import itertools

import pytest

from desktop.engine.knowledge.chunking import (
    CHUNK_CHARS,
    OVERLAP_CHARS,
    Layout,
    layout_for,
    split_into_chunks,
)

SENTENCES = " ".join(f"Sentence number {n} says something plain." for n in range(120))
CJK_SENTENCES = "".join(f"这是第{n}句话，没有空格也能切开。" for n in range(150))
CJK_RUN = "知" * 3000  # no spaces, no sentence marks at all


def _check_invariants(text, chunks):
    for index, chunk in enumerate(chunks):
        assert chunk.ordinal == index
        assert chunk.text == text[chunk.char_start : chunk.char_end]
        assert chunk.text == chunk.text.strip() and chunk.text
        assert chunk.text_sha256 == hashlib.sha256(chunk.text.encode()).hexdigest()
        assert len(chunk.text) <= CHUNK_CHARS + OVERLAP_CHARS


def _covered(text, chunks):
    """Every non-space character of `text` is in some passage."""
    covered = [False] * len(text)
    for chunk in chunks:
        covered[chunk.char_start : chunk.char_end] = [True] * (chunk.char_end - chunk.char_start)
    return all(c or text[i].isspace() for i, c in enumerate(covered))


@pytest.mark.parametrize(
    ("text", "layout", "expected"),
    [
        pytest.param("", Layout.PLAIN, [], id="empty"),
        pytest.param(" \n\n \t\n", Layout.MARKDOWN, [], id="whitespace"),
        pytest.param("Just a line.", Layout.PLAIN, [("", None, "Just a line.")], id="one line"),
        pytest.param(
            "# Intro\nHello.\n## Setup\nRun it.\n### Linux\napt.\n## Use\nType.\n# Next\nBye.",
            Layout.MARKDOWN,
            [
                ("Intro", None, "# Intro\nHello."),
                ("Intro › Setup", None, "## Setup\nRun it."),
                ("Intro › Setup › Linux", None, "### Linux\napt."),
                ("Intro › Use", None, "## Use\nType."),
                ("Next", None, "# Next\nBye."),
            ],
            id="heading paths",
        ),
        pytest.param(
            "Before any heading.\n# Title ##\n\n## Empty\n\n## Full\nText.",
            Layout.MARKDOWN,
            [("", None, "Before any heading."), ("Title › Full", None, "## Full\nText.")],
            id="headings with nothing under them make no passage",
        ),
        pytest.param(
            "# Code\n```sh\n# not a heading\nls\n```\nafter",
            Layout.MARKDOWN,
            [("Code", None, "# Code\n```sh\n# not a heading\nls\n```\nafter")],
            id="fenced code",
        ),
        pytest.param(
            "# a comment\nx = 1\n## another\ny = 2",
            Layout.PLAIN,
            [("", None, "# a comment\nx = 1\n## another\ny = 2")],
            id="plain text has no headings",
        ),
        pytest.param(
            "## Page 1\nFirst page.\n\n## Page 2\n\n## Page 3\nThird page.\n",
            Layout.PAGES,
            [("", 1, "First page."), ("", 3, "Third page.")],
            id="pages",
        ),
        pytest.param(
            "## Slide 1\nWelcome\nPoint a\n\n## Slide 2\nPlan\nStep b\n\nNotes:\nSay it\n\n",
            Layout.SLIDES,
            [
                ("Slide 1 › Welcome", None, "Welcome\nPoint a"),
                ("Slide 2 › Plan", None, "Plan\nStep b\n\nNotes:\nSay it"),
            ],
            id="slides",
        ),
    ],
)
def test_structure(text, layout, expected):
    chunks = split_into_chunks(text, layout)
    _check_invariants(text, chunks)
    assert [(c.heading_path, c.page, c.text) for c in chunks] == expected


@pytest.mark.parametrize(
    ("text", "ends_with"),
    [
        pytest.param(SENTENCES, ".", id="sentences"),
        pytest.param(
            "\n\n".join(SENTENCES[i : i + 300] for i in range(0, 6000, 300)), None, id="paragraphs"
        ),
        pytest.param(CJK_SENTENCES, "。", id="CJK sentences"),
        pytest.param(CJK_RUN, None, id="CJK without marks"),
        pytest.param(" ".join(["word"] * 1500), "word", id="words"),
    ],
)
def test_long_text_is_cut_at_boundaries_with_overlap(text, ends_with):
    chunks = split_into_chunks(text, Layout.PLAIN)
    _check_invariants(text, chunks)
    assert len(chunks) > 3
    assert _covered(text, chunks)
    for before, after in itertools.pairwise(chunks):
        overlap = before.char_end - after.char_start
        assert 0 < overlap <= OVERLAP_CHARS + 1, overlap
        assert len(before.text) >= CHUNK_CHARS // 2 - OVERLAP_CHARS
    if ends_with:
        assert all(c.text.endswith(ends_with) for c in chunks)


def test_a_paragraph_break_is_preferred_to_a_sentence_end():
    first = "One sentence here. " * 30  # 570 characters
    text = first.strip() + "\n\n" + "Another sentence there. " * 40
    chunks = split_into_chunks(text, Layout.PLAIN)
    assert chunks[0].text == first.strip()


def test_text_without_spaces_is_cut_at_the_size_and_overlaps_by_the_overlap():
    chunks = split_into_chunks(CJK_RUN, Layout.PLAIN)
    assert [len(c.text) for c in chunks[:-1]] == [CHUNK_CHARS] * (len(chunks) - 1)
    assert chunks[1].char_start == CHUNK_CHARS - OVERLAP_CHARS


def test_a_passage_never_spans_two_pages():
    pages = [f"## Page {n}\n" + f"Page {n} text goes on. " * 60 for n in (1, 2, 3)]
    text = "\n\n".join(pages)
    chunks = split_into_chunks(text, Layout.PAGES)
    _check_invariants(text, chunks)
    assert {c.page for c in chunks} == {1, 2, 3}
    for chunk in chunks:
        assert f"Page {chunk.page} text" in chunk.text
        assert "## Page" not in chunk.text
        other = {1, 2, 3} - {chunk.page}
        assert not any(f"Page {n} text" in chunk.text for n in other)


def test_a_long_section_keeps_its_heading_path_on_every_passage():
    text = "# Guide\n## Install\n" + SENTENCES
    chunks = split_into_chunks(text, Layout.MARKDOWN)
    assert len(chunks) > 3
    assert {c.heading_path for c in chunks} == {"Guide › Install"}
    assert chunks[0].text.startswith("## Install")


def test_sizes_are_adjustable_and_checked():
    chunks = split_into_chunks(SENTENCES, Layout.PLAIN, size=200, overlap=30)
    assert all(len(c.text) <= 230 for c in chunks)
    with pytest.raises(ValueError):
        split_into_chunks("x", Layout.PLAIN, size=100, overlap=60)


@pytest.mark.parametrize(
    ("name", "layout"),
    [
        ("report.pdf", Layout.PAGES),
        ("deck.PPTX", Layout.SLIDES),
        ("old.ppt", Layout.SLIDES),
        ("letter.docx", Layout.MARKDOWN),
        ("notes.md", Layout.MARKDOWN),
        ("README.markdown", Layout.MARKDOWN),
        ("script.py", Layout.PLAIN),
        ("notes.txt", Layout.PLAIN),
        ("Makefile", Layout.PLAIN),
    ],
)
def test_layout_for(name, layout):
    assert layout_for(name) is layout
