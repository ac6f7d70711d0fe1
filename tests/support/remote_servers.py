"""Real servers for the remote store tests, on 127.0.0.1 and free ports.

- `wsgidav_server(root, work, users=None)`: WsgiDAV serving `root` (anonymous, or basic
  auth for the given users), as a child process.
- `moto_server(work)`: moto's S3 emulation, as a child process; `make_bucket` creates
  a bucket in it with boto3.
- `FaultServer(respond)`: a threaded loopback HTTP(S) server answering each request as
  `respond` says (a status and body, or `HANG`: never answer), for the failures real
  servers will not produce on demand: 401, 507, silence, a self-signed certificate.
- `self_signed_certificate(folder)`: a certificate and key for 127.0.0.1 (cryptography).
- `closed_port()`: a port nothing listens on.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import ipaddress
import json
import socket
import ssl
import subprocess
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Final, TypeVar

import httpx

from tests.support.waiting import CEILING_S, wait_until

T = TypeVar("T")

START_CEILING_S: Final = 60.0
"""The longest a server may take to start answering on its port."""

BIN: Final = Path(sys.executable).parent
ACCESS_KEY: Final = "AKIDPARLEYTEST"
SECRET_KEY: Final = "parley/secret+key"
REGION: Final = "us-east-1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def closed_port() -> int:
    """A port that refuses connections (just freed; nothing binds it meanwhile)."""
    return free_port()


def _answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1.0)
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def _child(command: list[str], port: int, log: Path, cwd: Path) -> Iterator[None]:
    """Run `command` until the `with` ends; fail with its output if it never listens."""
    with open(log, "wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, cwd=cwd)
        try:

            def ready() -> bool:
                if process.poll() is not None:
                    raise AssertionError(
                        f"{command[0]} exited ({process.returncode}):\n"
                        + log.read_text(errors="replace")[-3000:]
                    )
                return _answers(port)

            wait_until(ready, f"{Path(command[0]).name} listening", timeout=START_CEILING_S)
            yield
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextlib.contextmanager
def wsgidav_server(root: Path, work: Path, users: dict[str, str] | None = None) -> Iterator[str]:
    """WsgiDAV sharing `root` as "/", its base URL yielded. With `users` (name →
    password) only they get in, with basic auth; otherwise anyone does."""
    root.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    port = free_port()
    command = [str(BIN / "wsgidav"), "-q"]
    if users is None:
        command += [
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--root",
            str(root),
            "--auth",
            "anonymous",
            "--no-config",
        ]
    else:
        config = work / "wsgidav.json"
        config.write_text(
            json.dumps(
                {
                    "host": "127.0.0.1",
                    "port": port,
                    "provider_mapping": {"/": str(root)},
                    "http_authenticator": {
                        "accept_basic": True,
                        "accept_digest": False,
                        "default_to_digest": False,
                    },
                    "simple_dc": {
                        "user_mapping": {
                            "*": {name: {"password": pw} for name, pw in users.items()}
                        }
                    },
                    "verbose": 1,
                }
            )
        )
        command += ["--config", str(config)]
    with _child(command, port, work / f"wsgidav-{port}.log", work):
        yield f"http://127.0.0.1:{port}"


@contextlib.contextmanager
def moto_server(work: Path) -> Iterator[str]:
    """moto's S3 on a free port; its endpoint yielded."""
    work.mkdir(parents=True, exist_ok=True)
    port = free_port()
    command = [str(BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(port)]
    with _child(command, port, work / f"moto-{port}.log", work):
        yield f"http://127.0.0.1:{port}"


def make_bucket(endpoint: str, bucket: str) -> None:
    import boto3

    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=SECRET_KEY,
    )
    client.create_bucket(Bucket=bucket)


# -- the fault server ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


HANG: Final = None
"""What `respond` returns for a request that is never answered."""

Respond = Callable[[Seen], Reply | None]


class FaultServer:
    """A loopback HTTP server answering as `respond` says; HTTPS with `tls`.

    `seen` lists the requests that arrived. A request answered with HANG waits until
    the server closes, so a client gives up on its own timeout.
    """

    def __init__(self, respond: Respond, tls: ssl.SSLContext | None = None) -> None:
        self.seen: list[Seen] = []
        self._release = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                return

            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                seen = Seen(self.command, self.path, dict(self.headers.items()), body)
                owner.seen.append(seen)
                reply = respond(seen)
                if reply is None:
                    owner._release.wait()
                    self.close_connection = True
                    return
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(reply.body)

            do_GET = do_PUT = do_HEAD = do_DELETE = do_PROPFIND = do_MKCOL = _any

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        scheme = "https" if tls is not None else "http"
        self.url = f"{scheme}://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> FaultServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=30)


def self_signed_certificate(folder: Path, host: str = "127.0.0.1") -> tuple[Path, Path]:
    """A certificate for `host`, signed by its own key: (certificate, key) PEM files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = folder / "server.pem", folder / "server.key"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def tls_context(certificate: Path, key: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    return context


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run one test's coroutine in a fresh event loop; a hang fails at the ceiling."""
    return asyncio.run(asyncio.wait_for(coroutine, CEILING_S))


class LoopbackTransport(httpx.AsyncBaseTransport):
    """Connects every request to 127.0.0.1, keeping the Host header it was made with:
    a virtual-host style bucket name (`bkt.localhost`) reaches the loopback S3 server
    as it would reach a real one through DNS."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.url = request.url.copy_with(host="127.0.0.1")
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()
