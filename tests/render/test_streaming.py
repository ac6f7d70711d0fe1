from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from desktop.render import StreamingRenderer, plain_text_html, render_markdown, streaming
from desktop.render.cost import text_cost
from desktop.render.guard import FORMAT_BUDGET, GROWING_BLOCK_BUDGET
from desktop.render.splitter import TAIL_LINES, split_blocks
from tests.support.markdown_corpus import (
    MIXED,
    TRICKY,
    UNTERMINATED_FENCE,
    WITH_FOOTNOTE,
    WITH_REFERENCE,
    random_documents,
)


def _stream(text: str, renderer: StreamingRenderer, *, seed: int = 0, max_step: int = 9):
    """Yield (prefix, html) for prefixes of `text` growing by random steps."""
    rng = random.Random(seed)
    end = 0
    while end < len(text):
        end = min(len(text), end + rng.randint(1, max_step))
        yield text[:end], renderer.render(text[:end])


@pytest.mark.parametrize("text", [MIXED, UNTERMINATED_FENCE, *TRICKY])
def test_every_prefix_renders_like_a_full_render(text: str) -> None:
    renderer = StreamingRenderer()
    for prefix, html in _stream(text, renderer, max_step=3):
        assert html == render_markdown(prefix), prefix


@pytest.mark.parametrize("text", random_documents(seed=11, count=40, min_parts=1, max_parts=12))
def test_random_documents_stream_to_the_full_render(text: str) -> None:
    renderer = StreamingRenderer(dark=True)
    html = ""
    for prefix, html in _stream(text, renderer, seed=len(text)):
        if len(prefix) % 5 == 0:
            assert html == render_markdown(prefix, dark=True), prefix
    assert html == render_markdown(text, dark=True)


def test_long_documents_reuse_the_parsed_head() -> None:
    # Longer than TAIL_LINES, so the splitter keeps a stable head between renders.
    for text in random_documents(seed=5, count=3, min_parts=150, max_parts=200):
        assert text.count("\n") > 3 * TAIL_LINES
        renderer = StreamingRenderer()
        parsed_if_whole = 0
        html = ""
        for index, (prefix, html) in enumerate(_stream(text, renderer, max_step=40)):
            parsed_if_whole += len(prefix)
            if index % 10 == 0:
                assert html == render_markdown(prefix), prefix[-200:]
        assert html == render_markdown(text)
        assert renderer.parsed_chars < parsed_if_whole / 2


def test_without_math_only_the_last_blocks_are_parsed_again() -> None:
    paragraphs = [f"Paragraph {n} has a few words.\n\n" for n in range(400)]
    renderer = StreamingRenderer()
    for end in range(1, len(paragraphs) + 1):
        renderer.render("".join(paragraphs[:end]))
    # The last three blocks or so per render, not the last TAIL_LINES lines.
    assert renderer.parsed_chars < 4 * sum(map(len, paragraphs))
    assert renderer.render("".join(paragraphs)) == render_markdown("".join(paragraphs))


def test_closed_display_formulas_do_not_lengthen_the_reparsed_tail() -> None:
    # Each section ends with a closed $$ block: a closer is final, so only the last
    # blocks are parsed again, as without maths.
    sections = [f"Step {n} costs $O(n)$.\n\n$$\nx_{{{n}}} = {n}\n$$\n\n" for n in range(200)]
    renderer = StreamingRenderer()
    for end in range(1, len(sections) + 1):
        renderer.render("".join(sections[:end]))
    text = "".join(sections)
    assert renderer.parsed_chars < 4 * len(text)
    assert renderer.render(text) == render_markdown(text)


def test_math_closed_far_below_its_opener_still_joins_the_blocks() -> None:
    lines = ["Intro.", "", "$$"] + [f"# x_{n}" for n in range(TAIL_LINES - 10)] + ["$$", ""]
    text = "\n".join(lines)
    renderer = StreamingRenderer()
    html = ""
    for end in range(1, len(lines) + 1):
        html = renderer.render("\n".join(lines[:end]))
    assert html == render_markdown(text)
    assert "<h1>" not in html  # the headings became math source


def test_unterminated_fence_streams_as_an_open_code_block() -> None:
    renderer = StreamingRenderer()
    html = renderer.render("Intro.\n\n```python\ndef f(x):\n    ret")
    assert "<small>python</small>" in html
    assert "<pre" in html
    assert "def</span>" in html
    assert "<p>def" not in html
    html = renderer.render("Intro.\n\n```python\ndef f(x):\n    return x\n")
    assert html.count("<pre") == 1


def test_closing_math_turns_earlier_blocks_into_one_block() -> None:
    renderer = StreamingRenderer()
    opened = "$$\na\n- b\n"
    assert "<li>b</li>" in renderer.render(opened)
    closed = renderer.render(opened + "$$\n")
    assert "<li>" not in closed
    assert closed == render_markdown(opened + "$$\n")


def test_completed_blocks_are_rendered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    rendered: Counter[str] = Counter()
    real = streaming.rendered_fragment

    def counting(source: str, **kwargs: object) -> tuple[str, int] | None:
        rendered[source] += 1
        return real(source, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(streaming, "rendered_fragment", counting)
    renderer = StreamingRenderer()
    for _ in _stream(MIXED, renderer, max_step=4):
        pass

    final_blocks = split_blocks(MIXED)
    for block in final_blocks[:-1]:
        assert rendered[block.source] == 1, block.source
    assert renderer.block_renders == sum(rendered.values())
    assert renderer.full_renders == 0


def test_only_the_last_block_is_rendered_per_delta() -> None:
    renderer = StreamingRenderer()
    text = "# Title\n\nFirst paragraph.\n\n```python\nx = 1\n```\n\nGrowing"
    renderer.render(text)
    before = renderer.block_renders
    for word in (" more", " and", " more."):
        text += word
        renderer.render(text)
    assert renderer.block_renders - before == 3


def test_same_text_twice_renders_nothing_new() -> None:
    renderer = StreamingRenderer()
    renderer.render(MIXED)
    before = renderer.block_renders
    assert renderer.render(MIXED) == render_markdown(MIXED)
    assert renderer.block_renders == before


def test_copy_indices_stay_global_across_cached_blocks() -> None:
    text = "```\na\n```\n\ntext\n\n```\nb\n```\n"
    renderer = StreamingRenderer()
    renderer.render(text[:12])
    html = renderer.render(text)
    assert 'href="parley-copy:0"' in html
    assert 'href="parley-copy:1"' in html
    assert html == render_markdown(text)


@pytest.mark.parametrize("text", [WITH_FOOTNOTE, WITH_REFERENCE])
def test_definitions_fall_back_to_full_renders(text: str) -> None:
    renderer = StreamingRenderer()
    html = ""
    for prefix, html in _stream(text, renderer):
        assert html == render_markdown(prefix)
    assert renderer.full_renders > 0
    assert html == render_markdown(text)


def test_edited_text_is_split_from_scratch() -> None:
    renderer = StreamingRenderer()
    renderer.render(MIXED)
    edited = MIXED.replace("Release notes", "Changelog")
    assert renderer.render(edited) == render_markdown(edited)


def test_switching_theme_drops_the_cache() -> None:
    renderer = StreamingRenderer()
    renderer.render(MIXED)
    renderer.dark = True
    assert renderer.render(MIXED) == render_markdown(MIXED, dark=True)


def test_a_huge_table_is_plain_text_while_it_grows_then_formatted_once() -> None:
    rows = "| a | b |\n|---|---|\n" + "".join(f"| {n} | x |\n" for n in range(700))
    assert GROWING_BLOCK_BUDGET < text_cost(rows) < FORMAT_BUDGET
    renderer = StreamingRenderer()
    for prefix, html in _stream("Intro.\n\n" + rows, renderer, max_step=400):
        if text_cost(prefix) > GROWING_BLOCK_BUDGET + text_cost("Intro.\n\n"):
            assert "<table" not in html  # each update would lay the whole table out again
            assert html == "<p>Intro.</p>\n" + plain_text_html(prefix[len("Intro.\n\n") :])
    text = "Intro.\n\n" + rows + "\nAfter the table."
    after = renderer.render(text)  # a block follows it: the table is complete
    assert "<table" in after and after == render_markdown(text)
    done = renderer.render(text, final=True)
    assert done == render_markdown(text)


# What a model writes often: a file of a few hundred lines, a table of a hundred rows.
FILE = "Here is the file:\n\n```python\n" + "".join(
    f"def handle_{n}(request: dict[str, int]) -> list[str]:\n    return sorted(request)\n"
    for n in range(150)
)
TABLE = "| name | type | default | required | description | since |\n" + "|---" * 6 + "|\n"
TABLE += "".join(
    f"| `opt{n}` | int | 4096 | no | bytes read per call, see **docs** | 1.{n} |\n"
    for n in range(120)
)


def test_a_growing_code_block_keeps_its_frame_and_copy_link_on_every_update() -> None:
    renderer = StreamingRenderer()
    highlighted_while_growing = plain_while_growing = 0
    for prefix, html in _stream(FILE, renderer, max_step=200):
        if "```python\n" not in prefix:
            continue
        assert "```" not in html  # never the fence as text
        assert len(re.findall(r'<a href="parley-copy:0"[^>]*>.*?Copy</a>', html)) == 1
        assert "<small>python</small>" in html
        code = prefix.split("```python\n", 1)[1]
        if "\n" in code:
            escaped = code[: code.rindex("\n")].replace("&", "&amp;").replace("<", "&lt;")
            if '<span style="color' in html:
                highlighted_while_growing += 1
            else:  # too costly to highlight again on every update: the same frame, escaped
                assert escaped.replace(">", "&gt;") in html
                plain_while_growing += 1
    assert highlighted_while_growing and plain_while_growing
    final = renderer.render(FILE, final=True)
    assert final == render_markdown(FILE) and '<span style="color' in final


def test_a_table_of_a_hundred_rows_stays_a_table_while_it_grows() -> None:
    renderer = StreamingRenderer()
    for prefix, html in _stream(TABLE, renderer, max_step=300):
        if prefix.count("\n") >= 3:  # the header, the delimiter row and a row
            assert "<table" in html and "| `opt" not in html, prefix[-80:]
    assert renderer.render(TABLE, final=True) == render_markdown(TABLE)


def test_the_final_render_highlights_a_costly_last_code_block() -> None:
    code = "```python\n" + "value = compute(items[i], {'key': 1})\n" * 400
    renderer = StreamingRenderer()
    growing = renderer.render(code)
    assert "<small>python</small>" in growing and '<span style="color' not in growing
    assert renderer.render(code, final=True) == render_markdown(code)
    assert '<span style="color' in render_markdown(code)
