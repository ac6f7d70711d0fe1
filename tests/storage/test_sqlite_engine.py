"""Statements run on the sqlite3 connection under a SQLAlchemy transaction."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError, OperationalError

from desktop.storage.sqlite_engine import (
    create_sqlite_engine,
    driver_rows,
    read_transaction,
    write_transaction,
)


def test_driver_rows_run_in_the_transaction_and_fail_as_sqlalchemy_does(tmp_path: Path):
    engine = create_sqlite_engine(tmp_path / "x.db")
    try:
        with write_transaction(engine) as connection:
            connection.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, word TEXT)"))
            connection.execute(text("INSERT INTO t VALUES (1, 'zebra'), (2, 'quagga')"))
            # The row written above is seen: the same connection, the same transaction.
            rows = driver_rows(connection, "SELECT word FROM t WHERE id > :low", {"low": 1})
            assert rows == [("quagga",)]
            with pytest.raises(IntegrityError) as raised:
                driver_rows(connection, "INSERT INTO t VALUES (?, ?)", (1, "secret"))
            assert "secret" not in str(raised.value)  # parameters are never quoted
        with read_transaction(engine) as connection:
            with pytest.raises(OperationalError, match="no such table"):
                driver_rows(connection, "SELECT * FROM missing")
            assert driver_rows(connection, "SELECT count(*) FROM t") == [(2,)]
    finally:
        engine.dispose()
