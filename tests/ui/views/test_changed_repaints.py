"""A streamed message repaints what changed, and what it shows stays exactly what a fresh
view of the same HTML shows (no stale pixels left by the repaints it skips)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QImage, QTextCursor
from PySide6.QtWidgets import QApplication, QWidget

from desktop.render import StreamingRenderer, document_css, render_markdown
from desktop.ui.views.rich_text import RichText
from tests.support.markdown_corpus import MIXED, random_documents

WIDTH = 560
WINDOW_HEIGHT = 3_000


class _Paints(QObject):
    """The rectangles a widget is asked to paint."""

    def __init__(self) -> None:
        super().__init__()
        self.rects: list[QRect] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.rects.append(event.rect())
        return False


@pytest.fixture
def views(qtbot) -> Callable[[], RichText]:
    windows: list[QWidget] = []  # kept for the test: qtbot holds only weak references

    def view() -> RichText:
        window = QWidget()
        windows.append(window)
        qtbot.addWidget(window)
        return _view(window)

    return view


def _view(window: QWidget) -> RichText:
    """A message view in a window that keeps its size while the view grows, as the
    transcript does (a window that grows is repainted whole)."""
    window.resize(WIDTH, WINDOW_HEIGHT)
    view = RichText(window)
    view.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no text cursor in the pixels
    view.document().setDefaultStyleSheet(document_css(False))
    view.resize(WIDTH, 200)
    window.show()
    return view


def _show(view: RichText, html: str, *, growing: bool) -> None:
    view.set_html(html, growing=growing)
    view.resize(WIDTH, view.heightForWidth(WIDTH))
    QApplication.processEvents()


def _pixels(view: RichText) -> bytes:
    """What is on screen for the view: its backing store, not a fresh paint."""
    image = QApplication.primaryScreen().grabWindow(view.window().winId()).toImage()
    return bytes(image.convertToFormat(QImage.Format.Format_RGB32).constBits())


def _same_as_fresh(fresh: RichText, view: RichText, html: str) -> bool:
    _show(fresh, html, growing=False)
    return view.height() == fresh.height() and _pixels(view) == _pixels(fresh)


def _early_word_changed(text: str, rng: random.Random) -> str:
    """One letter in the first half changed: a block replaced where it stands, as when
    a formula in an early paragraph is typeset."""
    letters = [n for n, char in enumerate(text[: len(text) // 2]) if char.isalpha()]
    at = rng.choice(letters)
    return text[:at] + ("q" if text[at] != "q" else "z") + text[at + 1 :]


def test_a_streamed_answer_shows_what_a_fresh_view_shows(views) -> None:
    rng = random.Random(5)
    texts = [MIXED * 2, *random_documents(seed=91, count=3, min_parts=6, max_parts=14)]
    for original in texts:
        text = original
        view, renderer, end = views(), StreamingRenderer(), 0
        while end < len(text):
            end = min(len(text), end + rng.randint(1, 80))
            if rng.random() < 0.2:
                text = _early_word_changed(text, rng)
            html = renderer.render(text[:end])
            _show(view, html, growing=True)
        assert _same_as_fresh(views(), view, html), text


def test_a_small_update_repaints_its_end_not_what_qt_lays_out_again(views) -> None:
    # Qt lays out again, and would repaint, from a checkpoint above the edit: here the
    # whole table before the last paragraph (about 380 px), for two new words.
    text = MIXED + "| a | b |\n|---|---|\n" + "| cell | value |\n" * 12 + "\nThe end"
    view = views()
    _show(view, render_markdown(text), growing=True)
    paints = _Paints()
    view.viewport().installEventFilter(paints)
    html = render_markdown(text + " is near")
    _show(view, html, growing=True)
    assert paints.rects, "the new words were painted"
    assert min(rect.top() for rect in paints.rects) > view.height() - 100  # the last line
    assert _same_as_fresh(views(), view, html)


def test_a_selection_is_still_painted(views) -> None:
    view = views()
    _show(view, render_markdown(MIXED), growing=True)
    paints = _Paints()
    view.viewport().installEventFilter(paints)
    cursor = view.textCursor()
    cursor.select(QTextCursor.SelectionType.Document)
    view.setTextCursor(cursor)
    QApplication.processEvents()
    assert paints.rects and max(rect.height() for rect in paints.rects) > view.height() // 2
