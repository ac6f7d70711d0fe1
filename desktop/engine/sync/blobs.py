"""Attachment files in the storage: sent once each, fetched when first needed.

A file is stored under a name no one without the vault key can link to its content
(`Vault.blob_name`), encrypted as an age stream straight from and to disk, so a large
file never sits in memory. A fetched file is checked against the hash its attachment
row names before it enters the store: a storage that swaps files is caught here.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import tempfile
from pathlib import Path

import pyrage

from desktop.core.i18n import tr
from desktop.engine.remote.base import CHUNK, RemoteStore
from desktop.engine.sync import codec
from desktop.engine.sync.codec import Vault
from desktop.engine.sync.errors import SyncError, SyncProblem
from desktop.storage.attachments import AttachmentStore
from desktop.storage.sync_state import SyncState


async def send_blobs(
    store: RemoteStore,
    vault: Vault,
    state: SyncState,
    attachments: AttachmentStore,
    wanted: list[tuple[str, str]],
) -> int:
    """Upload the files of `wanted` (sha256, attachment id) the storage lacks; returns
    how many were sent. A file missing here (not fetched yet) is skipped: the device
    that has it sends it."""
    sent_before = await asyncio.to_thread(_sent_hashes, state)
    todo = {sha: item for sha, item in wanted if sha not in sent_before}
    if not todo:
        return 0
    there = {entry.name for entry in await store.list(codec.BLOBS)}
    sent = 0
    for sha, attachment_id in sorted(todo.items()):
        name = vault.blob_name(sha)
        if name.rsplit("/", 1)[-1] not in there:
            attachment = await asyncio.to_thread(attachments.get, attachment_id)
            if attachment is None:
                continue
            source = attachments.blob_path(attachment)
            if not await asyncio.to_thread(source.is_file):
                continue
            with tempfile.TemporaryDirectory(prefix="parley-sync-") as folder:
                sealed = Path(folder) / "blob.age"
                await asyncio.to_thread(_encrypt_file, vault, source, sealed)
                await store.put_file(name, sealed)
            sent += 1
        await asyncio.to_thread(_mark_sent, state, sha)
    return sent


async def fetch_blob(store: RemoteStore, vault: Vault, sha256: str, destination: Path) -> None:
    """Download, decrypt and check one file into `destination` (atomically)."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="parley-sync-", dir=destination.parent) as folder:
        sealed = Path(folder) / "blob.age"
        await store.get_file(vault.blob_name(sha256), sealed)
        await asyncio.to_thread(
            _decrypt_checked, vault, sealed, Path(folder) / "plain", destination, sha256
        )


def _encrypt_file(vault: Vault, source: Path, sealed: Path) -> None:
    with open(source, "rb") as reader, open(sealed, "wb") as writer:
        pyrage.encrypt_io(reader, writer, [vault.recipient])


def _decrypt_checked(
    vault: Vault, sealed: Path, partial: Path, destination: Path, sha256: str
) -> None:
    """Decrypt into `partial` (in this fetch's own folder: two fetches of one file at
    once never share it), check it, then move it into place whole."""
    try:
        with open(sealed, "rb") as reader, open(partial, "wb") as writer:
            pyrage.decrypt_io(reader, writer, [vault.identity])
        digest = hashlib.sha256()
        with open(partial, "rb") as check:
            while block := check.read(CHUNK):
                digest.update(block)
        if digest.hexdigest() != sha256:
            raise SyncError(
                SyncProblem.TAMPERED,
                tr("An attached file at the storage is not the file its message names."),
            )
        os.replace(partial, destination)
    except (pyrage.DecryptError, OSError) as exc:
        if isinstance(exc, OSError) and not str(exc) == "decryption error":
            raise
        raise SyncError(
            SyncProblem.TAMPERED,
            tr("An attached file at the storage cannot be decrypted with the vault key."),
        ) from exc
    finally:
        partial.unlink(missing_ok=True)


def _sent_hashes(state: SyncState) -> set[str]:
    with state.read() as conn:
        return {row[0] for row in conn.exec_driver_sql("SELECT sha256 FROM blobs")}


def _mark_sent(state: SyncState, sha256: str) -> None:
    with state.write() as conn:
        conn.exec_driver_sql("INSERT OR IGNORE INTO blobs (sha256) VALUES (?)", (sha256,))
