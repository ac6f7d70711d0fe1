"""Pausing Python's cyclic garbage collector around a bulk build of objects.

Reading a long chat builds thousands of objects in one synchronous step (rows, decoded
JSON, messages, items). The collector starts a pass every few hundred allocations and,
as the survivors pile up, a full pass over the whole heap (60-100 ms with the app's
start-up heap) in the middle of the click. A build makes no garbage cycles for those
passes to find: everything it allocates is either kept (the items) or freed by
reference counting as soon as it is done with (rows, decoded JSON). Paused, the
temporaries are gone before any pass sees them, and only what is kept is handed on to
the collector afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from desktop.core import collector


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside the block; a pause already in force is left alone."""
    collector.hold()
    try:
        yield
    finally:
        collector.release()
