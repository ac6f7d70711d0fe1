"""Formulas typeset for real (ziamath in the typesetting child, QtSvg in the worker
thread) and shown in the chat."""

from __future__ import annotations

import os
import re
import threading

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QColor, QGuiApplication, QImage, QTextCursor, QTextDocument

from desktop.render import StreamingRenderer, render_markdown
from desktop.render.maths import FAILED, PENDING, READY, pending_maths
from desktop.ui import math_images
from desktop.ui.math_images import MathStyle, MathTypesetter
from tests.support.processes import alive
from tests.support.settings_files import write_settings
from tests.support.sse_server import default_stream
from tests.support.waiting import CEILING_S

WAIT_MS = int(CEILING_S * 1000)
LIGHT_TEXT, DARK_TEXT = "#1d1d1f", "#e6e6e9"


def typeset(qtbot, typesetter: MathTypesetter, tex: str, display: bool = False):
    formula = typesetter.formula(tex, display)
    if formula.state == PENDING:
        qtbot.waitUntil(lambda: not typesetter.waiting(formula.key), timeout=WAIT_MS)
    return typesetter.formula(tex, display)


def ink(image: QImage) -> list[QColor]:
    """The colours of the image's (nearly) opaque pixels."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    return [
        image.pixelColor(x, y)
        for y in range(image.height())
        for x in range(image.width())
        if image.pixelColor(x, y).alpha() > 240
    ]


def close_to(colour: QColor, hex_colour: str) -> bool:
    other = QColor(hex_colour)
    return all(
        abs(a - b) <= 8 for a, b in zip(colour.getRgb()[:3], other.getRgb()[:3], strict=True)
    )


def test_a_formula_becomes_an_image_at_the_texts_size_and_twice_the_pixels_at_2x(qtbot):
    typesetter = MathTypesetter()
    with qtbot.waitSignal(typesetter.typeset, timeout=WAIT_MS) as announced:
        first = typesetter.formula("x^2 + y^2", False)
        assert first.state == PENDING  # the GUI thread never typesets
    assert announced.args == [[first.key]]
    ready = typesetter.formula("x^2 + y^2", False)
    assert ready.state == READY and ready.name.startswith("parley-math:")
    # about one line of 16 px text: taller than the letters, shorter than three lines
    assert 14 <= ready.height <= 48 and 30 <= ready.width <= 200
    image = typesetter.image(ready.name)
    assert image is not None
    assert (image.width(), image.height()) == (ready.width, ready.height)

    typesetter.set_style(MathStyle(pixel_size=16.0, middle=4.0, scale=2.0))
    sharp = typeset(qtbot, typesetter, "x^2 + y^2")
    assert (sharp.width, sharp.height) == (ready.width, ready.height)  # same logical size
    image = typesetter.image(sharp.name)
    assert (image.width(), image.height()) == (2 * ready.width, 2 * ready.height)
    assert image.devicePixelRatio() == 2.0

    typesetter.set_style(MathStyle(pixel_size=32.0, middle=8.0, scale=1.0))
    large = typeset(qtbot, typesetter, "x^2 + y^2")
    assert large.width > 1.7 * ready.width  # follows the text's size
    typesetter.close()


def test_the_formula_is_drawn_in_the_text_colour_of_the_theme(qtbot):
    typesetter = MathTypesetter()
    for colour in (LIGHT_TEXT, DARK_TEXT):
        typesetter.set_style(MathStyle(colour=colour, scale=2.0))
        formula = typeset(qtbot, typesetter, "\\frac{a}{b} = \\sqrt{c}")
        assert formula.state == READY, formula
        pixels = ink(typesetter.image(formula.name))
        assert len(pixels) > 50
        assert all(close_to(pixel, colour) for pixel in pixels)
    typesetter.close()


def test_each_formula_is_typeset_once_however_often_it_is_shown(qtbot):
    typesetter = MathTypesetter()
    text = "Both $e^{i\\pi}$ and $e^{i\\pi}$ again, and $\\sum_k k$.\n"
    first = render_markdown(text, maths=typesetter)
    assert len(pending_maths(first)) == 2
    qtbot.waitUntil(lambda: typesetter.renders == 2, timeout=WAIT_MS)
    for _ in range(3):
        html = render_markdown(text, maths=typesetter)
        assert html.count('<img src="parley-math:') == 3
    assert typesetter.renders == 2
    typesetter.close()


def test_bad_tex_and_hostile_formulas_stay_source_with_a_reason(qtbot):
    typesetter = MathTypesetter()
    assert typeset(qtbot, typesetter, "\\frac{1}{").state == FAILED
    unknown = typeset(qtbot, typesetter, "\\foo{x}")
    assert unknown.state == FAILED and "\\foo" in unknown.reason
    # over the limits: refused at once, never queued
    huge = typesetter.formula("x+" * 100_000, False)
    nested = typesetter.formula("{" * 40 + "x" + "}" * 40, False)
    assert huge.state == FAILED and nested.state == FAILED
    html = render_markdown("Bad $\\frac{1}{$ here", maths=typesetter)
    assert "$\\frac{1}{$" in html and 'title="Formula not typeset: not valid TeX' in html
    typesetter.close()


def test_thousands_of_formulas_are_queued_without_blocking(qtbot):
    typesetter = MathTypesetter()
    text = "".join(f"- $x_{{{n}}}$\n" for n in range(2_000))
    html = render_markdown(text, maths=typesetter)  # returns at once: all are pending
    assert len(pending_maths(html)) > 1_000  # the rest is past the formatting budget
    qtbot.waitUntil(lambda: typesetter.renders >= 5, timeout=WAIT_MS)
    typesetter.close()  # the rest is dropped


def test_streaming_keeps_an_unclosed_display_formula_as_source(qtbot):
    typesetter = MathTypesetter()
    renderer = StreamingRenderer(maths=typesetter)
    html = renderer.render("Here:\n\n$$\n\\int_0^1 x\\,dx\n")
    assert "$$\n\\int_0^1 x\\,dx" in html and typesetter.renders == 0
    html = renderer.render("Here:\n\n$$\n\\int_0^1 x\\,dx\n$$\n")
    (key,) = pending_maths(html)
    qtbot.waitUntil(lambda: not typesetter.waiting(key), timeout=WAIT_MS)
    assert '<img src="parley-math:' in renderer.render("Here:\n\n$$\n\\int_0^1 x\\,dx\n$$\n")
    typesetter.close()


# --- in the chat ------------------------------------------------------------------------

ANSWER = (
    "Search is $O(\\log n)$ and \\(a^2+b^2=c^2\\); it costs $5 and $10.\n\n"
    "$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$\n\n"
    "| f | g |\n|---|---|\n| $x^2$ | \\(y_1\\) |\n\n"
    "- broken $\\frac{1}{$ here\n"
)


def all_images(document: QTextDocument) -> list[str]:
    html = document.toHtml()
    return ["parley-math:" + part.split('"', 1)[0] for part in html.split('src="parley-math:')[1:]]


def broken_tooltip(document: QTextDocument) -> str:
    """The tooltip on the broken formula's source ("" while it is still pending)."""
    return document.find("frac{1}").charFormat().toolTip()


def answer_body(parley):
    transcript = parley.window.chat_view.transcript
    ids = transcript.message_ids()
    return transcript.message_widget(ids[-1]).body if len(ids) == 2 else None


def test_an_answer_shows_its_formulas_typeset_and_copy_keeps_the_tex(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    sse_server.enqueue(default_stream(ANSWER))
    maths = parley.chat_vm.transcript.maths

    async def body() -> None:
        assert parley.chat_vm.submit("maths please")
        await driver.until(lambda: not parley.chat_vm.busy and answer_body(parley) is not None)
        # five formulas typeset (the broken one not): inline, display and in table cells;
        # the broken one, the last to be typeset, is marked once its failure is back
        await driver.until(lambda: len(all_images(answer_body(parley).document())) == 5)
        await driver.until(lambda: broken_tooltip(answer_body(parley).document()) != "")

    driver.run(body())
    document = answer_body(parley).document()
    text = document.toPlainText()
    assert "$5 and $10" in text  # prices stay text
    assert "$\\frac{1}{$" in text  # broken TeX stays source
    assert broken_tooltip(document).startswith("Formula not typeset: not valid TeX")
    for name in set(all_images(document)):
        image = document.resource(QTextDocument.ResourceType.ImageResource.value, QUrl(name))
        assert isinstance(image, QImage) and not image.isNull()
    renders = maths.renders
    # the message's Copy and the display formula's Copy give the TeX
    widget = parley.window.chat_view.transcript.message_widget(
        parley.window.chat_view.transcript.message_ids()[-1]
    )
    widget._copy_message()
    assert QGuiApplication.clipboard().text() == ANSWER
    parley.chat_vm.activate_link("parley-copy:0", widget.item.markdown)
    assert QGuiApplication.clipboard().text() == "\\int_0^1 x\\,dx = \\frac{1}{2}"
    # a selection copied from the answer holds each formula's TeX, not a placeholder
    view = answer_body(parley)
    everything = QTextCursor(document)
    everything.select(QTextCursor.SelectionType.Document)
    view.setTextCursor(everything)
    copied = view.createMimeDataFromSelection()
    assert "\ufffc" not in copied.text() and not copied.hasHtml()
    for source in ("$O(\\log n)$", "\\(a^2+b^2=c^2\\)", "$x^2$", "\\(y_1\\)"):
        assert source in copied.text(), source
    assert "\\int_0^1 x\\,dx = \\frac{1}{2}" in copied.text()
    assert "costs $5 and $10" in copied.text()
    # shown again (the chat reopened): nothing is typeset again
    parley.chat_vm.open_conversation(parley.chat_vm.conversationId)
    driver.run(driver.until(lambda: len(all_images(answer_body(parley).document())) == 5))
    assert maths.renders == renders

    # dark theme: typeset again in the dark theme's text colour
    parley.theme.apply("dark")

    def dark_images() -> list[QImage]:
        doc = answer_body(parley).document()
        found = []
        for name in set(all_images(doc)):
            image = maths.image(name)
            if image is not None:
                found.append(image)
        return found

    driver.run(
        driver.until(
            lambda: (
                len(all_images(answer_body(parley).document())) == 5
                and maths.style.colour == DARK_TEXT
                and len(dark_images()) == 5
            )
        )
    )
    for image in dark_images():
        pixels = ink(image)
        assert pixels and all(close_to(pixel, DARK_TEXT) for pixel in pixels)
    QGuiApplication.clipboard().clear()


def test_a_display_formula_wider_than_the_column_is_shown_whole_within_it(qtbot):
    from desktop.ui.views.rich_text import RichText

    maths = MathTypesetter()
    terms = " + ".join(f"\\frac{{x^{{{n}}}}}{{{n}!}}" for n in range(2, 30))
    text = f"Far:\n\n$$\ne^x = 1 + x + {terms}\n$$\n"
    render_markdown(text, maths=maths)
    qtbot.waitUntil(lambda: maths.settled, timeout=CEILING_S * 1000)
    html = render_markdown(text, maths=maths)
    (name,) = set(re.findall(r'src="(parley-math:[0-9a-f]+)"', html))
    natural = maths.image(name).deviceIndependentSize()
    view = RichText()
    qtbot.addWidget(view)
    view.set_image_source(maths.image)
    view.set_wrap_width(400)
    view.set_html(html)
    assert natural.width() > 400  # wider than the column as typeset
    document = view.document()
    assert document.idealWidth() <= 400  # scaled to fit: nothing cut off at the right
    height = document.size().height()
    assert height < natural.height() + 80  # not stretched: a line of text and the formula
    maths.close()


def _maths_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("parley-maths")]


def _long_formula() -> str:
    """About 0.2 s of the worker's time (under the 1,000 characters typeset at all)."""
    return " + ".join(f"\\frac{{a_{{{n}}}}}{{b_{{{n}}}}}" for n in range(40))


@pytest.mark.parametrize("ending", ["close", "delete"])
def test_a_typesetter_that_ended_hears_nothing_more_from_its_worker(qtbot, ending):
    """Closed, or deleted with its parent, while the worker is on a formula: the worker
    finishes it and ends without handing it over (an emit racing the relay's deletion
    crashed the process)."""
    before = set(_maths_threads())
    typesetter = MathTypesetter()
    assert typesetter.formula(_long_formula(), True).state == PENDING
    typesetter.formula("x^2", False)  # queued behind it: dropped
    (worker,) = set(_maths_threads()) - before
    if ending == "close":
        typesetter.close()
    else:
        shiboken6.delete(typesetter)
    worker.join(CEILING_S)
    assert not worker.is_alive()
    QCoreApplication.processEvents()  # a result handed over would be delivered now
    if ending == "close":
        assert typesetter.renders == 0


def test_formulas_are_typeset_in_a_child_that_ends_when_idle_and_on_close(qtbot, monkeypatch):
    """The typesetting never runs in Parley's process (it would hold the interpreter
    lock the window needs); its child gives its memory back when no formula comes."""
    monkeypatch.setattr(math_images, "IDLE_MS", 300)
    typesetter = MathTypesetter()
    assert typesetter.child_pid is None  # nothing started before a formula
    assert typeset(qtbot, typesetter, "a^2").state == READY
    child = typesetter.child_pid
    assert child is not None and child != os.getpid()
    qtbot.waitUntil(lambda: not alive(child), timeout=WAIT_MS)  # idle: it ended
    assert typesetter.child_pid is None
    assert typeset(qtbot, typesetter, "b^2").state == READY  # a new one, on demand
    child = typesetter.child_pid
    assert child is not None and alive(child)
    typesetter.close()
    assert not alive(child)


def test_no_automatic_collection_runs_while_the_worker_typesets(qtbot):
    """A collection in the worker's thread would finalise Qt objects there."""
    import gc

    typesetter = MathTypesetter()
    assert gc.isenabled()
    typesetter.formula(_long_formula(), True)
    assert not gc.isenabled()  # held from the first queued formula...
    qtbot.waitUntil(lambda: typesetter.settled, timeout=WAIT_MS)
    assert gc.isenabled()  # ...until the last one is back
    typesetter.formula(_long_formula() + " + c", True)
    typesetter.close()  # closed while it works: collections resume at once
    assert gc.isenabled()


def test_a_formulas_tooltip_shows_its_source_as_plain_text(qtbot):
    """A formula's TeX is the model's text: shown as it is, never taken for HTML."""
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    from desktop.ui.plain_text import tooltip
    from desktop.ui.views.rich_text import RichText

    view = RichText()
    qtbot.addWidget(view)
    source = "$<b>bold</b> <img src='x'>$"
    escaped = source.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    view.set_html(
        f'<p><img src="parley-math:k" title="{escaped.replace(chr(39), "&#x27;")}" '
        'width="40" height="20" /> after</p>'
    )
    view.resize(300, 100)
    view.show()
    qtbot.waitExposed(view)
    inside = QPoint(10, 10)
    event = QHelpEvent(QEvent.Type.ToolTip, inside, view.viewport().mapToGlobal(inside))
    view.viewportEvent(event)
    qtbot.waitUntil(QToolTip.isVisible, timeout=CEILING_S * 1000)
    assert QToolTip.text() == tooltip(source)
    # Gone before the view is: Qt's tip label keeps a pointer to the widget it is for.
    QToolTip.hideText()
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=CEILING_S * 1000)
