"""A hybrid logical clock: the order of changes made on different computers.

Wall clocks disagree between computers and jump; a plain counter says nothing about
time. A hybrid clock stamps each change with max(wall time, last stamp seen) plus a
counter, so a change made after seeing another is always stamped later than it, and
stamps stay close to real time otherwise (Kulkarni et al., 2014). Packed in one
integer, milliseconds above 16 bits of counter, so stamps compare as integers; ties
between devices are broken by the device id (`newer`).
"""

from __future__ import annotations

from typing import Final

_COUNTER_BITS: Final = 16
_COUNTER_MASK: Final = (1 << _COUNTER_BITS) - 1


def pack(wall_ms: int, counter: int = 0) -> int:
    return (wall_ms << _COUNTER_BITS) | counter


def wall_ms(stamp: int) -> int:
    return stamp >> _COUNTER_BITS


def tick(last: int, now_ms: int) -> int:
    """The stamp for a change made now, after `last` (the newest stamp seen here)."""
    if now_ms > wall_ms(last):
        return pack(now_ms)
    if last & _COUNTER_MASK == _COUNTER_MASK:  # 65,536 changes in one millisecond
        return pack(wall_ms(last) + 1)
    return last + 1


def observe(last: int, seen: int) -> int:
    """The newest stamp after receiving `seen`: later local changes sort after it."""
    return max(last, seen)


def newer(stamp: int, device: str, than_stamp: int, than_device: str) -> bool:
    """Whether (stamp, device) wins a last-writer-wins comparison."""
    return (stamp, device) > (than_stamp, than_device)
