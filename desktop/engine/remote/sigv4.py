"""AWS Signature Version 4 for S3 requests, as S3 and its compatible servers check it.

Our own ~100 lines instead of botocore (32 MB, synchronous): the request is described
by its raw (unencoded) path and query, and `sign` returns the URL to send, encoded
exactly as it was signed, with the headers that carry the signature. The tests check
every piece against botocore's signer.

Payloads: small bodies are signed with their SHA-256. Files are sent as
`UNSIGNED-PAYLOAD`: signing a file's hash would mean reading a multi-gigabyte archive
twice (once to hash, once to send), and a file that changed in between would be
refused only after the whole upload. What is lost is the signature's check of the
body in transit, which TLS provides on https endpoints, and every object Parley
stores is age-encrypted and authenticated, so a tampered body is detected on reading.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final
from urllib.parse import quote

ALGORITHM: Final = "AWS4-HMAC-SHA256"
EMPTY_SHA256: Final = hashlib.sha256(b"").hexdigest()
UNSIGNED_PAYLOAD: Final = "UNSIGNED-PAYLOAD"
_UNRESERVED: Final = "-_.~"  # with letters and digits, never encoded (RFC 3986)


@dataclass(frozen=True, slots=True)
class Credentials:
    access_key_id: str
    secret_key: str

    def __repr__(self) -> str:  # never the secret, not even in a traceback
        return f"Credentials({self.access_key_id!r}, ...)"


@dataclass(frozen=True, slots=True)
class SignedRequest:
    url: str
    headers: dict[str, str]


def uri_encode(text: str, *, keep_slash: bool = False) -> str:
    """S3's URI encoding: UTF-8, every byte but A-Z a-z 0-9 - _ . ~ as %XX (upper case);
    "/" kept in an object key's path, encoded in query values."""
    return quote(text, safe=_UNRESERVED + ("/" if keep_slash else ""))


def canonical_query(query: Sequence[tuple[str, str]]) -> str:
    """The query as signed and as sent: each name and value encoded, sorted by name,
    then value."""
    pairs = sorted((uri_encode(name), uri_encode(value)) for name, value in query)
    return "&".join(f"{name}={value}" for name, value in pairs)


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def signing_key(secret_key: str, day: str, region: str, service: str) -> bytes:
    key = _hmac(f"AWS4{secret_key}".encode(), day)
    for part in (region, service, "aws4_request"):
        key = _hmac(key, part)
    return key


def canonical_request(
    method: str,
    encoded_path: str,
    encoded_query: str,
    headers: Mapping[str, str],
    payload_hash: str,
) -> tuple[str, str]:
    """The canonical request and its signed-header list. `headers` are those to sign,
    with lower-case names."""
    names = sorted(headers)
    lines = "".join(f"{name}:{' '.join(headers[name].split())}\n" for name in names)
    signed = ";".join(names)
    text = "\n".join([method, encoded_path, encoded_query, lines, signed, payload_hash])
    return text, signed


def sign(
    method: str,
    *,
    scheme: str,
    host: str,
    path: str,
    query: Sequence[tuple[str, str]] = (),
    payload_hash: str = EMPTY_SHA256,
    credentials: Credentials,
    region: str,
    now: datetime,
    service: str = "s3",
    extra_headers: Mapping[str, str] | None = None,
) -> SignedRequest:
    """Sign a request for `path` (raw: not yet URI-encoded, starting with "/") on `host`
    (as sent in the Host header: with the port unless it is the scheme's default).

    `extra_headers` (x-amz-* ones, say) are signed and sent too; other headers (Content-
    Length, If-None-Match) may be sent unsigned, as S3 allows.
    """
    moment = now.astimezone(UTC)
    stamp = moment.strftime("%Y%m%dT%H%M%SZ")
    day = stamp[:8]
    encoded_path = uri_encode(path, keep_slash=True)
    encoded_query = canonical_query(query)
    signed_headers = {
        "host": host,
        "x-amz-content-sha256": payload_hash,
        "x-amz-date": stamp,
        **{name.lower(): value for name, value in (extra_headers or {}).items()},
    }
    request, signed_names = canonical_request(
        method, encoded_path, encoded_query, signed_headers, payload_hash
    )
    scope = f"{day}/{region}/{service}/aws4_request"
    to_sign = "\n".join([ALGORITHM, stamp, scope, hashlib.sha256(request.encode()).hexdigest()])
    key = signing_key(credentials.secret_key, day, region, service)
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    authorization = (
        f"{ALGORITHM} Credential={credentials.access_key_id}/{scope}, "
        f"SignedHeaders={signed_names}, Signature={signature}"
    )
    url = f"{scheme}://{host}{encoded_path}" + (f"?{encoded_query}" if encoded_query else "")
    headers = {name: value for name, value in signed_headers.items() if name != "host"}
    headers["authorization"] = authorization
    return SignedRequest(url, headers)


def unsigned(scheme: str, host: str, path: str, query: Sequence[tuple[str, str]] = ()) -> str:
    """The URL of an anonymous request (a public bucket), encoded as `sign` encodes it."""
    encoded_query = canonical_query(query)
    return f"{scheme}://{host}{uri_encode(path, keep_slash=True)}" + (
        f"?{encoded_query}" if encoded_query else ""
    )
