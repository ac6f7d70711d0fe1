"""The list of a Settings page: a placeholder drawn inside it, in the muted colour,
while it holds nothing (or only its fixed rows); rows kept in place across redraws."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

from desktop.ui.views.record_list import Record, RecordList


def placeholder_pixels(view: RecordList) -> int:
    """Pixels inked inside the placeholder's area (not the list's background), each of
    the muted colour's hue: grey, not the text colour's full strength."""
    image = view.viewport().grab().toImage()
    area = view.placeholder_rect()
    background = image.pixelColor(area.left(), area.bottom() - 1)
    text = view.palette().color(QPalette.ColorRole.Text)

    def inked(colour: QColor) -> bool:
        return abs(colour.lightness() - background.lightness()) > 40

    inks = [
        image.pixelColor(x, y)
        for x in range(area.left(), min(area.right(), image.width()))
        for y in range(area.top(), min(area.top() + 40, image.height()))
        if inked(image.pixelColor(x, y))
    ]
    # Muted: no stroke is as dark (or, on a dark list, as light) as the text itself.
    assert all(abs(c.lightness() - text.lightness()) > 20 for c in inks)
    return len(inks)


def test_the_placeholder_is_drawn_while_the_list_is_empty(qtbot):
    view = RecordList()
    qtbot.addWidget(view)
    view.resize(240, 200)
    view.show()
    qtbot.waitExposed(view)
    assert placeholder_pixels(view) == 0  # no text given
    view.set_placeholder("No libraries yet.")
    assert view.placeholder() == "No libraries yet."
    assert placeholder_pixels(view) > 10

    view.set_records([Record("docs", "Docs")])
    assert view.placeholder() == ""
    assert placeholder_pixels(view) == 0


def test_beside_fixed_rows_the_placeholder_goes_under_them(qtbot):
    view = RecordList()
    qtbot.addWidget(view)
    view.resize(240, 240)
    view.show()
    qtbot.waitExposed(view)
    view.set_placeholder("Add an assistant for each kind of work.", fixed_rows=1)
    view.set_records([Record("default", "Parley")], "default")
    assert view.placeholder() == "Add an assistant for each kind of work."
    first = view.visualItemRect(view.item(0))
    assert view.placeholder_rect().top() > first.bottom()
    assert placeholder_pixels(view) > 10
    view.set_records([Record("default", "Parley"), Record("writer", "Writer")], "default")
    assert view.placeholder() == "" and placeholder_pixels(view) == 0


def test_the_same_records_are_updated_in_place_keeping_the_selection(qtbot):
    view = RecordList()
    qtbot.addWidget(view)
    assert view.set_records([Record("a", "A"), Record("b", "B")], "b")
    item = view.item(1)
    changes: list[object] = []
    view.currentItemChanged.connect(lambda *args: changes.append(args))
    assert not view.set_records([Record("a", "A"), Record("b", "Bee", "tip")], "b")
    assert view.item(1) is item and item.text() == "Bee" and item.toolTip() == "tip"
    assert view.current_id() == "b" and changes == []
    assert view.set_records([Record("b", "Bee")], "b")  # another set: made again
    assert view.ids() == ["b"] and view.current_id() == "b"
