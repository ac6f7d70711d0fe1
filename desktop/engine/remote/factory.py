"""The store for a target: the one place that knows which class serves which kind."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

import httpx

from desktop.core.remote_target import (
    FolderTarget,
    RemoteTarget,
    S3Target,
    WebDavTarget,
    describe_target,
    secret_name,
)
from desktop.engine.remote.base import DEFAULT_TIMEOUT, RemoteStore
from desktop.engine.remote.folder import FolderStore
from desktop.engine.remote.s3 import S3Store
from desktop.engine.remote.webdav import WebDavStore


def make_store(
    target: RemoteTarget,
    secret: str | None,
    client: httpx.AsyncClient,
    *,
    timeout: httpx.Timeout = DEFAULT_TIMEOUT,
) -> RemoteStore:
    """A store writing to `target`. `secret` is its password or S3 secret key (from the
    keyring, under `secret_name(target, "password")`); `client` is Parley's shared one,
    which carries the proxy and certificate settings."""
    if isinstance(target, FolderTarget):
        return FolderStore(Path(target.path).expanduser(), describe_target(target))
    if isinstance(target, WebDavTarget):
        return WebDavStore(target, secret, client, timeout=timeout)
    if isinstance(target, S3Target):
        return S3Store(target, secret, client, timeout=timeout)
    raise TypeError(f"not a remote target: {target!r}")


class SecretsAndClient(Protocol):
    """What `store_with_secret` needs of the settings service."""

    @property
    def http_client(self) -> httpx.AsyncClient: ...

    async def secret(self, name: str) -> str | None: ...


async def store_with_secret(
    target: RemoteTarget,
    settings: SecretsAndClient,
    session_secrets: Mapping[str, str],
    *,
    request_timeout: httpx.Timeout = DEFAULT_TIMEOUT,
) -> RemoteStore:
    """The store for `target` with its password: one typed in this run while the
    keyring could not keep it (`session_secrets`), else the keyring's."""
    name = secret_name(target, "password")
    secret = session_secrets.get(name) or await settings.secret(name)
    return make_store(target, secret, settings.http_client, timeout=request_timeout)
