from __future__ import annotations

import ast
from pathlib import Path

import pytest

import desktop.render
from desktop.render import document_css, document_html


@pytest.mark.parametrize("dark", [False, True])
def test_css_leaves_fonts_to_qt(dark: bool) -> None:
    css = document_css(dark)
    assert "font-family" not in css
    assert "p {" in css


def test_light_and_dark_css_differ() -> None:
    assert document_css(False) != document_css(True)


def test_document_html_embeds_the_stylesheet() -> None:
    page = document_html("<p>hi</p>\n", dark=True)
    assert page.startswith("<html><head><style>")
    assert document_css(True) in page
    assert "<body>\n<p>hi</p>\n</body></html>" in page


def test_render_package_never_imports_qt() -> None:
    package = Path(desktop.render.__file__).parent
    for module in package.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(("PySide6", "qasync")), (module.name, name)
