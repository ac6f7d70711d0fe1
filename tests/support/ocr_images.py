"""Images with known text, drawn for the OCR tests."""

from __future__ import annotations

import hashlib
import io

from PIL import Image, ImageDraw, ImageFont

from desktop.engine.ocr.service import OcrImage


def text_image(*lines: str, width: int = 640) -> bytes:
    """A PNG with `lines` in black on white, one under the other, large enough to read."""
    font = ImageFont.load_default(size=32)
    image = Image.new("RGB", (width, 40 + 70 * max(len(lines), 1)), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((20, 20 + 70 * i), line, fill="black", font=font)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def ocr_image(data: bytes, name: str = "scan.png") -> OcrImage:
    return OcrImage(hashlib.sha256(data).hexdigest(), name, "image/png", data)
