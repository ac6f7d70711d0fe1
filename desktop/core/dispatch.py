"""A Qt-free publish/subscribe channel for engine events.

Bound-method listeners are held weakly, so a view-model that goes away stops
receiving events without having to unsubscribe; a listener that raises is logged and
does not stop the others.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)
E = TypeVar("E")


class EventBus(Generic[E]):
    def __init__(self) -> None:
        self._listeners: list[Callable[[], Callable[[E], object] | None]] = []

    def subscribe(self, listener: Callable[[E], object]) -> Callable[[], None]:
        """Start delivering events to `listener`; returns a function that stops it."""
        ref: Callable[[], Callable[[E], object] | None]
        if hasattr(listener, "__self__") and hasattr(listener, "__func__"):
            ref = weakref.WeakMethod(listener)
        else:
            ref = lambda: listener  # noqa: E731
        self._listeners.append(ref)

        def unsubscribe() -> None:
            if ref in self._listeners:
                self._listeners.remove(ref)

        return unsubscribe

    def emit(self, event: E) -> None:
        for ref in list(self._listeners):
            listener = ref()
            if listener is None:
                self._listeners.remove(ref)
                continue
            try:
                listener(event)
            except Exception:
                log.exception("event listener failed on %s", type(event).__name__)
