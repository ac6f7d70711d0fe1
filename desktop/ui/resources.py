"""Finds files under the top-level `resources/` folder (source tree, or a bundle)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path


@cache
def resources_dir() -> Path:
    bundled = getattr(sys, "_MEIPASS", None)  # a PyInstaller bundle puts data here
    candidates = [Path(bundled) / "resources"] if bundled else []
    candidates.append(Path(__file__).resolve().parents[2] / "resources")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[-1]


def resource_path(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def read_text(*parts: str) -> str:
    """A resource's text, or "" when missing: a lost stylesheet must not stop start-up."""
    try:
        return resource_path(*parts).read_text(encoding="utf-8")
    except OSError:
        return ""
