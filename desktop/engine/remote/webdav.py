"""A remote store on a WebDAV server (Nextcloud, ownCloud, Apache mod_dav, rclone, NAS
boxes): PROPFIND to list, GET and PUT streamed, MKCOL for folders, DELETE.

Only RFC 4918's core is used, the part every server implements; `If-None-Match: *` makes
create-only writes exclusive on the servers that honour it (WsgiDAV, Apache, Nextcloud).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from pathlib import Path
from typing import Final
from urllib.parse import quote, unquote, urlsplit

import httpx

from desktop.core.i18n import tr
from desktop.core.remote_target import WebDavTarget, describe_target
from desktop.engine.remote.base import (
    DEFAULT_TIMEOUT,
    RemoteObject,
    check_folder,
    check_name,
    parent_folders,
)
from desktop.engine.remote.errors import (
    RemoteError,
    RemoteProblem,
    already_there,
    missing_object,
    os_error,
    status_error,
)
from desktop.engine.remote.transfer import FileBody, download, send

DAV: Final = "{DAV:}"
MULTI_STATUS: Final = 207
_PROPFIND_BODY: Final = (
    b'<?xml version="1.0" encoding="utf-8"?>'
    b'<d:propfind xmlns:d="DAV:"><d:prop>'
    b"<d:resourcetype/><d:getcontentlength/><d:getlastmodified/>"
    b"</d:prop></d:propfind>"
)
_PROPFIND_HEADERS: Final = {"Content-Type": 'application/xml; charset="utf-8"'}
# A PUT into a folder that does not exist yet: 409 per RFC 4918, 404 on some servers.
_NO_PARENT: Final = (404, 409)


def _bad_listing(where: str, why: str) -> RemoteError:
    return RemoteError(
        RemoteProblem.BAD_RESPONSE,
        where,
        why,
        message=tr(
            "The server at {where} did not answer like a WebDAV server. Check that the "
            "address is the WebDAV address of a folder (for Nextcloud: "
            "…/remote.php/dav/files/<user>/…)."
        ).format(where=where),
    )


def _ok_props(response: ET.Element) -> list[ET.Element]:
    """The <prop> elements of `response` whose propstat status is 200."""
    found = []
    for propstat in response.findall(f"{DAV}propstat"):
        status = propstat.findtext(f"{DAV}status", "")
        prop = propstat.find(f"{DAV}prop")
        if prop is not None and " 200 " in f"{status} ":
            found.append(prop)
    return found


def parse_listing(body: bytes, collection: str, where: str) -> list[RemoteObject]:
    """The members of `collection` (a decoded URL path) in a PROPFIND Depth 1 answer.

    Hrefs may be absolute URLs or absolute paths, percent-encoded in any of the ways
    servers choose; they are compared decoded. The collection's own entry is left out.
    """
    try:
        root = ET.fromstring(body)
    except ET.ParseError as error:
        raise _bad_listing(where, str(error)) from None
    if root.tag != f"{DAV}multistatus":
        raise _bad_listing(where, tr("no multistatus element"))
    own = collection.rstrip("/")
    found: dict[str, RemoteObject] = {}
    for response in root.findall(f"{DAV}response"):
        href = response.findtext(f"{DAV}href")
        if not href:
            raise _bad_listing(where, tr("an entry without an address"))
        path = unquote(urlsplit(href.strip()).path)
        is_folder = path.endswith("/")
        path = path.rstrip("/")
        if path == own:
            continue
        if path.startswith(own + "/"):
            name = path[len(own) + 1 :]
            if "/" in name:
                continue  # deeper than asked (a server ignoring Depth: 1)
        else:
            name = path.rsplit("/", 1)[-1]
        size, modified = 0, None
        for prop in _ok_props(response):
            kind = prop.find(f"{DAV}resourcetype")
            if kind is not None and kind.find(f"{DAV}collection") is not None:
                is_folder = True
            length = prop.findtext(f"{DAV}getcontentlength")
            if length and length.strip().isdigit():
                size = int(length)
            stamp = prop.findtext(f"{DAV}getlastmodified")
            if stamp:
                try:
                    modified = parsedate_to_datetime(stamp.strip())
                except (TypeError, ValueError):
                    modified = None
        if not name:
            continue
        if is_folder:
            found[name + "/"] = RemoteObject(name + "/", 0, modified)
        else:
            found[name] = RemoteObject(name, size, modified)
    return sorted(found.values(), key=lambda item: item.name)


class WebDavStore:
    def __init__(
        self,
        target: WebDavTarget,
        password: str | None,
        client: httpx.AsyncClient,
        *,
        timeout: httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> None:
        self.description = describe_target(target)
        self._base = target.url.rstrip("/") + "/"
        self._client = client
        self._timeout = timeout
        self._auth = httpx.BasicAuth(target.username, password or "") if target.username else None

    def _url(self, name: str, *, folder: bool = False) -> str:
        return self._base + quote(name, safe="/") + ("/" if folder and name else "")

    async def _send(
        self,
        method: str,
        url: str,
        *,
        headers: dict[str, str] | None = None,
        content: bytes | FileBody | None = None,
    ) -> httpx.Response:
        return await send(
            self._client,
            method,
            url,
            self.description,
            timeouts=self._timeout,
            headers=headers,
            content=content,
            auth=self._auth,
        )

    def _fail(self, response: httpx.Response, _body: bytes = b"") -> RemoteError:
        return status_error(response.status_code, self.description, response.reason_phrase)

    async def _propfind(self, url: str, depth: str) -> httpx.Response:
        return await self._send(
            "PROPFIND",
            url,
            headers={**_PROPFIND_HEADERS, "Depth": depth},
            content=_PROPFIND_BODY,
        )

    async def check(self) -> None:
        response = await self._propfind(self._base, "0")
        if response.status_code == MULTI_STATUS:
            return
        if response.status_code not in _NO_PARENT:
            raise self._fail(response)
        await self._make_base()

    async def _make_base(self) -> None:
        """MKCOL each missing level of the store's own URL, outermost first."""
        parts = urlsplit(self._base)
        segments = [s for s in parts.path.split("/") if s]
        origin = f"{parts.scheme}://{parts.netloc}/"
        missing = len(segments)
        while missing > 1:  # find the deepest level that exists
            response = await self._propfind(origin + "/".join(segments[: missing - 1]) + "/", "0")
            if response.status_code == MULTI_STATUS:
                break
            if response.status_code not in _NO_PARENT:
                raise self._fail(response)
            missing -= 1
        for level in range(missing, len(segments) + 1):
            await self._mkcol(origin + "/".join(segments[:level]) + "/")

    async def _mkcol(self, url: str) -> None:
        response = await self._send("MKCOL", url)
        # 405: it exists already (another device made it meanwhile).
        if not response.is_success and response.status_code != HTTPStatus.METHOD_NOT_ALLOWED:
            raise self._fail(response)

    async def _make_parents(self, name: str) -> None:
        for folder in parent_folders(name):
            await self._mkcol(self._url(folder, folder=True))

    async def list(self, folder: str = "") -> list[RemoteObject]:
        folder = check_folder(folder)
        url = self._url(folder, folder=True)
        response = await self._propfind(url, "1")
        if response.status_code in _NO_PARENT:
            return []
        if response.status_code != MULTI_STATUS:
            if response.is_success:
                raise _bad_listing(self.description, tr("HTTP {status}").format(status=200))
            raise self._fail(response)
        collection = unquote(urlsplit(url).path)
        return parse_listing(response.content, collection, self.description)

    async def _put(
        self, name: str, body: bytes | Path, extra: dict[str, str] | None = None
    ) -> httpx.Response:
        """PUT `body`, making the folders leading to `name` if the server lacks them."""
        url = self._url(check_name(name))
        for attempt in range(2):
            headers = dict(extra or {})
            if isinstance(body, Path):
                try:
                    with await FileBody.open(body) as stream:
                        headers["Content-Length"] = str(stream.size)
                        response = await self._send("PUT", url, headers=headers, content=stream)
                except OSError as error:
                    raise os_error(error, str(body.parent)) from error
            else:
                headers["Content-Length"] = str(len(body))
                response = await self._send("PUT", url, headers=headers, content=body)
            if response.status_code in _NO_PARENT and attempt == 0 and "/" in name:
                await self._make_parents(name)
                continue
            break
        return response

    async def put_file(self, name: str, path: Path) -> None:
        response = await self._put(name, path)
        if not response.is_success:
            raise self._fail(response)

    async def put_bytes(self, name: str, data: bytes, *, create_only: bool = False) -> None:
        response = await self._put(name, data, {"If-None-Match": "*"} if create_only else None)
        if response.status_code == HTTPStatus.PRECONDITION_FAILED and create_only:
            raise already_there(self.description, name)
        if not response.is_success:
            raise self._fail(response)

    async def get_file(self, name: str, path: Path) -> None:
        def fail(response: httpx.Response, body: bytes) -> RemoteError:
            if response.status_code == HTTPStatus.NOT_FOUND:
                return missing_object(self.description, name)
            return self._fail(response, body)

        await download(
            self._client,
            self._url(check_name(name)),
            self.description,
            path,
            fail=fail,
            timeouts=self._timeout,
            auth=self._auth,
        )

    async def get_bytes(self, name: str) -> bytes:
        response = await self._send("GET", self._url(check_name(name)))
        if response.status_code == HTTPStatus.NOT_FOUND:
            raise missing_object(self.description, name)
        if not response.is_success:
            raise self._fail(response)
        return response.content

    async def delete(self, name: str) -> None:
        response = await self._send("DELETE", self._url(check_name(name)))
        if not response.is_success and response.status_code != HTTPStatus.NOT_FOUND:
            raise self._fail(response)
