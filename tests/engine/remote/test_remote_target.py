"""Targets in settings.json: read, written back unchanged, refused with the field named,
described without secrets, and their keyring names."""

from __future__ import annotations

from typing import Any

import pytest

from desktop.core.errors import SettingsError
from desktop.core.remote_target import (
    FolderTarget,
    S3Target,
    WebDavTarget,
    describe_target,
    dump_target,
    needs_secret,
    parse_target,
    secret_name,
)

TARGETS = [
    FolderTarget("/media/disk/Parley"),
    FolderTarget("~/Backups"),
    WebDavTarget("https://cloud.example.com/remote.php/dav/files/alice/Parley", "alice"),
    WebDavTarget("http://nas.local:8080/dav"),
    S3Target("https://s3.eu-west-3.amazonaws.com", "my-backups"),
    S3Target(
        "http://minio.lan:9000/base",
        "parley.v1",
        region="garage",
        prefix="laptop/daily",
        access_key_id="AKID",
        path_style=False,
    ),
]


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: type(t).__name__)
def test_a_target_survives_being_written_and_read(target: Any) -> None:
    data = dump_target(target)
    assert data["kind"] in ("folder", "webdav", "s3")
    assert parse_target(data, "backup.target") == target


def test_no_target_is_none() -> None:
    assert parse_target(None, "backup.target") is None


def test_defaults_are_left_out_of_the_file() -> None:
    assert dump_target(S3Target("https://s3.example.com", "bkt")) == {
        "kind": "s3",
        "endpoint": "https://s3.example.com",
        "bucket": "bkt",
    }
    assert dump_target(WebDavTarget("https://h/dav")) == {"kind": "webdav", "url": "https://h/dav"}


def test_values_are_tidied_when_read() -> None:
    parsed = parse_target(
        {"kind": "s3", "endpoint": " https://s3.example.com/ ", "bucket": "bkt", "prefix": "/a/b/"},
        "t",
    )
    assert parsed == S3Target("https://s3.example.com", "bkt", prefix="a/b")
    assert parse_target({"kind": "webdav", "url": "https://h/dav/"}, "t") == WebDavTarget(
        "https://h/dav"
    )


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ([], "backup.target", "object"),
        ({"kind": "ftp"}, "backup.target.kind", "folder, webdav, s3"),
        ({"kind": "folder"}, "backup.target.path", "missing"),
        ({"kind": "folder", "path": "relative/dir"}, "backup.target.path", "full path"),
        ({"kind": "folder", "path": 3}, "backup.target.path", "string"),
        ({"kind": "folder", "path": "/x", "url": "y"}, "backup.target.url", "unknown"),
        ({"kind": "webdav", "url": "ftp://h/x"}, "backup.target.url", "http"),
        ({"kind": "webdav", "url": "https:///nohost"}, "backup.target.url", "host"),
        ({"kind": "webdav", "url": "https://bob:pw@h/x"}, "backup.target.url", "password"),
        (
            {"kind": "s3", "endpoint": "s3.amazonaws.com", "bucket": "b"},
            "backup.target.endpoint",
            "http",
        ),
        (
            {"kind": "s3", "endpoint": "https://h", "bucket": "My_Bucket"},
            "backup.target.bucket",
            "lowercase",
        ),
        (
            {"kind": "s3", "endpoint": "https://h", "bucket": "ab"},
            "backup.target.bucket",
            "3 to 63",
        ),
        (
            {"kind": "s3", "endpoint": "https://h", "bucket": "a" * 64},
            "backup.target.bucket",
            "3 to 63",
        ),
        (
            {"kind": "s3", "endpoint": "https://h", "bucket": "a..b"},
            "backup.target.bucket",
            "bucket",
        ),
        (
            {"kind": "s3", "endpoint": "https://h", "bucket": "-ab"},
            "backup.target.bucket",
            "bucket",
        ),
        (
            {"kind": "s3", "endpoint": "https://h", "bucket": "10.0.0.1"},
            "backup.target.bucket",
            "IP",
        ),
        (
            {"kind": "s3", "endpoint": "https://h", "bucket": "bkt", "region": ""},
            "backup.target.region",
            "region",
        ),
        (
            {"kind": "s3", "endpoint": "https://h", "bucket": "bkt", "prefix": "a/../b"},
            "backup.target.prefix",
            "..",
        ),
        (
            {"kind": "s3", "endpoint": "https://h", "bucket": "bkt", "path_style": "yes"},
            "backup.target.path_style",
            "true or false",
        ),
    ],
)
def test_invalid_targets_are_refused_naming_the_field(data: Any, field: str, words: str) -> None:
    with pytest.raises(SettingsError) as caught:
        parse_target(data, "backup.target")
    assert caught.value.field == field
    assert words in caught.value.problem


def test_descriptions_are_short_and_carry_no_secret() -> None:
    assert describe_target(FolderTarget("/media/disk/Parley")) == "/media/disk/Parley"
    assert describe_target(WebDavTarget("https://h/dav", "alice")) == "https://h/dav"
    s3 = S3Target("https://s3.example.com", "bkt", prefix="a/b", access_key_id="AKIDSECRETISH")
    assert describe_target(s3) == "s3://bkt/a/b on https://s3.example.com"
    assert describe_target(S3Target("https://s3.example.com", "bkt")) == (
        "s3://bkt on https://s3.example.com"
    )


def test_secrets_are_named_after_the_account_they_belong_to() -> None:
    dav = WebDavTarget("https://h/dav", "alice")
    assert secret_name(dav, "password") == "webdav:https://h/dav:alice:password"
    one = S3Target("https://s3.example.com", "bkt", prefix="a", access_key_id="AKID")
    other = S3Target("https://s3.example.com", "other", prefix="b", access_key_id="AKID")
    assert secret_name(one, "password") == secret_name(other, "password")
    assert secret_name(one, "password") != secret_name(
        S3Target("https://s3.example.com", "bkt", access_key_id="AKID2"), "password"
    )
    assert ":" in secret_name(FolderTarget("/x"), "password")  # never a provider id
    with pytest.raises(ValueError):
        secret_name(dav, "Not A Purpose")


def test_only_targets_with_an_account_need_a_secret() -> None:
    assert not needs_secret(FolderTarget("/x"))
    assert not needs_secret(WebDavTarget("https://h/dav"))
    assert needs_secret(WebDavTarget("https://h/dav", "alice"))
    assert not needs_secret(S3Target("https://h", "bkt"))
    assert needs_secret(S3Target("https://h", "bkt", access_key_id="AKID"))
