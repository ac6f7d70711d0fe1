"""Where backups (and later sync) are stored: a folder, a WebDAV server or an S3 bucket.

Plain data parsed from and dumped to settings.json. Passwords and secret keys are never
part of a target: they live in the keyring under `secret_name(target, purpose)`, so the
settings file can be copied, shown or restored without carrying credentials. For the
same reason a URL with a password in it (`https://user:pass@host`) is refused.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr

DEFAULT_REGION: Final = "us-east-1"

_BUCKET: Final = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
_REGION: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_PURPOSE: Final = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


@dataclass(frozen=True, slots=True)
class FolderTarget:
    """A local folder (an external disk, a folder a sync client mirrors)."""

    path: str


@dataclass(frozen=True, slots=True)
class WebDavTarget:
    """A WebDAV collection, e.g. Nextcloud's `https://host/remote.php/dav/files/alice/Parley`."""

    url: str
    username: str = ""


@dataclass(frozen=True, slots=True)
class S3Target:
    """A bucket (and a key prefix inside it) at an S3-compatible endpoint.

    `path_style` addresses `endpoint/bucket/key` (MinIO, Garage, most self-hosted
    servers); off, `bucket.endpoint/key` (AWS's default, required by some providers).
    """

    endpoint: str
    bucket: str
    region: str = DEFAULT_REGION
    prefix: str = ""
    access_key_id: str = ""
    path_style: bool = True


RemoteTarget = FolderTarget | WebDavTarget | S3Target

_KEYS: Final[dict[str, set[str]]] = {
    "folder": {"kind", "path"},
    "webdav": {"kind", "url", "username"},
    "s3": {"kind", "endpoint", "bucket", "region", "prefix", "access_key_id", "path_style"},
}


def _string(data: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if value is None:
        raise SettingsError(f"{where}.{key}", tr("is missing"))
    if not isinstance(value, str):
        raise SettingsError(
            f"{where}.{key}", tr("must be a string, not {type}").format(type=type(value).__name__)
        )
    return value.strip()


def _http_url(value: str, where: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingsError(where, tr("must be an http:// or https:// URL with a host"))
    if parts.username or parts.password:
        raise SettingsError(
            where,
            tr("must not contain a user name or password (enter them in their own fields)"),
        )
    if parts.query or parts.fragment:
        raise SettingsError(where, tr("must not contain a query (?…) or fragment (#…)"))
    return value.rstrip("/")


def check_bucket(bucket: str, where: str = "bucket") -> str:
    """`bucket` if it follows S3's naming rules, else SettingsError saying which."""
    if not _BUCKET.match(bucket) or ".." in bucket or ".-" in bucket or "-." in bucket:
        raise SettingsError(
            where,
            tr(
                "must be a bucket name of 3 to 63 lowercase letters, digits, dots and "
                "hyphens, starting and ending with a letter or digit"
            ),
        )
    try:
        ipaddress.IPv4Address(bucket)
    except ValueError:
        return bucket
    raise SettingsError(where, tr("must be a bucket name, not an IP address"))


def _prefix(value: str, where: str) -> str:
    prefix = value.strip("/")
    segments = prefix.split("/") if prefix else []
    if "\\" in prefix or any(s in ("", ".", "..") for s in segments):
        raise SettingsError(
            where, tr('must be folder names separated by "/" (no "..", no "\\", no "//")')
        )
    return prefix


def parse_target(data: Any, where: str) -> RemoteTarget | None:
    """The target described by `data` (None for null: no target chosen yet).

    Raises SettingsError naming the field below `where` and what is wrong with it.
    """
    if data is None:
        return None
    if not isinstance(data, dict):
        raise SettingsError(where, tr("must be an object"))
    kind = data.get("kind")
    if kind not in _KEYS:
        raise SettingsError(f"{where}.kind", tr("must be one of: folder, webdav, s3"))
    unknown = sorted(set(data) - _KEYS[kind])
    if unknown:
        raise SettingsError(f"{where}.{unknown[0]}", tr("unknown setting (check the spelling)"))
    if kind == "folder":
        path = _string(data, "path", where)
        if not path or not Path(path).expanduser().is_absolute():
            raise SettingsError(
                f"{where}.path", tr("must be the full path of a folder (e.g. /media/disk/Parley)")
            )
        return FolderTarget(path)
    if kind == "webdav":
        url = _http_url(_string(data, "url", where), f"{where}.url")
        return WebDavTarget(url, _string(data, "username", where, ""))
    endpoint = _http_url(_string(data, "endpoint", where), f"{where}.endpoint")
    bucket = check_bucket(_string(data, "bucket", where), f"{where}.bucket")
    region = _string(data, "region", where, DEFAULT_REGION)
    if not _REGION.match(region):
        raise SettingsError(
            f"{where}.region", tr('must be a region name such as "us-east-1" (ask your provider)')
        )
    path_style = data.get("path_style", True)
    if not isinstance(path_style, bool):
        raise SettingsError(f"{where}.path_style", tr("must be true or false"))
    return S3Target(
        endpoint=endpoint,
        bucket=bucket,
        region=region,
        prefix=_prefix(_string(data, "prefix", where, ""), f"{where}.prefix"),
        access_key_id=_string(data, "access_key_id", where, ""),
        path_style=path_style,
    )


def dump_target(target: RemoteTarget) -> dict[str, Any]:
    """JSON for settings.json; `parse_target(dump_target(t), ...) == t`."""
    if isinstance(target, FolderTarget):
        return {"kind": "folder", "path": target.path}
    if isinstance(target, WebDavTarget):
        data: dict[str, Any] = {"kind": "webdav", "url": target.url}
        if target.username:
            data["username"] = target.username
        return data
    data = {"kind": "s3", "endpoint": target.endpoint, "bucket": target.bucket}
    if target.region != DEFAULT_REGION:
        data["region"] = target.region
    if target.prefix:
        data["prefix"] = target.prefix
    if target.access_key_id:
        data["access_key_id"] = target.access_key_id
    if not target.path_style:
        data["path_style"] = False
    return data


def describe_target(target: RemoteTarget) -> str:
    """A short description for messages and logs; never contains a secret."""
    if isinstance(target, FolderTarget):
        return target.path
    if isinstance(target, WebDavTarget):
        return target.url
    where = f"s3://{target.bucket}/{target.prefix}".rstrip("/")
    return tr("{bucket} on {endpoint}").format(bucket=where, endpoint=target.endpoint)


def needs_secret(target: RemoteTarget) -> bool:
    """Whether the target is reached with a password or secret key."""
    if isinstance(target, WebDavTarget):
        return bool(target.username)
    return isinstance(target, S3Target) and bool(target.access_key_id)


def secret_name(target: RemoteTarget, purpose: str) -> str:
    """The keyring entry holding the target's `purpose` secret ("password" for a WebDAV
    password or an S3 secret key).

    Named after what the secret belongs to (the server and the account), so two targets
    on the same account share it and a changed folder or prefix keeps it. The ':' keeps
    these names apart from provider ids, which are the other keyring entries. A folder
    has no secret: its name is well-formed but never stored.
    """
    if not _PURPOSE.match(purpose):
        raise ValueError(f"not a secret purpose: {purpose!r}")
    if isinstance(target, WebDavTarget):
        return f"webdav:{target.url}:{target.username}:{purpose}"
    if isinstance(target, S3Target):
        return f"s3:{target.endpoint}:{target.access_key_id}:{purpose}"
    return f"folder:{target.path}:{purpose}"
