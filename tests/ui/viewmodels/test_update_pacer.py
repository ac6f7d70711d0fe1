"""Streaming updates are applied as often as the GUI thread can afford, the latest first."""

from __future__ import annotations

import asyncio
import itertools
import time

from desktop.core.models import Message, MessageStatus, Role, TextPart
from desktop.ui.viewmodels.update_pacer import (
    MAX_BUSY_SHARE,
    MAX_INTERVAL_MS,
    MIN_INTERVAL_MS,
    SMOOTHING,
    UpdatePacer,
    next_delay_ms,
)


def test_the_delay_keeps_the_busy_share_within_bounds() -> None:
    assert next_delay_ms(1.0, 0.0) == MIN_INTERVAL_MS  # cheap: the engine's own pace
    assert next_delay_ms(8.5, 0.0) == 100  # 8.5 ms of work, then 91.5 ms free
    assert next_delay_ms(8.5, 30.0) == 70  # time already passed counts
    assert next_delay_ms(50.0, 0.0) == MAX_INTERVAL_MS  # text keeps flowing
    assert next_delay_ms(9.0, 1_000.0) == 0


def test_one_costly_cycle_does_not_stretch_the_wait_of_an_even_stream() -> None:
    # Typically 8.5 ms: 100 ms apart. A 30 ms cycle (a batch of typeset formulas) waits
    # only what keeps it under MAX_BUSY_SHARE, not the 250 ms it alone would ask for.
    assert next_delay_ms(30.0, 0.0, typical_ms=8.5) == round(30.0 / MAX_BUSY_SHARE)
    assert next_delay_ms(30.0, 0.0) == MAX_INTERVAL_MS
    assert next_delay_ms(5.0, 0.0, typical_ms=8.5) == 100  # a cheap one neither


def test_the_typical_cycle_follows_the_stream(driver) -> None:
    work_ms = iter([10.0] * 12 + [40.0] + [10.0] * 3)
    # Each cycle's cost, and the average as it stood when that cost was measured.
    cycles: list[tuple[float, float | None]] = []

    def apply(message: Message) -> None:
        busy_until = time.thread_time() + next(work_ms, 10.0) / 1000
        while time.thread_time() < busy_until:
            pass
        # The stream goes on: the next update is there as soon as this one is shown.
        pacer.submit(_message(_text(message) + "x"))

    pacer = UpdatePacer(apply)
    pacer.measured.connect(lambda cost: cycles.append((cost, pacer.typical_ms)))
    pacer.submit(_message("x"))
    driver.run(driver.until(lambda: any(cost >= 35.0 for cost, _ in cycles[:-1])))
    pacer.discard()
    spike = next(n for n, (cost, _) in enumerate(cycles) if cost >= 35.0)
    assert spike >= 10  # a dozen 10 ms cycles came first
    settled, after_spike = cycles[spike][1], cycles[spike + 1][1]
    assert settled is not None and 9.0 <= settled <= 16.0
    # the 40 ms cycle moves it part of the way only
    assert after_spike is not None and settled < after_spike < 40.0 * SMOOTHING + settled


def test_a_very_costly_update_waits_long_enough_to_leave_the_window_responsive() -> None:
    # A reply of hostile markdown: formatting is bounded, but each update still costs.
    assert next_delay_ms(500.0, 0.0) == round(500.0 / MAX_BUSY_SHARE)
    assert next_delay_ms(500.0, 500.0) == round(500.0 / MAX_BUSY_SHARE) - 500


def _text(message: Message) -> str:
    return "".join(p.text for p in message.parts if isinstance(p, TextPart))


def _message(text: str, message_id: str = "a") -> Message:
    return Message(message_id, "c", None, Role.ASSISTANT, [TextPart(text)], MessageStatus.STREAMING)


def test_a_burst_is_coalesced_to_its_latest_state(driver) -> None:
    shown: list[str] = []
    pacer = UpdatePacer(lambda message: shown.append(_text(message)))

    async def body() -> None:
        for n in range(1, 51):
            pacer.submit(_message("x" * n))
        await asyncio.sleep(0.1)
        assert shown == ["x" * 50]
        assert (pacer.submitted, pacer.applied) == (50, 1)

    driver.run(body())


def test_costly_updates_are_spaced_out(driver) -> None:
    applied_at: list[float] = []

    def slow_apply(_message: Message) -> None:
        applied_at.append(time.perf_counter())
        busy_until = time.thread_time() + 0.012  # 12 ms of work: the next waits ~120 ms
        while time.thread_time() < busy_until:
            pass

    pacer = UpdatePacer(slow_apply)

    async def body() -> None:
        for n in range(30):  # one update per 10 ms for 300 ms
            pacer.submit(_message(str(n)))
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)

    driver.run(body())
    gaps = [b - a for a, b in itertools.pairwise(applied_at)]
    assert 2 <= len(applied_at) <= 5
    assert min(gaps) >= 0.1
    assert pacer.last_cost_ms >= 12


def test_discarded_updates_are_never_applied(driver) -> None:
    shown: list[str] = []
    pacer = UpdatePacer(lambda message: shown.append(message.id))

    async def body() -> None:
        pacer.submit(_message("old", "a"))
        pacer.submit(_message("other", "b"))
        pacer.discard("a")
        await asyncio.sleep(0.1)
        pacer.submit(_message("late", "c"))
        pacer.discard()
        await asyncio.sleep(0.1)

    driver.run(body())
    assert shown == ["b"]
    assert not pacer.has_pending
