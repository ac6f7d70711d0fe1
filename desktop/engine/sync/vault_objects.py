"""Making and opening a vault at the storage: `vault.age` and `check.age`.

`vault.age` is written create-only, and looked for first as well: some servers ignore
the create-only condition, and the key every device depends on must never be written
over. `check.age` lets a recovery key prove it belongs to the vault; a creation that
stopped before writing it is completed by the first device that opens the vault with
the passphrase.
"""

from __future__ import annotations

import asyncio

from desktop.core.i18n import tr
from desktop.engine.remote.base import RemoteStore
from desktop.engine.remote.errors import RemoteError, RemoteProblem
from desktop.engine.sync import codec
from desktop.engine.sync.codec import Vault
from desktop.engine.sync.errors import SyncError, SyncProblem


async def vault_at(store: RemoteStore) -> bool:
    return any(item.name == "vault.age" for item in await store.list(codec.ROOT))


async def create(store: RemoteStore, passphrase: str) -> Vault:
    """A new vault at `store`, locked with `passphrase`. SyncError VAULT_EXISTS where
    there is one already (join it instead)."""
    await store.check()
    if await vault_at(store):
        raise _exists(store)
    vault = codec.new_vault()
    locked = await asyncio.to_thread(codec.lock_vault, vault, passphrase)
    try:
        await store.put_bytes(codec.VAULT, locked, create_only=True)
    except RemoteError as error:
        if error.problem is RemoteProblem.CONFLICT:
            raise _exists(store) from error
        raise
    await store.put_bytes(codec.CHECK, codec.check_object(vault))
    return vault


async def open_vault(store: RemoteStore, secret: str) -> Vault:
    """The vault at `store`, opened with its passphrase or its recovery key."""
    try:
        if secret.strip().upper().startswith("AGE-SECRET-KEY-"):
            return codec.vault_from_key(await store.get_bytes(codec.CHECK), secret)
        locked = await store.get_bytes(codec.VAULT)
        vault = await asyncio.to_thread(codec.unlock_vault, locked, secret)
        await _write_missing_check(store, vault)
        return vault
    except RemoteError as error:
        if error.problem is RemoteProblem.NOT_FOUND:
            raise SyncError(
                SyncProblem.NO_VAULT,
                tr("There is no Parley vault at {where}. Create one first.").format(
                    where=store.description
                ),
            ) from error
        raise


def _exists(store: RemoteStore) -> SyncError:
    return SyncError(
        SyncProblem.VAULT_EXISTS,
        tr("There is a vault at {where} already. Join it instead.").format(where=store.description),
    )


async def _write_missing_check(store: RemoteStore, vault: Vault) -> None:
    try:
        await store.put_bytes(codec.CHECK, codec.check_object(vault), create_only=True)
    except RemoteError as error:
        if error.problem is not RemoteProblem.CONFLICT:
            raise
