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


def test_holds_nest_and_restore_what_was_there():
    assert gc.isenabled()
    collector.hold()
    collector.hold()
    collector.release()
    assert not gc.isenabled()  # one hold is still in force
    collector.release()
    assert gc.isenabled()
    gc.disable()  # a pause already in force (start-up) is left alone
    try:
        collector.hold()
        collector.release()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_start_up_pause_ends_only_when_holds_begun_meanwhile_are_released():
    collector.pause_for_start_up()
    try:
        collector.hold()  # a formula of the first chat, queued while Parley starts
        collector.started()
        assert not gc.isenabled()
        collector.release()
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()
