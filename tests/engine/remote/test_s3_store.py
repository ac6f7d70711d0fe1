"""The S3 store against moto: a missing bucket, long listings read page by page, both
addressing styles, the prefix kept to itself, objects other tools can read."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import boto3
import httpx
import pytest

from desktop.core.remote_target import S3Target
from desktop.engine.remote.errors import RemoteError, RemoteProblem
from desktop.engine.remote.s3 import S3Store
from tests.engine.remote.conftest import BUCKET
from tests.support.remote_servers import (
    ACCESS_KEY,
    REGION,
    SECRET_KEY,
    LoopbackTransport,
    run,
)

T = TypeVar("T")


def with_s3(
    target: S3Target,
    action: Callable[[S3Store], Awaitable[T]],
    transport: httpx.AsyncBaseTransport | None = None,
) -> T:
    async def main() -> T:
        async with httpx.AsyncClient(trust_env=False, transport=transport) as client:
            return await action(S3Store(target, SECRET_KEY, client))

    return run(main())


def boto(endpoint: str):  # type: ignore[no-untyped-def]
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=SECRET_KEY,
    )


def test_a_missing_bucket_is_named_in_the_message(s3_endpoint: str) -> None:
    target = S3Target(s3_endpoint, "no-such-bucket", access_key_id=ACCESS_KEY)
    for action in (lambda s: s.check(), lambda s: s.list(), lambda s: s.put_bytes("a", b"x")):
        with pytest.raises(RemoteError) as caught:
            with_s3(target, action)
        assert caught.value.problem is RemoteProblem.NOT_FOUND
        assert str(caught.value).startswith(
            f"The bucket no-such-bucket does not exist at {s3_endpoint}."
        )


def test_a_long_listing_is_read_page_by_page(s3_endpoint: str, unique: str) -> None:
    target = S3Target(s3_endpoint, BUCKET, prefix=unique, access_key_id=ACCESS_KEY)
    names = [f"seg-{n:03}.age" for n in range(7)] + ["devices/a/head.age", "devices/b/head.age"]

    async def action(store: S3Store) -> list[str]:
        for name in names:
            await store.put_bytes(name, name.encode())
        store.page_size = 2  # five requests for the nine entries
        return [o.name for o in await store.list()]

    assert with_s3(target, action) == ["devices/", *names[:7]]


def test_the_prefix_keeps_to_itself(s3_endpoint: str, unique: str) -> None:
    """Objects that merely start with the same letters are another folder's."""
    mine = S3Target(s3_endpoint, BUCKET, prefix=f"{unique}/parley", access_key_id=ACCESS_KEY)
    neighbour = S3Target(
        s3_endpoint, BUCKET, prefix=f"{unique}/parley-old", access_key_id=ACCESS_KEY
    )
    with_s3(neighbour, lambda s: s.put_bytes("x.age", b"theirs"))
    with_s3(mine, lambda s: s.put_bytes("y.age", b"mine"))
    assert [o.name for o in with_s3(mine, lambda s: s.list())] == ["y.age"]
    keys = boto(s3_endpoint).list_objects_v2(Bucket=BUCKET, Prefix=f"{unique}/")["Contents"]
    assert sorted(k["Key"] for k in keys) == [
        f"{unique}/parley-old/x.age",
        f"{unique}/parley/y.age",
    ]


def test_objects_are_stored_under_the_keys_other_tools_read(s3_endpoint: str, unique: str) -> None:
    target = S3Target(s3_endpoint, BUCKET, prefix=unique, access_key_id=ACCESS_KEY)
    with_s3(target, lambda s: s.put_bytes("备份/a b+c.age", b"payload"))
    got = boto(s3_endpoint).get_object(Bucket=BUCKET, Key=f"{unique}/备份/a b+c.age")
    assert got["Body"].read() == b"payload"
    boto(s3_endpoint).put_object(Bucket=BUCKET, Key=f"{unique}/from-boto.age", Body=b"hello")
    assert with_s3(target, lambda s: s.get_bytes("from-boto.age")) == b"hello"


def test_virtual_host_style_reaches_the_bucket_by_its_host_name(
    s3_endpoint: str, unique: str
) -> None:
    """`bkt.localhost:port` as Host (the connection still goes to 127.0.0.1): moto
    reads the bucket from the host name, as AWS does."""
    endpoint = s3_endpoint.replace("127.0.0.1", "localhost")
    target = S3Target(endpoint, BUCKET, prefix=unique, access_key_id=ACCESS_KEY, path_style=False)

    async def action(store: S3Store) -> list[str]:
        assert store.host.startswith(f"{BUCKET}.localhost:")
        await store.check()
        await store.put_bytes("sub/vhost.age", b"by host name")
        assert await store.get_bytes("sub/vhost.age") == b"by host name"
        return [o.name for o in await store.list("sub")]

    assert with_s3(target, action, LoopbackTransport()) == ["vhost.age"]
    got = boto(s3_endpoint).get_object(Bucket=BUCKET, Key=f"{unique}/sub/vhost.age")
    assert got["Body"].read() == b"by host name"


def test_an_anonymous_target_sends_no_signature(s3_endpoint: str, unique: str) -> None:
    """A public object: read without credentials, as moto (like S3) allows only for
    objects whose ACL says anyone may read them."""
    target = S3Target(s3_endpoint, BUCKET, prefix=unique)
    store = S3Store(target, None, httpx.AsyncClient())
    url, headers = store.request_for("GET", f"{unique}/a.age")
    assert headers == {} and url == f"{s3_endpoint}/{BUCKET}/{unique}/a.age"
    boto(s3_endpoint).put_object(
        Bucket=BUCKET, Key=f"{unique}/a.age", Body=b"public", ACL="public-read"
    )
    assert with_s3(target, lambda s: s.get_bytes("a.age")) == b"public"
    boto(s3_endpoint).put_object(Bucket=BUCKET, Key=f"{unique}/private.age", Body=b"no")
    with pytest.raises(RemoteError) as caught:
        with_s3(target, lambda s: s.get_bytes("private.age"))
    assert caught.value.problem is RemoteProblem.FORBIDDEN


def test_a_large_file_goes_up_in_parts_and_arrives_whole(
    s3_endpoint: str, unique: str, tmp_path
) -> None:
    target = S3Target(s3_endpoint, BUCKET, prefix=unique, access_key_id=ACCESS_KEY)
    data = bytes(range(256)) * (45 * 1024)  # 11.25 MiB: three parts of 5 MiB (S3's least)
    source = tmp_path / "big.parley"
    source.write_bytes(data)
    methods: list[str] = []

    async def hook(request: httpx.Request) -> None:
        methods.append(f"{request.method} {request.url.query.decode()}")

    async def upload(store: S3Store) -> bytes:
        store.multipart_above = store.part_size = 5 * 1024 * 1024
        await store.put_file("big.parley", source)
        return await store.get_bytes("big.parley")

    async def main() -> bytes:
        async with httpx.AsyncClient(trust_env=False, event_hooks={"request": [hook]}) as client:
            return await upload(S3Store(target, SECRET_KEY, client))

    assert run(main()) == data
    parts = [m for m in methods if m.startswith("PUT partNumber=")]
    assert [m.split("&")[0] for m in parts] == [f"PUT partNumber={n}" for n in (1, 2, 3)]
    assert methods[0] == "POST uploads="
    got = boto(s3_endpoint).get_object(Bucket=BUCKET, Key=f"{unique}/big.parley")
    assert got["Body"].read() == data
    uploads = boto(s3_endpoint).list_multipart_uploads(Bucket=BUCKET, Prefix=unique)
    assert not uploads.get("Uploads")


def test_a_part_that_fails_aborts_the_upload_and_leaves_nothing(
    s3_endpoint: str, unique: str, tmp_path
) -> None:
    target = S3Target(s3_endpoint, BUCKET, prefix=unique, access_key_id=ACCESS_KEY)
    source = tmp_path / "big.parley"
    source.write_bytes(b"x" * (11 * 1024 * 1024))

    class FailSecondPart(httpx.AsyncBaseTransport):
        """Passes requests to the server, but the second part gets a 503 of S3's."""

        def __init__(self) -> None:
            self.inner = httpx.AsyncHTTPTransport()

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if request.url.query.decode().startswith("partNumber=2&"):
                await request.aread()
                body = b"<Error><Code>ServiceUnavailable</Code><Message>busy</Message></Error>"
                return httpx.Response(503, content=body, request=request)
            return await self.inner.handle_async_request(request)

    async def upload(store: S3Store) -> None:
        store.multipart_above = store.part_size = 5 * 1024 * 1024
        await store.put_file("big.parley", source)

    with pytest.raises(RemoteError) as caught:
        with_s3(target, upload, transport=FailSecondPart())
    assert caught.value.problem is RemoteProblem.SERVER
    uploads = boto(s3_endpoint).list_multipart_uploads(Bucket=BUCKET, Prefix=unique)
    assert not uploads.get("Uploads")
    assert with_s3(target, lambda s: s.list()) == []
