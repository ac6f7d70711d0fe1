"""The global shortcut on X11: a passive key grab on the root window (python-xlib).

Parley opens a connection of its own to the X server, so Qt's connection is left alone,
and watches its socket with a `QSocketNotifier` on the GUI thread: no thread, and the
callback runs where the windows live. Caps Lock and Num Lock change the modifier state
X reports, so the key is grabbed once for each of their combinations. Another client
holding the same combination makes the grab fail with BadAccess: that is "taken".
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier, Qt
from Xlib import XK, X, error
from Xlib.display import Display

from desktop.ui.desktop.hotkeys.base import Refusal

_LOCKS = (0, X.LockMask, X.Mod2Mask, X.LockMask | X.Mod2Mask)  # Caps Lock, Num Lock
_MODIFIERS = (
    (Qt.KeyboardModifier.ShiftModifier, X.ShiftMask),
    (Qt.KeyboardModifier.ControlModifier, X.ControlMask),
    (Qt.KeyboardModifier.AltModifier, X.Mod1Mask),
    (Qt.KeyboardModifier.MetaModifier, X.Mod4Mask),
)
_NAMED = {
    Qt.Key.Key_Space: "space",
    Qt.Key.Key_Escape: "Escape",
    Qt.Key.Key_Tab: "Tab",
    Qt.Key.Key_Backspace: "BackSpace",
    Qt.Key.Key_Return: "Return",
    Qt.Key.Key_Enter: "KP_Enter",
    Qt.Key.Key_Insert: "Insert",
    Qt.Key.Key_Delete: "Delete",
    Qt.Key.Key_Pause: "Pause",
    Qt.Key.Key_Print: "Print",
    Qt.Key.Key_Home: "Home",
    Qt.Key.Key_End: "End",
    Qt.Key.Key_Left: "Left",
    Qt.Key.Key_Up: "Up",
    Qt.Key.Key_Right: "Right",
    Qt.Key.Key_Down: "Down",
    Qt.Key.Key_PageUp: "Prior",
    Qt.Key.Key_PageDown: "Next",
}


def keysym_for(key: Qt.Key) -> int:
    """The X keysym of a Qt key, 0 when there is none."""
    if key in _NAMED:
        return XK.string_to_keysym(_NAMED[key])
    code = int(key.value)
    if Qt.Key.Key_F1.value <= code <= Qt.Key.Key_F35.value:
        return XK.string_to_keysym(f"F{code - Qt.Key.Key_F1.value + 1}")
    if ord("!") <= code <= ord("~"):  # printable ASCII: the keysym is the (lower-case) character
        return ord(chr(code).lower())
    return 0


def modifier_mask(modifiers: Qt.KeyboardModifier) -> int:
    mask = 0
    for qt_modifier, x_mask in _MODIFIERS:
        if modifiers & qt_modifier:
            mask |= x_mask
    return mask


class X11Hotkey(QObject):
    def __init__(self, on_activated: Callable[[], None], display_name: str | None = None) -> None:
        super().__init__()
        self._on_activated = on_activated
        self._display = Display(display_name)
        self._root = self._display.screen().root
        self._grab: tuple[int, int] | None = None  # keycode, modifier mask
        self._down = False  # our key is held: further presses are its auto-repeat
        self._released_at = -1  # X time of its last release
        self._notifier = QSocketNotifier(self._display.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._read_events)

    def register(self, key: Qt.Key, modifiers: Qt.KeyboardModifier) -> Refusal | None:
        self.unregister()
        keysym = keysym_for(key)
        keycode = self._display.keysym_to_keycode(keysym) if keysym else 0
        if not keycode:
            return Refusal.UNKNOWN_KEY
        mask = modifier_mask(modifiers)
        refused = error.CatchError(error.BadAccess)
        for lock in _LOCKS:
            self._root.grab_key(
                keycode, mask | lock, False, X.GrabModeAsync, X.GrabModeAsync, onerror=refused
            )
        self._display.sync()  # errors arrive asynchronously: wait for the verdict
        self._grab = (keycode, mask)
        if refused.get_error() is not None:
            self.unregister()
            return Refusal.TAKEN
        return None

    def unregister(self) -> None:
        if self._grab is None:
            return
        keycode, mask = self._grab
        self._grab = None
        ignored = error.CatchError()
        for lock in _LOCKS:
            self._root.ungrab_key(keycode, mask | lock, onerror=ignored)
        self._display.sync()

    def close(self) -> None:
        self.unregister()
        self._notifier.setEnabled(False)
        self._display.close()

    def _read_events(self) -> None:
        while self._display.pending_events():
            event = self._display.next_event()
            if event.type not in (X.KeyPress, X.KeyRelease) or self._grab is None:
                continue
            keycode, mask = self._grab
            if event.detail != keycode:
                continue
            if event.type == X.KeyRelease:
                self._down = False
                self._released_at = event.time
                continue
            # A held key repeats as release + press at the same instant: not a new press.
            repeated = self._down or event.time == self._released_at
            self._down = True
            if not repeated and event.state & ~(X.LockMask | X.Mod2Mask) == mask:
                self._on_activated()
