"""The SQLAlchemy engine for one SQLite file, and the two kinds of transaction we use.

Every pooled connection gets the same PRAGMAs (WAL, NORMAL sync, foreign keys, a busy
timeout) from a "connect" listener, because SQLite settings live per connection.

Python's sqlite3 module (before 3.12's `autocommit`) only emits BEGIN before INSERT /
UPDATE / DELETE, so DDL and SELECTs would run outside any transaction: a failed
migration could leave half a schema behind. Following the SQLAlchemy SQLite docs
("Enabling Non-Legacy SQLite Transactional Modes") we switch the driver's own
transaction handling off and emit BEGIN ourselves from the "begin" event.

Writes use `BEGIN IMMEDIATE`: it takes the write lock up front (waiting up to the busy
timeout), so two app instances never fail with SQLITE_BUSY half-way through a
read-then-write transaction. Reads use a plain deferred BEGIN and never block writers.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError

from desktop.storage.short_index import register_sql_functions

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
_BEGIN_OPTION = "parley_begin"
_BEGIN_MODES = frozenset({"DEFERRED", "IMMEDIATE"})
_PRAGMAS = (
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    code: int | None = getattr(exc, "sqlite_errorcode", None)
    if code is None:  # very old SQLite bindings: fall back to the message
        return "locked" in str(exc)
    return code & 0xFF == sqlite3.SQLITE_BUSY


def _enable_wal(cursor: sqlite3.Cursor) -> str:
    """Switch the file to WAL (a persistent, per-file setting) unless it already is.

    While two instances create the same new file, SQLite may answer the switch with
    SQLITE_BUSY *without* calling the busy handler, so we retry until the timeout.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            mode = str(cursor.execute("PRAGMA journal_mode").fetchone()[0])
            if mode.lower() != "wal":
                mode = str(cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0])
            return mode.lower()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def _on_connect(dbapi_connection: Any, _connection_record: Any) -> None:
    # Stop the sqlite3 module from issuing BEGIN/COMMIT on its own (see module doc).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        # busy_timeout first: everything after it may have to wait for another instance.
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        mode = _enable_wal(cursor)
        if mode != "wal":
            # Some network file systems cannot do WAL; keep working, but say so.
            log.warning("SQLite refused WAL mode (journal_mode=%s)", mode)
        for pragma in _PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()
    # The search index's triggers call it (migration step 3).
    register_sql_functions(dbapi_connection)


def _on_begin(conn: Connection) -> None:
    mode = conn.get_execution_options().get(_BEGIN_OPTION, "DEFERRED")
    if mode not in _BEGIN_MODES:
        raise ValueError(f"unknown BEGIN mode {mode!r}")
    conn.exec_driver_sql(f"BEGIN {mode}")


def create_sqlite_engine(path: Path) -> Engine:
    """An engine on `path` with Parley's PRAGMAs. Opens no connection by itself."""
    # hide_parameters: errors and logs must not quote the person's messages.
    engine = create_engine(URL.create("sqlite+pysqlite", database=str(path)), hide_parameters=True)
    event.listen(engine, "connect", _on_connect)
    event.listen(engine, "begin", _on_begin)
    return engine


@contextmanager
def read_transaction(engine: Engine) -> Iterator[Connection]:
    """A consistent snapshot for several SELECTs; rolled back (nothing to keep) at exit."""
    with engine.connect() as conn, conn.begin():
        yield conn


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """`BEGIN IMMEDIATE` ... COMMIT, or ROLLBACK if the block raises."""
    with engine.connect() as conn:
        conn.execution_options(**{_BEGIN_OPTION: "IMMEDIATE"})
        with conn.begin():
            yield conn


def driver_connection(connection: Connection) -> sqlite3.Connection:
    """The sqlite3 connection under `connection`, in the same transaction: for hot
    paths, where SQLAlchemy's own work for each statement costs more than SQLite's."""
    driver = connection.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    return driver


def driver_rows(
    connection: Connection,
    statement: str,
    parameters: Mapping[str, Any] | Sequence[Any] = (),
) -> list[Any]:
    """Every row of `statement`, run on the sqlite3 connection under `connection` (in
    its transaction), without SQLAlchemy's 0.05-0.1 ms a statement. A failure is
    raised as `connection.execute` would raise it (SQLAlchemy's `DBAPIError` kinds),
    so callers handle one kind of database error."""
    try:
        return driver_connection(connection).execute(statement, parameters).fetchall()
    except sqlite3.Error as error:
        raise DBAPIError.instance(
            statement, None, error, sqlite3.Error, hide_parameters=True
        ) from error
