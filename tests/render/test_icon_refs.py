from __future__ import annotations

import pytest

from desktop.render.icon_refs import IconRef, icon_src, inline_icon, parse_icon_src


def test_an_icon_url_names_the_icon_its_colour_and_size():
    assert icon_src("copy", "#57606A", 14) == "parley-icon:copy?color=57606A&size=14"
    assert parse_icon_src(icon_src("copy", "#57606A", 14)) == IconRef("copy", "#57606a", 14)
    assert parse_icon_src(icon_src("chevron-down", "#000000")) == IconRef(
        "chevron-down", "#000000", 14
    )
    html = inline_icon("copy", "#8b949e")
    assert html.startswith('<img src="parley-icon:copy?color=8b949e&amp;size=14" ')
    assert 'width="14" height="14"' in html


@pytest.mark.parametrize(
    "url",
    [
        "parley-icon:copy",
        "parley-icon:copy?color=57606a",
        "parley-icon:copy?color=57606a&size=0",
        "parley-icon:copy?color=57606a&size=99",
        "parley-icon:copy?color=red&size=14",
        "parley-icon:../secret?color=57606a&size=14",
        "parley-icon:Copy?color=57606a&size=14",
        "parley-icon:copy?color=57606a&size=14&x=1",
        "https://example.com/copy?color=57606a&size=14",
    ],
)
def test_anything_else_is_not_an_icon(url):
    assert parse_icon_src(url) is None
