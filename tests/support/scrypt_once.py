"""age's scrypt, paid once per passphrase and test process in the backup tests.

A backup locks a key of its own with the passphrase (age's scrypt recipient) and
opening one unlocks that key again: each costs about a second on an idle computer and
several on a loaded one, and pyrage offers no way to lower scrypt's cost. Most backup
tests are about something else (what a backup holds, what a failure leaves behind),
yet they write and open a few backups each, so scrypt was most of their time: five
minutes on one core, two and a half of the suite's wall time on two. The sync tests
settle this by locking their vault once per process (`tests/engine/sync/sync_world.py`);
this does the same for backups.

While `ScryptOnce` is installed (the `scrypt_once` fixture), deriving a key is a
genuine re-use of the same real operation:

- the key the backup writer makes for each backup (`archive.new_identity`) is one real
  age key per test process, so locking it with a passphrase is the same operation
  every time: the first backup of a process runs scrypt, the next reuse its block;
- `pyrage.passphrase.encrypt` and `decrypt` remember what they returned for the same
  bytes and passphrase. Only successes are remembered: a wrong passphrase or a changed
  key block runs the real scrypt, and fails in it, every time.

Everything of Parley's own (`key_block`, `unlock_identity` and the way it tells a wrong
passphrase from a tampered block, the archive, the service, the views) runs as shipped.
A test that needs backups with keys of their own, or that checks the whole passphrase
path with nothing remembered, pays scrypt inside `paying_scrypt()` (the `real_scrypt`
fixture).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pyrage
import pytest
from pyrage import x25519

from desktop.engine.backup import archive
from desktop.engine.backup.crypto import new_identity

__all__ = ["ScryptOnce", "paying_scrypt"]

_Crypt = Callable[[bytes, str], bytes]

# Per process, like `_locked_vault` in the sync tests: (bytes, passphrase) -> result.
_locked: dict[tuple[bytes, str], bytes] = {}
_unlocked: dict[tuple[bytes, str], bytes] = {}
_paying = [0]  # how many `paying_scrypt()` blocks are open


@functools.cache
def _process_identity() -> x25519.Identity:
    """The one backup key of this test process: a real, freshly generated age key."""
    return new_identity()


@contextmanager
def paying_scrypt() -> Iterator[None]:
    """Inside, nothing is remembered or reused: each backup gets a key of its own and
    every lock and unlock runs scrypt, as in the shipped app."""
    _paying[0] += 1
    try:
        yield
    finally:
        _paying[0] -= 1


class ScryptOnce:
    """Installs the re-use described above on `monkeypatch`; undone with it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._encrypt: _Crypt = pyrage.passphrase.encrypt
        self._decrypt: _Crypt = pyrage.passphrase.decrypt
        self._new_identity: Callable[[], x25519.Identity] = archive.new_identity
        monkeypatch.setattr(pyrage.passphrase, "encrypt", self.encrypt)
        monkeypatch.setattr(pyrage.passphrase, "decrypt", self.decrypt)
        monkeypatch.setattr(archive, "new_identity", self.new_identity)

    def new_identity(self) -> x25519.Identity:
        return self._new_identity() if _paying[0] else _process_identity()

    def encrypt(self, plaintext: bytes, passphrase: str) -> bytes:
        return self._remembered(_locked, self._encrypt, plaintext, passphrase)

    def decrypt(self, ciphertext: bytes, passphrase: str) -> bytes:
        return self._remembered(_unlocked, self._decrypt, ciphertext, passphrase)

    @staticmethod
    def _remembered(
        memory: dict[tuple[bytes, str], bytes], real: _Crypt, data: bytes, passphrase: str
    ) -> bytes:
        """`real(data, passphrase)`, run once per process for the same arguments; an
        exception is raised again by a real run each time, never remembered."""
        if _paying[0]:
            return real(data, passphrase)
        key = (bytes(data), passphrase)
        if key not in memory:
            memory[key] = real(data, passphrase)
        return memory[key]
