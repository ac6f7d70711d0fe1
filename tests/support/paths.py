"""Where the checkout and the tests' data files are, wherever a test module sits."""

from __future__ import annotations

from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[2]
"""The repository's root (the folder holding `desktop/`, `tests/` and `main.py`)."""

FIXTURES: Final = ROOT / "tests" / "fixtures"
"""Files the tests read: documents, and databases written by earlier schema versions."""

SCHEMAS: Final = FIXTURES / "schemas"
"""Databases written by each earlier schema version's release (see its README)."""
