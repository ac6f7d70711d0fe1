"""HTML to readable text, without a server: what is kept, what is dropped, and the
charset a page is decoded with."""

from __future__ import annotations

import pytest

from desktop.engine.web.html_text import charset_of, html_to_text


def text_of(markup: str) -> str:
    return html_to_text(markup)[1]


def test_a_head_left_open_ends_at_the_body():
    title, text = html_to_text("<html><head><title>Open</title><meta x=1><body><p>Hi</p>")

    assert (title, text) == ("Open", "Hi")


def test_only_the_first_title_outside_drawings_counts():
    markup = "<svg><title>icon</title></svg><title>Real</title><title>Second</title><p>x</p>"

    assert html_to_text(markup)[0] == "Real"


def test_pre_keeps_its_spacing_and_the_rest_collapses():
    markup = "<p>a   b\n c</p><pre>def f():\n    return  1\n</pre><p>after</p>"

    assert text_of(markup) == "a b c\n\ndef f():\n    return  1\n\nafter"


def test_blocks_end_lines_and_paragraphs_leave_one_blank_line():
    markup = "<div>one</div><div>two</div><p>three</p><p></p><p></p><p>four</p>x<br>y"

    assert text_of(markup) == "one\ntwo\n\nthree\n\nfour\n\nx\ny"


def test_table_cells_are_spaced_and_rows_are_lines():
    markup = "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>31</td></tr></table>"

    assert text_of(markup) == "Name Age\nAnn 31"


def test_hidden_content_is_dropped_even_when_nested_or_self_closed():
    markup = (
        "<p>keep</p><svg/><p>also</p><template><div><script>x()</script>T</div></template>"
        "<select><option>choice</option></select><iframe>frame</iframe><p>end</p>"
    )

    assert text_of(markup) == "keep\n\nalso\n\nend"


def test_entities_decode_to_text_that_is_not_markup_again():
    assert text_of("<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; &#x1F600;</p>") == (
        "<script>alert(1)</script> &amp; 😀"
    )


def test_control_characters_used_as_markers_cannot_come_from_the_page():
    assert text_of("<p>a\x02\x03b\x00c</p>") == "abc"


@pytest.mark.parametrize(
    ("content_type", "head", "is_html", "expected"),
    [
        ("text/html; charset=Shift_JIS", b"", True, "shift_jis"),
        ("text/html", b'<meta charset="koi8-r">', True, "koi8-r"),
        ("text/html", b'<meta http-equiv="Content-Type" content="text/html; charset=gbk">',
         True, "gbk"),
        ("text/plain", b'<meta charset="koi8-r">', False, "utf-8"),
        ("text/html; charset=iso-8859-1", b"", True, "cp1252"),
        ("text/html; charset=no-such-codec", b"", True, "utf-8"),
        ("text/html; charset=utf-16", b"<html>", True, "utf-8"),
        ("text/html; charset=koi8-r", b"\xef\xbb\xbf<html>", True, "utf-8-sig"),
        ("", b"\xff\xfe<\x00h\x00", True, "utf-16"),
    ],
)  # fmt: skip
def test_charset_choice(content_type, head, is_html, expected):
    assert charset_of(content_type, head, is_html) == expected
