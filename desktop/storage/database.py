"""`Database`: one SQLite file, opened, migrated and ready for repositories.

Synchronous on purpose: the engine calls it from the event loop, and single-row writes
in WAL mode take well under a millisecond, so a thread hop would cost more than it saves.
Two `Database` objects (two app instances) may share a file: WAL lets readers run
beside the single writer, and writers queue on the busy timeout.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import OperationalError

from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.storage.disk_space import disk_full_error, is_disk_full
from desktop.storage.errors import StorageError
from desktop.storage.migrations import ensure_not_newer, migrate
from desktop.storage.sqlite_engine import (
    create_sqlite_engine,
    read_transaction,
    write_transaction,
)


class Database:
    """An open, migrated database. Create it with `Database.open(path)`."""

    def __init__(self, engine: Engine, path: Path):
        self._engine = engine
        self._path = path

    @classmethod
    def open(cls, path: Path, on_upgrade: Callable[[], object] | None = None) -> Database:
        """Open (creating if needed) and migrate the database at `path`.

        The folder must exist: creating it is the caller's decision (see DataPaths).
        `on_upgrade` is called before an existing database's schema is upgraded.
        Raises `DatabaseTooNewError`, `MigrationError` or `StorageError`.
        """
        path = Path(path)
        ensure_not_newer(path)
        engine = create_sqlite_engine(path)
        try:
            migrate(engine, on_upgrade=on_upgrade)
        except OperationalError as exc:
            engine.dispose()
            if is_disk_full(exc, path):
                raise disk_full_error(
                    path,
                    tr("Parley could not open its database"),
                    tr(
                        "Free some space there and start Parley again; "
                        "your chats were left unchanged."
                    ),
                ) from exc
            raise StorageError(
                tr("Could not open the database {path}: {reason}").format(
                    path=path, reason=exc.orig
                )
            ) from exc
        except BaseException:
            engine.dispose()
            raise
        return cls(engine, path)

    @property
    def path(self) -> Path:
        return self._path

    @property
    def engine(self) -> Engine:
        return self._engine

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A consistent snapshot for several SELECTs."""
        with _storage_errors(self._path, "read"), read_transaction(self._engine) as conn:
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """One write transaction: committed when the block ends, rolled back if it raises."""
        with _storage_errors(self._path, "write"), write_transaction(self._engine) as conn:
            yield conn

    def close(self) -> None:
        """Close every pooled connection; the last one out checkpoints the WAL."""
        self._engine.dispose()

    def __enter__(self) -> Database:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


_FAILED = {
    "write": QT_TR_NOOP("Parley could not save to its database"),
    "read": QT_TR_NOOP("Parley could not read its database"),
}
_FAILED_BECAUSE = {
    "write": QT_TR_NOOP("Could not write the database {name}: {reason}"),
    "read": QT_TR_NOOP("Could not read the database {name}: {reason}"),
}


@contextmanager
def _storage_errors(path: Path, verb: str) -> Iterator[None]:
    """Turn SQLite's operational failures (locked, disk full, I/O) into a StorageError.

    Only the driver's own message is kept: SQLAlchemy's text would quote the statement
    parameters, i.e. the person's messages.
    """
    try:
        yield
    except OperationalError as exc:
        if is_disk_full(exc, path):
            raise disk_full_error(
                path,
                tr(_FAILED[verb]),
                tr("Free some space there and try again."),
            ) from exc
        raise StorageError(
            tr(_FAILED_BECAUSE[verb]).format(name=path.name, reason=exc.orig)
        ) from exc
