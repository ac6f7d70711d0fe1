"""What in-chat find reads in a message it has not laid out: the text a reader sees."""

from __future__ import annotations

from desktop.ui.viewmodels.find_text import count, needle, plain_text


def test_markdown_a_reader_never_sees_is_left_out():
    source = (
        "# The **zephyr**\n\n"
        "> A `west` wind, see [the atlas](https://example.com/zephyr-map).\n\n"
        "- one _mild_ breeze\n"
        "1. ~~cold~~ warm\n\n"
        "```python\nzephyr = 1\n```\n\n"
        "| wind | kind |\n|---|---|\n| zephyr | mild |\n"
    )
    text = plain_text(source, markdown=True)
    assert text == (
        "The zephyr A west wind, see the atlas. one mild breeze cold warm zephyr = 1 "
        "wind kind zephyr mild "
    )
    assert count(text, "zephyr", case_sensitive=False) == 3  # not the link's address
    assert count(text, "west wind", case_sensitive=False) == 1


def test_the_persons_own_text_is_searched_as_typed():
    text = plain_text("Use **bold**\n  and  `code`", markdown=False)
    assert text == "Use **bold** and `code`"
    assert count(text, needle("**bold**   and"), case_sensitive=False) == 1


def test_matching_ignores_case_unless_asked_and_never_overlaps():
    assert count("Zephyr zephyr ZEPHYR", "zephyr", case_sensitive=False) == 3
    assert count("Zephyr zephyr ZEPHYR", "zephyr", case_sensitive=True) == 1
    assert count("aaaa", "aa", case_sensitive=False) == 2
    assert count("anything", "", case_sensitive=False) == 0


def test_a_query_of_white_space_searches_nothing():
    assert needle("   ") == ""
    assert needle(" two  words ") == " two words "
