"""A translation hook for the people-facing strings made outside the UI.

Core and engine cannot import Qt, so they call `tr()`; the application installs Qt's
translator at start-up. Until then (tests, tools) the source text is returned.

`pyside6-lupdate` files a bare `tr("…")` under the empty context, so that is the context
these strings are looked up in. It reads `tr(text, disambiguation, n)` as Qt's own
`tr()`: a text with `%n` is a plural, filled with `n` in the language's plural forms.
Text kept in a module-level constant is marked with `QT_TR_NOOP` (which lupdate
collects) and passed through `tr()` when shown, so it follows the language chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Translate = Callable[[str, str, str | None, int], str]
JoinList = Callable[[list[str]], str]


def _untranslated(_context: str, text: str, _disambiguation: str | None, n: int) -> str:
    """The source text, its count filled in as Qt would (`%Ln`: with digit grouping)."""
    return text.replace("%Ln", f"{n:,}").replace("%n", str(n)) if n >= 0 else text


def _comma_separated(items: list[str]) -> str:
    return ", ".join(items)


_translate: Translate = _untranslated
_join: JoinList = _comma_separated


def install(translate: Translate, join_list: JoinList = _comma_separated) -> None:
    global _translate, _join
    _translate, _join = translate, join_list


def uninstall() -> None:
    """Back to the source texts (a window that was in another language has closed)."""
    install(_untranslated)


def tr(text: str, disambiguation: str = "", n: int = -1) -> str:
    return _translate("", text, disambiguation or None, n)


def QT_TR_NOOP(text: str) -> str:  # the name lupdate looks for
    """Marks a constant for translation; `tr()` translates it where it is shown."""
    return text


_FULL_WIDTH_ENDS = ("。", "！", "？", "：", "；")


def sentences(parts: Iterable[str]) -> str:
    """Sentences one after another, as the language writes them: a space between two in
    English, none after a full-width stop (Chinese puts no space after "。"). Empty
    parts are left out."""
    text = ""
    for part in parts:
        if part:
            text += ("" if not text or text.endswith(_FULL_WIDTH_ENDS) else " ") + part
    return text


def joined(items: Iterable[str]) -> str:
    """`items` as a list in a sentence, written as the language writes one ("a, b and c";
    in Chinese "a、b和c"): a comma-separated list reads wrong in a Chinese sentence."""
    return _join(list(items))
