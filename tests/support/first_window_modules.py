"""Parley started as a person starts it, printing the modules loaded when its window is
first shown, then exiting at once.

    python -m tests.support.first_window_modules DATA_DIR

What the first window waits for is what was imported by then; everything a person may
never use (MCP, document readers, OCR) should load later or on first use.
"""

from __future__ import annotations

import json
import os
import sys

from desktop.ui.views.main_window import MainWindow

_shown = MainWindow.showEvent


def _report_and_exit(window: MainWindow, event: object) -> None:
    _shown(window, event)
    print(json.dumps(sorted(sys.modules)), flush=True)
    os._exit(0)


MainWindow.showEvent = _report_and_exit  # type: ignore[method-assign]

if __name__ == "__main__":
    from desktop.launch import main

    sys.argv = ["parley", "--data-dir", sys.argv[1]]
    sys.exit(main())
