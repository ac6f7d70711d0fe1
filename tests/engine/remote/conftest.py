"""The servers of the remote store tests: one WsgiDAV and one moto per test module
(a worker runs whole files), each test working in its own folder or prefix."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.remote_servers import make_bucket, moto_server, wsgidav_server

BUCKET = "parley-tests"
_names = itertools.count()


@dataclass(frozen=True, slots=True)
class DavServer:
    url: str
    root: Path  # the folder it serves


@pytest.fixture(scope="module")
def dav(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DavServer]:
    work = tmp_path_factory.mktemp("dav")
    with wsgidav_server(work / "root", work / "server") as url:
        yield DavServer(url, work / "root")


@pytest.fixture(scope="module")
def s3_endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with moto_server(tmp_path_factory.mktemp("moto")) as endpoint:
        make_bucket(endpoint, BUCKET)
        yield endpoint


@pytest.fixture
def unique() -> str:
    """A folder or prefix no other test of the module uses."""
    return f"t{next(_names)}"
