"""A remote store in an S3 bucket (AWS, MinIO, Garage, Backblaze B2, Cloudflare R2,
Wasabi...): PUT (in parts for a large file), GET, HEAD, DELETE and ListObjectsV2,
signed with Signature V4.

Both addressing styles are supported: path-style (`endpoint/bucket/key`), which most
self-hosted servers need, and virtual-host style (`bucket.endpoint/key`), which AWS
prefers and some providers require. Objects live under the target's prefix; "folders"
are key prefixes ending in "/", listed with the "/" delimiter.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from http import HTTPStatus
from pathlib import Path
from typing import Final

import httpx

from desktop.core.i18n import tr
from desktop.core.remote_target import S3Target, describe_target
from desktop.engine.remote.base import DEFAULT_TIMEOUT, RemoteObject, check_folder, check_name
from desktop.engine.remote.errors import (
    RemoteError,
    RemoteProblem,
    already_there,
    missing_object,
    os_error,
    settings_place,
    status_error,
)
from desktop.engine.remote.sigv4 import (
    EMPTY_SHA256,
    UNSIGNED_PAYLOAD,
    Credentials,
    sign,
    unsigned,
)
from desktop.engine.remote.transfer import FileBody, download, send

Query = Sequence[tuple[str, str]]

_CODES: Final[dict[str, RemoteProblem]] = {
    "InvalidAccessKeyId": RemoteProblem.AUTH,
    "SignatureDoesNotMatch": RemoteProblem.AUTH,
    "ExpiredToken": RemoteProblem.AUTH,
    "InvalidToken": RemoteProblem.AUTH,
    "AccessDenied": RemoteProblem.FORBIDDEN,
    "AllAccessDisabled": RemoteProblem.FORBIDDEN,
    "AccountProblem": RemoteProblem.FORBIDDEN,
    "NoSuchBucket": RemoteProblem.NOT_FOUND,
    "NoSuchKey": RemoteProblem.NOT_FOUND,
    "PreconditionFailed": RemoteProblem.CONFLICT,
    "ConditionalRequestConflict": RemoteProblem.CONFLICT,
    "EntityTooLarge": RemoteProblem.NO_SPACE,
    "QuotaExceeded": RemoteProblem.NO_SPACE,
    "StorageQuotaExceeded": RemoteProblem.NO_SPACE,
    "XMinioStorageFull": RemoteProblem.NO_SPACE,
    "RequestTimeout": RemoteProblem.TIMEOUT,
    "InternalError": RemoteProblem.SERVER,
    "ServiceUnavailable": RemoteProblem.SERVER,
    "SlowDown": RemoteProblem.SERVER,
}
_WRONG_REGION: Final = {"PermanentRedirect", "AuthorizationHeaderMalformed"}
MULTIPART_ABOVE: Final = 256 * 1024 * 1024
PART_SIZE: Final = 64 * 1024 * 1024
MAX_PARTS: Final = 10_000


def _local(tag: str) -> str:
    """An element's name without its namespace (some servers omit S3's)."""
    return tag.rsplit("}", 1)[-1]


def _child_text(element: ET.Element, name: str) -> str | None:
    for child in element:
        if _local(child.tag) == name:
            return child.text or ""
    return None


def _children(element: ET.Element, name: str) -> list[ET.Element]:
    return [child for child in element if _local(child.tag) == name]


def _upload_id(body: bytes) -> str | None:
    """The UploadId of an InitiateMultipartUploadResult."""
    try:
        root = ET.fromstring(body)
    except ET.ParseError:
        return None
    return _child_text(root, "UploadId") or None


def _completion(etags: Sequence[str]) -> bytes:
    """The CompleteMultipartUpload document for parts 1..n with these ETags."""
    root = ET.Element("CompleteMultipartUpload")
    for number, etag in enumerate(etags, start=1):
        part = ET.SubElement(root, "Part")
        ET.SubElement(part, "PartNumber").text = str(number)
        ET.SubElement(part, "ETag").text = etag
    return bytes(ET.tostring(root, encoding="utf-8"))


def error_code(body: bytes) -> tuple[str, str, str]:
    """The `<Error>` document's Code, Message and Region ("" where absent)."""
    try:
        root = ET.fromstring(body)
    except ET.ParseError:
        return "", "", ""
    if _local(root.tag) != "Error":
        return "", "", ""
    return (
        (_child_text(root, "Code") or "").strip(),
        (_child_text(root, "Message") or "").strip(),
        (_child_text(root, "Region") or "").strip(),
    )


class S3Store:
    def __init__(
        self,
        target: S3Target,
        secret_key: str | None,
        client: httpx.AsyncClient,
        *,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.description = describe_target(target)
        self._target = target
        self._client = client
        self._timeout = timeout
        self._clock = clock
        endpoint = httpx.URL(target.endpoint)
        self._scheme = endpoint.scheme
        netloc = endpoint.netloc.decode("ascii")  # the Host header httpx will send
        base = endpoint.path.rstrip("/")
        if target.path_style:
            self.host, self._bucket_path = netloc, f"{base}/{target.bucket}"
        else:
            self.host, self._bucket_path = f"{target.bucket}.{netloc}", base
        self._prefix = f"{target.prefix}/" if target.prefix else ""
        self._credentials = (
            Credentials(target.access_key_id, secret_key or "") if target.access_key_id else None
        )
        self.page_size = 1000  # keys per listing request (S3's most)
        # A file larger than this goes up in parts of `part_size` (S3 takes at most
        # 5 GiB in one PUT, some compatible services less; a part that fails is the
        # only thing sent again). At most 10,000 parts: 640 GiB at 64 MiB.
        self.multipart_above = MULTIPART_ABOVE
        self.part_size = PART_SIZE

    # -- requests ------------------------------------------------------------------

    def request_for(
        self,
        method: str,
        key: str | None,
        query: Query = (),
        payload_hash: str = EMPTY_SHA256,
    ) -> tuple[str, dict[str, str]]:
        """The URL and signing headers for `key` (None: the bucket itself)."""
        path = f"{self._bucket_path}/{key}" if key is not None else (self._bucket_path or "/")
        if self._credentials is None:
            return unsigned(self._scheme, self.host, path, query), {}
        signed = sign(
            method,
            scheme=self._scheme,
            host=self.host,
            path=path,
            query=query,
            payload_hash=payload_hash,
            credentials=self._credentials,
            region=self._target.region,
            now=self._clock(),
        )
        return signed.url, signed.headers

    async def _send(
        self,
        method: str,
        key: str | None,
        query: Query = (),
        *,
        payload_hash: str = EMPTY_SHA256,
        headers: dict[str, str] | None = None,
        content: bytes | FileBody | None = None,
    ) -> httpx.Response:
        url, signing = self.request_for(method, key, query, payload_hash)
        return await send(
            self._client,
            method,
            url,
            self.description,
            timeouts=self._timeout,
            headers={**(headers or {}), **signing},
            content=content,
        )

    def _key(self, name: str) -> str:
        return self._prefix + check_name(name)

    def _error(self, response: httpx.Response, body: bytes, name: str = "") -> RemoteError:
        code, text, region = error_code(body)
        where = self.description
        region = region or response.headers.get("x-amz-bucket-region", "")
        if code == "NoSuchBucket" or (
            not code and not name and response.status_code == HTTPStatus.NOT_FOUND
        ):
            return RemoteError(
                RemoteProblem.NOT_FOUND,
                where,
                message=tr(
                    "The bucket {bucket} does not exist at {endpoint}. Check the bucket name "
                    "in {settings}, or create the bucket first."
                ).format(
                    bucket=self._target.bucket,
                    endpoint=self._target.endpoint,
                    settings=settings_place(),
                ),
                status=response.status_code,
            )
        if code == "NoSuchKey" or (
            not code and name and response.status_code == HTTPStatus.NOT_FOUND
        ):
            return missing_object(where, name)
        if code in _WRONG_REGION or (
            region and response.status_code == HTTPStatus.MOVED_PERMANENTLY
        ):
            return RemoteError(
                RemoteProblem.BAD_RESPONSE,
                where,
                text,
                message=(
                    tr(
                        "The bucket at {where} is in the region {region}. Set that region in "
                        "{settings}"
                    ).format(where=where, region=region, settings=settings_place())
                    if region
                    else tr("The bucket at {where} is in another region. Check the region.").format(
                        where=where
                    )
                ),
                status=response.status_code,
            )
        problem = _CODES.get(code)
        if problem is RemoteProblem.CONFLICT and name:
            return already_there(where, name)
        if problem is not None:
            return RemoteError(problem, where, f"{code}: {text}" if text else code)
        return status_error(response.status_code, where, code or response.reason_phrase)

    # -- the store -----------------------------------------------------------------

    async def check(self) -> None:
        response = await self._send("HEAD", None)
        if not response.is_success:
            # A HEAD answer has no body to say why: a listing's error does. Some keys
            # may list their prefix but not HEAD the bucket; that is enough.
            await self._list_page(self._prefix, None, max_keys=1)

    async def _list_page(
        self, prefix: str, token: str | None, max_keys: int | None = None
    ) -> tuple[ET.Element, str | None]:
        query = [
            ("list-type", "2"),
            ("prefix", prefix),
            ("delimiter", "/"),
            ("max-keys", str(max_keys or self.page_size)),
        ]
        if token:
            query.append(("continuation-token", token))
        response = await self._send("GET", None, query)
        if not response.is_success:
            raise self._error(response, response.content)
        try:
            root = ET.fromstring(response.content)
        except ET.ParseError as error:
            raise RemoteError(RemoteProblem.BAD_RESPONSE, self.description, str(error)) from None
        if _local(root.tag) != "ListBucketResult":
            raise RemoteError(
                RemoteProblem.BAD_RESPONSE, self.description, tr("not a bucket listing")
            )
        truncated = (_child_text(root, "IsTruncated") or "").strip().lower() == "true"
        following = _child_text(root, "NextContinuationToken") if truncated else None
        if truncated and not following:
            raise RemoteError(
                RemoteProblem.BAD_RESPONSE, self.description, tr("a listing that cannot go on")
            )
        return root, following

    async def list(self, folder: str = "") -> list[RemoteObject]:
        folder = check_folder(folder)
        prefix = self._prefix + (f"{folder}/" if folder else "")
        found: dict[str, RemoteObject] = {}
        token: str | None = None
        while True:
            root, token = await self._list_page(prefix, token)
            for item in _children(root, "Contents"):
                name = (_child_text(item, "Key") or "")[len(prefix) :]
                if not name or "/" in name:
                    continue  # the folder's own marker object
                size_text = (_child_text(item, "Size") or "0").strip()
                stamp = (_child_text(item, "LastModified") or "").strip()
                try:
                    modified: datetime | None = datetime.fromisoformat(stamp) if stamp else None
                except ValueError:
                    modified = None
                size = int(size_text) if size_text.isdigit() else 0
                found[name] = RemoteObject(name, size, modified)
            for common in _children(root, "CommonPrefixes"):
                name = (_child_text(common, "Prefix") or "")[len(prefix) :]
                if name.endswith("/") and name != "/":
                    found[name] = RemoteObject(name, 0, None)
            if token is None:
                return sorted(found.values(), key=lambda item: item.name)

    async def put_file(self, name: str, path: Path) -> None:
        key = self._key(name)
        try:
            size = (await asyncio.to_thread(path.stat)).st_size
            if size > self.multipart_above:
                await self._put_in_parts(key, path, size)
                return
            with await FileBody.open(path) as body:
                response = await self._send(
                    "PUT",
                    key,
                    payload_hash=UNSIGNED_PAYLOAD,
                    headers={"Content-Length": str(body.size)},
                    content=body,
                )
        except OSError as error:
            raise os_error(error, str(path.parent)) from error
        if not response.is_success:
            raise self._error(response, response.content)

    async def _put_in_parts(self, key: str, path: Path, size: int) -> None:
        """A multipart upload; the object appears whole when the last step succeeds,
        and an upload that fails is aborted, so no parts are left to be paid for."""
        part_size = max(self.part_size, -(-size // MAX_PARTS))
        response = await self._send("POST", key, [("uploads", "")])
        upload_id = _upload_id(response.content) if response.is_success else None
        if upload_id is None:
            raise self._error(response, response.content)
        try:
            etags: list[str] = []
            for number, offset in enumerate(range(0, size, part_size), start=1):
                with await FileBody.open(path, offset, part_size) as body:
                    response = await self._send(
                        "PUT",
                        key,
                        [("partNumber", str(number)), ("uploadId", upload_id)],
                        payload_hash=UNSIGNED_PAYLOAD,
                        headers={"Content-Length": str(body.size)},
                        content=body,
                    )
                if not response.is_success or "etag" not in response.headers:
                    raise self._error(response, response.content)
                etags.append(response.headers["etag"])
            listing = _completion(etags)
            response = await self._send(
                "POST",
                key,
                [("uploadId", upload_id)],
                payload_hash=hashlib.sha256(listing).hexdigest(),
                headers={"Content-Length": str(len(listing))},
                content=listing,
            )
            # S3 may answer 200 and still fail: the error is then in the body.
            if not response.is_success or error_code(response.content)[0]:
                raise self._error(response, response.content)
        except BaseException:
            with contextlib.suppress(Exception):
                await self._send("DELETE", key, [("uploadId", upload_id)])
            raise

    async def put_bytes(self, name: str, data: bytes, *, create_only: bool = False) -> None:
        headers = {"Content-Length": str(len(data))}
        if create_only:
            headers["If-None-Match"] = "*"
        response = await self._send(
            "PUT",
            self._key(name),
            payload_hash=hashlib.sha256(data).hexdigest(),
            headers=headers,
            content=data,
        )
        if create_only and response.status_code == HTTPStatus.PRECONDITION_FAILED:
            raise already_there(self.description, name)
        if not response.is_success:
            raise self._error(response, response.content, name if create_only else "")

    async def get_file(self, name: str, path: Path) -> None:
        url, headers = self.request_for("GET", self._key(name))
        await download(
            self._client,
            url,
            self.description,
            path,
            fail=lambda response, body: self._error(response, body, name),
            timeouts=self._timeout,
            headers=headers,
        )

    async def get_bytes(self, name: str) -> bytes:
        response = await self._send("GET", self._key(name))
        if not response.is_success:
            raise self._error(response, response.content, name)
        return response.content

    async def delete(self, name: str) -> None:
        response = await self._send("DELETE", self._key(name))
        if response.is_success:
            return
        error = self._error(response, response.content, name)
        if error.problem is not RemoteProblem.NOT_FOUND or error_code(response.content)[0] not in (
            "NoSuchKey",
            "",
        ):
            raise error
