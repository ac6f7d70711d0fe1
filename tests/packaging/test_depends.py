"""One list of system packages (packaging/linux/depends.txt) for the .deb, CI, the
README and the start-up check, so they cannot drift apart. Quick: builds nothing."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from desktop.ui.qt_libraries import (
    OFFSCREEN_PLUGIN,
    PACKAGES,
    needed_libraries,
    pyside_folder,
    qt_objects,
)
from desktop.ui.shared_libraries import LibraryResolver
from tests.support.debian_depends import depends_entries, installed_packages, uninstalled_depends
from tests.support.paths import ROOT

BUILD_DEB = ROOT / "packaging" / "linux" / "build_deb.sh"
CI = ROOT / ".ci" / "run"
README = ROOT / "README.md"


def _names() -> set[str]:
    return {name.strip() for entry in depends_entries() for name in entry.split("|")}


def _readme_packages() -> list[str]:
    """The packages of the README's `sudo apt install` for Qt's system libraries."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## System packages") : text.index("## Two commands")]
    command = re.search(r"```sh\n(sudo apt install .*?)```", section, re.DOTALL)
    assert command is not None
    return command.group(1).replace("\\\n", " ").split()[3:]


def test_the_deb_depends_field_is_depends_txt():
    if shutil.which("bash") is None or shutil.which("paste") is None:
        pytest.skip("needs bash and coreutils")
    printed = subprocess.run(
        ["bash", str(BUILD_DEB), "--print-depends"], capture_output=True, text=True, timeout=60
    )
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.strip() == ", ".join(depends_entries())
    assert "fonts-noto-cjk" in depends_entries() and "libgssapi-krb5-2" in depends_entries()
    assert "libglib2.0-0 | libglib2.0-0t64" in depends_entries()


def test_ci_installs_the_list_rather_than_a_copy_of_it():
    script = CI.read_text(encoding="utf-8")
    assert "packaging/linux/depends.txt" in script
    assert "libxcb-cursor0" not in script and "libxcb-cursor0" not in BUILD_DEB.read_text()


def test_the_readme_lists_the_packages_before_the_install_commands():
    packages = _readme_packages()
    assert {"libglib2.0-0", "libgssapi-krb5-2", "fonts-noto-cjk"} <= set(packages)
    assert set(packages) <= _names()  # what the README asks for, the .deb brings


def test_every_package_the_start_up_check_names_is_in_the_deb_depends():
    assert set(PACKAGES.values()) <= _names()


def test_the_packaging_test_knows_which_depends_are_not_installed():
    """The .deb test skips (or, in CI, fails) naming what to install, rather than
    failing on libraries it cannot trace to a package."""
    if shutil.which("dpkg-query") is None:
        pytest.skip("needs Debian's dpkg")
    assert installed_packages({"dpkg", "parley-no-such-package"}) == {"dpkg"}
    missing = uninstalled_depends()
    assert set(missing) <= set(depends_entries())
    assert "libc6" not in missing  # nothing runs without it


def _readme_offscreen_packages() -> set[str]:
    """The packages the README says the offscreen tests need: those named in its
    sentence about `QT_QPA_PLATFORM=offscreen`, from there to the sentence's end."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## System packages") : text.index("## Two commands")]
    start = section.index("QT_QPA_PLATFORM=offscreen")
    end = re.compile(r"\.\s").search(section, start)
    sentence = section[start : end.start() if end else len(section)]
    return set(re.findall(r"`([a-z0-9][a-z0-9.+-]+)`", sentence))


def test_the_readme_names_every_package_the_offscreen_tests_need():
    """Read from the ELF files themselves: what Qt's modules and its offscreen plugin
    link to, each system library traced to its package."""
    pyside = pyside_folder()
    objects = qt_objects(pyside, OFFSCREEN_PLUGIN) if pyside is not None else []
    if pyside is None or not (pyside / OFFSCREEN_PLUGIN).is_file():
        pytest.skip("needs PySide6's Linux files")
    libraries = needed_libraries(
        objects, pyside.parent.resolve(), LibraryResolver.for_this_system()
    )
    unknown = {s for s in libraries if s not in PACKAGES and not s.startswith("ld-linux")}
    assert unknown == set(), "add their packages to PACKAGES"
    needed = {PACKAGES[s] for s in libraries if s in PACKAGES}
    assert {"libegl1", "libgl1", "libx11-6", "libxkbcommon0"} <= needed  # as measured
    assert _readme_offscreen_packages() == needed
