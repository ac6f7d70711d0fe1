"""Read-only Qt properties of the view models, typed as the value they read.

PySide6's stubs declare `Property` without `__get__`, so to a type checker
`chat.title` would be a `Property` object rather than the `str` it reads. This makes
the same `Property`, and declares it as what its getter returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from PySide6.QtCore import Property, Signal

T = TypeVar("T")


def read_only(
    kind: type, getter: Callable[[Any], T], *, notify: Signal | None = None, constant: bool = False
) -> T:
    """`Property(kind, getter, notify=..., constant=...)`, read as `getter` returns."""
    if notify is None:
        return cast(T, Property(kind, getter, constant=constant))
    return cast(T, Property(kind, getter, notify=notify, constant=constant))
