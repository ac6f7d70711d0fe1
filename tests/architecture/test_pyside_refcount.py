"""PySide6 6.12.0 on CPython 3.11 drops a reference to None per event delivered to Python;
after a few thousand events the interpreter aborts (none_dealloc). Parley pins PySide6
below 6.12 there; this test fails if a leaking build is ever installed again."""

from __future__ import annotations

import sys

from PySide6.QtCore import QEventLoop, QTimer

EVENTS = 10_000


def test_ten_thousand_timer_events_do_not_drain_none(qapp):
    ticks = 0
    loop = QEventLoop()
    timer = QTimer()
    timer.setInterval(0)

    def on_tick() -> None:
        nonlocal ticks
        ticks += 1
        if ticks >= EVENTS:
            timer.stop()
            loop.quit()

    timer.timeout.connect(on_tick)
    for _ in range(3):  # warm up caches so only a per-event leak shows
        qapp.processEvents()
    before = sys.getrefcount(None)
    timer.start()
    loop.exec()
    after = sys.getrefcount(None)
    assert ticks == EVENTS
    # A leak loses one reference per event (10,000); allow noise from unrelated objects.
    assert after >= before - 100, f"None lost {before - after} references over {EVENTS} events"
