"""Search snippets read as text, not as markdown source."""

from __future__ import annotations

from desktop.core.plain_markdown import plain_from_markdown


def test_the_marks_a_reader_never_sees_are_dropped():
    source = (
        "## Packing list\n\n"
        "Take **sun cream**, *a hat* and `sunglasses` — see [the guide](https://x.example/a).\n"
        "![map of Lisbon](map.png)\n"
        "> quoted advice\n"
        "- first item\n"
        "2. second item\n"
        "```python\nprint('hi')\n```\n"
        "| day | plan |\n|-----|------|\n| Mon | tram |\n"
        "<b>bold tag</b> ~~old~~\n"
    )
    plain = plain_from_markdown(source)
    for mark in ("##", "**", "`", "](", "![", "> ", "- first", "```", "|", "<b>", "~~"):
        assert mark not in plain, mark
    for words in ("Packing list", "sun cream", "a hat", "sunglasses", "the guide", "map of Lisbon"):
        assert words in plain, words
    for words in ("quoted advice", "first item", "second item", "print('hi')", "Mon", "tram"):
        assert words in plain, words
    assert "https://x.example" not in plain  # the link's text stays, its address goes


def test_prose_that_only_looks_like_markdown_is_kept():
    assert plain_from_markdown("2 * 3 * 4 and snake_case_name") == "2 * 3 * 4 and snake_case_name"


def test_runs_that_make_backtracking_patterns_explode_come_back_as_written():
    # Every pattern splits a line one way only: 40 dashes before an "x" (not a table rule)
    # took an exponential pattern hours; here it is the line as written.
    assert plain_from_markdown("-" * 40 + "x") == "-" * 40 + "x"
    assert plain_from_markdown("[" * 5000) == "[" * 5000
    assert plain_from_markdown("a*" * 5000) == "a" * 5000  # emphasis runs next to text go
    # A model that degenerated into white space: 100,000 spaces took minutes when a run
    # could be shared out between two patterns' spaces.
    assert plain_from_markdown(" " * 100_000 + "x") == "x"  # indentation goes
    assert plain_from_markdown("|---" + " " * 20_000) == ""  # a table rule, trailing spaces
    assert plain_from_markdown("a" + " " * 50_000 + "| b") == "a b"
