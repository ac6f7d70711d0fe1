"""Failures a person will meet, each from a real server: refused credentials, a full
server, a server that never answers, an untrusted certificate, nothing listening,
answers that are not WebDAV or S3. Each becomes a RemoteError of the right kind whose
message is a sentence naming the target."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import pytest

from desktop.core.remote_target import S3Target, WebDavTarget
from desktop.core.settings import NetworkSettings, ProxyMode
from desktop.engine.remote.base import RemoteStore
from desktop.engine.remote.errors import RemoteError, RemoteProblem
from desktop.engine.remote.s3 import S3Store
from desktop.engine.remote.webdav import WebDavStore
from desktop.providers.http_client import make_client
from tests.support.remote_servers import (
    HANG,
    FaultServer,
    Reply,
    Seen,
    closed_port,
    run,
    self_signed_certificate,
    tls_context,
    wsgidav_server,
)

# The read timeout of the stores here: a server that never answers is given up on after
# it, however slow the machine (nothing is timed: the server never answers at all).
SHORT = httpx.Timeout(1.0, connect=15.0)

Action = Callable[[RemoteStore], Awaitable[object]]


def dav(
    url: str, username: str = "", password: str | None = None
) -> Callable[[httpx.AsyncClient], RemoteStore]:
    return lambda client: WebDavStore(
        WebDavTarget(f"{url}/parley", username), password, client, timeout=SHORT
    )


def s3(url: str) -> Callable[[httpx.AsyncClient], RemoteStore]:
    target = S3Target(url, "bucket", prefix="parley", access_key_id="AKID")
    return lambda client: S3Store(target, "secret", client, timeout=SHORT)


def failure(
    make: Callable[[httpx.AsyncClient], RemoteStore],
    action: Action,
    client: Callable[[], httpx.AsyncClient] = lambda: httpx.AsyncClient(trust_env=False),
) -> RemoteError:
    async def main() -> RemoteError:
        async with client() as http:
            store = make(http)
            with pytest.raises(RemoteError) as caught:
                await action(store)
            assert store.description in str(caught.value)
            return caught.value

    return run(main())


def assert_sentence(error: RemoteError, problem: RemoteProblem, *words: str) -> None:
    message = str(error)
    assert error.problem is problem, message
    # The server's or system's own words may follow in parentheses.
    sentence = re.split(r"(?<=[.…]) \(", message, maxsplit=1)[0]
    assert sentence[0].isupper() and sentence.endswith((".", "…")), message
    assert "Traceback" not in message and "httpx" not in message
    for word in words:
        assert word in message, message


def answer(reply: Reply | None) -> Callable[[Seen], Reply | None]:
    return lambda _seen: reply


def list_root(store: RemoteStore) -> Awaitable[object]:
    return store.list()


def put_small(store: RemoteStore) -> Awaitable[object]:
    return store.put_bytes("seg-1.age", b"x" * 1000)


# -- credentials ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dav_with_users(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    work = tmp_path_factory.mktemp("dav-auth")
    with wsgidav_server(work / "root", work / "server", users={"alice": "right"}) as url:
        yield url


def test_a_wrong_webdav_password_is_refused_in_words(dav_with_users: str) -> None:
    error = failure(dav(dav_with_users, "alice", "wrong"), lambda store: store.check())
    assert_sentence(error, RemoteProblem.AUTH, "user name or password", "Back Up")
    assert error.status == 401


def test_no_password_at_all_is_refused_the_same_way(dav_with_users: str) -> None:
    error = failure(dav(dav_with_users), lambda store: store.check())
    assert_sentence(error, RemoteProblem.AUTH)


def test_the_right_webdav_password_gets_in(dav_with_users: str, tmp_path: Path) -> None:
    async def main() -> list[str]:
        async with httpx.AsyncClient(trust_env=False) as client:
            store = dav(dav_with_users, "alice", "right")(client)
            await store.check()
            await store.put_bytes("a/b.age", b"ok")
            return [o.name for o in await store.list("a")]

    assert run(main()) == ["b.age"]


def test_s3_refusing_the_key_is_an_auth_problem() -> None:
    body = b"<Error><Code>InvalidAccessKeyId</Code><Message>No such key.</Message></Error>"
    with FaultServer(answer(Reply(403, body, {"Content-Type": "application/xml"}))) as server:
        error = failure(s3(server.url), list_root)
    assert_sentence(error, RemoteProblem.AUTH, "InvalidAccessKeyId")


def test_s3_refusing_the_signature_is_an_auth_problem_too() -> None:
    body = b"<Error><Code>SignatureDoesNotMatch</Code></Error>"
    with FaultServer(answer(Reply(403, body))) as server:
        error = failure(s3(server.url), put_small)
    assert_sentence(error, RemoteProblem.AUTH)


def test_s3_denying_access_is_forbidden_and_check_finds_out_why() -> None:
    """HEAD has no body to say why; check() asks again with a listing that does."""

    def respond(seen: Seen) -> Reply:
        return Reply(
            403, b"" if seen.method == "HEAD" else b"<Error><Code>AccessDenied</Code></Error>"
        )

    with FaultServer(respond) as server:
        error = failure(s3(server.url), lambda store: store.check())
        assert [seen.method for seen in server.seen] == ["HEAD", "GET"]
    assert_sentence(error, RemoteProblem.FORBIDDEN, "permission")


# -- space ----------------------------------------------------------------------------


def test_a_full_webdav_server_says_it_is_out_of_space() -> None:
    def respond(seen: Seen) -> Reply:
        return Reply(507) if seen.method == "PUT" else Reply(207, b"")

    with FaultServer(respond) as server:
        error = failure(dav(server.url), put_small)
    assert_sentence(error, RemoteProblem.NO_SPACE, "out of space")
    assert error.status == 507


def test_an_s3_quota_or_size_limit_says_it_is_out_of_space(tmp_path: Path) -> None:
    archive = tmp_path / "archive.age"
    archive.write_bytes(b"x" * 200_000)
    body = b"<Error><Code>EntityTooLarge</Code><Message>Too big</Message></Error>"
    with FaultServer(answer(Reply(400, body))) as server:
        error = failure(s3(server.url), lambda store: store.put_file("a.age", archive))
        (put,) = server.seen
    assert_sentence(error, RemoteProblem.NO_SPACE, "out of space")
    assert put.headers["Content-Length"] == "200000" and len(put.body) == 200_000
    assert put.headers["x-amz-content-sha256"] == "UNSIGNED-PAYLOAD"


# -- no answer, no connection, no trust ----------------------------------------------------


@pytest.mark.parametrize("make", [dav, s3], ids=["webdav", "s3"])
def test_a_server_that_never_answers_times_out(make: Callable[[str], object]) -> None:
    with FaultServer(answer(HANG)) as server:
        error = failure(make(server.url), list_root)  # type: ignore[arg-type]
    assert_sentence(error, RemoteProblem.TIMEOUT, "did not answer in time")


@pytest.mark.parametrize("make", [dav, s3], ids=["webdav", "s3"])
def test_nothing_listening_is_unreachable(make: Callable[[str], object]) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    error = failure(make(url), list_root)  # type: ignore[arg-type]
    assert_sentence(error, RemoteProblem.UNREACHABLE, "could not connect", url)


def test_an_unknown_host_is_unreachable() -> None:
    error = failure(dav("http://no-such-host.invalid"), list_root)
    assert_sentence(error, RemoteProblem.UNREACHABLE, "no-such-host.invalid")


@pytest.mark.parametrize("make", [dav, s3], ids=["webdav", "s3"])
def test_a_self_signed_certificate_is_a_tls_problem_with_advice(
    make: Callable[[str], object], tmp_path: Path
) -> None:
    certificate, key = self_signed_certificate(tmp_path)
    with FaultServer(answer(Reply(207, b"")), tls=tls_context(certificate, key)) as server:
        error = failure(make(server.url), list_root)  # type: ignore[arg-type]
        assert server.seen == []
    assert_sentence(error, RemoteProblem.TLS, "certificate", "CA bundle", "Settings → Network")


def test_the_certificate_trusted_in_the_network_settings_is_accepted(tmp_path: Path) -> None:
    """The stores use Parley's shared client, so its CA bundle setting applies to them."""
    certificate, key = self_signed_certificate(tmp_path)
    listing = (
        b'<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">'
        b"<d:response><d:href>/parley/</d:href></d:response></d:multistatus>"
    )
    network = NetworkSettings(ProxyMode.NONE, "", str(certificate))

    async def main() -> list[object]:
        async with make_client(network) as client:
            return list(await dav(server.url)(client).list())

    with FaultServer(answer(Reply(207, listing)), tls=tls_context(certificate, key)) as server:
        assert run(main()) == []
        assert [seen.method for seen in server.seen] == ["PROPFIND"]


# -- answers that make no sense ---------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        Reply(207, b"<d:multistatus xmlns:d='DAV:'><d:response>"),
        Reply(207, b"<html><body>Welcome</body></html>"),
        Reply(200, b"<html><body>Welcome</body></html>", {"Content-Type": "text/html"}),
    ],
    ids=["broken-xml", "not-multistatus", "a-web-page"],
)
def test_a_listing_that_is_not_webdav_is_a_bad_response(reply: Reply) -> None:
    with FaultServer(answer(reply)) as server:
        error = failure(dav(server.url), list_root)
    assert_sentence(error, RemoteProblem.BAD_RESPONSE, "WebDAV")


def test_a_bucket_listing_that_is_not_xml_is_a_bad_response() -> None:
    with FaultServer(answer(Reply(200, b"{not xml"))) as server:
        error = failure(s3(server.url), list_root)
    assert_sentence(error, RemoteProblem.BAD_RESPONSE)


@pytest.mark.parametrize("make", [dav, s3], ids=["webdav", "s3"])
def test_a_server_error_says_to_try_later(make: Callable[[str], object]) -> None:
    with FaultServer(answer(Reply(503, b"busy"))) as server:
        error = failure(make(server.url), put_small)  # type: ignore[arg-type]
    assert_sentence(error, RemoteProblem.SERVER, "Try again later", "503")


def test_a_webdav_create_only_write_sends_if_none_match() -> None:
    with FaultServer(answer(Reply(412))) as server:
        error = failure(
            dav(server.url), lambda store: store.put_bytes("vault.age", b"v", create_only=True)
        )
        (put,) = server.seen
    assert put.headers["If-None-Match"] == "*"
    assert_sentence(error, RemoteProblem.CONFLICT, "vault.age")
