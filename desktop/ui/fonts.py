"""Whether this system can draw Chinese, Japanese and Korean text.

Without a font that covers them such text shows as empty boxes: in answers, in titles,
and in the whole window when it is in Chinese. Linux desktops may lack one (Windows and
macOS ship them), and Debian-based systems get one from `fonts-noto-cjk`, which the
Parley package depends on; a Parley run from source may not have it.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QFontDatabase

CJK_FONT_PACKAGE = "fonts-noto-cjk"


def has_cjk_font() -> bool:
    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def missing_cjk_font_notice() -> str:
    """The notice to show when no installed font covers CJK text, else "".

    In English whatever the window's language: a window that would be in Chinese is
    in English exactly when this notice applies (see `language.install_translations`).
    """
    if has_cjk_font():
        return ""
    install = f"sudo apt install {CJK_FONT_PACKAGE}" if sys.platform.startswith("linux") else ""
    return (
        "No installed font can draw Chinese, Japanese or Korean, so such text shows as "
        "boxes. Install one" + (f" ({install}) " if install else " ") + "and restart Parley."
    )
