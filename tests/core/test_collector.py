"""The collector policy: garbage found before what lives on is frozen."""

from __future__ import annotations

import gc
import weakref

from desktop.core import collector


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector frees it


def test_the_warm_up_freeze_collects_garbage_first_and_freezes_what_lives():
    garbage = _Node()
    gone = weakref.ref(garbage)
    del garbage
    kept = _Node()
    before = gc.get_freeze_count()
    try:
        collector.warmed_up()
        assert gone() is None  # collected, not frozen for good
        assert gc.get_freeze_count() > before
        assert not any(obj is kept for obj in gc.get_objects())  # frozen: out of its reach
    finally:
        gc.unfreeze()
    assert any(obj is kept for obj in gc.get_objects())
