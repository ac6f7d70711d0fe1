"""Key caps: each key of a shortcut is its own cap, in this platform's names; keys
only some keyboards have are left out of the sheet; zoom steps along a ladder."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from desktop.ui.viewmodels.text_zoom import ZOOM_SIZES, zoomed_in, zoomed_out
from desktop.ui.views.keycaps import KeyCaps, caps_of, spoken, typed
from desktop.ui.views.shortcuts_dialog import ShortcutRow, ShortcutSection, split_columns


def test_a_shortcut_is_one_cap_per_key(qapp):
    assert caps_of(QKeySequence("Ctrl+Shift+E")) == ["Ctrl", "Shift", "E"]
    assert caps_of(QKeySequence("Ctrl++")) == ["Ctrl", "+"]
    assert caps_of(QKeySequence("Shift+Return")) == ["Shift", "Enter"]
    assert caps_of(QKeySequence("Alt+Left")) == ["Alt", "←"]
    assert caps_of(("Alt", "←↑→↓")) == ["Alt", "←↑→↓"]
    assert spoken(QKeySequence("Ctrl+K")) == "Ctrl+K"


def test_keys_of_their_own_are_not_typed(qapp):
    bindings = QKeySequence.keyBindings(QKeySequence.StandardKey.ZoomIn)
    assert [typed(sequence) for sequence in bindings] == [True, False]  # Ctrl++, Zoom In
    assert typed(QKeySequence("F11")) and typed(QKeySequence("Ctrl+Alt+Space"))


def test_alternatives_stand_side_by_side(qapp):
    one = KeyCaps([QKeySequence("Ctrl+=")])
    two = KeyCaps([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
    assert two.caps == [["Ctrl", "="], ["Ctrl", "+"]]
    assert two.sizeHint().width() > 2 * one.sizeHint().width()
    assert two.accessibleName() == "Ctrl+= or Ctrl++"


def test_sections_split_into_two_columns_of_about_the_same_length():
    def section(title: str, rows: int) -> ShortcutSection:
        return ShortcutSection(title, [ShortcutRow(str(i), ((str(i),),)) for i in range(rows)])

    sections = [section("a", 5), section("b", 4), section("c", 2), section("d", 6)]
    first, second = split_columns(sections, True)
    assert [s.title for s in first] == ["a", "b"] and [s.title for s in second] == ["c", "d"]
    assert split_columns(sections, False) == [sections]


def test_zoom_steps_along_the_ladder_and_stops_at_its_ends():
    assert zoomed_in(10) == 11 and zoomed_in(14) == 16 and zoomed_in(15) == 16
    assert zoomed_out(16) == 14 and zoomed_out(15) == 14
    assert zoomed_in(ZOOM_SIZES[-1]) == ZOOM_SIZES[-1] and zoomed_in(40) == 40
    assert zoomed_out(ZOOM_SIZES[0]) == ZOOM_SIZES[0] and zoomed_out(6) == 6
    assert zoomed_out(40) == ZOOM_SIZES[-1]  # a size set in Settings joins the ladder
