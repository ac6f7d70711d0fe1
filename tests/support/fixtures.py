"""Shared pytest fixtures, registered for every test by `tests/conftest.py`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from sqlalchemy import Engine

from desktop.storage.knowledge_index import open_index
from tests.support.embedding_server import EmbeddingServer
from tests.support.memory_keyring import MemoryKeyring
from tests.support.notification_daemon import NotificationDaemon
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
def embedding_server() -> Iterator[EmbeddingServer]:
    """A started loopback embedding server (OpenAI, Ollama and Gemini wires) with
    predictable vectors; see `tests/support/embedding_server.py`."""
    server = EmbeddingServer().start()
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


@pytest.fixture
def notification_daemon(monkeypatch) -> Iterator[NotificationDaemon]:
    """A private session bus with a recording notification daemon, made the app's bus.
    Request it before `driver`, so the apps leave the bus before it stops."""
    NotificationDaemon.skip_unless_available()
    daemon = NotificationDaemon().start()
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", daemon.address)
    try:
        yield daemon
    finally:
        daemon.stop()


@pytest.fixture(scope="module")
def scrypt_once() -> Iterator[None]:
    """For a whole test module: age's scrypt runs once per passphrase and process, its
    results reused (`tests/support/scrypt_once.py`): a backup test pays seconds for
    each backup it writes or opens otherwise."""
    from tests.support.scrypt_once import ScryptOnce

    with pytest.MonkeyPatch.context() as patch:
        ScryptOnce(patch)
        yield


@pytest.fixture
def real_scrypt() -> Iterator[None]:
    """This test's backups get keys of their own and every lock and unlock runs scrypt,
    as in the shipped app, even in a module using `scrypt_once`: the passphrase path,
    end to end, with nothing remembered."""
    from tests.support.scrypt_once import paying_scrypt

    with paying_scrypt():
        yield


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Engine]:
    """A knowledge index in the test's folder (the knowledge search and store tests)."""
    engine = open_index(tmp_path)
    try:
        yield engine
    finally:
        engine.dispose()
