"""Every text a person can see has its Chinese, kept in step with the code.

The `.ts` files are the sources translators edit; the `.qm` files beside them are what
Parley loads (compiled by `pyside6-lrelease`, shipped in the package and the bundle).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.support.paths import ROOT

FOLDER = ROOT / "resources" / "translations"
BIN = Path(sys.executable).parent
PLACEHOLDER = re.compile(r"%[1-9n]|\{[a-z_][a-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}")
ACCELERATOR = re.compile(r"&([^&\s])")

Key = tuple[str, str, str]  # context, source, disambiguation


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is missing: it comes with PySide6 (pip install -e '.[test]')")
    return found


def _messages(ts: Path) -> dict[Key, ET.Element]:
    messages = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            key = (name, message.findtext("source") or "", message.findtext("comment") or "")
            messages[key] = message
    return messages


def _translations(message: ET.Element) -> list[str]:
    translation = message.find("translation")
    assert translation is not None
    forms = translation.findall("numerusform")
    return [form.text or "" for form in forms] if forms else [translation.text or ""]


def _sources_now(tmp_path: Path) -> set[Key]:
    """What `pyside6-lupdate` collects from the code as it is."""
    files = [str(p) for p in sorted((ROOT / "desktop").rglob("*.py"))]
    out = tmp_path / "now.ts"
    subprocess.run(
        [_tool("pyside6-lupdate"), *files, "-ts", str(out)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return set(_messages(out))


def test_the_chinese_translation_covers_every_text_in_the_code(tmp_path):
    shipped = _messages(FOLDER / "parley_zh_CN.ts")
    now = _sources_now(tmp_path)
    missing = sorted(now - set(shipped))
    assert not missing, f"{len(missing)} texts have no Chinese yet (run lupdate): {missing[:10]}"
    gone = sorted(set(shipped) - now)
    assert not gone, f"the .ts keeps {len(gone)} texts the code no longer has: {gone[:10]}"


def test_every_chinese_text_is_finished_and_keeps_placeholders_and_accelerators():
    problems = []
    for (context, source, _), message in _messages(FOLDER / "parley_zh_CN.ts").items():
        translation = message.find("translation")
        assert translation is not None
        where = f"{context}: {source!r}"
        if translation.get("type") in {"unfinished", "vanished", "obsolete"}:
            problems.append(f"{where} is {translation.get('type')}")
            continue
        for text in _translations(message):
            if not text.strip():
                problems.append(f"{where} has an empty translation")
            if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(source)):
                problems.append(f"{where}: placeholders differ in {text!r}")
            keys = ACCELERATOR.findall(source)
            if keys and [k.upper() for k in ACCELERATOR.findall(text)] != [k.upper() for k in keys]:
                problems.append(f"{where}: accelerator &{keys[0]} lost in {text!r}")
    assert not problems, "\n".join(problems[:20])


def test_english_spells_out_every_plural():
    """`%n file(s)` reads "1 file" and "3 files": the English file has both forms."""
    english = _messages(FOLDER / "parley_en.ts")
    plural_sources = {
        key for key, m in _messages(FOLDER / "parley_zh_CN.ts").items() if m.get("numerus")
    }
    assert plural_sources <= set(english), sorted(plural_sources - set(english))[:10]
    for key in plural_sources:
        one, many = _translations(english[key])
        assert "(s)" not in one + many and one != many, (key, one, many)


@pytest.mark.parametrize("name", ["parley_zh_CN", "parley_en"])
def test_the_shipped_qm_is_compiled_from_its_ts(tmp_path, name):
    compiled = tmp_path / f"{name}.qm"
    subprocess.run(
        [_tool("pyside6-lrelease"), str(FOLDER / f"{name}.ts"), "-qm", str(compiled)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    shipped = FOLDER / f"{name}.qm"
    assert shipped.is_file(), f"{shipped.name} is missing: run pyside6-lrelease"
    assert shipped.read_bytes() == compiled.read_bytes(), f"{shipped.name} is older than its .ts"
