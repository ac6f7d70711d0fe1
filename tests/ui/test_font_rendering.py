"""CJK text is as heavy on the dark theme's background as on the light one's.

Drawn in a child process each time: the setting only reaches fonts loaded after it, and
this process's fonts were loaded long ago. Ink is measured as each pixel's share of the
way from the background's lightness to the text's, summed: the same glyphs at the same
weight give the same ink whatever the colours.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from desktop.ui.fonts import has_cjk_font

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("fc-list") is None,
    reason="FreeType and fontconfig draw Linux's text",
)

CHILD = r"""
import json, sys
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0], "-platform", "offscreen"])
if sys.argv[1] == "parley":
    from desktop.ui.font_rendering import even_weight_on_dark
    assert even_weight_on_dark()

def ink(text, colour, background, bold):
    image = QImage(700, 60, QImage.Format.Format_RGB32)
    image.fill(QColor(background))
    painter = QPainter(image)
    font = QFont(app.font())
    font.setPixelSize(20)
    font.setBold(bold)
    painter.setFont(font)
    painter.setPen(QColor(colour))
    painter.drawText(5, 40, text)
    painter.end()
    fg, bg = QColor(colour).lightnessF(), QColor(background).lightnessF()
    return sum(
        (QColor(image.pixel(x, y)).lightnessF() - bg) / (fg - bg)
        for y in range(image.height()) for x in range(image.width())
    )

text = "中文对话消息测试粗细"
print(json.dumps({
    weight: {
        "light": ink(text, "#1d1d1f", "#ffffff", weight == "bold"),
        "dark": ink(text, "#e6e6e9", "#26272b", weight == "bold"),
    }
    for weight in ("regular", "bold")
}))
"""


def _cff_cjk_font() -> bool:
    listed = subprocess.run(
        ["fc-list", ":lang=zh:fontformat=CFF", "family"], capture_output=True, text=True
    )
    return bool(listed.stdout.strip())


def _ink(mode: str) -> dict[str, dict[str, float]]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", CHILD, mode], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.skipif(
    not _cff_cjk_font(), reason="no CFF (OpenType) CJK font: sudo apt install fonts-noto-cjk"
)
def test_cjk_text_weighs_the_same_in_both_themes_and_bold_stands_out_in_both():
    qt_default, parley = _ink("qt"), _ink("parley")
    # Without Parley's setting the dark theme's CJK is visibly heavier (the bug) …
    assert qt_default["regular"]["dark"] > 1.1 * qt_default["regular"]["light"]
    # … with it, the two themes put down the same ink, regular and bold.
    for weight in ("regular", "bold"):
        light, dark = parley[weight]["light"], parley[weight]["dark"]
        assert abs(dark - light) <= 0.03 * light, (weight, light, dark)
    # Bold is clearly bolder than regular on both backgrounds.
    for theme in ("light", "dark"):
        assert parley["bold"][theme] > 1.3 * parley["regular"][theme]


def test_the_check_for_a_cjk_font_agrees_with_fontconfig(qapp):
    listed = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True)
    assert has_cjk_font() == bool(listed.stdout.strip())
