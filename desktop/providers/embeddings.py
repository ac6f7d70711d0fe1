"""Embedding many texts: batches of a size every server accepts, a few requests at a time,
and answers checked before anyone stores them.

A library of a thousand files is tens of thousands of passages. One request per passage
would take minutes of round trips; one request for all of them is refused (OpenAI takes
at most 2,048 inputs, Gemini 100, and a local server runs out of memory long before).
Batches of `EMBED_BATCH_SIZE` with `EMBED_CONCURRENCY` in flight keep a remote server
busy without tripping its rate limit at once, and a local one from queueing forever.

A vector that is wrong is worse than none: it is stored, searched, and ranks passages
by noise for as long as the index lives. So an answer with the wrong number of
vectors, vectors of different sizes or values that are not finite numbers is refused
as a whole, with an error saying the server's answer was not embeddings.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from desktop.core.errors import ProviderError
from desktop.core.i18n import tr

EMBED_BATCH_SIZE = 64  # inputs per request: under every protocol's limit (Gemini: 100)
EMBED_CONCURRENCY = 4  # requests in flight at once for one `embed` call

Vectors = list[list[float]]
SendBatch = Callable[[list[str]], Awaitable[Vectors]]


def not_embeddings(reason: str) -> ProviderError:
    """The error for an answer that cannot be read as vectors; `reason` is translated."""
    return ProviderError(
        tr("The server's answer was not embeddings: {reason}").format(reason=reason)
    )


def batches(texts: Sequence[str], size: int = EMBED_BATCH_SIZE) -> list[list[str]]:
    """`texts` in order, cut into lists of at most `size`."""
    return [list(texts[start : start + size]) for start in range(0, len(texts), size)]


async def embed_in_batches(
    texts: Sequence[str],
    send: SendBatch,
    *,
    batch_size: int = EMBED_BATCH_SIZE,
    concurrency: int = EMBED_CONCURRENCY,
) -> Vectors:
    """The vectors of `texts`, in their order, `send` called once per batch with at most
    `concurrency` calls running at once.

    The first failure stops the batches still running and is raised as it is (not in
    an exception group: callers catch `ProviderError`). Cancelling the caller cancels
    every running batch and waits for them to end, so no request outlives the call.
    """
    parts = batches(texts, batch_size)
    if not parts:
        return []
    if len(parts) == 1:
        return checked_sizes(await send(parts[0]))
    results: list[Vectors] = [[] for _ in parts]
    pending = iter(range(len(parts)))  # shared: each worker takes the next batch

    async def worker() -> None:
        for index in pending:
            results[index] = await send(parts[index])

    workers = [asyncio.ensure_future(worker()) for _ in range(min(concurrency, len(parts)))]
    try:
        await asyncio.gather(*workers)
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
    return checked_sizes([vector for part in results for vector in part])


def checked_sizes(vectors: Vectors) -> Vectors:
    """`vectors`, all of one length (batches answered apart must agree too)."""
    if vectors and any(len(vector) != len(vectors[0]) for vector in vectors):
        raise not_embeddings(tr("the vectors have different lengths"))
    return vectors


def checked_vectors(items: Any, expected: int) -> Vectors:
    """`items` from an answer read as `expected` vectors of one length, each a list of
    finite numbers; anything else raises `not_embeddings`."""
    if not isinstance(items, list):
        raise not_embeddings(tr("no list of vectors"))
    if len(items) != expected:
        raise not_embeddings(
            tr("{count} vectors for {expected} texts").format(count=len(items), expected=expected)
        )
    vectors = [_vector(item) for item in items]
    return checked_sizes(vectors)


def _vector(item: Any) -> list[float]:
    if not isinstance(item, list) or not item:
        raise not_embeddings(tr("a vector is not a list of numbers"))
    for value in item:
        if type(value) not in (float, int):  # bool is an int subclass, and not a number here
            raise not_embeddings(tr("a vector is not a list of numbers"))
    try:
        vector = [float(value) for value in item]
    except OverflowError:  # an integer too large for a float
        vector = [math.inf]
    if not all(map(math.isfinite, vector)):
        raise not_embeddings(tr("a vector holds a value that is not a finite number"))
    return vector
