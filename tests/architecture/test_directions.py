"""Which layer may import which (SPEC section 1), and no module imports itself back.

The layers form one direction: core at the bottom; providers, render and storage on
core alone; the engine on those; the UI on the engine (it reaches storage only through
it). A change that needs an arrow the other way needs a new home for what it shares,
usually plain data in core.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "desktop"

# Layer -> the layers it may import (besides itself).
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "providers": {"core"},
    "render": {"core"},
    "storage": {"core"},
    "engine": {"core", "providers", "render", "storage"},
    "ui": {"core", "providers", "render", "engine"},
}


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imports(path: Path) -> set[str]:
    """Parley modules `path` imports, at any level (inside functions and TYPE_CHECKING
    blocks too: those still tie the modules together)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name in MODULES}


GRAPH = {name: _imports(path) - {name} for name, path in MODULES.items()}
# The package itself (its version, the start-up settings it makes) is everyone's.
SHARED = {"desktop"}


def _layer(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def test_every_layer_is_known():
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert packages - {"_resources"} == set(ALLOWED)


def test_each_layer_imports_only_the_layers_below_it():
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if _layer(module) in ALLOWED
        for target in targets
        if target not in SHARED
        and _layer(target) != _layer(module)
        and _layer(target) not in ALLOWED[_layer(module)]
    )
    assert wrong == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_modules_import_each_other():
    assert _cycles(GRAPH) == []


def test_the_cycle_check_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
