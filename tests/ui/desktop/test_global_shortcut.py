"""The global shortcut: a real X server (Xvfb), real key presses (xdotool), real grabs.

Where Xvfb or xdotool is missing these tests skip, unless PARLEY_REQUIRE_XVFB is set
(CI sets it and installs both): there a missing X server is a failure, not a skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from desktop.ui.desktop.global_shortcut import GlobalShortcut, support
from tests.support.paths import ROOT
from tests.support.waiting import CEILING_S
from tests.support.xvfb import private_display

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="X11 and Wayland are Linux")


@pytest.fixture
def xvfb() -> Iterator[str]:
    """A private X display (":N") for the test; it has no window manager."""
    with private_display("xdotool") as display:
        yield display


def xdotool(display: str, *args: str) -> str:
    result = subprocess.run(
        ["xdotool", *args],
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        text=True,
        timeout=CEILING_S,
    )
    return result.stdout.strip()


def focus_other_app(display: str):
    """A window of another client, holding the keyboard focus, as an editor would."""
    from Xlib import X
    from Xlib.display import Display

    other = Display(display)
    screen = other.screen()
    window = screen.root.create_window(0, 0, 300, 200, 0, screen.root_depth)
    window.set_wm_name("Another application")
    window.map()
    other.sync()
    window.set_input_focus(X.RevertToParent, X.CurrentTime)
    other.sync()
    return other, window


def has_focus(other, window) -> bool:
    return other.get_input_focus().focus == window


@linux_only
def test_wayland_and_other_platforms_say_why_there_is_no_global_shortcut():
    supported, reason = support("wayland", {})
    assert not supported and "Wayland" in reason and "another one has focus" in reason
    # XWayland: Qt on xcb inside a Wayland session sees keys only for its own windows.
    assert support("xcb", {"XDG_SESSION_TYPE": "wayland"}) == (False, reason)
    supported, reason = support("offscreen", {})
    assert not supported and "offscreen" in reason
    assert support("xcb", {"XDG_SESSION_TYPE": "x11"}) == (True, "")


def test_a_combination_without_ctrl_alt_or_meta_or_two_chords_is_refused(qapp):
    shortcut = GlobalShortcut("")
    assert shortcut.error == "" and not shortcut.registered  # off: nothing to say
    assert shortcut.set_sequence("Shift+A") == (
        "Shift+A needs Ctrl, Alt or Meta, or it would take that key from every app."
    )
    assert shortcut.error.startswith("Shift+A needs")
    assert shortcut.set_sequence("Ctrl+K, Ctrl+L") == "“Ctrl+K, Ctrl+L” is not a key combination."
    assert shortcut.set_sequence("") is None and shortcut.error == ""


def test_parley_reports_why_its_shortcut_is_off_here(driver, tmp_path):
    parley = driver.start(tmp_path)  # offscreen: no X11 to grab keys from
    assert not parley.floating_shortcut.registered
    assert parley.floating_shortcut.error == support()[1] != ""


def test_a_combination_another_app_holds_is_taken_and_can_be_had_once_freed(qapp, qtbot, xvfb):
    from Xlib import XK, X
    from Xlib.display import Display

    from desktop.ui.desktop.hotkeys.x11 import X11Hotkey

    holder = Display(xvfb)
    space = holder.keysym_to_keycode(XK.string_to_keysym("space"))
    for lock in (0, X.LockMask, X.Mod2Mask, X.LockMask | X.Mod2Mask):
        holder.screen().root.grab_key(
            space, X.ControlMask | X.Mod1Mask | lock, False, X.GrabModeAsync, X.GrabModeAsync
        )
    holder.sync()
    pressed: list[bool] = []
    shortcut = GlobalShortcut(
        "Ctrl+Alt+Space", backend=lambda on_activated: X11Hotkey(on_activated, xvfb)
    )
    shortcut.activated.connect(lambda: pressed.append(True))
    try:
        assert shortcut.error == "Ctrl+Alt+Space is taken by another application."
        assert not shortcut.registered
        holder.close()  # the other application quits: its grabs go with it
        assert shortcut.set_sequence("Ctrl+Alt+Space") is None  # tried again
        assert shortcut.registered and shortcut.error == ""

        xdotool(xvfb, "key", "ctrl+alt+space")
        qtbot.waitUntil(lambda: pressed == [True], timeout=int(CEILING_S * 1000))
        xdotool(xvfb, "key", "ctrl+alt+k")  # not ours: nothing happens
        xdotool(xvfb, "key", "ctrl+alt+space")
        qtbot.waitUntil(lambda: len(pressed) == 2, timeout=int(CEILING_S * 1000))

        # A new combination frees the old one for other applications.
        assert shortcut.set_sequence("Ctrl+Alt+K") is None
        probe = Display(xvfb)
        caught = []
        probe.screen().root.grab_key(
            space,
            X.ControlMask | X.Mod1Mask,
            False,
            X.GrabModeAsync,
            X.GrabModeAsync,
            onerror=lambda *error: caught.append(error),
        )
        probe.sync()
        probe.close()
        assert caught == []
    finally:
        shortcut.close()


def test_the_shortcut_toggles_the_floating_window_while_another_app_has_focus(tmp_path, xvfb):
    """Parley as installed: its own process on a real X display, the key pressed while
    another application's window has the keyboard focus."""
    log = tmp_path / "parley.out"
    env = {
        **os.environ,
        "DISPLAY": xvfb,
        "QT_QPA_PLATFORM": "xcb",
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    env.pop("XDG_SESSION_TYPE", None)
    env.pop("WAYLAND_DISPLAY", None)
    with log.open("wb") as output:
        app = subprocess.Popen(
            [sys.executable, "-m", "desktop.app", "--data-dir", str(tmp_path / "data")],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    other = None
    try:

        def wait_for(predicate, what: str, timeout: float = CEILING_S) -> None:
            deadline = time.monotonic() + timeout
            while not predicate():
                if app.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"{what}; Parley said:\n{log.read_text(errors='replace')}")
                time.sleep(0.1)

        def floating_shown() -> bool:
            return bool(xdotool(xvfb, "search", "--onlyvisible", "--name", "Floating Chat"))

        wait_for(
            lambda: bool(xdotool(xvfb, "search", "--onlyvisible", "--name", "^Parley$")),
            "the main window never appeared",
        )
        assert not floating_shown()
        other, window = focus_other_app(xvfb)
        assert has_focus(other, window)

        xdotool(xvfb, "key", "ctrl+alt+space")
        wait_for(floating_shown, "the floating window did not appear")
        window.set_input_focus(0, 0)  # the person goes back to the other app...
        other.sync()
        assert has_focus(other, window)
        xdotool(xvfb, "key", "ctrl+alt+space")  # ...and puts the chat away from there
        wait_for(lambda: not floating_shown(), "the floating window did not hide")
    finally:
        if other is not None:
            other.close()
        app.terminate()
        try:
            app.wait(10)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait(5)
