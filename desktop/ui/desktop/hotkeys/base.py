"""What a platform hotkey backend promises the global shortcut: register one combination,
say why it was refused, and let it go again."""

from __future__ import annotations

from enum import Enum
from typing import Protocol

from PySide6.QtCore import Qt


class Refusal(Enum):
    """Why a platform would not take a combination."""

    TAKEN = "taken"  # another application holds it
    UNKNOWN_KEY = "unknown-key"  # the key has no code on this keyboard or platform


class HotkeyBackend(Protocol):
    def register(self, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> Refusal | None: ...

    def unregister(self) -> None: ...

    def close(self) -> None: ...
