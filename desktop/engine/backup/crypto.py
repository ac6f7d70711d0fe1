"""A backup's encryption: a key of its own, locked with the passphrase, and age.

File layout (all integers big-endian):

    b"parley-backup 1\\n"              the format, readable without any key
    u32 length + that many bytes      the key block: a fresh age X25519 identity
                                      ("AGE-SECRET-KEY-1..."), age-encrypted with the
                                      passphrase (age's scrypt recipient)
    the rest                          the payload: an age stream encrypted to that
                                      identity's recipient (a tar, see archive.py)

Why two layers: scrypt is deliberately slow (about 2 s on a modest laptop, tuned by
age to the computer), so it runs once on a few hundred bytes; a wrong passphrase fails
there, before anything else is read. The payload is age's STREAM construction: every
64 KiB chunk is authenticated, and the last one is marked as last, so a flipped byte, a
truncation or appended bytes anywhere fail the decryption. Swapping in the key block of
another backup yields an identity the payload was not encrypted to, which age refuses
too. Both parts are standard age files: given the passphrase, the `age` command-line
tool opens the key block, and with the identity it prints, the payload.

Measured with pyrage 1.4 (the Python binding of the audited `rage` implementation):
`encrypt_io` and `decrypt_io` stream, reading and writing 64 KiB chunks through the
Python file objects they are given (300 MiB through them peaked at 13 MB resident,
at about 1 GiB/s), so the payload never has to be in memory or on disk in clear; only
the passphrase API (`pyrage.passphrase`) works on bytes in memory, which is why it
locks just the small key. pyrage offers no way to lower scrypt's cost, so tests pay it.
Failures come back as `pyrage.DecryptError` for the header ("Decryption failed", "No
matching keys found", "Header is invalid") and as a bare `OSError("decryption error")`
for a payload chunk that fails its check or a stream that ends early; an exception
raised by our own reader or writer passes through unchanged.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO, Final

import pyrage
from pyrage import x25519

from desktop.core.i18n import tr
from desktop.engine.backup.errors import (
    BackupError,
    format_too_new,
    not_a_backup,
    tampered,
    too_costly,
    wrong_passphrase,
)

MAGIC_PREFIX: Final = b"parley-backup "
FORMAT: Final = 1
MAGIC: Final = MAGIC_PREFIX + str(FORMAT).encode() + b"\n"
AGE_PREFIX: Final = b"age-encryption.org/v1\n"
MAX_KEY_BLOCK: Final = 16 * 1024  # a scrypt-locked identity is about 300 bytes
_LENGTH: Final = struct.Struct(">I")
_MAX_MAGIC_LINE: Final = 32

MIN_PASSPHRASE_CHARS: Final = 8
_MIN_DISTINCT_CHARS: Final = 4


def passphrase_problem(passphrase: str) -> str | None:
    """Why `passphrase` is too weak to lock new backups with, or None when it will do.

    Only what can be checked without a word list: length and variety. A backup may sit
    on a server for years; the passphrase is all that protects it.
    """
    if not passphrase.strip():
        return tr("Enter a passphrase.")
    if len(passphrase) < MIN_PASSPHRASE_CHARS:
        return tr(
            "A passphrase needs at least {count} characters; a few unrelated words are "
            "easy to remember and hard to guess."
        ).format(count=MIN_PASSPHRASE_CHARS)
    if len(set(passphrase)) < _MIN_DISTINCT_CHARS:
        return tr(
            "This passphrase repeats too few different characters to be hard to guess; "
            "try a few unrelated words."
        )
    return None


def new_identity() -> x25519.Identity:
    return x25519.Identity.generate()


def key_block(identity: x25519.Identity, passphrase: str) -> bytes:
    """The header a backup starts with: magic line, length, the locked identity."""
    locked = bytes(pyrage.passphrase.encrypt(f"{identity}\n".encode("ascii"), passphrase))
    return MAGIC + _LENGTH.pack(len(locked)) + locked


def read_key_block(handle: BinaryIO, path: Path) -> bytes:
    """The locked identity of the backup open in `handle`, leaving `handle` at the
    start of the payload. Raises `BackupError` NOT_A_BACKUP, TOO_NEW or TAMPERED;
    `OSError` when the file cannot be read."""
    line = handle.readline(_MAX_MAGIC_LINE)
    if line != MAGIC:
        if line.startswith(MAGIC_PREFIX) and line.endswith(b"\n"):
            version = line[len(MAGIC_PREFIX) : -1]
            if version.isdigit() and int(version) > FORMAT:
                raise format_too_new(int(version))
        raise not_a_backup(path)
    length_bytes = handle.read(_LENGTH.size)
    if len(length_bytes) < _LENGTH.size:
        raise tampered(tr("it ends before its key"))
    (length,) = _LENGTH.unpack(length_bytes)
    if not 0 < length <= MAX_KEY_BLOCK:
        raise tampered(tr("its key has an impossible size"))
    block = handle.read(length)
    if len(block) < length:
        raise tampered(tr("it ends inside its key"))
    if not block.startswith(AGE_PREFIX):
        raise tampered(tr("its key is not in the age format"))
    return block


def unlock_identity(block: bytes, passphrase: str) -> x25519.Identity:
    """The identity in a key block; raises `BackupError` WRONG_PASSPHRASE or TAMPERED.

    age cannot tell a wrong passphrase from a changed key header (the header's MAC is
    keyed by the passphrase), so both read as a wrong passphrase; once the header
    checks out, a failure of the body means the block itself was changed.
    """
    try:
        plain = bytes(pyrage.passphrase.decrypt(block, passphrase))
    except pyrage.DecryptError as exc:
        reason = str(exc)
        if reason == "Decryption failed":
            raise wrong_passphrase() from exc
        if "work" in reason.lower():  # age refuses scrypt costs far above this computer's
            raise too_costly(reason) from exc
        raise tampered(tr("its key does not pass its check")) from exc
    except OSError as exc:  # a body chunk failed its check, or ended early
        raise tampered(tr("its key does not pass its check")) from exc
    try:
        return x25519.Identity.from_str(plain.decode("ascii").strip())
    except (UnicodeDecodeError, pyrage.IdentityError) as exc:
        raise tampered(tr("its key is not a key")) from exc


def payload_failure(exc: BaseException) -> BackupError:
    """What a failure of `pyrage.decrypt_io` on the payload means for a person."""
    reason = str(exc)
    if reason == "No matching keys found":
        detail = tr("its contents were not encrypted with its key")
    elif isinstance(exc, pyrage.DecryptError):
        detail = tr("its encryption header does not pass its check")
    else:
        detail = tr("its encrypted contents do not pass their check, or end early")
    return tampered(detail)
