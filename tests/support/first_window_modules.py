"""Parley started as a person starts it, printing what was loaded when its window is
first shown, then exiting at once.

    python -m tests.support.first_window_modules DATA_DIR

It prints one JSON object: `modules`, every module imported by then, `sources`, the
files whose source text Python holds in memory (`linecache`) by then, and `collector`:
whether the garbage collector runs again (it is paused while Parley starts) and how
many objects it was told to pass over (those built while starting). What the
first window waits for is what was imported by then; everything a person may never
use (MCP, document readers, OCR) should load later or on first use.

The window's class is hooked as its module is imported, not before: importing it here
first would import Qt and the app ahead of `desktop.launch`, which is what is measured.
"""

from __future__ import annotations

import gc
import importlib.abc
import importlib.machinery
import json
import linecache
import os
import sys
from types import ModuleType

WINDOW_MODULE = "desktop.ui.views.main_window"


def _report_and_exit() -> None:
    found = {
        "modules": sorted(sys.modules),
        "sources": sorted(linecache.cache),
        "collector": {"enabled": gc.isenabled(), "frozen": gc.get_freeze_count()},
    }
    print(json.dumps(found), flush=True)
    os._exit(0)


def _hook(module: ModuleType) -> None:
    window = module.MainWindow
    shown = window.showEvent

    def show_event(self: object, event: object) -> None:
        shown(self, event)
        _report_and_exit()

    window.showEvent = show_event


class _WindowFinder(importlib.abc.MetaPathFinder):
    """Finds nothing itself; wraps the real loader of the window's module."""

    def find_spec(self, name: str, path: object, target: object = None):
        if name != WINDOW_MODULE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _hook(module)

        loader.exec_module = exec_module
        return spec


if __name__ == "__main__":
    sys.meta_path.insert(0, _WindowFinder())
    from desktop.launch import main

    sys.argv = ["parley", "--data-dir", sys.argv[1]]
    sys.exit(main())
