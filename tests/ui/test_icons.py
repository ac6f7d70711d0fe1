"""Parley's icon set: every icon draws, crisp at 2x, in the palette's colours of the moment."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSize, QUrl
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QIcon,
    QImage,
    QPalette,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import QToolButton

from desktop.render import render_markdown
from desktop.render.icon_refs import icon_src
from desktop.ui.icons import (
    ICON_NAMES,
    ICON_PX,
    IconLabel,
    icon,
    icon_button,
    icon_image,
    set_icon,
    tone_colour,
)
from desktop.ui.resources import resource_path
from desktop.ui.views.rich_text import RichText
from desktop.ui.views.theme import LIGHT, build_palette

IMAGE = QTextDocument.ResourceType.ImageResource.value


@pytest.fixture
def palette(qapp) -> Iterator[None]:
    """The test sets the light or dark palette; the app's own comes back afterwards."""
    before = QPalette(QGuiApplication.palette())
    try:
        yield
    finally:
        QGuiApplication.setPalette(before)


def ink(image: QImage) -> list[QColor]:
    """The colours of the image's opaque pixels (the strokes, not their soft edges)."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    return [
        image.pixelColor(x, y)
        for y in range(image.height())
        for x in range(image.width())
        if image.pixelColor(x, y).alpha() == 255
    ]


def drawn(image: QImage) -> int:
    """How many pixels the icon touches at all."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    return sum(
        image.pixelColor(x, y).alpha() > 0
        for y in range(image.height())
        for x in range(image.width())
    )


def colour_of(image: QImage) -> str:
    """The colour of the most opaque pixels; one colour: the tint, none of the SVG's own
    (a stroke thinner than a pixel has no opaque pixel, and its colour is rounded)."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    pixels = [image.pixelColor(x, y) for y in range(image.height()) for x in range(image.width())]
    strongest = max(c.alpha() for c in pixels)
    colours = {c.name() for c in pixels if c.alpha() == strongest}
    assert strongest > 0 and len(colours) == 1, colours
    return colours.pop()


def test_the_set_on_disk_is_the_set_the_code_names():
    on_disk = {path.stem for path in resource_path("icons", "ui").glob("*.svg")}
    assert on_disk == set(ICON_NAMES)


@pytest.mark.parametrize("name", ICON_NAMES)
def test_every_icon_draws_at_1x_and_at_twice_the_pixels_at_2x(qapp, name):
    one = icon(name).pixmap(QSize(ICON_PX, ICON_PX), 1.0)
    two = icon(name).pixmap(QSize(ICON_PX, ICON_PX), 2.0)
    assert one.size() == QSize(16, 16) and one.devicePixelRatio() == 1.0
    assert two.size() == QSize(32, 32) and two.devicePixelRatio() == 2.0
    assert two.deviceIndependentSize().toSize() == QSize(16, 16)  # same place, more pixels
    assert drawn(one.toImage()) > 10
    # Drawn again at 2x, not the 1x pixmap stretched: the pixels of a 32 px drawing.
    colour = tone_colour("muted", QGuiApplication.palette())
    direct = icon_image(name, colour, 32, 1.0).convertToFormat(QImage.Format.Format_ARGB32)
    direct.setDevicePixelRatio(2.0)
    assert two.toImage().convertToFormat(QImage.Format.Format_ARGB32) == direct
    assert ink(two.toImage())  # solid strokes at 2x


def test_icons_take_the_palette_colour_and_follow_a_theme_switch(palette):
    copy = icon("copy")  # the same icon object throughout, as a button keeps it
    QGuiApplication.setPalette(build_palette(dark=False))
    light = colour_of(copy.pixmap(QSize(16, 16), 2.0).toImage())
    QGuiApplication.setPalette(build_palette(dark=True))
    dark = colour_of(copy.pixmap(QSize(16, 16), 2.0).toImage())
    assert QColor(light).lightness() < 128 < QColor(dark).lightness()  # readable on each
    assert dark == tone_colour("muted", build_palette(dark=True)).name()

    # Under the mouse the full text colour; checked (a pinned message) the accent.
    text = QColor(LIGHT[QPalette.ColorRole.WindowText]).name()
    accent = QColor(LIGHT[QPalette.ColorRole.Highlight]).name()
    QGuiApplication.setPalette(build_palette(dark=False))
    pin = icon("pin")
    size = QSize(16, 16)
    assert colour_of(pin.pixmap(size, 2.0, QIcon.Mode.Active).toImage()) == text
    assert colour_of(pin.pixmap(size, 2.0, QIcon.Mode.Normal, QIcon.State.On).toImage()) == accent
    disabled = colour_of(pin.pixmap(size, 2.0, QIcon.Mode.Disabled).toImage())
    assert disabled not in (light, text)


def test_delete_is_not_close(qapp):
    delete = icon_image("delete", "#000000", 16, 2.0)
    close = icon_image("close", "#000000", 16, 2.0)
    assert delete != close
    assert abs(drawn(delete) - drawn(close)) > 50  # a trash can, not another cross


def test_a_button_gets_its_icon_and_a_name_to_be_read_by(qapp):
    button = icon_button(None, "delete", "Delete this message")
    assert button.accessibleName() == "Delete this message" == button.toolTip()
    assert button.property("iconName") == "delete" and not button.icon().isNull()
    assert button.iconSize() == QSize(16, 16) and button.autoRaise()
    set_icon(button, "check", tone="accent", size=20)
    assert button.property("iconName") == "check" and button.iconSize() == QSize(20, 20)
    assert isinstance(button, QToolButton)


def test_an_icon_label_paints_its_icon(palette, qtbot):
    QGuiApplication.setPalette(build_palette(dark=False))
    label = IconLabel("grip", size=20)
    qtbot.addWidget(label)
    label.setAutoFillBackground(False)
    image = label.grab().toImage()
    assert image.size().width() >= 20 and drawn(image) > 20


def test_rich_text_draws_the_renderers_icons_for_its_screen(qtbot):
    view = RichText()
    qtbot.addWidget(view)
    image = view.loadResource(IMAGE, QUrl(icon_src("copy", "#57606a", 14)))
    ratio = view.devicePixelRatioF()
    assert isinstance(image, QImage) and image.devicePixelRatio() == ratio
    assert image.width() == round(14 * ratio)
    assert colour_of(image) == "#57606a"
    # Anything else under the scheme is a blank pixel, never a file or a guess.
    for url in ("parley-icon:copy", "parley-icon:../x?color=57606a&size=14"):
        blank = view.loadResource(IMAGE, QUrl(url))
        assert isinstance(blank, QImage) and blank.size() == QSize(1, 1)

    # A code block shows the icon in the muted colour of the theme it was rendered for.
    for dark, muted in ((False, "#57606a"), (True, "#8b949e")):
        view.set_html(render_markdown("```\nx\n```\n", dark=dark))
        url = QUrl(icon_src("copy", muted))
        loaded = view.document().resource(IMAGE, url)
        assert isinstance(loaded, QImage) and colour_of(loaded) == muted


def test_a_copied_selection_leaves_the_icons_out(qtbot):
    view = RichText()
    qtbot.addWidget(view)
    view.set_html(render_markdown("Run:\n\n```\nmake\n```\n"))
    everything = QTextCursor(view.document())
    everything.select(QTextCursor.SelectionType.Document)
    view.setTextCursor(everything)
    copied = view.createMimeDataFromSelection()
    assert "\ufffc" not in copied.text() and "make" in copied.text()
