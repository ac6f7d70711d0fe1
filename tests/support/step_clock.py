"""A clock for the repository whose every reading is one second after the last."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class StepClock:
    """Each call is one second later than the previous: distinct, predictable times."""

    def __init__(self) -> None:
        self.now = datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now
