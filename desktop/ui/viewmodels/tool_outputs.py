"""Opening a large tool output the message points at, and nothing else.

The path comes from a stored message, so it is checked: only files inside the data
folder's `tool_outputs` are opened; anything that resolves elsewhere is refused.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

OUTPUTS_FOLDER = "tool_outputs"


class ToolOutputs:
    def __init__(self, data_root: Path | None = None) -> None:
        self.data_root = data_root

    def resolve(self, relative: str) -> Path | None:
        """The file `relative` (to the data folder) names, if it is a tool output."""
        if self.data_root is None or not relative:
            return None
        folder = (self.data_root / OUTPUTS_FOLDER).resolve()
        path = (self.data_root / relative).resolve()
        if not path.is_relative_to(folder) or path == folder or not path.is_file():
            return None
        return path

    def open(self, relative: str) -> bool:
        path = self.resolve(relative)
        return path is not None and QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))
