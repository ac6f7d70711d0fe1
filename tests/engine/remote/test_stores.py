"""What every remote store does alike, each against the real thing: a folder on disk,
WsgiDAV and moto's S3 on loopback."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from desktop.core.remote_target import FolderTarget, S3Target, WebDavTarget
from desktop.engine.remote.base import RemoteStore
from desktop.engine.remote.errors import RemoteError, RemoteProblem
from desktop.engine.remote.factory import make_store
from tests.engine.remote.conftest import BUCKET, DavServer
from tests.support.remote_servers import ACCESS_KEY, SECRET_KEY, run

StoreFactory = Callable[[httpx.AsyncClient], RemoteStore]
MIB = 1024 * 1024


@pytest.fixture(params=["folder", "webdav", "s3"])
def make(
    request: pytest.FixtureRequest, tmp_path: Path, unique: str, dav: DavServer, s3_endpoint: str
) -> StoreFactory:
    """A store of each kind, in a folder (prefix) of its own that does not exist yet."""
    if request.param == "folder":
        target: FolderTarget | WebDavTarget | S3Target = FolderTarget(str(tmp_path / "backups"))
        secret = None
    elif request.param == "webdav":
        target, secret = WebDavTarget(f"{dav.url}/{unique}/backups"), None
    else:
        target = S3Target(s3_endpoint, BUCKET, prefix=f"{unique}/backups", access_key_id=ACCESS_KEY)
        secret = SECRET_KEY
    return lambda client: make_store(target, secret, client)


def with_store(make: StoreFactory, action: Callable[[RemoteStore], object]) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            store = make(client)
            await store.check()
            await action(store)  # type: ignore[misc]

    run(main())


def test_a_multi_megabyte_file_goes_up_and_comes_back_unchanged(
    make: StoreFactory, tmp_path: Path
) -> None:
    original = tmp_path / "archive.age"
    original.write_bytes(os.urandom(5 * MIB + 123))
    back = tmp_path / "restored" / "archive.age"
    back.parent.mkdir()

    async def action(store: RemoteStore) -> None:
        await store.put_file("2024/archive.age", original)
        await store.get_file("2024/archive.age", back)
        (listed,) = await store.list("2024")
        assert (listed.name, listed.size) == ("archive.age", original.stat().st_size)

    with_store(make, action)
    assert back.read_bytes() == original.read_bytes()
    assert sorted(p.name for p in back.parent.iterdir()) == ["archive.age"]  # no leftovers


def test_a_listing_shows_files_and_sub_folders_directly_inside(make: StoreFactory) -> None:
    async def action(store: RemoteStore) -> None:
        for name in ("a.txt", "sub/b.txt", "sub/deeper/c.txt", "other/d.txt"):
            await store.put_bytes(name, name.encode())
        top = await store.list()
        assert [(o.name, o.is_folder) for o in top] == [
            ("a.txt", False),
            ("other/", True),
            ("sub/", True),
        ]
        assert top[0].size == len(b"a.txt") and top[0].modified is not None
        assert [o.name for o in await store.list("sub")] == ["b.txt", "deeper/"]
        assert [o.name for o in await store.list("sub/")] == ["b.txt", "deeper/"]
        assert [o.name for o in await store.list("sub/deeper")] == ["c.txt"]
        assert await store.list("missing") == []
        assert await store.list("sub/missing") == []

    with_store(make, action)


def test_names_with_spaces_and_cjk_characters_are_kept(make: StoreFactory) -> None:
    name = "备份 2024/日记 final+1 (copy).age"

    async def action(store: RemoteStore) -> None:
        await store.put_bytes(name, "内容".encode())
        assert await store.get_bytes(name) == "内容".encode()
        assert [o.name for o in await store.list()] == ["备份 2024/"]
        assert [o.name for o in await store.list("备份 2024")] == ["日记 final+1 (copy).age"]
        await store.delete(name)
        assert await store.list("备份 2024") == []

    with_store(make, action)


def test_a_create_only_write_refuses_to_replace_and_keeps_the_first(make: StoreFactory) -> None:
    async def action(store: RemoteStore) -> None:
        await store.put_bytes("vault/vault.age", b"first", create_only=True)
        with pytest.raises(RemoteError) as caught:
            await store.put_bytes("vault/vault.age", b"second", create_only=True)
        assert caught.value.problem is RemoteProblem.CONFLICT
        assert store.description in str(caught.value) and "vault/vault.age" in str(caught.value)
        assert await store.get_bytes("vault/vault.age") == b"first"

    with_store(make, action)


def test_a_plain_write_replaces_what_was_there(make: StoreFactory, tmp_path: Path) -> None:
    newer = tmp_path / "newer"
    newer.write_bytes(b"newer")

    async def action(store: RemoteStore) -> None:
        await store.put_bytes("head.age", b"old")
        await store.put_bytes("head.age", b"new")
        assert await store.get_bytes("head.age") == b"new"
        await store.put_file("head.age", newer)
        assert await store.get_bytes("head.age") == b"newer"
        assert [o.name for o in await store.list()] == ["head.age"]

    with_store(make, action)


def test_deleting_removes_the_file_and_a_missing_one_is_fine(make: StoreFactory) -> None:
    async def action(store: RemoteStore) -> None:
        await store.put_bytes("old.age", b"x")
        await store.delete("old.age")
        await store.delete("old.age")
        await store.delete("never/there.age")
        assert await store.list() == []

    with_store(make, action)


def test_reading_a_missing_file_says_so_and_leaves_the_destination_alone(
    make: StoreFactory, tmp_path: Path
) -> None:
    kept = tmp_path / "kept.age"
    kept.write_bytes(b"what was here")

    async def action(store: RemoteStore) -> None:
        with pytest.raises(RemoteError) as by_bytes:
            await store.get_bytes("nope.age")
        with pytest.raises(RemoteError) as by_file:
            await store.get_file("nope.age", kept)
        for caught in (by_bytes, by_file):
            assert caught.value.problem is RemoteProblem.NOT_FOUND
            message = str(caught.value)
            assert store.description in message and "nope.age" in message
            assert message.endswith(".")

    with_store(make, action)
    assert kept.read_bytes() == b"what was here"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".parley")) == []


def test_checking_makes_the_folder_and_can_be_repeated(make: StoreFactory) -> None:
    async def action(store: RemoteStore) -> None:
        assert await store.list() == []
        await store.check()
        await store.put_bytes("x", b"1")
        await store.check()
        assert [o.name for o in await store.list()] == ["x"]

    with_store(make, action)


@pytest.mark.parametrize(
    "name", ["", "/abs", "a/../b", "..", "a//b", "a\\b", "./a", "a/", "a/./b", "nul\0"]
)
def test_names_that_could_leave_the_folder_are_refused(make: StoreFactory, name: str) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            store = make(client)
            for attempt in (
                store.get_bytes(name),
                store.put_bytes(name, b"x"),
                store.delete(name),
            ):
                with pytest.raises(ValueError):
                    await attempt

    run(main())
