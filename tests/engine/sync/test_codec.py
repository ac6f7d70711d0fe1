"""The sync objects as bytes, with no storage: what a device writes opens again, and
what a storage could do to it (flip a byte, swap, replay or drop a segment, serve one
device's head as another's, hand over another vault's key) is refused, never applied.
A vault or segment written by a newer Parley says so instead of being misread."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pyrage
import pytest

from desktop.engine.sync import codec
from desktop.engine.sync.codec import ChainError, Head, Vault
from desktop.engine.sync.errors import SyncError, SyncProblem

DEVICE = "a1b2c3d4e5f60718"
OTHER = "0f1e2d3c4b5a6978"
PASSPHRASE = "correct horse battery staple"
AT = 1_765_000_000_000


def records(n: int) -> list[dict[str, Any]]:
    return [
        {"t": "message", "id": f"m{n}-{i}", "text": f"segment {n}, line {i} — ünïcode"}
        for i in range(3)
    ]


class Log:
    """A device's first segments, sealed in order as `exchange.push` seals them."""

    def __init__(self, vault: Vault, device: str = DEVICE, count: int = 3) -> None:
        self.vault = vault
        self.device = device
        self.data: dict[int, bytes] = {}
        self.hash: dict[int, str] = {0: ""}
        for n in range(1, count + 1):
            sealed = codec.seal_segment(
                vault, device, n, self.hash[n - 1], "laptop", AT + n, records(n)
            )
            self.data[n] = sealed
            self.hash[n] = codec.content_hash(sealed)

    def open(self, n: int, data: bytes | None = None, previous: str | None = None) -> list:
        return codec.open_segment(
            self.vault,
            self.data[n] if data is None else data,
            self.device,
            n,
            self.hash[n - 1] if previous is None else previous,
        )


def flipped(data: bytes, index: int) -> bytes:
    changed = bytearray(data)
    changed[index] ^= 0x01
    return bytes(changed)


def sealed_plain(vault: Vault, header: dict[str, Any], *lines: dict[str, Any]) -> bytes:
    """A segment with any header, encrypted to the vault (what a newer Parley writes)."""
    text = "\n".join(json.dumps(item) for item in (header, *lines))
    return vault.encrypt(gzip.compress(text.encode()))


@pytest.fixture
def vault() -> Vault:
    return codec.new_vault()


# --- segments -------------------------------------------------------------------------


def test_a_sealed_segment_opens_to_its_records(vault: Vault) -> None:
    log = Log(vault)
    for n in (1, 2, 3):
        assert log.open(n) == records(n)
    assert b"segment 1" not in log.data[1]
    assert DEVICE.encode() not in log.data[1]


def test_an_empty_segment_round_trips(vault: Vault) -> None:
    sealed = codec.seal_segment(vault, DEVICE, 1, "", "laptop", AT, [])
    assert codec.open_segment(vault, sealed, DEVICE, 1, "") == []


@pytest.mark.parametrize("where", ["header", "middle", "last"])
def test_a_flipped_byte_anywhere_is_refused(vault: Vault, where: str) -> None:
    log = Log(vault)
    data = log.data[2]
    index = {"header": 40, "middle": len(data) // 2 + 20, "last": len(data) - 1}[where]
    with pytest.raises(ChainError, match="cannot be decrypted"):
        log.open(2, flipped(data, index))


def test_a_segment_served_in_place_of_the_next_is_refused(vault: Vault) -> None:
    log = Log(vault)
    # Segments 2 and 3 swapped by the storage: whichever is read first fails.
    with pytest.raises(ChainError, match="swapped or replayed") as caught:
        log.open(2, log.data[3])
    assert "segment 2 holds another segment (3)" in str(caught.value)
    with pytest.raises(ChainError, match="swapped or replayed"):
        log.open(3, log.data[2])


def test_an_old_segment_replayed_at_a_new_number_is_refused(vault: Vault) -> None:
    log = Log(vault)
    with pytest.raises(ChainError, match="swapped or replayed"):
        log.open(3, log.data[1])
    # Even given the hash it would need, the header names its real number.
    with pytest.raises(ChainError, match="swapped or replayed"):
        log.open(3, log.data[1], previous="")


def test_a_dropped_segment_breaks_the_chain(vault: Vault) -> None:
    log = Log(vault)
    # The reader applied segment 1; the storage drops 2 and serves 3 as the next one.
    with pytest.raises(ChainError, match="dropped or replaced") as caught:
        log.open(3, previous=log.hash[1])
    assert "segment 3 does not follow the one before it" in str(caught.value)


def test_a_segment_rewritten_with_the_same_number_breaks_the_chain(vault: Vault) -> None:
    """A second, different segment 2 (a writer that forked its log) is caught by 3."""
    log = Log(vault)
    other_2 = codec.seal_segment(vault, DEVICE, 2, log.hash[1], "laptop", AT, [{"t": "x"}])
    assert log.open(2, other_2) == [{"t": "x"}]  # on its own it is a valid segment 2 …
    with pytest.raises(ChainError, match="dropped or replaced"):
        log.open(3, previous=codec.content_hash(other_2))  # … but 3 does not follow it


def test_a_segment_of_another_device_is_refused(vault: Vault) -> None:
    log = Log(vault)
    theirs = Log(vault, OTHER)
    with pytest.raises(ChainError, match="swapped or replayed"):
        log.open(1, theirs.data[1])


def test_a_segment_of_another_vault_is_refused(vault: Vault) -> None:
    foreign = Log(codec.new_vault())
    with pytest.raises(ChainError, match="cannot be decrypted"):
        codec.open_segment(vault, foreign.data[1], DEVICE, 1, "")


@pytest.mark.parametrize(
    "data",
    [b"", b"not age at all", b"age-encryption.org/v1\n-> X25519 garbage\n"],
    ids=["empty", "text", "bad-header"],
)
def test_bytes_that_are_not_a_segment_are_refused(vault: Vault, data: bytes) -> None:
    with pytest.raises(ChainError):
        codec.open_segment(vault, data, DEVICE, 1, "")


def test_a_decryptable_segment_with_unreadable_contents_is_refused(vault: Vault) -> None:
    for plain in (b"not gzip", gzip.compress(b"\xff\xfe"), gzip.compress(b"[1]\n{}")):
        with pytest.raises(ChainError, match="cannot be read"):
            codec.open_segment(vault, vault.encrypt(plain), DEVICE, 1, "")


def test_a_segment_from_a_newer_format_says_update_parley(vault: Vault) -> None:
    header = {"format": codec.FORMAT + 1, "device": DEVICE, "n": 1, "prev": "", "name": "x"}
    data = sealed_plain(vault, header, {"t": "something-new"})
    with pytest.raises(SyncError) as caught:
        codec.open_segment(vault, data, DEVICE, 1, "")
    assert caught.value.problem is SyncProblem.FORMAT
    assert "newer version of Parley" in str(caught.value)


# --- heads ----------------------------------------------------------------------------


def test_a_head_round_trips(vault: Vault) -> None:
    head = Head(DEVICE, 7, "ab" * 32, "laptop", AT)
    assert codec.open_head(vault, codec.seal_head(vault, head), DEVICE) == head


def test_a_head_of_another_device_is_refused(vault: Vault) -> None:
    theirs = codec.seal_head(vault, Head(OTHER, 3, "cd" * 32, "desktop", AT))
    with pytest.raises(ChainError, match="another device: heads were swapped"):
        codec.open_head(vault, theirs, DEVICE)


def test_a_flipped_byte_in_a_head_is_refused(vault: Vault) -> None:
    data = codec.seal_head(vault, Head(DEVICE, 3, "cd" * 32, "laptop", AT))
    with pytest.raises(ChainError, match="cannot be decrypted"):
        codec.open_head(vault, flipped(data, len(data) - 5), DEVICE)


@pytest.mark.parametrize(
    "body",
    [
        [1, 2],
        {"device": DEVICE, "n": -1, "hash": "", "name": "", "at": 0},
        {"device": DEVICE, "n": "3", "hash": "", "name": "", "at": 0},
        {"device": DEVICE, "n": 3, "hash": None, "name": "", "at": 0},
        {"device": DEVICE, "n": 3, "hash": "", "name": "", "at": "now"},
    ],
    ids=["list", "negative", "string-n", "no-hash", "string-at"],
)
def test_a_malformed_head_is_refused(vault: Vault, body: object) -> None:
    with pytest.raises(ChainError, match="cannot be read"):
        codec.open_head(vault, vault.encrypt(json.dumps(body).encode()), DEVICE)


def test_a_head_from_a_newer_format_says_update_parley(vault: Vault) -> None:
    body = {"format": codec.FORMAT + 1, "device": DEVICE, "n": 1, "hash": "", "name": "", "at": 0}
    with pytest.raises(SyncError) as caught:
        codec.open_head(vault, vault.encrypt(json.dumps(body).encode()), DEVICE)
    assert caught.value.problem is SyncProblem.FORMAT


# --- the vault key ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def locked() -> tuple[Vault, bytes]:
    """One vault locked with PASSPHRASE (age's scrypt: done once for the module)."""
    vault = codec.new_vault()
    return vault, codec.lock_vault(vault, PASSPHRASE)


def test_the_passphrase_unlocks_the_vault(locked: tuple[Vault, bytes]) -> None:
    vault, data = locked
    opened = codec.unlock_vault(data, PASSPHRASE)
    assert opened.vault_id == vault.vault_id
    assert opened.key_text == vault.key_text
    assert vault.key_text.encode() not in data
    # What one opens, the other decrypts.
    assert opened.decrypt(vault.encrypt(b"hello")) == b"hello"


def test_a_wrong_passphrase_is_wrong_secret(locked: tuple[Vault, bytes]) -> None:
    _, data = locked
    with pytest.raises(SyncError) as caught:
        codec.unlock_vault(data, PASSPHRASE + "!")
    assert caught.value.problem is SyncProblem.WRONG_SECRET
    assert "passphrase or recovery key does not open this vault" in str(caught.value)


def test_a_vault_file_from_a_newer_format_says_update_parley() -> None:
    vault = codec.new_vault()
    plain = json.dumps({"format": codec.FORMAT + 1, "vault": vault.vault_id, "kdf": "new"})
    data = bytes(pyrage.passphrase.encrypt(plain.encode(), PASSPHRASE))
    with pytest.raises(SyncError) as caught:
        codec.unlock_vault(data, PASSPHRASE)
    assert caught.value.problem is SyncProblem.FORMAT
    assert "newer version of Parley" in str(caught.value)


def test_the_recovery_key_is_an_age_identity(vault: Vault) -> None:
    assert vault.key_text.startswith("AGE-SECRET-KEY-1")
    identity = pyrage.x25519.Identity.from_str(vault.key_text)
    assert str(identity.to_public()) == str(vault.recipient)
    # Any object of the vault opens with the key and age alone (no Parley code).
    sealed = codec.seal_segment(vault, DEVICE, 1, "", "laptop", AT, records(1))
    plain = gzip.decompress(pyrage.decrypt(sealed, [identity]))
    assert json.loads(plain.split(b"\n")[0])["device"] == DEVICE


def test_the_recovery_key_joins_through_the_check_object(vault: Vault) -> None:
    check = codec.check_object(vault)
    joined = codec.vault_from_key(check, vault.key_text)
    assert joined.vault_id == vault.vault_id
    assert joined.key_text == vault.key_text
    # As typed or pasted: spaces and a line break around it do not matter.
    assert codec.vault_from_key(check, f"  {vault.key_text}\n").vault_id == vault.vault_id


@pytest.mark.parametrize(
    "key",
    ["another vault", "not a key", "", "AGE-SECRET-KEY-1QQQQ"],
    ids=["other-vault", "garbage", "empty", "truncated"],
)
def test_a_recovery_key_that_does_not_fit_is_wrong_secret(vault: Vault, key: str) -> None:
    check = codec.check_object(vault)
    if key == "another vault":
        key = codec.new_vault().key_text
    with pytest.raises(SyncError) as caught:
        codec.vault_from_key(check, key)
    assert caught.value.problem is SyncProblem.WRONG_SECRET


def test_a_check_object_from_a_newer_format_says_update_parley(vault: Vault) -> None:
    check = vault.encrypt(json.dumps({"format": codec.FORMAT + 1, "vault": "v"}).encode())
    with pytest.raises(SyncError) as caught:
        codec.vault_from_key(check, vault.key_text)
    assert caught.value.problem is SyncProblem.FORMAT


def test_a_damaged_key_file_is_tampered_not_a_crash(vault: Vault) -> None:
    for plain in (b"[]", b"{not json", json.dumps({"vault": 5}).encode()):
        with pytest.raises(SyncError) as caught:
            codec.vault_from_key(vault.encrypt(plain), vault.key_text)
        assert caught.value.problem is SyncProblem.TAMPERED


# --- names ----------------------------------------------------------------------------


def test_a_blob_name_reveals_nothing_of_the_file(vault: Vault) -> None:
    sha = codec.content_hash(b"a photo everyone has")
    name = vault.blob_name(sha)
    folder, _, file = name.rpartition("/")
    assert folder == codec.BLOBS
    stem = file.removesuffix(".age")
    assert len(stem) == 64 and int(stem, 16) >= 0
    assert sha not in name and sha[:16] not in name
    # Stable within a vault (so a file is sent once), different in another vault (so a
    # storage cannot test whether a known file is there by its hash).
    assert vault.blob_name(sha) == name
    assert codec.Vault(vault.vault_id, vault.identity).blob_name(sha) == name
    assert codec.new_vault().blob_name(sha) != name
    assert vault.blob_name(codec.content_hash(b"another file")) != name


def test_names_of_devices_and_objects(vault: Vault) -> None:
    device = codec.new_device_id()
    assert len(device) == 16 and int(device, 16) >= 0
    assert codec.new_device_id() != device
    assert codec.segment_name(device, 12) == f"parley-sync/v1/devices/{device}/seg-12.age"
    assert codec.head_name(device) == f"parley-sync/v1/devices/{device}/head.age"
    assert codec.VAULT == "parley-sync/v1/vault.age"
