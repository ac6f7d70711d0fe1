"""The global shortcut on Windows: `RegisterHotKey` (user32, through ctypes).

Registered without a window, so Windows posts WM_HOTKEY to the GUI thread's queue;
Qt hands every message of that queue to native event filters, where this one looks for
its id. MOD_NOREPEAT keeps a held combination from toggling the window again and again.
Written to the documented API; Parley's automated tests run on Linux only.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from ctypes import wintypes

from PySide6.QtCore import QAbstractNativeEventFilter, QCoreApplication, Qt

from desktop.ui.desktop.hotkeys.base import Refusal

WM_HOTKEY = 0x0312
MOD_ALT, MOD_CONTROL, MOD_SHIFT, MOD_WIN, MOD_NOREPEAT = 0x1, 0x2, 0x4, 0x8, 0x4000
ERROR_HOTKEY_ALREADY_REGISTERED = 1409
HOTKEY_ID = 0x5041  # any id in 0x0000-0xBFFF, unique within Parley

_MODIFIERS = (
    (Qt.KeyboardModifier.AltModifier, MOD_ALT),
    (Qt.KeyboardModifier.ControlModifier, MOD_CONTROL),
    (Qt.KeyboardModifier.ShiftModifier, MOD_SHIFT),
    (Qt.KeyboardModifier.MetaModifier, MOD_WIN),
)
_NAMED = {
    Qt.Key.Key_Space: 0x20,
    Qt.Key.Key_Escape: 0x1B,
    Qt.Key.Key_Tab: 0x09,
    Qt.Key.Key_Backspace: 0x08,
    Qt.Key.Key_Return: 0x0D,
    Qt.Key.Key_Enter: 0x0D,
    Qt.Key.Key_Insert: 0x2D,
    Qt.Key.Key_Delete: 0x2E,
    Qt.Key.Key_Pause: 0x13,
    Qt.Key.Key_Print: 0x2C,
    Qt.Key.Key_Home: 0x24,
    Qt.Key.Key_End: 0x23,
    Qt.Key.Key_Left: 0x25,
    Qt.Key.Key_Up: 0x26,
    Qt.Key.Key_Right: 0x27,
    Qt.Key.Key_Down: 0x28,
    Qt.Key.Key_PageUp: 0x21,
    Qt.Key.Key_PageDown: 0x22,
}


def virtual_key(key: Qt.Key) -> int:
    """The Windows virtual-key code of a Qt key, 0 when there is none."""
    if key in _NAMED:
        return _NAMED[key]
    code = int(key.value)
    if Qt.Key.Key_F1.value <= code <= Qt.Key.Key_F24.value:
        return 0x70 + code - Qt.Key.Key_F1.value
    if Qt.Key.Key_0.value <= code <= Qt.Key.Key_9.value or (
        Qt.Key.Key_A.value <= code <= Qt.Key.Key_Z.value
    ):
        return code  # digits and capital letters are their own virtual-key codes
    return 0


class _HotkeyFilter(QAbstractNativeEventFilter):
    def __init__(self, on_activated: Callable[[], None]) -> None:
        super().__init__()
        self._on_activated = on_activated

    def nativeEventFilter(self, event_type: object, message: object) -> tuple[bool, int]:
        if bytes(event_type) != b"windows_generic_MSG":  # type: ignore[call-overload]
            return False, 0
        msg = wintypes.MSG.from_address(int(message))  # type: ignore[call-overload]
        if msg.message == WM_HOTKEY and msg.wParam == HOTKEY_ID:
            self._on_activated()
            return True, 0
        return False, 0


class WindowsHotkey:
    def __init__(self, on_activated: Callable[[], None]) -> None:
        self._user32 = ctypes.WinDLL("user32", use_last_error=True)  # type: ignore[attr-defined]
        self._filter = _HotkeyFilter(on_activated)
        app = QCoreApplication.instance()
        if app is not None:
            app.installNativeEventFilter(self._filter)
        self._registered = False

    def register(self, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> Refusal | None:
        self.unregister()
        code = virtual_key(key)
        if not code:
            return Refusal.UNKNOWN_KEY
        flags = MOD_NOREPEAT
        for qt_modifier, win_modifier in _MODIFIERS:
            if modifiers & qt_modifier:
                flags |= win_modifier
        if not self._user32.RegisterHotKey(None, HOTKEY_ID, flags, code):
            failure = ctypes.get_last_error()  # type: ignore[attr-defined]
            if failure == ERROR_HOTKEY_ALREADY_REGISTERED:
                return Refusal.TAKEN
            raise OSError(failure, "RegisterHotKey failed")
        self._registered = True
        return None

    def unregister(self) -> None:
        if self._registered:
            self._user32.UnregisterHotKey(None, HOTKEY_ID)
            self._registered = False

    def close(self) -> None:
        self.unregister()
        app = QCoreApplication.instance()
        if app is not None:
            app.removeNativeEventFilter(self._filter)
