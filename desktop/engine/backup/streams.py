"""age on one side of a pipe, tar on the other: a backup in bounded memory.

pyrage's `encrypt_io` pulls plaintext from a reader and `decrypt_io` pushes plaintext
into a writer, while Python's tarfile pushes what it writes and pulls what it reads.
An OS pipe joins the two without holding the archive anywhere: age runs in a helper
thread, and tar in the caller's thread, so progress and cancel callbacks are called
where the caller called from. Either side failing closes its end of the pipe, which
makes the other side fail or finish at once instead of waiting forever.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import sys
import threading
from typing import BinaryIO, Final

import pyrage
from pyrage import x25519

CHUNK: Final = 1024 * 1024
_PIPE_BYTES: Final = 1024 * 1024  # fewer thread switches than the default 64 KiB


class RecordingFile(io.RawIOBase):
    """Passes reads and writes on to `inner`, remembering the first OSError: pyrage
    reports a failing writer as an `EncryptError` carrying only its text, and the
    errno decides between "the disk is full" and other failures."""

    def __init__(self, inner: BinaryIO) -> None:
        super().__init__()
        self._inner = inner
        self.error: OSError | None = None

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        try:
            data = self._inner.read(len(buffer))
        except OSError as exc:
            self.error = self.error or exc
            raise
        buffer[: len(data)] = data
        return len(data)

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        try:
            self._inner.write(data)
        except OSError as exc:
            self.error = self.error or exc
            raise
        return len(data)

    def flush(self) -> None:
        try:
            self._inner.flush()
        except OSError as exc:
            self.error = self.error or exc
            raise


def _pipe() -> tuple[BinaryIO, BinaryIO]:
    read_fd, write_fd = os.pipe()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):  # a per-user pipe limit may refuse it
            fcntl.fcntl(write_fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
    return open(read_fd, "rb"), open(write_fd, "wb")


class Encryptor:
    """Encrypts what is written to `plain` into `sink`, in a helper thread."""

    def __init__(self, sink: io.RawIOBase | BinaryIO, recipient: x25519.Recipient) -> None:
        reader, self.plain = _pipe()
        self._error: BaseException | None = None

        def run() -> None:
            try:
                pyrage.encrypt_io(reader, sink, [recipient])
            except BaseException as exc:
                self._error = exc
            finally:
                reader.close()  # a writer still writing now fails instead of blocking

        self._thread = threading.Thread(target=run, name="backup-encrypt", daemon=True)
        self._thread.start()

    def finish(self) -> None:
        """End the plaintext and wait for the last chunk; raises what age raised."""
        try:
            self.plain.close()
        finally:
            self._thread.join()
        if self._error is not None:
            raise self._error

    def abandon(self) -> BaseException | None:
        """Stop after a failure on the plaintext side; returns the encryptor's own
        error, if it failed first (a full disk shows up as a broken pipe here)."""
        with contextlib.suppress(OSError):
            self.plain.close()
        self._thread.join()
        return self._error


class Decryptor:
    """Decrypts `source` in a helper thread; the plaintext is read from `plain`."""

    def __init__(self, source: io.RawIOBase | BinaryIO, identity: x25519.Identity) -> None:
        self.plain, writer = _pipe()
        self._error: BaseException | None = None

        def run() -> None:
            try:
                pyrage.decrypt_io(source, writer, [identity])
            except BaseException as exc:
                self._error = exc
            finally:
                with contextlib.suppress(OSError):  # the reader may be gone already
                    writer.close()

        self._thread = threading.Thread(target=run, name="backup-decrypt", daemon=True)
        self._thread.start()

    def finish(self) -> None:
        """Read what is left and wait: raises unless the whole stream, up to its
        marked last chunk, passed age's check."""
        try:
            while self.plain.read(CHUNK):
                pass
        finally:
            self.abandon()
        if self._error is not None:
            raise self._error

    def abandon(self) -> BaseException | None:
        """Stop reading; returns the decryption's failure if it had one of its own (not
        the broken pipe that stopping causes)."""
        with contextlib.suppress(OSError):
            self.plain.close()
        self._thread.join()
        if isinstance(self._error, BrokenPipeError):
            return None
        return self._error
