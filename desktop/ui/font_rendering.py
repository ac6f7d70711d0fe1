"""The same text weight on light and dark backgrounds, CJK included.

Noto Sans CJK (and most CJK fonts on Linux) have PostScript (CFF) outlines. For those,
Qt's FreeType engine turns FreeType's CFF stem darkening on and then blends the glyphs
gamma-corrected (`qfontengine_ft.cpp`, `expectsGammaCorrectedBlending`). The pair is
meant to keep dark text on light from looking thin; on a dark background both make
light text heavier, so Chinese in the dark theme looks half bold and bold no longer
stands out. TrueType fonts (DejaVu, Noto Sans) get neither, so Latin text is even.

Turning stem darkening off on Qt's FreeType library, before any font is loaded, turns
both off: CFF glyphs are drawn as TrueType ones are, the same weight in both themes.
`FREETYPE_PROPERTIES=cff:no-stem-darkening=1` cannot do it: Qt sets the property back
after creating the library. Qt keeps one FreeType library per thread; this is the GUI
thread's, which draws the window.
"""

from __future__ import annotations

import ctypes
import logging
import sys

log = logging.getLogger(__name__)

# `FT_Library qt_getFreetype()`, exported by QtGui (not public API: looked up, and
# nothing happens when a Qt build does not have it).
_QT_GET_FREETYPE = "_Z14qt_getFreetypev"


def _loaded_library(name: str) -> str | None:
    """The path of a shared library this process has loaded, from its memory map."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                path = line.rstrip("\n").split(maxsplit=5)[-1]
                if name in path.rsplit("/", 1)[-1]:
                    return path
    except OSError:
        return None
    return None


def even_weight_on_dark() -> bool:
    """Turn CFF stem darkening off for the GUI thread's fonts; True when it was done.

    Call on the GUI thread after the QGuiApplication exists and before any text is
    drawn (a font loaded earlier keeps the old setting)."""
    if not sys.platform.startswith("linux"):
        return False  # DirectWrite and Core Text draw Windows' and macOS's text
    gui, freetype = _loaded_library("libQt6Gui.so"), _loaded_library("libfreetype.so")
    if gui is None or freetype is None:
        return False
    try:
        get_library = getattr(ctypes.CDLL(gui), _QT_GET_FREETYPE)
        set_property = ctypes.CDLL(freetype).FT_Property_Set
    except (OSError, AttributeError):
        log.info("Qt's FreeType library is not reachable: CFF fonts keep stem darkening")
        return False
    get_library.restype = ctypes.c_void_p
    set_property.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
    set_property.restype = ctypes.c_int
    no_stem_darkening = ctypes.c_ubyte(1)  # FT_Bool
    library = get_library()
    error = set_property(library, b"cff", b"no-stem-darkening", ctypes.byref(no_stem_darkening))
    if error:
        log.info("FreeType refused to turn CFF stem darkening off (error %d)", error)
    return library is not None and error == 0
