"""The servers of the remote backup tests, one of each per test module, shared with the
remote store tests: WsgiDAV that only lets alice in (so the password must come from the
keyring) and moto's S3 with one bucket. Each test works in its own folder or prefix.

Every module here derives each passphrase's key once per process (`scrypt_once`): the
tests that check the passphrase path itself ask for `real_scrypt`, and a wrong
passphrase always runs the real scrypt."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engine.remote.conftest import DavServer, s3_endpoint, unique
from tests.support.remote_servers import wsgidav_server

__all__ = ["DAV_PASSWORD", "DAV_USER", "dav_users", "s3_endpoint", "unique"]

DAV_USER = "alice"
DAV_PASSWORD = "right horse"


@pytest.fixture(scope="module", autouse=True)
def _scrypt_once_per_module(scrypt_once: None) -> None:
    """Autouse, so it is in place before the modules' own fixtures write backups."""


@pytest.fixture(scope="module")
def dav_users(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DavServer]:
    """WsgiDAV accepting only DAV_USER with DAV_PASSWORD (basic auth)."""
    work = tmp_path_factory.mktemp("dav-users")
    with wsgidav_server(work / "root", work / "server", users={DAV_USER: DAV_PASSWORD}) as url:
        yield DavServer(url, work / "root")
