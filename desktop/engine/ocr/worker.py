"""The child process that runs the local OCR engine (RapidOCR on onnxruntime).

Run as `python -m desktop.engine.ocr.worker IMAGE...`; prints one JSON object on stdout:
`{"images": [[{"text": ..., "box": [[x, y], ...]}, ...], ...]}`, one list per image.
It lives in its own process because the engine holds about 600 MB while loaded, and a
process that ends gives all of it back. Anything the engine logs goes to stderr, so
stdout carries only the answer. The models are the ones inside the rapidocr wheel,
named explicitly: with no model path RapidOCR would download models it cannot find.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

ENGINE_MODULES = ("rapidocr", "onnxruntime")


def bundled_models(package_dir: Path) -> dict[str, str]:
    """RapidOCR settings pointing at the wheel's own detection, direction and
    recognition models."""
    params: dict[str, str] = {"Global.log_level": "error"}
    for task, section in (("det", "Det"), ("cls", "Cls"), ("rec", "Rec")):
        found = sorted((package_dir / "models").glob(f"*{task}*.onnx"))
        if not found:
            raise SystemExit(f"the rapidocr package has no bundled {task} model")
        params[f"{section}.model_path"] = str(found[-1])
    return params


def _read(engine: Any, image: Path) -> list[dict[str, Any]]:
    result = engine(image.read_bytes())
    if result.txts is None or result.boxes is None:
        return []
    return [
        {"text": text, "box": [[float(x), float(y)] for x, y in box]}
        for text, box in zip(result.txts, result.boxes.tolist(), strict=True)
    ]


def main(paths: list[str]) -> None:
    answer = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):  # keep stray prints out of the answer
        import rapidocr

        engine = rapidocr.RapidOCR(params=bundled_models(Path(rapidocr.__file__).parent))
        images = [_read(engine, Path(p)) for p in paths]
    json.dump({"images": images}, answer, ensure_ascii=False)
    answer.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
