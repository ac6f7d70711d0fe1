"""Finds files under the top-level `resources/` folder (source tree, or a bundle)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path


@cache
def resources_dir() -> Path:
    package = Path(__file__).resolve().parents[1]
    candidates = [
        package.parent / "resources",  # a source checkout or an editable install
        package / "_resources",  # a wheel install
    ]
    bundled = getattr(sys, "_MEIPASS", None)  # a PyInstaller bundle puts data here
    if bundled:
        candidates.insert(0, Path(bundled) / "resources")
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
