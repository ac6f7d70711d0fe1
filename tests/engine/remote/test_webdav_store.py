"""The WebDAV store: against WsgiDAV (what ends up on the server's disk), and reading
the listings other servers write (absolute URLs, other encodings, Depth ignored)."""

from __future__ import annotations

import os
from pathlib import Path

import httpx

from desktop.core.remote_target import WebDavTarget
from desktop.engine.remote.webdav import WebDavStore, parse_listing
from tests.engine.remote.conftest import DavServer
from tests.support.remote_servers import FaultServer, Reply, Seen, run


def test_checking_makes_every_missing_level_of_the_address(dav: DavServer, unique: str) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            store = WebDavStore(WebDavTarget(f"{dav.url}/{unique}/a b/备份/"), None, client)
            await store.check()
            await store.put_bytes("devices/laptop/head.age", b"head")

    run(main())
    folder = dav.root / unique / "a b" / "备份"
    assert (folder / "devices" / "laptop" / "head.age").read_bytes() == b"head"


def test_a_file_is_streamed_with_its_length_and_missing_folders_made(tmp_path: Path) -> None:
    """PUT into a folder the server lacks: 409, the folders are made outermost first,
    then the PUT again, with Content-Length (servers refuse chunked uploads)."""
    archive = tmp_path / "archive.age"
    archive.write_bytes(os.urandom(3 * 1024 * 1024 + 5))
    made: set[str] = set()

    def respond(seen: Seen) -> Reply:
        if seen.method == "MKCOL":
            made.add(seen.path)
            return Reply(201)
        if seen.method == "PUT" and "/parley/a/b/" not in made:
            return Reply(409)
        return Reply(201)

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            store = WebDavStore(WebDavTarget(f"{server.url}/parley", "me"), "pw", client)
            await store.put_file("a/b/archive.age", archive)

    with FaultServer(respond) as server:
        run(main())
        steps = [(s.method, s.path) for s in server.seen]
        put = server.seen[-1]
    assert steps == [
        ("PUT", "/parley/a/b/archive.age"),
        ("MKCOL", "/parley/a/"),
        ("MKCOL", "/parley/a/b/"),
        ("PUT", "/parley/a/b/archive.age"),
    ]
    assert put.headers["Content-Length"] == str(archive.stat().st_size)
    assert "Transfer-Encoding" not in put.headers
    assert put.body == archive.read_bytes()
    assert put.headers["Authorization"].startswith("Basic ")


def _listing(*entries: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?><multistatus xmlns="DAV:">'
        + "".join(entries)
        + "</multistatus>"
    ).encode()


def _file(href: str, size: int, modified: str = "Sat, 09 Mar 2024 17:05:42 GMT") -> str:
    return (
        f"<response><href>{href}</href><propstat><prop><resourcetype/>"
        f"<getcontentlength>{size}</getcontentlength>"
        f"<getlastmodified>{modified}</getlastmodified></prop>"
        "<status>HTTP/1.1 200 OK</status></propstat>"
        "<propstat><prop><quota/></prop><status>HTTP/1.1 404 Not Found</status></propstat>"
        "</response>"
    )


def _folder(href: str) -> str:
    return (
        f"<response><href>{href}</href><propstat><prop><resourcetype><collection/>"
        "</resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response>"
    )


def test_listings_with_absolute_urls_and_any_encoding_are_read() -> None:
    body = _listing(
        _folder("https://cloud.example.com/remote.php/dav/files/al%20ice/Parley/"),
        _file("https://cloud.example.com/remote.php/dav/files/al%20ice/Parley/a%20b.age", 12),
        _file("/remote.php/dav/files/al ice/Parley/%e5%a4%87%e4%bb%bd.age", 3),
        _folder("/remote.php/dav/files/al%20ice/Parley/devices"),  # no trailing slash
        _file("/remote.php/dav/files/al%20ice/Parley/devices/deeper.age", 1),  # Depth ignored
    )
    listed = parse_listing(body, "/remote.php/dav/files/al ice/Parley/", "where")
    assert [(o.name, o.size) for o in listed] == [
        ("a b.age", 12),
        ("devices/", 0),
        ("备份.age", 3),
    ]
    assert listed[0].modified is not None and listed[0].modified.year == 2024


def test_a_listing_with_an_unreadable_date_keeps_the_file() -> None:
    body = _listing(_folder("/dav/"), _file("/dav/x.age", 5, modified="yesterday"))
    (item,) = parse_listing(body, "/dav/", "where")
    assert (item.name, item.size, item.modified) == ("x.age", 5, None)
