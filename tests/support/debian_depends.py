"""The .deb's Depends (packaging/linux/depends.txt) against what dpkg has installed here."""

from __future__ import annotations

import subprocess

from tests.support.paths import ROOT

DEPENDS = ROOT / "packaging" / "linux" / "depends.txt"


def depends_entries() -> list[str]:
    """The .deb's Depends entries from packaging/linux/depends.txt ("a | b" kept whole)."""
    lines = (line.split("#", 1)[0].strip() for line in DEPENDS.read_text().splitlines())
    return [line for line in lines if line]


def installed_packages(names: set[str]) -> set[str]:
    """Those of `names` that dpkg has installed here."""
    listing = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package} ${db:Status-Status}\n", *sorted(names)],
        capture_output=True,
        text=True,
    ).stdout
    return {
        line.split()[0].split(":")[0]
        for line in listing.splitlines()
        if line.split()[1:] == ["installed"]
    }


def uninstalled_depends() -> list[str]:
    """The Depends entries none of whose alternatives is installed here."""
    entries = depends_entries()
    choices = {entry: {name.strip() for name in entry.split("|")} for entry in entries}
    installed = installed_packages(set().union(*choices.values()))
    return [entry for entry in entries if not choices[entry] & installed]
