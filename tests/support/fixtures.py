"""Shared pytest fixtures, registered for every test by `tests/conftest.py`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.sse_server import SSEServer


@pytest.fixture
def sse_server() -> Iterator[SSEServer]:
    """A started loopback OpenAI-compatible server; script it with `.enqueue(...)`."""
    server = SSEServer().start()
    try:
        yield server
    finally:
        server.stop()
