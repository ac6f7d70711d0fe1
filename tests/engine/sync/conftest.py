"""Fixtures of the sync tests: a world of devices per test, and the servers of the
remote tests (one WsgiDAV with a password and one moto per module; each test works
in its own folder or prefix, `unique`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.engine.backup.conftest import dav_users
from tests.engine.remote.conftest import s3_endpoint, unique
from tests.engine.sync.sync_world import Clock, SyncWorld
from tests.support.memory_keyring import MemoryKeyring

__all__ = ["dav_users", "make_world", "s3_endpoint", "unique", "world"]


@pytest.fixture
def make_world(tmp_path: Path, memory_keyring: MemoryKeyring) -> Iterator[Callable[..., SyncWorld]]:
    """Makes worlds (each with its own loop and clock); closes them all at the end."""
    made: list[SyncWorld] = []

    def make(clock: Clock | None = None) -> SyncWorld:
        made_world = SyncWorld(tmp_path / f"world-{len(made)}", clock)
        made.append(made_world)
        return made_world

    yield make
    for made_world in made:
        made_world.close()


@pytest.fixture
def world(make_world: Callable[..., SyncWorld]) -> SyncWorld:
    return make_world()
