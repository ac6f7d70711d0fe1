import asyncio

from desktop.engine.turn.throttle import Throttle


def test_touches_within_an_interval_run_the_action_once():
    calls = []

    async def scenario():
        throttle = Throttle(0.05, lambda: calls.append(asyncio.get_running_loop().time()))
        for _ in range(20):
            throttle.touch()
        assert throttle.pending
        await asyncio.sleep(0.15)
        assert not throttle.pending

    asyncio.run(scenario())
    assert len(calls) == 1


def test_flush_runs_a_pending_action_now_and_only_once():
    calls = []

    async def scenario():
        throttle = Throttle(10.0, lambda: calls.append(1))
        throttle.touch()
        throttle.flush()
        throttle.flush()  # nothing pending any more
        await asyncio.sleep(0)

    asyncio.run(scenario())
    assert calls == [1]


def test_cancel_drops_the_pending_action():
    calls = []

    async def scenario():
        throttle = Throttle(0.01, lambda: calls.append(1))
        throttle.touch()
        throttle.cancel()
        await asyncio.sleep(0.05)

    asyncio.run(scenario())
    assert calls == []


def test_a_touch_after_the_interval_runs_the_action_even_if_the_timer_could_not():
    """A loop kept busy (a burst of buffered stream data) never reaches its timers."""
    calls = []

    async def scenario():
        loop = asyncio.get_running_loop()
        throttle = Throttle(0.05, lambda: calls.append(loop.time()))
        throttle.touch()
        due = loop.time() + 0.05
        while loop.time() < due:  # busy, never yielding to the loop
            pass
        assert calls == []  # the timer could not run
        throttle.touch()  # the next change, arriving after the interval
        assert len(calls) == 1 and calls[0] >= due
        assert not throttle.pending
        throttle.touch()  # the next one is an interval away again
        assert throttle.pending and len(calls) == 1

    asyncio.run(scenario())
