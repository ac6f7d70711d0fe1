"""The check of the system libraries Qt's xcb plugin needs, on PySide6's real plugin and
Qt libraries: what they need, where the loader finds it, what installs what is missing,
and `parley` itself refusing to start with a library made unavailable."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.ui import qt_libraries
from desktop.ui.qt_libraries import PACKAGES, Missing, needed_libraries, qt_objects
from desktop.ui.shared_libraries import LibraryResolver, dynamic_section
from tests.support.paths import ROOT

PYSIDE = qt_libraries.pyside_folder()
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF and ld.so")


def _system_libraries() -> dict[str, str | None]:
    assert PYSIDE is not None
    return needed_libraries(qt_objects(PYSIDE), PYSIDE.parent, LibraryResolver.for_this_system())


@linux_only
def test_what_qt_needs_is_read_from_the_plugin_and_the_qt_libraries_it_loads():
    assert PYSIDE is not None and (PYSIDE / qt_libraries.XCB_PLUGIN).is_file()
    plugin = dynamic_section(PYSIDE / qt_libraries.XCB_PLUGIN)
    assert "libxcb-cursor.so.0" in plugin.needed and plugin.search == ("$ORIGIN/../../lib",)
    needed = _system_libraries()
    # The three Qt's own message is about (it names only the first), and what QtCore
    # (GLib) and QtNetwork (Kerberos) need: found by following Qt's bundled libraries.
    assert {
        "libxcb-cursor.so.0",
        "libxcb-icccm.so.4",
        "libxcb-keysyms.so.1",
        "libglib-2.0.so.0",
        "libgssapi_krb5.so.2",
    } <= set(needed)
    assert not [s for s in needed if s.startswith(("libQt6", "libpyside6", "libshiboken6"))]


@linux_only
def test_the_resolver_finds_what_the_dynamic_loader_finds():
    if shutil.which("ldd") is None:
        pytest.skip("ldd is not installed (Debian package libc-bin)")
    assert PYSIDE is not None
    report = subprocess.run(
        ["ldd", *map(str, qt_objects(PYSIDE))], capture_output=True, text=True, timeout=60
    ).stdout
    unresolved = {line.split()[0] for line in report.splitlines() if "=> not found" in line}
    needed = _system_libraries()
    assert {s for s, found in needed.items() if found is None} == unresolved & set(needed)
    for soname, found in needed.items():
        if found is not None:  # "libz.so.1 => /lib/...", or the loader's own path
            assert soname in report and f"{soname} => not found" not in report, soname


@pytest.mark.slow
@linux_only
def test_each_library_has_the_debian_package_that_dpkg_says_installed_it():
    if shutil.which("dpkg") is None:
        pytest.skip("not a Debian system (no dpkg)")
    needed = _system_libraries()
    assert set(needed) - set(PACKAGES) <= {"ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}
    for soname, found in needed.items():
        if found is None or soname not in PACKAGES:
            continue
        owner = subprocess.run(
            ["dpkg", "-S", os.path.realpath(found)], capture_output=True, text=True, timeout=60
        )
        if owner.returncode != 0:  # merged /usr: dpkg knows the /lib spelling
            owner = subprocess.run(
                ["dpkg", "-S", found], capture_output=True, text=True, timeout=60
            )
        packages = {entry.split(":")[0] for entry in owner.stdout.split(",")}
        assert PACKAGES[soname] in packages or f"{PACKAGES[soname]}t64" in packages, soname


@linux_only
def test_a_library_made_unavailable_is_named_with_its_package_and_the_apt_command(tmp_path):
    """The loader's view narrowed to one folder holding every library Qt needs but two,
    and an empty file in place of a third: the real check on the real plugin."""
    present = {s: found for s, found in _system_libraries().items() if found is not None}
    hidden = {"libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1"}
    if not hidden <= set(present):
        pytest.skip("this machine lacks the xcb libraries the check is shown hiding")
    folder = tmp_path / "lib"
    folder.mkdir()
    for soname, found in present.items():
        if soname not in hidden:
            (folder / soname).symlink_to(os.path.realpath(found))
    (folder / "libxcb-keysyms.so.1").write_bytes(b"")  # there, but nothing a loader takes
    missing = qt_libraries.missing_for_xcb(LibraryResolver([str(folder)]), PYSIDE)
    assert missing == Missing(("libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1"))
    assert missing.packages == ("libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1")
    assert missing.apt_command == "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"
    assert missing.message().splitlines() == [
        "Parley cannot open its window: Qt's X11 (xcb) platform plugin needs system "
        "libraries that are not installed:",
        "  libxcb-cursor.so.0 (package libxcb-cursor0)",
        "  libxcb-icccm.so.4 (package libxcb-icccm4)",
        "  libxcb-keysyms.so.1 (package libxcb-keysyms1)",
        "Install them with:",
        "  sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1",
    ]
    # Everything back: nothing is missing.
    for soname in hidden:
        (folder / soname).unlink(missing_ok=True)
        (folder / soname).symlink_to(os.path.realpath(present[soname]))
    assert qt_libraries.missing_for_xcb(LibraryResolver([str(folder)]), PYSIDE) is None


@linux_only
def test_a_library_of_another_machine_is_passed_over_as_the_loader_does(tmp_path):
    real = LibraryResolver.for_this_system().find("libc.so.6")
    assert real is not None
    foreign, good = tmp_path / "i386", tmp_path / "native"
    foreign.mkdir()
    good.mkdir()
    # A 32-bit x86 ELF header: right name, wrong class and machine.
    (foreign / "libc.so.6").write_bytes(
        b"\x7fELF\x01\x01\x01" + b"\0" * 11 + b"\x03\x00" + b"\0" * 30
    )
    (good / "libc.so.6").symlink_to(os.path.realpath(real))
    resolver = LibraryResolver([str(foreign), str(good)])
    assert resolver.find("libc.so.6") == str(good / "libc.so.6")
    assert LibraryResolver([str(foreign)]).find("libc.so.6") is None


def test_an_unknown_library_is_named_without_a_package():
    missing = Missing(("libxcb-icccm.so.4", "libnew-thing.so.3"))
    assert missing.apt_command == "sudo apt install libxcb-icccm4"
    lines = missing.message().splitlines()
    assert "  libnew-thing.so.3" in lines and lines[-1] == "  sudo apt install libxcb-icccm4"
    assert Missing(("libnew-thing.so.3",)).message().splitlines()[-1] == (
        "Install the packages of your distribution that provide them."
    )
    assert missing.message(apt=False).splitlines()[-1] == (
        "Install the packages of your distribution that provide them."
    )


@pytest.mark.parametrize(
    ("environ", "argv", "xcb"),
    [
        ({"DISPLAY": ":0"}, [], True),
        ({}, [], False),  # no display: Qt stops there, not at the plugin
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, [], False),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland"}, [], False),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, [], True),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland;xcb"}, [], False),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb:nograb;wayland"}, [], True),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, [], False),
        ({"DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"}, [], False),
        ({"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"}, [], True),
        ({"DISPLAY": ":0"}, ["-platform", "offscreen"], False),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, ["-platform", "xcb"], True),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "w"}, ["--platform=xcb", "file.txt"], True),
    ],
)
def test_the_check_runs_only_where_qt_would_load_the_xcb_plugin(environ, argv, xcb):
    assert qt_libraries.would_use_xcb(environ, argv) is xcb


def _can_hide_files() -> bool:
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = subprocess.run(
        ["unshare", "--mount", "--map-root-user", "true"], capture_output=True, timeout=60
    )
    return probe.returncode == 0


@linux_only
def test_parley_names_the_missing_packages_instead_of_letting_qt_abort(
    tmp_path, notification_daemon
):
    """`parley` started on X11 in a mount namespace where libxcb-cursor.so.0 is an empty
    file: the loader (and Qt) could not use it."""
    if not _can_hide_files():
        pytest.skip("cannot make a private mount namespace here (unshare --mount)")
    found = _system_libraries().get("libxcb-cursor.so.0")
    if found is None:
        pytest.skip("libxcb-cursor0 is not installed, so there is nothing to hide")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    beside = Path(sys.executable).with_name("parley")  # the installed command
    command = [str(beside)] if beside.is_file() else [sys.executable, str(ROOT / "main.py")]
    data = tmp_path / "data"
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE")
    }
    script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"'
    hide = [str(empty), os.path.realpath(found)]
    parley = [*command, "--data-dir", str(data)]
    result = subprocess.run(
        ["unshare", "--mount", "--map-root-user", "sh", "-c", script, "sh", *hide, *parley],
        env={**environ, "DISPLAY": ":99"},  # no X server: the check comes before Qt
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "Qt platform plugin" not in result.stderr  # Qt never got to abort
    assert "  libxcb-cursor.so.0 (package libxcb-cursor0)" in result.stderr
    command_line = next(
        line.strip() for line in result.stderr.splitlines() if "sudo apt install" in line
    )
    assert "libxcb-cursor0" in command_line.split()
    # Whoever double-clicked Parley sees no terminal: the log and a notification say it.
    log = (data / "logs" / "parley.log").read_text(encoding="utf-8")
    assert command_line in log
    assert notification_daemon.wait_for_calls(1)
    (call,) = notification_daemon.calls
    assert call.summary == "Parley cannot start" and command_line in call.body


@linux_only
def test_only_a_known_library_missing_stops_the_start(tmp_path):
    """A library the table does not know (a newer PySide6's, a bundle laid out its own
    way) might be found by Qt where the check does not look: it never stops Parley."""
    present = {s: found for s, found in _system_libraries().items() if found is not None}
    folder = tmp_path / "lib"
    folder.mkdir()
    # A known library this machine lacks is stood in for by one it has (any ELF library
    # whose own needs are met will do), so the check sees every known one present.
    stand_in = next(os.path.realpath(found) for s, found in present.items() if s in PACKAGES)
    for soname in {s for s in _system_libraries() if s in PACKAGES}:
        found = present.get(soname)
        (folder / soname).symlink_to(os.path.realpath(found) if found else stand_in)
    only_known = LibraryResolver([str(folder)])
    environ = {"DISPLAY": ":0"}
    missing = qt_libraries.missing_for_xcb(only_known, PYSIDE)
    loader = [s for s in (missing.sonames if missing else ()) if s.startswith("ld-linux")]
    assert missing is not None and loader  # the dynamic loader itself: not in the table
    assert missing.packages == ()
    assert qt_libraries.startup_problem(environ, resolver=only_known) is None
    (folder / "libxcb-cursor.so.0").unlink()
    problem = qt_libraries.startup_problem(environ, resolver=only_known)
    assert problem is not None and "  sudo apt install libxcb-cursor0" in problem.splitlines()
    assert f"  {loader[0]}" in problem.splitlines()  # named beside the known one
