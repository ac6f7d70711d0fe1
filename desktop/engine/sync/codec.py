"""The objects in the storage, as bytes: names, encryption and the hash chain.

Layout under the target's folder (design E3):

    parley-sync/v1/vault.age                 the vault key, locked with the passphrase
    parley-sync/v1/check.age                 the vault's id, encrypted to the vault key
    parley-sync/v1/devices/<id>/seg-<n>.age  a device's n-th batch of changes
    parley-sync/v1/devices/<id>/head.age     its newest n and that segment's hash
    parley-sync/v1/blobs/<hmac>.age          attachment files

Every object but `vault.age` is age-encrypted to the vault's X25519 recipient, which
only devices holding the vault key know. Each object is written by one device only, so
two devices never race on one name. A segment's plaintext starts with a header naming
its device, its number and the hash of the device's previous segment; the head names
the hash of the newest. A storage that drops, swaps, replays or rolls back a segment
breaks that chain, which `open_segment` and `open_head` check. Device ids are random and
blob names are HMACs of the file's hash under a key from the vault key, so the names
say nothing about the person or their files.
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any, Final

import pyrage
from pyrage import x25519

from desktop.core.i18n import tr
from desktop.engine.sync.errors import SyncError, SyncProblem, too_new, wrong_secret

ROOT: Final = "parley-sync/v1"
VAULT: Final = f"{ROOT}/vault.age"
CHECK: Final = f"{ROOT}/check.age"
DEVICES: Final = f"{ROOT}/devices"
BLOBS: Final = f"{ROOT}/blobs"
FORMAT: Final = 1
# A segment holds at most this many records, so a first sync of a large history is
# many small uploads (each resumable) rather than one that must finish in one go.
RECORDS_PER_SEGMENT: Final = 2000
_MAX_PLAIN: Final = 512 * 1024 * 1024  # a segment larger than this is not Parley's
_DEVICE_ID_CHARS: Final = 16
_LATEST_MS: Final = 32_503_680_000_000  # the year 3000: a head's time past it is no time


class ChainError(Exception):
    """An object failed its check; the message says how (for `errors.tampered`)."""


def new_device_id() -> str:
    return secrets.token_hex(_DEVICE_ID_CHARS // 2)


def is_device_id(name: str) -> bool:
    """Whether a folder under devices/ can be a device's (anything else there, put by
    someone or something else, is passed over)."""
    return len(name) == _DEVICE_ID_CHARS and all(c in "0123456789abcdef" for c in name)


def new_vault_id() -> str:
    return secrets.token_hex(16)


def segment_name(device: str, n: int) -> str:
    return f"{DEVICES}/{device}/seg-{n}.age"


def head_name(device: str) -> str:
    return f"{DEVICES}/{device}/head.age"


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class Vault:
    vault_id: str
    identity: x25519.Identity

    @property
    def recipient(self) -> x25519.Recipient:
        return self.identity.to_public()

    @property
    def key_text(self) -> str:
        """The recovery key: age's own identity format, usable with the `age` tool."""
        return str(self.identity)

    def encrypt(self, plain: bytes) -> bytes:
        return bytes(pyrage.encrypt(plain, [self.recipient]))

    def decrypt(self, data: bytes) -> bytes:
        try:
            return bytes(pyrage.decrypt(data, [self.identity]))
        except (pyrage.DecryptError, OSError) as exc:
            raise ChainError(tr("it cannot be decrypted with the vault key")) from exc

    def blob_name(self, sha256: str) -> str:
        key = hashlib.sha256(b"parley-sync blob names\0" + self.key_text.encode()).digest()
        return f"{BLOBS}/{hmac.new(key, sha256.encode(), hashlib.sha256).hexdigest()}.age"


def new_vault() -> Vault:
    return Vault(new_vault_id(), x25519.Identity.generate())


def lock_vault(vault: Vault, passphrase: str) -> bytes:
    """`vault.age`: the key, readable with the passphrase (age's scrypt, about 2 s)."""
    plain = json.dumps({"format": FORMAT, "vault": vault.vault_id, "key": vault.key_text})
    return bytes(pyrage.passphrase.encrypt(plain.encode(), passphrase))


def unlock_vault(data: bytes, passphrase: str) -> Vault:
    try:
        plain = bytes(pyrage.passphrase.decrypt(data, passphrase))
    except (pyrage.DecryptError, OSError) as exc:
        raise wrong_secret() from exc
    body = _json_object(plain)
    return vault_from_parts(body.get("vault"), body.get("key"))


def check_object(vault: Vault) -> bytes:
    """`check.age`: proves a recovery key belongs to this vault."""
    return vault.encrypt(json.dumps({"format": FORMAT, "vault": vault.vault_id}).encode())


def vault_from_key(check: bytes, key_text: str) -> Vault:
    """The vault a recovery key opens, checked against `check.age`."""
    key_text = "".join(key_text.split())  # pasted across lines, or with spaces
    try:
        identity = x25519.Identity.from_str(key_text)
    except pyrage.IdentityError as exc:
        raise wrong_secret() from exc
    try:
        plain = bytes(pyrage.decrypt(check, [identity]))
    except (pyrage.DecryptError, OSError) as exc:
        raise wrong_secret() from exc
    body = _json_object(plain)
    return vault_from_parts(body.get("vault"), key_text)


def vault_from_parts(vault_id: Any, key: Any) -> Vault:
    if not isinstance(vault_id, str) or not isinstance(key, str):
        raise SyncError(SyncProblem.TAMPERED, tr("The vault's key file is damaged."))
    try:
        return Vault(vault_id, x25519.Identity.from_str(key))
    except pyrage.IdentityError as exc:
        raise SyncError(SyncProblem.TAMPERED, tr("The vault's key file is damaged.")) from exc


def _json_object(plain: bytes) -> dict[str, Any]:
    try:
        body = json.loads(plain)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SyncError(SyncProblem.TAMPERED, tr("The vault's key file is damaged.")) from exc
    if not isinstance(body, dict):
        raise SyncError(SyncProblem.TAMPERED, tr("The vault's key file is damaged."))
    if isinstance(body.get("format"), int) and body["format"] > FORMAT:
        raise too_new()
    return body


# --- segments and heads -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Head:
    device: str
    n: int
    hash: str
    name: str
    at: int  # epoch ms of the segment's writing


def seal_segment(
    vault: Vault,
    device: str,
    n: int,
    previous_hash: str,
    name: str,
    at_ms: int,
    records: list[dict[str, Any]],
) -> bytes:
    header = {"format": FORMAT, "device": device, "n": n, "prev": previous_hash, "name": name}
    header["at"] = at_ms
    lines = [json.dumps(header, separators=(",", ":"))]
    lines.extend(json.dumps(r, separators=(",", ":"), ensure_ascii=False) for r in records)
    plain = gzip.compress("\n".join(lines).encode("utf-8"), compresslevel=6)
    return vault.encrypt(plain)


def open_segment(
    vault: Vault, data: bytes, device: str, n: int, previous_hash: str
) -> list[dict[str, Any]]:
    """The records of `device`'s segment `n`, after checking it is that segment and
    follows the one hashed `previous_hash`; ChainError otherwise."""
    packed = vault.decrypt(data)
    try:
        text = gzip.decompress(packed)
        if len(text) > _MAX_PLAIN:
            raise ChainError(tr("it is larger than any segment Parley writes"))
        lines = text.decode("utf-8").split("\n")
        header = json.loads(lines[0])
        records = [json.loads(line) for line in lines[1:] if line]
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ChainError(tr("its contents cannot be read")) from exc
    if not isinstance(header, dict) or not all(isinstance(r, dict) for r in records):
        raise ChainError(tr("its contents cannot be read"))
    if isinstance(header.get("format"), int) and header["format"] > FORMAT:
        raise too_new()
    if header.get("device") != device or header.get("n") != n:
        raise ChainError(
            tr(
                "segment {n} holds another segment ({other}): segments were swapped or replayed"
            ).format(n=n, other=header.get("n"))
        )
    if header.get("prev") != previous_hash:
        raise ChainError(
            tr(
                "segment {n} does not follow the one before it: a segment was dropped or replaced"
            ).format(n=n)
        )
    return records


def seal_head(vault: Vault, head: Head) -> bytes:
    body = {
        "format": FORMAT,
        "device": head.device,
        "n": head.n,
        "hash": head.hash,
        "name": head.name,
        "at": head.at,
    }
    return vault.encrypt(json.dumps(body).encode())


def open_head(vault: Vault, data: bytes, device: str) -> Head:
    try:
        body = json.loads(vault.decrypt(data))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ChainError(tr("its head cannot be read")) from exc
    if not isinstance(body, dict):
        raise ChainError(tr("its head cannot be read"))
    if isinstance(body.get("format"), int) and body["format"] > FORMAT:
        raise too_new()
    if body.get("device") != device:
        raise ChainError(tr("its head belongs to another device: heads were swapped"))
    n, digest, name, at = body.get("n"), body.get("hash"), body.get("name"), body.get("at")
    if (
        not isinstance(n, int)
        or isinstance(n, bool)
        or n < 0
        or not isinstance(digest, str)
        or not isinstance(name, str)
        or not isinstance(at, int)
        or not 0 <= at < _LATEST_MS
    ):
        raise ChainError(tr("its head cannot be read"))
    return Head(device, n, digest, name, at)
