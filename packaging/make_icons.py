"""Renders resources/icons/parley.svg into the raster icons installers need.

Desktops and installers still want fixed-size PNGs (the freedesktop hicolor theme), a
Windows .ico and a macOS .icns; drawing them from the one SVG keeps them all the same
picture. The results are committed, so building a package needs neither this script
nor Pillow; run it again after changing the SVG:

    python packaging/make_icons.py

The SVG is drawn by Qt's own renderer (QtSvg, offscreen), which is already a Parley
dependency. Pillow, when installed, packs the .ico and .icns files.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"
SOURCE = ICONS / "parley.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)  # 256 is the largest an .ico holds
ICNS_SIZES = (16, 32, 64, 128, 256, 512)


def hicolor_path(size: int, root: Path = ICONS) -> Path:
    """Where the PNG of one size lives: the freedesktop icon theme layout, so a package
    copies the `hicolor` folder as it is."""
    return root / "hicolor" / f"{size}x{size}" / "apps" / "parley.png"


def render(renderer: QSvgRenderer, size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image


def write_pngs(source: Path = SOURCE, root: Path = ICONS) -> list[Path]:
    renderer = QSvgRenderer(str(source))
    if not renderer.isValid():
        raise SystemExit(f"{source} is not an SVG Qt can draw")
    written = []
    for size in SIZES:
        path = hicolor_path(size, root)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not render(renderer, size).save(str(path), "PNG"):
            raise SystemExit(f"could not write {path}")
        written.append(path)
    return written


def write_ico_and_icns(root: Path = ICONS) -> list[Path]:
    """Packs the PNGs into parley.ico and parley.icns, each size drawn at its own size
    rather than scaled down from the largest (small sizes stay crisp)."""
    try:
        from PIL import Image
    except ImportError:
        print("Pillow is not installed: parley.ico and parley.icns were not written")
        return []
    largest = Image.open(hicolor_path(512, root))
    ico = root / "parley.ico"
    largest.save(
        ico,
        format="ICO",
        sizes=[(s, s) for s in ICO_SIZES],
        append_images=[Image.open(hicolor_path(s, root)) for s in ICO_SIZES],
    )
    icns = root / "parley.icns"
    largest.save(
        icns,
        format="ICNS",
        append_images=[Image.open(hicolor_path(s, root)) for s in ICNS_SIZES],
    )
    return [ico, icns]


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    written = write_pngs() + write_ico_and_icns()
    for path in written:
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size:,} bytes")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
