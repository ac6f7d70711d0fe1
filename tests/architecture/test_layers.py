"""The layer rule (SPEC section 1): only desktop/ui and desktop/app.py may use Qt."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT

PACKAGE = ROOT / "desktop"
GUI_LIBRARIES = {"PySide6", "qasync", "shiboken6"}


def _allowed_to_use_qt(path: Path) -> bool:
    relative = path.relative_to(PACKAGE).as_posix()
    return relative.startswith("ui/") or relative == "app.py"


def _qt_free_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if not _allowed_to_use_qt(p))


def _imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    roots.add(arg.value.split(".")[0])
    return roots


def test_the_layer_rule_is_checked_on_every_layer():
    layers = {p.relative_to(PACKAGE).parts[0] for p in _qt_free_modules()}
    assert {"core", "providers", "engine", "storage", "render"} <= layers


def test_no_module_outside_ui_and_app_imports_qt_or_qasync():
    offenders = {
        str(path.relative_to(ROOT)): sorted(_imported_roots(path) & GUI_LIBRARIES)
        for path in _qt_free_modules()
        if _imported_roots(path) & GUI_LIBRARIES
    }
    assert offenders == {}


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def test_importing_the_core_layers_loads_no_gui_library_and_creates_no_files(tmp_path):
    """Catches indirect imports too, and engines or folders made at import time."""
    modules = [_module_name(p) for p in _qt_free_modules()]
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(GUI_LIBRARIES)!r})\n"
        "print(loaded)\n"
    )
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    env.pop("PARLEY_DATA_DIR", None)
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    assert list(home.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]


def test_every_package_and_resource_folder_is_listed_for_installation():
    """pyproject lists packages by hand (to ship resources/); a forgotten one would be lost."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    code = {_module_name(p.parent / "__init__.py") for p in PACKAGE.rglob("__init__.py")}
    resources = {
        "desktop._resources." + p.name for p in (ROOT / "resources").iterdir() if p.is_dir()
    }
    assert listed == code | resources | {"desktop._resources"}
