"""The "Where" part of File → Back Up… as plain values: which kind of target, and the
text of each of its fields, turned into a `RemoteTarget` by the same check the settings
file gets (`parse_target`), so a field refused here would be refused there too.

Kept apart from the view-model so the round trip (a saved target → the fields → the
same target) is one small, testable thing; no secret ever passes through here.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final

from desktop.core.errors import SettingsError
from desktop.core.remote_target import (
    DEFAULT_REGION,
    FolderTarget,
    RemoteTarget,
    S3Target,
    WebDavTarget,
    dump_target,
    parse_target,
)

FieldValue = str | bool
_WHERE: Final = "target"


class TargetKind(StrEnum):
    FOLDER = "folder"
    WEBDAV = "webdav"
    S3 = "s3"


# Each kind's fields, in the order the form shows them (the secret is not one of them).
FIELDS: Final[dict[TargetKind, tuple[str, ...]]] = {
    TargetKind.FOLDER: ("path",),
    TargetKind.WEBDAV: ("url", "username"),
    TargetKind.S3: ("endpoint", "region", "bucket", "prefix", "access_key_id", "path_style"),
}


def kind_of(target: RemoteTarget | None) -> TargetKind:
    if isinstance(target, WebDavTarget):
        return TargetKind.WEBDAV
    if isinstance(target, S3Target):
        return TargetKind.S3
    return TargetKind.FOLDER


def fields_of(target: RemoteTarget | None) -> dict[str, FieldValue]:
    """Every field of every kind, as the form shows them for `target` (the defaults for
    the kinds it is not)."""
    values: dict[str, FieldValue] = {
        "path": "",
        "url": "",
        "username": "",
        "endpoint": "",
        "region": DEFAULT_REGION,
        "bucket": "",
        "prefix": "",
        "access_key_id": "",
        "path_style": True,
    }
    if isinstance(target, FolderTarget):
        values["path"] = target.path
    elif isinstance(target, WebDavTarget):
        values.update(url=target.url, username=target.username)
    elif isinstance(target, S3Target):
        values.update(
            endpoint=target.endpoint,
            region=target.region,
            bucket=target.bucket,
            prefix=target.prefix,
            access_key_id=target.access_key_id,
            path_style=target.path_style,
        )
    return values


def build_target(kind: TargetKind, values: Mapping[str, FieldValue]) -> RemoteTarget:
    """The target the form describes. Raises SettingsError whose `field` is the form's
    field name ("url", "bucket"...) and whose `problem` says what is wrong with it."""
    data: dict[str, FieldValue] = {"kind": kind.value}
    for name in FIELDS[kind]:
        value = values.get(name, "")
        data[name] = value.strip() if isinstance(value, str) else value
    if kind is TargetKind.S3 and not data.get("region"):
        data["region"] = DEFAULT_REGION
    try:
        target = parse_target(data, _WHERE)
    except SettingsError as error:
        raise SettingsError(error.field.removeprefix(f"{_WHERE}."), error.problem) from None
    assert target is not None  # data is an object, never null
    return target


def same_target(a: RemoteTarget | None, b: RemoteTarget | None) -> bool:
    """Whether two targets are saved the same way (the dataclasses compare equal too;
    this also treats a trailing slash the parser removes as the same)."""
    if a is None or b is None:
        return a is b
    return dump_target(a) == dump_target(b)
