"""Batching and checking embeddings (`providers/embeddings.py`), with a `send` that
stands for one request: batches in order, a few at a time, the first failure stopping
the rest, cancellation reaching every batch, and answers that are not vectors refused."""

from __future__ import annotations

import asyncio
import math

import pytest

from desktop.core.errors import ProviderError
from desktop.providers.embeddings import (
    EMBED_BATCH_SIZE,
    EMBED_CONCURRENCY,
    batches,
    checked_vectors,
    embed_in_batches,
)
from tests.support.provider_calls import run
from tests.support.waiting import wait_for


def one_hot(text: str) -> list[float]:
    """A vector that says which text it was made for: [n, 1.0] for "t<n>"."""
    return [float(text[1:]), 1.0]


def texts(count: int) -> list[str]:
    return [f"t{i}" for i in range(count)]


def test_batches_cut_the_texts_in_order():
    assert batches(texts(130), 64) == [texts(130)[:64], texts(130)[64:128], texts(130)[128:]]
    assert batches([], 64) == []
    assert EMBED_BATCH_SIZE == 64 and EMBED_CONCURRENCY == 4


def test_vectors_come_back_in_the_order_of_the_texts_whatever_order_batches_end_in():
    count = EMBED_CONCURRENCY * EMBED_BATCH_SIZE

    async def main() -> list[list[float]]:
        ended: set[int] = set()

        async def send(batch: list[str]) -> list[list[float]]:
            index = int(batch[0][1:]) // EMBED_BATCH_SIZE
            later = set(range(index + 1, EMBED_CONCURRENCY))
            await wait_for(lambda: later <= ended)  # the last batch ends first
            ended.add(index)
            return [one_hot(t) for t in batch]

        return await embed_in_batches(texts(count), send)

    assert run(main()) == [one_hot(t) for t in texts(count)]


def test_the_batches_in_flight_fill_up_to_the_limit_and_never_beyond():
    """The first batches wait until as many are in flight as the limit allows, then all
    go on: with a higher limit more would start while they wait, with a lower one the
    gate would never open."""
    total = 10

    async def main() -> int:
        in_flight = peak = 0
        full = asyncio.Event()

        async def send(batch: list[str]) -> list[list[float]]:
            nonlocal in_flight, peak
            in_flight += 1
            peak = max(peak, in_flight)
            if in_flight >= EMBED_CONCURRENCY:
                full.set()
            await wait_for(full.is_set)
            in_flight -= 1
            return [one_hot(t) for t in batch]

        await embed_in_batches(texts(total * EMBED_BATCH_SIZE), send)
        return peak

    assert run(main()) == EMBED_CONCURRENCY


def test_the_first_failure_stops_the_batches_still_running_and_is_raised_as_it_is():
    refused = ProviderError("refused", status_code=400)

    async def main() -> int:
        started = cancelled = 0

        async def send(batch: list[str]) -> list[list[float]]:
            nonlocal started, cancelled
            started += 1
            if batch[0] == "t0":
                await wait_for(lambda: started == EMBED_CONCURRENCY)
                raise refused
            try:
                await asyncio.Event().wait()  # never answers
            except asyncio.CancelledError:
                cancelled += 1
                raise
            return []

        with pytest.raises(ProviderError) as caught:
            await embed_in_batches(texts(10 * EMBED_BATCH_SIZE), send)
        assert caught.value is refused
        return cancelled

    assert run(main()) == EMBED_CONCURRENCY - 1


def test_cancelling_the_call_cancels_every_batch_and_waits_for_them():
    async def main() -> tuple[int, int]:
        started = ended = 0

        async def send(batch: list[str]) -> list[list[float]]:
            nonlocal started, ended
            started += 1
            try:
                await asyncio.Event().wait()
            finally:
                ended += 1
            return []

        task = asyncio.ensure_future(embed_in_batches(texts(10 * EMBED_BATCH_SIZE), send))
        await wait_for(lambda: started == EMBED_CONCURRENCY)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return started, ended

    assert run(main()) == (EMBED_CONCURRENCY, EMBED_CONCURRENCY)


def test_batches_of_different_vector_sizes_are_refused():
    async def main() -> None:
        async def send(batch: list[str]) -> list[list[float]]:
            size = 3 if batch[0] == "t0" else 4
            return [[0.5] * size for _ in batch]

        await embed_in_batches(texts(100), send)

    with pytest.raises(ProviderError, match="not embeddings: the vectors have different lengths"):
        run(main())


@pytest.mark.parametrize(
    ("items", "reason"),
    [
        (None, "no list of vectors"),
        ([[1.0]], "1 vectors for 2 texts"),
        ([[1.0], [1.0], [1.0]], "3 vectors for 2 texts"),
        ([[1.0], None], "a vector is not a list of numbers"),
        ([[1.0], []], "a vector is not a list of numbers"),
        ([[1.0], ["1.0"]], "a vector is not a list of numbers"),
        ([[1.0], [True]], "a vector is not a list of numbers"),
        ([[1.0], [math.nan]], "a vector holds a value that is not a finite number"),
        ([[1.0], [math.inf]], "a vector holds a value that is not a finite number"),
        ([[1.0], [10**400]], "a vector holds a value that is not a finite number"),
        ([[1.0, 2.0], [1.0]], "the vectors have different lengths"),
    ],
)
def test_an_answer_that_is_not_vectors_is_refused(items: object, reason: str):
    with pytest.raises(ProviderError) as caught:
        checked_vectors(items, 2)
    assert str(caught.value) == f"The server's answer was not embeddings: {reason}"
    assert not caught.value.retryable


def test_whole_numbers_are_read_as_floats():
    assert checked_vectors([[1, 0], [0.5, -2]], 2) == [[1.0, 0.0], [0.5, -2.0]]
    assert all(type(v) is float for v in checked_vectors([[1, 0]], 1)[0])
