"""Our Signature V4 signer against botocore's, request for request, at a fixed time.

botocore is the reference implementation (what AWS's own tools send); the same
credentials, time, URL and body must give the same Authorization header. Both URL
styles, keys with spaces, unicode and "+", listing queries, signed and unsigned bodies.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import httpx
import pytest
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials as BotoCredentials
from botocore.utils import percent_encode

from desktop.core.remote_target import S3Target
from desktop.engine.remote.s3 import S3Store
from desktop.engine.remote.sigv4 import (
    EMPTY_SHA256,
    UNSIGNED_PAYLOAD,
    Credentials,
    canonical_query,
    sign,
    uri_encode,
)

NOW = datetime(2024, 3, 9, 17, 5, 42, tzinfo=UTC)
KEY_ID = "AKIDEXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
KEYS = [
    "backup.age",
    "devices/laptop one/seg-1.age",
    "备份/日记 2024.age",
    "a+b=c&d/e~f_g-h.i!j*(k)'l@m:n,o;p$q",
    "percent%20stays literal",
]


def botocore_authorization(
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    url: str,
    body: bytes = b"",
    region: str = "us-east-1",
    *,
    unsigned_payload: bool = False,
) -> tuple[str, str]:
    """(Authorization, X-Amz-Content-SHA256) botocore gives the request at NOW."""
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda: NOW.replace(tzinfo=None))
    request = AWSRequest(method=method, url=url, data=body)
    if unsigned_payload:
        request.context["client_config"] = Config(s3={"payload_signing_enabled": False})
    S3SigV4Auth(BotoCredentials(KEY_ID, SECRET), "s3", region).add_auth(request)
    return request.headers["Authorization"], request.headers["X-Amz-Content-SHA256"]


def store(endpoint: str, *, path_style: bool, prefix: str = "") -> S3Store:
    target = S3Target(
        endpoint, "my-bucket", "eu-west-3", prefix, access_key_id=KEY_ID, path_style=path_style
    )
    return S3Store(target, SECRET, httpx.AsyncClient(), clock=lambda: NOW)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("path_style", [True, False])
def test_getting_an_object_is_signed_as_botocore_signs_it(
    monkeypatch: pytest.MonkeyPatch, key: str, path_style: bool
) -> None:
    s3 = store("https://s3.example.com:9000", path_style=path_style, prefix="parley/v1")
    url, headers = s3.request_for("GET", f"parley/v1/{key}")
    if path_style:
        expected = "https://s3.example.com:9000/my-bucket/parley/v1/"
    else:
        expected = "https://my-bucket.s3.example.com:9000/parley/v1/"
    assert url == expected + percent_encode(key, safe="/~")  # botocore's key encoding
    authorization, payload = botocore_authorization(monkeypatch, "GET", url, region="eu-west-3")
    assert headers["authorization"] == authorization
    assert headers["x-amz-content-sha256"] == payload == EMPTY_SHA256
    assert headers["x-amz-date"] == "20240309T170542Z"


@pytest.mark.parametrize("path_style", [True, False])
def test_a_listing_query_is_encoded_and_sorted_as_botocore_expects(
    monkeypatch: pytest.MonkeyPatch, path_style: bool
) -> None:
    s3 = store("http://127.0.0.1:4566", path_style=path_style)
    query = [
        ("list-type", "2"),
        ("prefix", "备份/a b+c/"),
        ("delimiter", "/"),
        ("continuation-token", "1/abc+def=="),
        ("max-keys", "1000"),
    ]
    url, headers = s3.request_for("GET", None, query)
    assert url.split("?")[1] == (
        "continuation-token=1%2Fabc%2Bdef%3D%3D&delimiter=%2F&list-type=2&max-keys=1000"
        "&prefix=%E5%A4%87%E4%BB%BD%2Fa%20b%2Bc%2F"
    )
    authorization, _ = botocore_authorization(monkeypatch, "GET", url, region="eu-west-3")
    assert headers["authorization"] == authorization
    # httpx sends the URL as it was signed: nothing re-encoded, nothing reordered.
    sent = httpx.Request("GET", url)
    assert sent.url.raw_path.decode() == url.split("127.0.0.1:4566", 1)[1]
    assert sent.headers["host"] == ("127.0.0.1:4566" if path_style else "my-bucket.127.0.0.1:4566")


def test_a_body_is_signed_with_its_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    body = b"the head of a device's log"
    s3 = store("http://minio.lan:9000", path_style=True)
    url, headers = s3.request_for("PUT", "head.age", payload_hash=hashlib.sha256(body).hexdigest())
    authorization, payload = botocore_authorization(
        monkeypatch, "PUT", url, body, region="eu-west-3"
    )
    assert headers["x-amz-content-sha256"] == payload
    assert headers["authorization"] == authorization


def test_a_streamed_file_is_sent_as_an_unsigned_payload(monkeypatch: pytest.MonkeyPatch) -> None:
    s3 = store("https://s3.eu-west-3.amazonaws.com", path_style=False)
    url, headers = s3.request_for("PUT", "archive 1.age", payload_hash=UNSIGNED_PAYLOAD)
    authorization, payload = botocore_authorization(
        monkeypatch, "PUT", url, b"x" * 100, region="eu-west-3", unsigned_payload=True
    )
    assert payload == UNSIGNED_PAYLOAD == headers["x-amz-content-sha256"]
    assert headers["authorization"] == authorization
    assert url == "https://my-bucket.s3.eu-west-3.amazonaws.com/archive%201.age"


def test_the_bucket_itself_is_addressed_in_both_styles(monkeypatch: pytest.MonkeyPatch) -> None:
    for path_style, expected in [
        (True, "https://s3.example.com/base/my-bucket"),
        (False, "https://my-bucket.s3.example.com/base"),
    ]:
        url, headers = store("https://s3.example.com/base/", path_style=path_style).request_for(
            "HEAD", None
        )
        assert url == expected
        authorization, _ = botocore_authorization(monkeypatch, "HEAD", url, region="eu-west-3")
        assert headers["authorization"] == authorization
    url, _ = store("https://s3.example.com", path_style=False).request_for("HEAD", None)
    assert url == "https://my-bucket.s3.example.com/"


def test_the_example_in_the_s3_documentation() -> None:
    """AWS's worked example "GET Object" (Signature V4, header-based authentication),
    including its Range header, gives the signature the documentation prints."""
    signed = sign(
        "GET",
        scheme="https",
        host="examplebucket.s3.amazonaws.com",
        path="/test.txt",
        credentials=Credentials("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region="us-east-1",
        now=datetime(2013, 5, 24, tzinfo=UTC),
        extra_headers={"Range": "bytes=0-9"},
    )
    assert signed.headers["authorization"] == (
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
        "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
    )


def test_uri_encoding_follows_the_s3_rules() -> None:
    assert uri_encode("a b/c~d_e-f.g") == "a%20b%2Fc~d_e-f.g"
    assert uri_encode("a b/c", keep_slash=True) == "a%20b/c"
    assert uri_encode("ü+*") == "%C3%BC%2B%2A"
    assert canonical_query([("b", "2"), ("a", "x y"), ("a", "1")]) == "a=1&a=x%20y&b=2"
    assert repr(Credentials("AKID", "very-secret")) == "Credentials('AKID', ...)"
