"""Keep PySide6 from reading the source of every module imported after it.

PySide6 installs an import hook for its `__feature__` switches (snake_case,
true_property): for each module imported once Qt is loaded it calls
`inspect.getsource` to see whether the text mentions "PySide6". At Parley's start that
is some 700 modules and 10 MB of source, read, split into lines and kept in
`linecache` for the life of the process: about 0.3 s of the start and 24 MB of memory
(measured with `benchmarks/startup_bench.py`).

Parley selects no `__feature__` anywhere, so every module behaves the same whatever the
scan decides; telling the hook "no PySide here" without reading the file changes
nothing but the cost. A module that does `from __feature__ import ...` still gets its
feature (that path does not ask this function). Where a PySide6 version has no such
hook, nothing is done.
"""

from __future__ import annotations

import sys
from typing import Any


def skip_source_scan() -> None:
    """Call before the app's modules are imported."""
    import PySide6.QtCore  # noqa: F401  (loads the hook being changed)

    feature: Any = sys.modules.get("PySide6.support.feature")  # a private module: no types
    if feature is not None and callable(getattr(feature, "_mod_uses_pyside", None)):
        feature._mod_uses_pyside = _uses_no_feature


def _uses_no_feature(_module: object) -> bool:
    return False
