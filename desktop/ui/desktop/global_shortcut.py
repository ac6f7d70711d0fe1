"""A key combination that reaches Parley while another application has focus.

It toggles the floating chat window. Each platform has its own way: on X11 the key is
grabbed on the root window (`hotkeys/x11.py`), on Windows it is registered with
`RegisterHotKey` (`hotkeys/windows.py`). Wayland, by design, lets no application see
keys pressed for another one, and macOS would need the Carbon hot-key API, not written
yet: there `support()` says so, in words Settings shows as they are.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence

from desktop.ui.desktop.hotkeys.base import HotkeyBackend, Refusal

# Modifiers that make a combination safe to take from every application: a shortcut of
# Shift and a letter would swallow that capital letter everywhere.
_COMMAND_MODIFIERS = (
    Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
    | Qt.KeyboardModifier.MetaModifier
)


BackendFactory = Callable[[Callable[[], None]], HotkeyBackend]


def support(
    platform_name: str | None = None, environ: Mapping[str, str] | None = None
) -> tuple[bool, str]:
    """Whether a global shortcut can work in this session, and if not, why (one
    sentence for the Settings page)."""
    env = os.environ if environ is None else environ
    if sys.platform == "win32":
        return True, ""
    if sys.platform == "darwin":
        return False, QCoreApplication.translate(
            "GlobalShortcut",
            "Global shortcuts are not available on macOS yet. Use the tray icon or "
            "Chat → Floating Chat instead.",
        )
    platform = platform_name if platform_name is not None else QGuiApplication.platformName()
    if platform == "wayland" or env.get("XDG_SESSION_TYPE") == "wayland":
        return False, QCoreApplication.translate(
            "GlobalShortcut",
            "Wayland lets no application see keys pressed while another one has focus, so "
            "Parley cannot offer a global shortcut here. Use the tray icon or Chat → "
            "Floating Chat, or bind a key to Parley in your desktop's keyboard settings.",
        )
    if platform != "xcb":
        return False, QCoreApplication.translate(
            "GlobalShortcut", "Global shortcuts need an X11 or Windows desktop (this is “%1”)."
        ).replace("%1", platform or "?")
    try:
        import Xlib  # noqa: F401
    except ImportError:
        return False, QCoreApplication.translate(
            "GlobalShortcut", "Global shortcuts on X11 need the python-xlib package."
        )
    return True, ""


def parse_chord(sequence: str) -> tuple[Qt.Key, Qt.KeyboardModifier] | None:
    """One key combination in Qt's portable text ("Ctrl+Alt+Space"), else None."""
    keys = QKeySequence.fromString(sequence, QKeySequence.SequenceFormat.PortableText)
    if keys.count() != 1:
        return None
    combination = keys[0]  # type: ignore[index]  # PySide6's stubs omit QKeySequence[i]
    key = combination.key()
    if key in (Qt.Key.Key_unknown, 0) or key in (
        Qt.Key.Key_Control,
        Qt.Key.Key_Alt,
        Qt.Key.Key_Shift,
        Qt.Key.Key_Meta,
    ):
        return None
    return key, combination.keyboardModifiers()


def _platform_backend(on_activated: Callable[[], None]) -> HotkeyBackend:
    if sys.platform == "win32":
        from desktop.ui.desktop.hotkeys.windows import WindowsHotkey

        return WindowsHotkey(on_activated)
    from desktop.ui.desktop.hotkeys.x11 import X11Hotkey

    return X11Hotkey(on_activated)


class GlobalShortcut(QObject):
    """Emits `activated` when its combination is pressed, whichever app has focus.

    `set_sequence` returns the reason a combination cannot be used (and keeps it in
    `error`), or None once it is registered; "" turns the shortcut off.
    `backend` is for tests: it builds the platform part (given the callback to call).
    """

    activated = Signal()
    errorChanged = Signal(str)

    def __init__(
        self,
        sequence: str = "",
        parent: QObject | None = None,
        *,
        backend: BackendFactory | None = None,
    ) -> None:
        super().__init__(parent)
        self._factory = backend
        self._backend: HotkeyBackend | None = None
        self._sequence = ""
        self._registered = False
        self._error = ""
        self.set_sequence(sequence)

    @property
    def sequence(self) -> str:
        return self._sequence

    @property
    def error(self) -> str:
        return self._error

    @property
    def registered(self) -> bool:
        return self._registered

    def set_sequence(self, sequence: str) -> str | None:
        sequence = sequence.strip()
        if sequence == self._sequence and (self._registered or not sequence):
            return None
        if self._backend is not None:
            self._backend.unregister()
        self._registered = False
        self._sequence = sequence
        error = self._register(sequence) if sequence else None
        self._registered = bool(sequence) and error is None
        if (error or "") != self._error:
            self._error = error or ""
            self.errorChanged.emit(self._error)
        return error

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
            self._backend = None
        self._registered = False

    def _register(self, sequence: str) -> str | None:
        native = QKeySequence.fromString(
            sequence, QKeySequence.SequenceFormat.PortableText
        ).toString(QKeySequence.SequenceFormat.NativeText)
        chord = parse_chord(sequence)
        if chord is None:
            return QCoreApplication.translate(
                "GlobalShortcut", "“%1” is not a key combination."
            ).replace("%1", sequence)
        key, modifiers = chord
        if not modifiers & _COMMAND_MODIFIERS:
            return QCoreApplication.translate(
                "GlobalShortcut",
                "%1 needs Ctrl, Alt or Meta, or it would take that key from every app.",
            ).replace("%1", native)
        if self._factory is None:
            supported, reason = support()
            if not supported:
                return reason
        if self._backend is None:
            try:
                self._backend = (self._factory or _platform_backend)(self.activated.emit)
            except Exception as error:  # no display connection, no user32: say so
                return QCoreApplication.translate(
                    "GlobalShortcut", "Global shortcuts are unavailable: %1"
                ).replace("%1", str(error))
        try:
            refusal = self._backend.register(key, modifiers)
        except OSError as error:
            return QCoreApplication.translate(
                "GlobalShortcut", "Global shortcuts are unavailable: %1"
            ).replace("%1", str(error))
        if refusal is Refusal.TAKEN:
            return QCoreApplication.translate(
                "GlobalShortcut", "%1 is taken by another application."
            ).replace("%1", native)
        if refusal is Refusal.UNKNOWN_KEY:
            return QCoreApplication.translate(
                "GlobalShortcut", "%1 cannot be used as a global shortcut on this keyboard."
            ).replace("%1", native)
        return None
