"""Provider monograms: the same badge for a service every time and everywhere, a
different colour for each preset, white letters that read on it."""

from __future__ import annotations

from PySide6.QtCore import QSize

from desktop.providers.presets import PRESETS
from desktop.ui.views.monogram import (
    MIN_CONTRAST,
    contrast_with_white,
    initials,
    monogram_colour,
    monogram_icon,
    monogram_pixmap,
)


def test_initials_are_one_or_two_letters_of_the_name():
    assert [initials(p.name) for p in PRESETS] == [
        "O",  # OpenAI
        "A",  # Anthropic
        "GG",  # Google Gemini
        "O",  # Ollama
        "DS",  # DeepSeek
        "OR",  # OpenRouter
        "G",  # Groq
        "LM",  # LM Studio
        "OC",  # OpenAI-compatible
    ]
    assert initials("my server") == "MS"
    assert initials("  ") == "?"
    assert initials("本地服务器") == "本"


def test_the_colour_is_stable_per_preset_and_differs_between_presets(qapp):
    # The same in every run (not Python's salted hash()): a fixed value.
    assert monogram_colour("openai").name() == "#00695c"
    assert monogram_colour("gemini").name() == "#1565c0"
    assert monogram_colour("openai") == monogram_colour("openai")
    colours = {p.id: monogram_colour(p.id).name() for p in PRESETS}
    assert len(set(colours.values())) == len(PRESETS), colours
    assert all(contrast_with_white(monogram_colour(p.id)) >= MIN_CONTRAST for p in PRESETS)


def test_the_badge_is_a_filled_circle_with_white_letters_drawn_sharp_at_each_size(qapp):
    colour = monogram_colour("deepseek")
    image = monogram_pixmap("DS", colour, 40).toImage()
    assert image.pixelColor(0, 0).alpha() == 0  # round: the corners are empty
    assert image.pixelColor(20, 3).rgb() == colour.rgb()  # filled near the edge
    letters = sum(
        1
        for x in range(40)
        for y in range(40)
        if image.pixelColor(x, y).lightness() > 240 and image.pixelColor(x, y).alpha() == 255
    )
    assert letters > 20  # white letters
    icon = monogram_icon("DeepSeek", "deepseek")
    assert icon.availableSizes()[-1] == QSize(64, 64)  # for 2× screens too
    same = monogram_icon("DeepSeek", "deepseek").pixmap(20, 20).toImage()
    assert icon.pixmap(20, 20).toImage() == same
