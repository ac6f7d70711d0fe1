"""`AttachmentStore`: attached files kept as content-addressed copies, plus their rows.

Why content-addressed: the conversation must keep working after the original file moves
or is deleted (SPEC section 7), and the same file sent twice should cost its bytes once.
A blob is named after its sha256 and an extension (`<root>/<sha[:2]>/<sha><ext>`); the
extension is part of the key so the OS opens a copy with the right program. A document's
extracted text sits beside its blob as `<sha><ext>.txt` (`<sha>._.txt` for a blob with
no extension), so a regenerate does not parse the file again.

Why writes look the way they do: a crash, a full disk or a file that vanishes mid-read
must never leave a half-written blob under a real name, nor a row whose blob is missing.
So bytes are streamed into `<root>/tmp/`, hashed on the way, fsynced and renamed into
place, and the row is inserted only after the rename. Blobs are made read-only: a hard
link handed to the OS for opening shares the blob's inode, and an editor saving in place
would otherwise change stored content under its hash.

Why a lock: garbage collection runs in a worker thread while the app attaches files. A
blob that already exists is reused without being rewritten, so without coordination the
collector could delete it between "no row uses this" and the new row's insert. The lock
covers "place blob + insert row" and, per file, the collector's "re-check + delete".
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import hashlib
import logging
import os
import re
import sqlite3
import stat
import sys
import tempfile
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Final, TypeVar

from sqlalchemy import Connection, Engine, insert, select, text, update
from sqlalchemy.exc import SQLAlchemyError

from desktop.core.attachments import Attachment, AttachmentError, AttachmentKind
from desktop.core.i18n import tr
from desktop.core.models import new_id, utc_now
from desktop.storage.errors import StorageError
from desktop.storage.mapping import (
    attachment_from_row,
    attachment_to_row,
    to_epoch_ms,
    truncate_to_ms,
)
from desktop.storage.sqlite_engine import read_transaction, write_transaction
from desktop.storage.tables import attachments

log = logging.getLogger(__name__)

CHUNK_BYTES: Final = 1024 * 1024
TEMP_MAX_AGE: Final = timedelta(hours=1)
TEXT_SUFFIX: Final = ".txt"
# Stands in for an empty extension in a text file's name: `<sha>.txt` is already the
# name of a `.txt` document's blob with the same bytes, and "_" is never an extension.
_NO_EXT_MARK: Final = "._"
MAX_SAFE_NAME_CHARS: Final = 120
_MAX_SAFE_NAME_BYTES: Final = 200  # well under the 255-byte limit of common file systems
_MAX_DOC_SUFFIX_CHARS: Final = 10
_IMAGE_EXTENSIONS: Final = {"image/png": ".png", "image/jpeg": ".jpg", "image/webp": ".webp"}
_WINDOWS_FORBIDDEN: Final = re.compile(r'[<>:"/\\|?*]')
_MAX_SUFFIX: Final = 16  # characters of a file name's suffix, its dot included
_WINDOWS_RESERVED: Final = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
    | {f"{stem}{n}" for stem in ("COM", "LPT") for n in (*range(1, 10), "¹", "²", "³")}
)
_GET_MANY_BATCH: Final = 500
_READ_ONLY: Final = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH

# Every attachment id that some message refers to: the ids a user message was sent with
# (`context.attachment_ids`), the copy of its workspace file
# (`context.workspace_snapshot_id`) and those a part lists (a tool call's images).
# Every part is looked at, not only tool calls, so a future kind of part that lists
# files keeps them alive too: keeping a file too long costs disk, dropping one loses it.
# NULLs are left out because one NULL would make every `NOT IN` unknown, keeping all.
# The CASEs guard json_each, which raises on text that is not JSON (old or damaged rows
# must not stop collection) and on a part that is not an object. The instr() test skips
# parsing the parts of messages that cannot list a file (most of them): measured on
# 100,000 messages, 0.32 s without it, 0.17 s with it.
_REFERENCED_IDS_SQL: Final = """
    SELECT ids.value FROM messages AS m,
        json_each(
            CASE WHEN json_valid(m.context) THEN m.context ELSE '{}' END,
            '$.attachment_ids'
        ) AS ids
    WHERE ids.value IS NOT NULL
    UNION
    SELECT ids.value FROM messages AS m,
        json_each(
            CASE WHEN instr(m.parts, 'attachment_ids') > 0 AND json_valid(m.parts)
            THEN m.parts ELSE '[]' END
        ) AS part,
        json_each(
            CASE WHEN part.type = 'object' THEN part.value ELSE '{}' END,
            '$.attachment_ids'
        ) AS ids
    WHERE ids.value IS NOT NULL
    UNION
    SELECT json_extract(
        CASE WHEN json_valid(m.context) THEN m.context ELSE '{}' END,
        '$.workspace_snapshot_id'
    ) AS snapshot FROM messages AS m
    WHERE snapshot IS NOT NULL
"""

_UNREFERENCED: Final = f"created_at < :cutoff AND id NOT IN ({_REFERENCED_IDS_SQL})"
_ANY_UNREFERENCED_SQL: Final = f"SELECT EXISTS (SELECT 1 FROM attachments WHERE {_UNREFERENCED})"
_DELETE_UNREFERENCED_SQL: Final = f"DELETE FROM attachments WHERE {_UNREFERENCED} RETURNING id"

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class GarbageReport:
    """What one `collect_garbage` run removed; `bytes_freed` counts only space the file
    system actually got back (a removed hard link whose blob stays frees nothing)."""

    rows_removed: int = 0
    files_removed: int = 0
    bytes_freed: int = 0


class AttachmentStore:
    """Content-addressed attachment files under `root` and their `attachments` rows.

    Synchronous and blocking on purpose: callers run it in a worker thread
    (`asyncio.to_thread`), never on the GUI thread. Safe to use from several threads.
    """

    def __init__(self, root: Path, engine: Engine):
        self._root = Path(root)
        self._engine = engine
        self._lock = threading.Lock()

    @property
    def root(self) -> Path:
        return self._root

    # --- adding ---------------------------------------------------------------------

    def put_file(
        self,
        source: Path,
        *,
        name: str,
        mime: str,
        kind: AttachmentKind,
        width: int | None = None,
        height: int | None = None,
    ) -> Attachment:
        """Copy `source` into the store and record it; the original may go away after.

        Raises `AttachmentError` naming `name` if the source cannot be read or the copy
        cannot be written; nothing is left behind then.
        """
        try:
            handle = open(source, "rb")  # noqa: SIM115 - the with below closes it
        except OSError as exc:
            raise AttachmentError(name, _read_problem(exc)) from exc
        with handle:
            # A pipe or a device (/dev/zero) would stream without end.
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise AttachmentError(name, tr("this is not a regular file"))
            return self._put(_chunks_of(handle), name, mime, kind, width, height)

    def put_bytes(
        self,
        data: bytes,
        *,
        name: str,
        mime: str,
        kind: AttachmentKind,
        width: int | None = None,
        height: int | None = None,
        attachment_id: str | None = None,
    ) -> Attachment:
        """Store in-memory bytes (a pasted image) the same way as a file.

        `attachment_id` gives the row a known id (an imported file's, derived from the
        export, so importing it again finds it); a new random one otherwise."""
        view = memoryview(data)
        chunks = (view[i : i + CHUNK_BYTES] for i in range(0, len(view), CHUNK_BYTES))
        return self._put(chunks, name, mime, kind, width, height, attachment_id)

    def _put(
        self,
        chunks: Iterable[bytes | memoryview],
        name: str,
        mime: str,
        kind: AttachmentKind,
        width: int | None,
        height: int | None,
        attachment_id: str | None = None,
    ) -> Attachment:
        ext = blob_extension(kind, mime, name)
        temp, sha256, size = self._write_temp(chunks, name)
        attachment = Attachment(
            id=attachment_id or new_id(),
            sha256=sha256,
            name=name,
            mime=mime,
            size=size,
            kind=kind,
            created_at=truncate_to_ms(utc_now()),
            width=width,
            height=height,
        )
        blob = self._blob_path(sha256, ext)
        with self._lock:
            created = self._place(temp, blob, name)
            try:
                self._write_db(
                    name,
                    lambda conn: conn.execute(insert(attachments), attachment_to_row(attachment)),
                )
            except AttachmentError:
                if created:  # under the lock, so no other row can have started using it
                    _remove(blob)
                raise
        return attachment

    def _write_temp(self, chunks: Iterable[bytes | memoryview], name: str) -> tuple[Path, str, int]:
        """Stream into a new temp file while hashing; returns (temp, sha256, size)."""
        digest, size = hashlib.sha256(), 0

        def hashed() -> Iterator[bytes | memoryview]:
            nonlocal size
            for chunk in chunks:
                digest.update(chunk)
                size += len(chunk)
                yield chunk

        temp = self._write_temp_from(hashed(), name)
        return temp, digest.hexdigest(), size

    def _write_temp_from(self, chunks: Iterable[bytes | memoryview], name: str) -> Path:
        """Write to a fresh file in `<root>/tmp/`, fsynced and read-only; removed on error."""
        temp_dir = self._root / "tmp"
        try:
            temp_dir.mkdir(parents=True, exist_ok=True)
            fd, temp_name = tempfile.mkstemp(dir=temp_dir, prefix="part-")
        except OSError as exc:
            raise AttachmentError(name, self._write_problem(exc)) from exc
        temp = Path(temp_name)
        try:
            try:
                for chunk in chunks:
                    _write_all(fd, chunk)
                os.fsync(fd)
            finally:
                os.close(fd)
            os.chmod(temp, _READ_ONLY)
        except _SourceReadError as exc:
            _remove(temp)
            raise AttachmentError(name, _read_problem(exc.error)) from exc.error
        except OSError as exc:
            _remove(temp)
            raise AttachmentError(name, self._write_problem(exc)) from exc
        except BaseException:
            _remove(temp)
            raise
        return temp

    def _place(self, temp: Path, final: Path, name: str) -> bool:
        """Rename `temp` to `final` unless an identical blob is there; True if renamed."""
        try:
            if final.exists():
                _remove(temp)
                return False
            final.parent.mkdir(parents=True, exist_ok=True)
            os.replace(temp, final)
            _fsync_dir(final.parent)
            return True
        except OSError as exc:
            _remove(temp)
            raise AttachmentError(name, self._write_problem(exc)) from exc

    # --- reading ----------------------------------------------------------------------

    def get(self, attachment_id: str) -> Attachment | None:
        found = self.get_many([attachment_id])
        return found[0] if found else None

    def get_many(self, ids: Sequence[str]) -> list[Attachment]:
        """The attachments in the order asked for; unknown ids are skipped."""
        unique = list(dict.fromkeys(ids))
        by_id: dict[str, Attachment] = {}
        with read_transaction(self._engine) as conn:
            for start in range(0, len(unique), _GET_MANY_BATCH):
                batch = unique[start : start + _GET_MANY_BATCH]
                query = select(attachments).where(attachments.c.id.in_(batch))
                by_id.update(
                    (row.id, attachment_from_row(row._mapping)) for row in conn.execute(query)
                )
        return [by_id[i] for i in ids if i in by_id]

    def blob_path(self, attachment: Attachment) -> Path:
        return self._blob_path(attachment.sha256, _extension_of(attachment))

    def read_bytes(self, attachment: Attachment) -> bytes:
        try:
            return self.blob_path(attachment).read_bytes()
        except OSError as exc:
            raise AttachmentError(attachment.name, _stored_copy_problem(exc)) from exc

    # --- extracted text ---------------------------------------------------------------

    def text_path(self, attachment: Attachment) -> Path:
        blob = self.blob_path(attachment)
        mark = "" if blob.suffix else _NO_EXT_MARK
        return blob.with_name(blob.name + mark + TEXT_SUFFIX)

    def save_text(self, attachment: Attachment, text: str, truncated: bool) -> Attachment:
        """Keep a document's extracted text beside its blob and note its size on the row."""
        name = attachment.name
        final = self.text_path(attachment)
        data = text.encode("utf-8")
        temp = self._write_temp_from([data], name)
        try:
            with self._lock:  # the collector removes empty shard folders under it
                final.parent.mkdir(parents=True, exist_ok=True)
                if final.exists():  # read-only, and Windows will not replace one in place
                    os.chmod(final, stat.S_IWUSR | _READ_ONLY)
                os.replace(temp, final)
            _fsync_dir(final.parent)
        except OSError as exc:
            _remove(temp)
            raise AttachmentError(name, self._write_problem(exc)) from exc
        updated = dataclasses.replace(attachment, text_chars=len(text), truncated=truncated)
        self._write_db(
            name,
            lambda conn: conn.execute(
                update(attachments)
                .where(attachments.c.id == attachment.id)
                .values(text_chars=updated.text_chars, truncated=truncated)
            ),
        )
        return updated

    def load_text(self, attachment: Attachment) -> str | None:
        """The saved extracted text, or None when there is none (never saved, or lost)."""
        try:
            return self.text_path(attachment).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            problem = (
                tr("its saved text is damaged")
                if isinstance(exc, UnicodeDecodeError)
                else _stored_copy_problem(exc)
            )
            raise AttachmentError(attachment.name, problem) from exc

    # --- opening ----------------------------------------------------------------------

    def open_copy(self, attachment: Attachment) -> Path:
        """The stored file under its original (sanitised) name, for the OS to open.

        A hard link costs no space; where links are not possible (some file systems,
        some Windows setups) a copy is made. Reused while it exists.
        """
        blob = self.blob_path(attachment)
        folder = self._root / "open" / attachment.id
        target = folder / safe_file_name(attachment.name)
        with self._lock:
            return self._open_copy_locked(attachment, blob, folder, target)

    def _open_copy_locked(
        self, attachment: Attachment, blob: Path, folder: Path, target: Path
    ) -> Path:
        try:
            if target.exists():
                os.utime(folder)  # still in use: keep it from the collector
                return target
            if not blob.exists():
                raise AttachmentError(attachment.name, _stored_copy_problem(None))
            folder.mkdir(parents=True, exist_ok=True)
            try:
                os.link(blob, target)
            except FileExistsError:
                pass
            except OSError:
                self._copy_into(blob, target, attachment.name)
        except AttachmentError:
            raise
        except OSError as exc:
            raise AttachmentError(attachment.name, self._write_problem(exc)) from exc
        return target

    def _copy_into(self, blob: Path, target: Path, name: str) -> None:
        with open(blob, "rb") as handle:
            temp = self._write_temp_from(_chunks_of(handle), name)
        try:
            os.replace(temp, target)
        except OSError:
            _remove(temp)
            raise

    # --- garbage collection -----------------------------------------------------------

    def collect_garbage(
        self, now: datetime | None = None, grace: timedelta = timedelta(days=1)
    ) -> GarbageReport:
        """Remove rows no message refers to, then files no row refers to.

        Rows younger than `grace` are kept: they are attachments waiting in a composer
        that has not sent yet. Safe to run in a worker thread while the app writes: the
        row deletion is one write transaction (the reference check and the delete see
        the same messages), and each file is re-checked under the store's lock.

        The reference check scans every message, so it first runs in a read transaction,
        which never blocks the app's writes; the write lock is taken only when there is
        something to delete (then for about as long again: ~0.2 s per 100,000 messages
        measured on 2 cores, well inside the app's 5 s busy timeout).
        """
        now = now or utc_now()
        params = {"cutoff": to_epoch_ms(now - grace)}
        try:
            with read_transaction(self._engine) as conn:
                any_unreferenced = conn.execute(text(_ANY_UNREFERENCED_SQL), params).scalar()
            removed_ids: list[str] = []
            if any_unreferenced:
                with write_transaction(self._engine) as conn:
                    result = conn.execute(text(_DELETE_UNREFERENCED_SQL), params)
                    removed_ids = [row[0] for row in result]
        except SQLAlchemyError as exc:
            detail = getattr(exc, "orig", None) or type(exc).__name__
            raise StorageError(
                tr("Could not clean up unused attachments ({detail})").format(detail=detail)
            ) from exc
        tally = _Tally(rows_removed=len(removed_ids))
        self._collect_blobs(tally)
        self._collect_temp(tally)
        self._collect_open_copies(now - grace, tally)
        return GarbageReport(tally.rows_removed, tally.files_removed, tally.bytes_freed)

    def _collect_blobs(self, tally: _Tally) -> None:
        """One read finds the candidates; each is re-checked under the lock before it
        goes, since a put may have started using it in the meantime."""
        with read_transaction(self._engine) as conn:
            in_use = {
                (row.sha256, _extension_of(attachment_from_row(row._mapping)))
                for row in conn.execute(select(attachments))
            }
        kept = self._kept_by_copies()
        for shard in _subdirs(self._root):
            if not _SHARD.fullmatch(shard.name):
                continue
            for entry in _files(shard):
                key = _blob_key(entry.name)
                if key is None or key in in_use or key[0] in kept:
                    continue
                sha256, ext = key
                with self._lock:
                    if ext not in self._extensions_in_use(sha256):
                        tally.remove(entry)
            with self._lock:  # a put creates shard folders under the lock too
                _remove_empty_dir(shard)

    def _kept_by_copies(self) -> set[str]:
        """The files named by the copies of the database kept before a restore replaced
        it (`<name>.pre-restore*.bak` beside it): a copy is only worth keeping with its
        attachments. A copy that cannot be read keeps nothing; it is not ours to judge."""
        database = self._engine.url.database
        if not database:
            return set()
        path = Path(database)
        kept: set[str] = set()
        for copy in sorted(path.parent.glob(f"{path.name}.pre-restore*.bak")):
            try:
                with contextlib.closing(
                    sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)
                ) as conn:
                    kept.update(row[0] for row in conn.execute("SELECT sha256 FROM attachments"))
            except sqlite3.Error as exc:
                log.warning("Could not read the attachments of %s: %s", copy.name, exc)
        return kept

    def _extensions_in_use(self, sha256: str) -> set[str]:
        with read_transaction(self._engine) as conn:
            rows = conn.execute(select(attachments).where(attachments.c.sha256 == sha256))
            return {_extension_of(attachment_from_row(row._mapping)) for row in rows}

    def _collect_temp(self, tally: _Tally) -> None:
        """Temp files are writes in flight (or left by a crash): judged by the wall
        clock, whatever `now` says about rows, so a running write never loses its file."""
        limit = time.time() - TEMP_MAX_AGE.total_seconds()
        for entry in _files(self._root / "tmp"):
            if _mtime(entry) < limit:
                tally.remove(entry)

    def _collect_open_copies(self, older_than: datetime, tally: _Tally) -> None:
        """Open copies are recreated on demand, so old or orphaned ones can go."""
        limit = older_than.timestamp()
        for folder in _subdirs(self._root / "open"):
            orphaned = self.get(folder.name) is None
            with self._lock:  # open_copy may be handing this very copy out
                if not orphaned and _mtime(folder) >= limit:
                    continue
                for entry in _files(folder):
                    tally.remove(entry)
                _remove_empty_dir(folder)

    # --- helpers ----------------------------------------------------------------------

    def _blob_path(self, sha256: str, ext: str) -> Path:
        return self._root / sha256[:2] / f"{sha256}{ext}"

    def _write_db(self, name: str, work: Callable[[Connection], _T]) -> _T:
        try:
            with write_transaction(self._engine) as conn:
                return work(conn)
        except SQLAlchemyError as exc:
            detail = getattr(exc, "orig", None) or type(exc).__name__
            raise AttachmentError(
                name, tr("could not be recorded in the database ({detail})").format(detail=detail)
            ) from exc

    def _write_problem(self, exc: OSError) -> str:
        code = exc.errno
        if code in (errno.ENOSPC, errno.EDQUOT):
            return tr("there is not enough free disk space to keep a copy of it")
        if code in (errno.EACCES, errno.EPERM):
            return tr("Parley is not allowed to write to its attachment folder {root}").format(
                root=self._root
            )
        if code == errno.EROFS:
            return tr("the attachment folder {root} is on a read-only disk").format(root=self._root)
        return tr("could not be copied into the attachment folder ({reason})").format(
            reason=_reason(exc)
        )


# --- module helpers -------------------------------------------------------------------


class _SourceReadError(Exception):
    """Carries a read failure of the source out of the write loop, so the two kinds of
    OSError (the original file vs the store) get different messages."""

    def __init__(self, error: OSError):
        super().__init__(str(error))
        self.error = error


def _chunks_of(handle: Any) -> Iterator[bytes]:
    while True:
        try:
            chunk = handle.read(CHUNK_BYTES)
        except OSError as exc:
            raise _SourceReadError(exc) from exc
        if not chunk:
            return
        yield chunk


def _write_all(fd: int, chunk: bytes | memoryview) -> None:
    view = memoryview(chunk)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(folder: Path) -> None:
    """Make a rename durable. Windows cannot open a directory for this; skipped there."""
    if sys.platform == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on directories; the rename still happened
    finally:
        os.close(fd)


def _remove(path: Path) -> bool:
    """Delete a file, clearing a read-only flag if the OS insists (Windows)."""
    try:
        path.unlink()
        return True
    except FileNotFoundError:
        return False
    except PermissionError:
        try:
            os.chmod(path, stat.S_IWUSR | _READ_ONLY)
            path.unlink()
            return True
        except OSError:
            return False
    except OSError:
        return False


def _remove_empty_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not empty (or already gone): nothing to do
        folder.rmdir()


def _subdirs(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.iterdir() if p.is_dir() and not p.is_symlink()]
    except OSError:
        return []


def _files(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.iterdir() if p.is_file() or p.is_symlink()]
    except OSError:
        return []


def _mtime(path: Path) -> float:
    try:
        return path.lstat().st_mtime
    except OSError:
        return time.time()  # vanished meanwhile: treat as fresh, i.e. leave it alone


@dataclass(slots=True)
class _Tally:
    rows_removed: int = 0
    files_removed: int = 0
    bytes_freed: int = 0

    def remove(self, path: Path) -> None:
        try:
            info = path.lstat()
        except OSError:
            return
        if _remove(path):
            self.files_removed += 1
            if info.st_nlink <= 1:
                self.bytes_freed += info.st_size


_SHA256_HEX: Final = re.compile(r"[0-9a-f]{64}")
_SHARD: Final = re.compile(r"[0-9a-f]{2}")


def _blob_key(file_name: str) -> tuple[str, str] | None:
    """(sha256, ext) of a blob or text file name; None for anything else."""
    sha256, rest = file_name[:64], file_name[64:]
    if not _SHA256_HEX.fullmatch(sha256):
        return None
    if rest.endswith(TEXT_SUFFIX):  # a text file, unless it is a `.txt` blob
        text_of = rest.removesuffix(TEXT_SUFFIX)
        if text_of == _NO_EXT_MARK:
            return sha256, ""
        if _is_short_suffix(text_of):
            return sha256, text_of
    if rest and not _is_short_suffix(rest):
        return None
    return sha256, rest


def _is_short_suffix(ext: str) -> bool:
    body = ext[1:]
    return (
        ext.startswith(".")
        and 0 < len(body) <= _MAX_DOC_SUFFIX_CHARS
        and body.isascii()
        and body.isalnum()
    )


def blob_extension(kind: AttachmentKind, mime: str, name: str) -> str:
    """The extension a blob is stored with, so the OS opens it with the right program.

    Images: from their (sniffed) type. Documents: the original suffix, lower-cased,
    when it is short and plain; otherwise none rather than something odd on disk.
    """
    if kind is AttachmentKind.IMAGE and mime in _IMAGE_EXTENSIONS:
        return _IMAGE_EXTENSIONS[mime]
    suffix = Path(name.replace("\\", "/")).suffix.lower()
    return suffix if _is_short_suffix(suffix) else ""


def _extension_of(attachment: Attachment) -> str:
    return blob_extension(attachment.kind, attachment.mime, attachment.name)


def safe_file_name(name: str) -> str:
    """`name` made safe to create on any OS, keeping it recognisable and its suffix.

    Path separators cannot escape the folder, a leading dot cannot hide the file, control
    characters and characters Windows forbids are replaced, Windows device names (CON,
    LPT1...) get a prefix, and the length is capped in characters and in UTF-8 bytes.
    """
    cleaned = unicodedata.normalize("NFC", name)
    cleaned = "".join(c for c in cleaned if unicodedata.category(c) != "Cc")
    cleaned = _WINDOWS_FORBIDDEN.sub("_", cleaned)
    cleaned = cleaned.strip().lstrip(".").strip()
    cleaned = cleaned.rstrip(". ")  # Windows drops trailing dots and spaces
    if not cleaned:
        cleaned = "attachment"
    stem, dot, suffix = cleaned.rpartition(".")
    if not dot or not stem:
        stem, suffix = cleaned, ""
    else:
        suffix = "." + suffix
        if not (len(suffix) <= _MAX_SUFFIX and suffix[1:].isalnum()):  # not a real suffix
            stem, suffix = cleaned, ""
    if stem.split(".")[0].rstrip(" ").upper() in _WINDOWS_RESERVED:
        stem = "_" + stem
    stem = _cap(
        stem, MAX_SAFE_NAME_CHARS - len(suffix), _MAX_SAFE_NAME_BYTES - len(suffix.encode())
    )
    return (stem.rstrip(". ") or "attachment") + suffix


def _cap(value: str, max_chars: int, max_bytes: int) -> str:
    value = value[:max_chars]
    while len(value.encode("utf-8")) > max_bytes:
        value = value[:-1]
    return value


def _reason(exc: OSError | None) -> str:
    if exc is None:
        return "missing"
    return exc.strerror or type(exc).__name__


def _read_problem(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return tr("the file could not be found (it may have been moved or deleted)")
    if isinstance(exc, PermissionError):
        return tr("Parley is not allowed to read this file")
    if isinstance(exc, IsADirectoryError):
        return tr("this is a folder, not a file")
    return tr("the file could not be read ({reason})").format(reason=_reason(exc))


def _stored_copy_problem(exc: OSError | None) -> str:
    if exc is None or isinstance(exc, FileNotFoundError):
        return tr("Parley's stored copy of this file is missing")
    return tr("Parley's stored copy of this file could not be read ({reason})").format(
        reason=_reason(exc)
    )
