"""Before Qt starts on X11: are the system libraries its xcb plugin needs installed?

PySide6 carries Qt itself but not the X11, xcb, GL, GLib and Kerberos libraries Qt
links to. When one is missing, Qt aborts while loading its platform plugin with a
message that names one library at most ("xcb-cursor0 ... is needed"), however many are
missing, and nothing a person who double-clicked Parley ever sees. So on Linux, when Qt
would load its xcb plugin, Parley reads which system libraries the plugin and the Qt
modules it uses need (`shared_libraries.py`, straight from the files), looks for each
where the loader would, and names every missing one with its Debian package and the one
`apt` command that installs them all.

`PACKAGES` maps each soname to its Debian 12 package; on Debian 13 and Ubuntu 24.04
several were renamed with a "t64" suffix, and apt picks the new name for the old one.
tests/ui/test_qt_libraries.py checks the table against `dpkg -S` and that every package
named here is in packaging/linux/depends.txt, the .deb's Depends.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop.ui.shared_libraries import LibraryResolver, dynamic_section

# The Qt modules Parley imports, and the platform plugin Qt loads on X11.
QT_MODULES = ("QtCore", "QtGui", "QtWidgets", "QtNetwork")
XCB_PLUGIN = Path("Qt", "plugins", "platforms", "libqxcb.so")
# What the tests run on (QT_QPA_PLATFORM=offscreen): the README names what it needs.
OFFSCREEN_PLUGIN = Path("Qt", "plugins", "platforms", "libqoffscreen.so")

PACKAGES: dict[str, str] = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libbrotlicommon.so.1": "libbrotli1",
    "libbrotlidec.so.1": "libbrotli1",
    "libc.so.6": "libc6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libdl.so.2": "libc6",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libgcc_s.so.1": "libgcc-s1",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgssapi_krb5.so.2": "libgssapi-krb5-2",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libm.so.6": "libc6",
    "libpthread.so.0": "libc6",
    "libresolv.so.2": "libc6",
    "libstdc++.so.6": "libstdc++6",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb.so.1": "libxcb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libz.so.1": "zlib1g",
    "libzstd.so.1": "libzstd1",
}


@dataclass(frozen=True, slots=True)
class Missing:
    """Libraries the loader would not find, and what installs them."""

    sonames: tuple[str, ...]

    @property
    def packages(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(PACKAGES[s] for s in self.sonames if s in PACKAGES))

    @property
    def apt_command(self) -> str | None:
        return f"sudo apt install {' '.join(self.packages)}" if self.packages else None

    def message(self, *, apt: bool = True) -> str:
        """What the person reads; `apt`: whether this system installs with apt."""
        lines = [
            "Parley cannot open its window: Qt's X11 (xcb) platform plugin needs system "
            "libraries that are not installed:"
        ]
        for soname in self.sonames:
            package = PACKAGES.get(soname)
            lines.append(f"  {soname}" + (f" (package {package})" if package else ""))
        command = self.apt_command
        if apt and command is not None:
            lines += ["Install them with:", f"  {command}"]
        else:
            lines.append("Install the packages of your distribution that provide them.")
        return "\n".join(lines)


def would_use_xcb(environ: Mapping[str, str], argv: Sequence[str] = ()) -> bool:
    """Whether Qt would load its xcb plugin first, by Qt's own rules: `-platform`, then
    QT_QPA_PLATFORM, else Wayland in a Wayland session and X11 where DISPLAY is set.
    Only with a display to open: without one Qt stops at the display, not the plugin."""
    chosen = _platform_argument(argv) or environ.get("QT_QPA_PLATFORM", "")
    if not chosen and (
        environ.get("WAYLAND_DISPLAY") or environ.get("XDG_SESSION_TYPE") == "wayland"
    ):
        chosen = "wayland"
    first = (chosen or "xcb").split(";")[0].split(":")[0].strip()
    return first == "xcb" and bool(environ.get("DISPLAY"))


def _platform_argument(argv: Sequence[str]) -> str:
    for index, argument in enumerate(argv):
        if argument in ("-platform", "--platform") and index + 1 < len(argv):
            return argv[index + 1]
        if argument.startswith(("-platform=", "--platform=")):
            return argument.split("=", 1)[1]
    return ""


def pyside_folder() -> Path | None:
    """Where PySide6 is installed (or bundled), without importing it."""
    spec = importlib.util.find_spec("PySide6")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]) if locations else None


def qt_objects(pyside: Path, plugin: Path = XCB_PLUGIN) -> list[Path]:
    """The platform plugin (xcb unless told) and the binary modules of `QT_MODULES`
    that exist under `pyside`."""
    found = [pyside / plugin] if (pyside / plugin).is_file() else []
    for module in QT_MODULES:
        found += sorted(pyside.glob(f"{module}.*.so"))[:1]
    return found


def needed_libraries(
    objects: Sequence[Path], bundle: Path, resolver: LibraryResolver
) -> dict[str, str | None]:
    """Every system library `objects` need, where the loader finds it (None: nowhere).

    Libraries found inside `bundle` (Qt's own, PySide's) are followed to what they
    need in turn; a system library is not: its package brings what it needs.
    """
    inside = os.path.join(os.path.abspath(bundle), "")
    system: dict[str, str | None] = {}
    seen: set[str] = set()
    todo = [os.path.abspath(p) for p in objects]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            dynamic = dynamic_section(Path(current))
        except (OSError, ValueError):
            continue
        origin = os.path.dirname(current)
        first = [entry.replace("$ORIGIN", origin) for entry in dynamic.search]
        for soname in dynamic.needed:
            if soname in system:
                continue
            found = resolver.find(soname, first)
            if found is not None and os.path.normpath(found).startswith(inside):
                todo.append(os.path.normpath(found))
            else:
                system[soname] = found
    return system


def missing_for_xcb(
    resolver: LibraryResolver | None = None, pyside: Path | None = None
) -> Missing | None:
    """The libraries Qt's xcb plugin would fail on; None when none is missing (or
    when PySide6's files are not where they can be read)."""
    pyside = pyside or pyside_folder()
    if pyside is None:
        return None
    objects = qt_objects(pyside)
    if not objects:
        return None
    libraries = needed_libraries(
        objects, pyside.parent.resolve(), resolver or LibraryResolver.for_this_system()
    )
    missing = tuple(sorted(s for s, path in libraries.items() if path is None))
    return Missing(missing) if missing else None


def startup_problem(
    environ: Mapping[str, str],
    argv: Sequence[str] = (),
    resolver: LibraryResolver | None = None,
) -> str | None:
    """The message to show instead of starting Qt, or None to start it.

    Only a missing library of `PACKAGES` stops the start: one this table does not know
    may be a library a new PySide6 or a bundle's own layout put elsewhere, which Qt may
    well find; it is named beside the known ones, never alone."""
    if not sys.platform.startswith("linux") or not would_use_xcb(environ, argv):
        return None
    missing = missing_for_xcb(resolver)
    if missing is None or not missing.packages:
        return None
    return missing.message(
        apt=shutil.which("apt") is not None or shutil.which("apt-get") is not None
    )
