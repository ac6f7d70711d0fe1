"""The installed app: the PyInstaller bundle built from packaging/parley.spec, and on
Debian the .deb made from it, installed with dpkg and started the way a desktop menu
starts it (the Exec line of the installed .desktop entry)."""

from __future__ import annotations

import configparser
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop.core.child_command import MATHS_WORKER_FLAG
from tests.support.debian_depends import uninstalled_depends
from tests.support.figures import note_figure
from tests.support.paths import ROOT
from tests.support.waiting import CEILING_S
from tests.support.xvfb import private_display

pytestmark = [pytest.mark.packaging, pytest.mark.slow]  # builds the bundle and the .deb

BUILD_DEB = ROOT / "packaging" / "linux" / "build_deb.sh"
BUNDLED_NOTICE = Path(__file__).with_name("bundled_notice.py")
INSTALLED_ENTRY = Path("/usr/share/applications/parley.desktop")
FIELD_CODES = {"%f", "%F", "%u", "%U", "%i", "%c", "%k"}
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux bundle")


def _smoke_test(command: list[str], data: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", **env}
    environment.pop("PARLEY_DATA_DIR", None)
    return subprocess.run(
        [*command, "--smoke-test", "--data-dir", str(data)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _executable(bundle: Path) -> Path:
    return bundle / ("parley.exe" if sys.platform == "win32" else "parley")


def test_the_bundle_carries_its_resources_and_passes_the_smoke_test(bundle, tmp_path):
    internal = bundle / "_internal"
    for resource in ("icons/parley.svg", "icons/ui/copy.svg", "themes/parley.qss"):
        assert (internal / "resources" / resource).is_file(), f"{resource} is not bundled"
    assert list(internal.glob("PySide6/QtSvg.*")), "QtSvg (Parley's icons) is not bundled"
    # The Qt plugins that draw the window icon (SVG) and reach an X11 or Wayland desktop.
    plugins = internal / "PySide6" / "Qt" / "plugins"
    if sys.platform.startswith("linux"):
        for plugin in (
            "iconengines/libqsvgicon.so",
            "imageformats/libqsvg.so",
            "platforms/libqxcb.so",
            "platforms/libqwayland.so",
        ):
            assert (plugins / plugin).is_file(), f"Qt plugin {plugin} is not bundled"
    # The optional local OCR engine is not bundled (see packaging/parley.spec).
    assert not (internal / "onnxruntime").exists()

    started = time.monotonic()
    result = _smoke_test([str(_executable(bundle))], tmp_path / "data")
    note_figure(f"bundle smoke test (offscreen): {time.monotonic() - started:.1f} s")
    assert result.returncode == 0, result.stderr[-4000:]
    assert "smoke test passed" in result.stdout
    assert (tmp_path / "data" / "parley.db").is_file()


def test_the_bundle_starts_in_chinese_with_qts_own_texts_translated_too(bundle, tmp_path):
    for name in ("parley_zh_CN.qm", "parley_zh_CN.ts", "parley_en.qm"):
        assert (bundle / "_internal" / "resources" / "translations" / name).is_file(), name
    data = tmp_path / "data"
    data.mkdir()
    settings = '{"version": 1, "appearance": {"language": "zh_CN"}}'
    (data / "settings.json").write_text(settings, encoding="utf-8")
    if not subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout:
        pytest.skip("no CJK font here (Parley then starts in English): apt install fonts-noto-cjk")
    result = _smoke_test([str(_executable(bundle))], data)
    assert result.returncode == 0, result.stderr[-4000:]
    log = (data / "logs" / "parley.log").read_text(encoding="utf-8")
    assert "translations: ['qtbase_zh_CN', 'parley_zh_CN']" in log, log[-2000:]


@linux_only
def test_the_bundle_leaves_the_desktops_own_libraries_to_the_system(bundle):
    """X11, xcb, GLib, fontconfig, OpenSSL and the C++ runtime come from the
    distribution (the .deb Depends on them); Qt, ICU, Python and SQLite travel along."""
    internal = bundle / "_internal"
    carried = {path.name for path in internal.glob("lib*.so*")}
    for system in ("libX11.so.6", "libxcb-cursor.so.0", "libglib-2.0.so.0", "libssl.so.3"):
        assert system not in carried, f"{system} is bundled"
    for system in ("libstdc++.so.6", "libfontconfig.so.1", "libfreetype.so.6"):
        assert system not in carried, f"{system} is bundled"
    assert {"libpython3.11.so.1.0", "libsqlite3.so.0", "libQt6Core.so.6"} <= carried
    assert (internal / "PySide6" / "Qt" / "lib" / "libicudata.so.73").is_file()
    dangling = [path.name for path in internal.iterdir() if path.is_symlink() and not path.exists()]
    assert not dangling, f"links to libraries that are not bundled: {dangling}"


@linux_only
def test_the_bundle_passes_the_smoke_test_on_a_real_x_display(bundle, tmp_path):
    """The xcb platform plugin with the system's X11 and xcb libraries, as on a desktop."""
    with private_display(size="1280x800x24") as display:
        started = time.monotonic()
        result = _smoke_test(
            [str(_executable(bundle))], tmp_path / "data", QT_QPA_PLATFORM="xcb", DISPLAY=display
        )
    note_figure(f"bundle smoke test (xcb on Xvfb): {time.monotonic() - started:.1f} s")
    assert result.returncode == 0, result.stderr[-4000:]
    assert "smoke test passed" in result.stdout
    assert "Could not load the Qt platform plugin" not in result.stderr


def test_the_bundle_carries_what_parley_imports_on_first_use(bundle):
    """The MCP SDK and the document readers are imported when first needed, inside
    functions: the bundle must still hold them, or a bundled Parley could not read a
    PDF or start an MCP server."""
    from PyInstaller.archive.readers import CArchiveReader

    pyz = CArchiveReader(str(_executable(bundle))).open_embedded_archive("PYZ.pyz")
    readers = ["plain_text", "word", "powerpoint", "legacy_ppt", "pdf_text"]
    wanted = {f"desktop.engine.attachments.{name}" for name in readers} | {
        "pypdf",
        "olefile",
        "mcp.client.session",
        "mcp.client.stdio",
        "mcp.client.sse",
        "mcp.client.streamable_http",
        "mcp.shared.exceptions",
        "httpx2",
    }
    assert not wanted - set(pyz.toc), sorted(wanted - set(pyz.toc))


def test_the_bundle_carries_the_backup_encryption(bundle):
    """Backups are encrypted with age through pyrage, a compiled extension: without
    its library a bundled Parley could neither back up nor restore."""
    from PyInstaller.archive.readers import CArchiveReader

    pyz = CArchiveReader(str(_executable(bundle))).open_embedded_archive("PYZ.pyz")
    assert {"desktop.engine.backup.crypto", "desktop.engine.backup.streams"} <= set(pyz.toc)
    assert list(bundle.rglob("pyrage*.so")) or list(bundle.rglob("pyrage*.pyd"))


def test_the_bundle_carries_the_formula_typesetter_and_its_data(bundle):
    """ziamath, latex2mathml and QtSvg are imported with the first formula, inside a
    function, and they read a font and a symbol table from beside their code: without
    them every formula in a bundled Parley would stay as its source."""
    from PyInstaller.archive.readers import CArchiveReader

    pyz = CArchiveReader(str(_executable(bundle))).open_embedded_archive("PYZ.pyz")
    wanted = {"ziamath", "ziamath.tex", "ziamath.fonts", "latex2mathml.converter"}
    assert not wanted - set(pyz.toc), sorted(wanted - set(pyz.toc))
    internal = bundle / "_internal"
    assert (internal / "ziamath" / "fonts" / "STIXTwoMath-Regular.ttf").is_file()
    assert (internal / "latex2mathml" / "unimathsymbols.txt").is_file()
    assert list(internal.glob("PySide6/QtSvg.*")), "QtSvg is not bundled"


def test_the_bundle_typesets_in_its_own_child(bundle):
    """A bundled Parley starts its typesetting child as its own executable with
    `--maths-worker` (it has no `python -m`); that child answers without a display."""
    env = {**os.environ}
    env.pop("QT_QPA_PLATFORM", None)
    request = {"tex": "\\frac{a}{b}", "display": True, "colour": "#000000", "size": 16}
    result = subprocess.run(
        [str(_executable(bundle)), MATHS_WORKER_FLAG],
        input=(json.dumps(request) + "\n").encode(),
        env=env,
        capture_output=True,
        timeout=CEILING_S,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "<path" in json.loads(result.stdout)["svg"]


@linux_only
def test_the_bundled_code_sends_a_desktop_notification(bundle):
    """desktop-notifier and dbus-fast are imported only when the first notice goes out,
    and desktop-notifier finds its backend and its icon by name: the bundle's own
    modules, and nothing else, must reach a notification daemon."""
    from PyInstaller.archive.readers import CArchiveReader
    from PyInstaller.loader import pyimod01_archive

    from tests.support.notification_daemon import NotificationDaemon

    NotificationDaemon.skip_unless_available()
    pyz = CArchiveReader(str(_executable(bundle))).open_embedded_archive("PYZ.pyz")
    internal = bundle / "_internal"
    daemon = NotificationDaemon().start()
    try:
        child = subprocess.Popen(
            [
                sys.executable,
                "-I",
                "-S",
                str(BUNDLED_NOTICE),
                str(internal),
                pyz._filename,
                str(pyz._start_offset),
                str(pyimod01_archive.__file__),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={"DBUS_SESSION_BUS_ADDRESS": daemon.address, "PATH": os.environ["PATH"]},
        )
        daemon.wait_for_calls(1, timeout=CEILING_S)
        out, err = child.communicate("", timeout=60)
        calls = daemon.calls
    finally:
        daemon.stop()
    assert child.returncode == 0, err[-4000:]
    assert [(call.app_name, call.summary) for call in calls] == [("Parley", "Parley bundle")]
    loaded_from = dict(line.split(" ", 1) for line in out.splitlines())
    assert set(loaded_from) == {"desktop_notifier.backends.dbus", "dbus_fast.message_bus"}
    for module, path in loaded_from.items():
        assert Path(path).is_relative_to(internal), f"{module} came from {path}"


def _skip_unless_dpkg_can_install() -> None:
    if not sys.platform.startswith("linux") or shutil.which("dpkg") is None:
        pytest.skip("installs a .deb: needs Debian's dpkg")
    if os.geteuid() != 0:
        pytest.skip("installs a .deb with dpkg -i: needs root")
    installed = subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", "parley"], capture_output=True, text=True
    )
    if "installed" in installed.stdout.split():
        pytest.skip("a parley package is installed already; this test would replace and remove it")
    # dpkg installs the .deb only where its Depends are, and which package holds a library
    # the bundle links can only be told where that library is installed.
    missing = uninstalled_depends()
    if missing:
        first = " ".join(entry.split("|")[0].strip() for entry in missing)
        reason = (
            f"the .deb's Depends are not all installed here ({', '.join(missing)}): "
            f"sudo apt install {first}"
        )
        if os.environ.get("PARLEY_REQUIRE_PACKAGING") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


def _dpkg(*args: str) -> subprocess.CompletedProcess[str]:
    """dpkg, waiting a while if another dpkg or apt holds its lock."""
    deadline = time.monotonic() + 120
    while True:
        result = subprocess.run(["dpkg", *args], capture_output=True, text=True, timeout=300)
        if "lock" not in result.stderr or time.monotonic() > deadline:
            return result
        time.sleep(2)


def _exec_line(entry: Path) -> list[str]:
    """The command a menu runs for the entry, with its field codes (%F…) left out."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive in desktop entries
    parser.read(entry, encoding="utf-8")
    return [
        word for word in shlex.split(parser["Desktop Entry"]["Exec"]) if word not in FIELD_CODES
    ]


def _elf_files(folder: Path) -> list[str]:
    """The executable, the shared libraries and the extension modules in `folder`."""
    found = []
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as file:
                if file.read(4) == b"\x7fELF":
                    found.append(str(path))
    return found


def _needed_by(files: list[str]) -> set[str]:
    """Every shared library the files link (their DT_NEEDED entries)."""
    out = subprocess.run(["readelf", "-d", *files], capture_output=True, text=True).stdout
    return set(re.findall(r"\(NEEDED\).*\[(.+?)\]", out))


def _owners(libraries: set[str]) -> dict[str, str]:
    """The Debian package that holds each library, as the dynamic linker finds it ("" for
    none). dpkg knows a file by the path its package ships, which with merged /usr may
    be the /lib or the /usr/lib spelling, of the link or of the file it names."""
    cache = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    spellings: dict[str, str] = {}  # a path dpkg might know -> the library
    for name, path in reversed(re.findall(r"^\s*(\S+) \(.*\) => (\S+)$", cache, re.M)):
        if name in libraries:
            for each in {path, os.path.realpath(path)}:
                plain = each.removeprefix("/usr")
                spellings[plain] = spellings["/usr" + plain] = name
    listing = subprocess.run(["dpkg", "-S", *spellings], capture_output=True, text=True).stdout
    owners = dict.fromkeys(libraries, "")
    for line in listing.splitlines():  # "libx11-6:amd64: /usr/lib/x86_64-linux-gnu/libX11.so.6"
        package, path = line.split(": ", 1)
        owners[spellings[path]] = package.split(":")[0]
    return owners


def _depends(deb: Path) -> set[str]:
    """The package names in the .deb's Depends, alternatives included."""
    field = subprocess.run(["dpkg-deb", "-f", str(deb), "Depends"], capture_output=True, text=True)
    return {
        re.sub(r"\s*\(.*\)", "", choice).strip()
        for clause in field.stdout.split(",")
        for choice in clause.split("|")
    }


def test_the_deb_installs_starts_from_its_menu_entry_and_uninstalls(bundle, tmp_path):
    _skip_unless_dpkg_can_install()
    started = time.monotonic()
    built = subprocess.run(
        ["bash", str(BUILD_DEB), "--bundle", str(bundle), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-4000:]
    deb = Path(built.stdout.strip().splitlines()[-1])
    note_figure(
        f".deb built in {time.monotonic() - started:.1f} s: {deb.stat().st_size / 1e6:.1f} MB"
    )

    # What the bundle links and does not carry must come from a package it Depends on.
    assert shutil.which("readelf"), "readelf is missing: apt install binutils"
    carried = {path.name for path in bundle.rglob("*")}
    outside = _needed_by(_elf_files(bundle)) - carried
    owners = _owners(outside)
    uncovered = {lib: pkg for lib, pkg in owners.items() if pkg not in _depends(deb)}
    assert not uncovered, f"linked but neither bundled nor in Depends: {uncovered}"

    started = time.monotonic()
    installed = _dpkg("-i", str(deb))
    try:
        assert installed.returncode == 0, installed.stdout + installed.stderr
        note_figure(f"dpkg -i: {time.monotonic() - started:.1f} s")
        assert Path("/opt/parley/parley").is_file()
        assert Path("/usr/share/icons/hicolor/256x256/apps/parley.png").is_file()
        assert Path("/usr/share/metainfo/io.parley.Parley.metainfo.xml").is_file()
        # Every library of the installed bundle resolves, as the bundle sets the path up.
        linked = subprocess.run(
            ["ldd", *_elf_files(Path("/opt/parley"))],
            env={**os.environ, "LD_LIBRARY_PATH": "/opt/parley/_internal"},
            capture_output=True,
            text=True,
        )
        unresolved, current = [], ""
        for line in linked.stdout.splitlines():
            if not line.startswith("\t"):
                current = line.rstrip(":")
            elif "not found" in line:
                unresolved.append(f"{current}: {line.strip()}")
        assert not unresolved, unresolved[:20]

        command = _exec_line(INSTALLED_ENTRY)
        assert command == ["parley"]
        result = _smoke_test(command, tmp_path / "data")
        assert result.returncode == 0, result.stderr[-4000:]
        assert "smoke test passed" in result.stdout

        validator = shutil.which("desktop-file-validate")
        assert validator, "desktop-file-validate is missing: apt install desktop-file-utils"
        checked = subprocess.run([validator, str(INSTALLED_ENTRY)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stdout + checked.stderr
    finally:
        removed = _dpkg("-r", "parley")
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert not Path("/opt/parley").exists()
    assert not INSTALLED_ENTRY.exists()
