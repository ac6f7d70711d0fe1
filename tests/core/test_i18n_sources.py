"""The errors people read are worded through translation.

Outside the UI, what a person sees of a failure is the message of a `ParleyError`
(a provider's error on the message, a file that cannot be attached, a settings file
that does not parse...). Its words must reach `pyside6-lupdate`, so they are written
as `tr("… {name} …").format(…)` (or a `QT_TR_NOOP` constant passed through `tr()`), never
as a bare literal or an f-string, which the translator never sees.

Tool results (`ToolFailure`) are not checked: they are written for the model.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "desktop"
PACKAGES = ("core", "engine", "providers", "storage", "render")

# Exceptions whose message is shown to the person, and which argument is the message.
MESSAGE_ARGUMENT = {
    "ParleyError": 0,
    "ProviderError": 0,
    "ProviderHTTPError": 0,
    "StreamBrokenError": 0,
    "StorageError": 0,
    "MigrationError": 0,
    "DatabaseTooNewError": 0,
    "ImportConflictError": 0,
    "SecretStoreUnavailable": 0,
    "OcrError": 0,
    "SettingsError": 1,  # (field, problem): the field is a settings path
    "AttachmentError": 1,  # (file name, problem)
    "InvalidImage": 0,
}


def _called_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _untranslated(node: ast.expr) -> bool:
    """A literal sentence or an f-string: words lupdate does not collect."""
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.Constant) and v.value.strip() for v in node.values)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return " " in node.value.strip()
    if isinstance(node, ast.BinOp):  # "…" + x, "…" % x
        return _untranslated(node.left) or _untranslated(node.right)
    return False


def _findings(path: Path) -> list[str]:
    return _findings_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT.parent)))


def _findings_in(source: str, where: str) -> list[str]:
    tree = ast.parse(source, filename=where)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        index = MESSAGE_ARGUMENT.get(_called_name(node))
        if index is None or len(node.args) <= index:
            continue
        if _untranslated(node.args[index]):
            found.append(f"{where}:{node.lineno}: {ast.unparse(node.args[index])[:80]}")
    return found


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_the_scan_sees_the_modules() -> None:
    names = {p.name for p in _modules()}
    assert {"http_errors.py", "transport.py", "settings.py", "sniff.py"} <= names


# Landed migrations are never edited (a migrated database never runs them again), and
# their module keeps its words as released: its upgrade errors stay in English.
NEVER_EDITED = {Path("storage/migrations.py")}  # under ROOT, desktop/


@pytest.mark.parametrize("package", PACKAGES)
def test_error_messages_people_see_go_through_tr(package: str) -> None:
    modules = sorted(
        p for p in (ROOT / package).rglob("*.py") if p.relative_to(ROOT) not in NEVER_EDITED
    )
    findings = [f for p in modules for f in _findings(p)]
    assert findings == [], "untranslated error messages:\n" + "\n".join(findings)


def test_the_scan_catches_an_f_string_and_a_literal() -> None:
    source = (
        'raise ProviderError(f"The server said {word}")\n'
        'raise SettingsError(f"{where}.x", "must be a thing")\n'
        'raise SettingsError(f"{where}.x", tr("must be a thing"))\n'
        'raise AttachmentError(name, tr("{x} is bad").format(x=1))\n'
        "raise ProviderError(tr(BROKEN))\n"
    )
    found = _findings_in(source, "probe.py")
    assert [f.split(":")[1] for f in found] == ["1", "2"]


_TRANSLATING = {"tr", "translate", "QT_TR_NOOP", "QT_TRANSLATE_NOOP"}


def _hidden_in_f_strings(source: str, where: str) -> list[str]:
    """`tr("…")` written inside an f-string: lupdate does not read f-strings, so the
    text is looked up at run time but never reaches the translator."""
    found = []
    for node in ast.walk(ast.parse(source, filename=where)):
        if not isinstance(node, ast.JoinedStr):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call) and _called_name(inner) in _TRANSLATING:
                found.append(f"{where}:{inner.lineno}: {ast.unparse(inner)[:80]}")
    return found


def test_no_translated_text_hides_in_an_f_string() -> None:
    findings = [
        f
        for p in sorted(ROOT.rglob("*.py"))
        for f in _hidden_in_f_strings(
            p.read_text(encoding="utf-8"), str(p.relative_to(ROOT.parent))
        )
    ]
    assert findings == [], "lupdate cannot see these:\n" + "\n".join(findings)


def test_the_f_string_scan_sees_a_hidden_tr() -> None:
    source = 'x = f"{a} ({self.tr(\'not configured\')})"\ny = tr("fine {a}").format(a=1)\n'
    assert [f.split(":")[1] for f in _hidden_in_f_strings(source, "probe.py")] == ["1"]


def _translate_text(call: ast.Call) -> ast.expr | None:
    """The source text a translate call passes: `QCoreApplication.translate(ctx, text)`
    or `self.tr(text)` / `tr(text)` (None for any other call)."""
    name = _called_name(call)
    if name == "translate" and len(call.args) >= 2:
        return call.args[1]
    if name == "tr" and call.args:
        return call.args[0]
    return None


def _wrappers(tree: ast.AST) -> list[int]:
    """Lines of functions that translate one of their own parameters, as in
    `def _tr(text): return QCoreApplication.translate("Ctx", text)`: the texts their
    callers pass are literals lupdate does not know to collect."""
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        parameters = {a.arg for a in function.args.args + function.args.kwonlyargs}
        for node in ast.walk(function):
            text = _translate_text(node) if isinstance(node, ast.Call) else None
            if isinstance(text, ast.Name) and text.id in parameters:
                found.append(function.lineno)
    return found


def test_no_view_model_or_view_hides_the_texts_it_translates_from_lupdate():
    """Such texts are never in the .ts: the Chinese UI would show them in English. (The
    few helpers outside the UI that translate a parameter are handed texts collected
    with `QT_TR_NOOP`, as `_KINDS` in core/settings.py; the UI writes each text out.)"""
    found = [
        f"{path.relative_to(ROOT.parent)}:{line}"
        for path in sorted((ROOT / "ui").rglob("*.py"))
        for line in _wrappers(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    ]
    assert found == [], "translate wrappers:\n" + "\n".join(found)
