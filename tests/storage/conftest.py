"""Fixtures for storage tests: real SQLite files in tmp_path and a swappable keyring."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from tests.support.step_clock import StepClock


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "parley.db"


@pytest.fixture
def db(db_path: Path) -> Iterator[Database]:
    database = Database.open(db_path)
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def clock() -> StepClock:
    return StepClock()


@pytest.fixture
def repo(db: Database, clock: StepClock) -> ChatRepository:
    return ChatRepository(db, clock=clock)
