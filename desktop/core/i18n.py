"""A translation hook for the few people-facing strings made outside the UI.

Core and engine cannot import Qt, so they call `tr()`; the application installs Qt's
translator at start-up. Until then (tests, tools) the source text is returned.
"""

from __future__ import annotations

from collections.abc import Callable

_translate: Callable[[str, str], str] = lambda context, text: text  # noqa: E731


def install(translate: Callable[[str, str], str]) -> None:
    global _translate
    _translate = translate


def tr(text: str, context: str = "Parley") -> str:
    return _translate(context, text)
