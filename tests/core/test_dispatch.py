import gc
import logging

from desktop.core.dispatch import EventBus


class Listener:
    def __init__(self):
        self.seen = []

    def on_event(self, event):
        self.seen.append(event)


def test_events_reach_every_listener_until_unsubscribed():
    bus = EventBus()
    seen = []
    stop = bus.subscribe(seen.append)
    bus.emit(1)
    stop()
    bus.emit(2)
    assert seen == [1]


def test_bound_methods_are_held_weakly():
    bus = EventBus()
    listener = Listener()
    bus.subscribe(listener.on_event)
    bus.emit("a")
    assert listener.seen == ["a"]
    del listener
    gc.collect()
    bus.emit("b")  # no error, nobody left
    assert bus._listeners == []


def test_a_failing_listener_does_not_stop_the_others(caplog):
    bus = EventBus()
    seen = []

    def broken(_event):
        raise RuntimeError("boom")

    bus.subscribe(broken)
    bus.subscribe(seen.append)
    with caplog.at_level(logging.ERROR):
        bus.emit("x")
    assert seen == ["x"]
    assert "listener failed" in caplog.text
