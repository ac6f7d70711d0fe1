"""Shared pytest fixtures, registered for every test by `tests/conftest.py`."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest

from tests.support.memory_keyring import MemoryKeyring
from tests.support.sse_server import SSEServer


@pytest.fixture
def sse_server() -> Iterator[SSEServer]:
    """A started loopback OpenAI-compatible server; script it with `.enqueue(...)`."""
    server = SSEServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    """Installs an in-memory keyring backend and restores whatever was active before."""
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)
