"""Fetches the images answers refer to, once the person allows remote images.

Fetching an image tells its server the person's address, so nothing is fetched unless
the setting is on (the chat view-model only asks then), and only over ``https``
(`allowed_schemes`; tests widen it to reach a loopback ``http`` server). Every redirect
is held to the same rule. A body over `max_bytes`, a fetch slower than `timeout`, or
anything that does not decode as PNG, JPEG, GIF, WebP or BMP is a failure: the message
keeps its link, nothing is shown to the person (the log records the kind of failure,
never the URL, which is message text), and the URL is not tried again for a while.

Images are decoded in a worker thread, scaled down to at most `MAX_SIDE` pixels a side,
and cached by URL (least recently used first out past `CACHE_BYTES`). The client sends
no cookies back and stores none, and asks for no compression (a compressed body could
inflate past the size cap between two checks).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from functools import partial
from http.cookiejar import CookieJar, DefaultCookiePolicy

import httpx
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QImage, QImageReader

from desktop import __version__
from desktop.core.errors import SettingsError
from desktop.core.settings import NetworkSettings, ProxyMode
from desktop.providers.http_client import ssl_context
from desktop.render.images import is_web_image
from desktop.ui.viewmodels.tasks import TaskGroup

log = logging.getLogger(__name__)

MAX_IMAGE_BYTES = 10 * 1024 * 1024
TIMEOUT_S = 20.0
CONNECT_TIMEOUT_S = 10.0
MAX_REDIRECTS = 5
MAX_PIXELS = 50_000_000  # checked before decoding: a small file can claim a huge canvas
MAX_SIDE = 2048
CACHE_BYTES = 128 * 1024 * 1024
RETRY_AFTER_S = 300.0
MAX_PARALLEL = 4
FORMATS = frozenset({"png", "jpeg", "jpg", "gif", "webp", "bmp"})


class ImageRejected(Exception):
    """The response is not an image Parley shows (too big, wrong kind, bad redirect)."""


# What a fetch may raise for reasons outside Parley: the image just stays a link.
# (ValueError: a URL httpx cannot encode, such as a malformed international host.)
_FAILURES = (
    httpx.HTTPError,
    httpx.InvalidURL,
    httpx.StreamError,
    TimeoutError,
    OSError,
    ValueError,
)


def image_key(url: str | QUrl) -> str:
    """One spelling per URL, the same for the string we fetch and the QUrl Qt asks for."""
    qurl = url if isinstance(url, QUrl) else QUrl(url)
    return qurl.toString(QUrl.ComponentFormattingOption.FullyEncoded)


def decode_image(data: bytes, *, max_pixels: int = MAX_PIXELS, max_side: int = MAX_SIDE) -> QImage:
    """The image in `data`, scaled to fit `max_side`; raises ImageRejected. Any thread."""
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    if bytes(reader.format().data()).decode("ascii", "replace").lower() not in FORMATS:
        raise ImageRejected("not an image")
    size = reader.size()
    if not size.isValid() or size.width() * size.height() > max_pixels:
        raise ImageRejected("too many pixels")
    if size.width() > max_side or size.height() > max_side:
        reader.setScaledSize(size.scaled(max_side, max_side, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    buffer.close()
    if image.isNull():
        raise ImageRejected("undecodable")
    return image


class ImageLoader(QObject):
    """Loads web images on request; `loaded` carries the URL exactly as requested."""

    loaded = Signal(str)
    evicted = Signal(str)  # a URL reported as loaded is no longer cached

    def __init__(
        self,
        tasks: TaskGroup,
        *,
        allowed_schemes: frozenset[str] = frozenset({"https"}),
        max_bytes: int = MAX_IMAGE_BYTES,
        timeout: float = TIMEOUT_S,
        cache_bytes: int = CACHE_BYTES,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.allowed_schemes = allowed_schemes
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.cache_bytes = cache_bytes
        self.requests_made = 0  # HTTP requests sent, redirects included (tests read it)
        self._tasks = tasks
        self._client: httpx.AsyncClient | None = None
        self._network = NetworkSettings()
        self._slots = asyncio.Semaphore(MAX_PARALLEL)
        self._images: OrderedDict[str, QImage] = OrderedDict()
        self._cached_bytes = 0
        self._names: dict[str, set[str]] = {}  # key -> the URLs reported loaded for it
        self._loading: dict[str, set[str]] = {}  # key -> the URLs waiting for it
        self._failed: dict[str, float] = {}  # key -> when it failed (monotonic)

    def allows(self, url: str) -> bool:
        """A web URL with a host, in one of `allowed_schemes`."""
        return is_web_image(url) and QUrl(url.strip()).scheme().lower() in self.allowed_schemes

    def request(self, url: str) -> bool:
        """Start loading `url` unless it is loaded, loading, refused or failed recently.

        True when `loaded` will be emitted for it (later, never during this call).
        """
        if not self.allows(url):
            return False
        key = image_key(url)
        if key in self._images:  # loaded under another spelling, or reported to others
            self._names[key].add(url)
            QTimer.singleShot(0, self, partial(self._report, key, url))
            return True
        if key in self._loading:
            self._loading[key].add(url)
            return True
        failed_at = self._failed.get(key)
        if failed_at is not None and time.monotonic() - failed_at < RETRY_AFTER_S:
            return False
        self._loading[key] = {url}
        self._tasks.start(self._load(key, url), "load-image")
        return True

    def image(self, url: str | QUrl) -> QImage | None:
        """The loaded image for `url`, or None."""
        key = image_key(url)
        image = self._images.get(key)
        if image is not None:
            self._images.move_to_end(key)
        return image

    def use_network(self, network: NetworkSettings) -> None:
        """Follow the proxy and CA settings; the next request builds a client with them."""
        if network == self._network:
            return
        self._network = network
        if self._client is not None:
            old, self._client = self._client, None
            self._tasks.start(old.aclose(), "close-image-client")

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    # --- loading ------------------------------------------------------------------

    async def _load(self, key: str, url: str) -> None:
        started = time.monotonic()
        try:
            async with self._slots:
                data = await self._fetch(url)
            image = await asyncio.to_thread(decode_image, data)
        except (*_FAILURES, ImageRejected) as error:
            log.info("image not loaded (%s) after %.0f ms", _why(error), _ms_since(started))
            self._failed[key] = time.monotonic()
            self._loading.pop(key, None)
            return
        log.info("image loaded (%d bytes) in %.0f ms", len(data), _ms_since(started))
        names = self._loading.pop(key, {url})
        self._store(key, image, names)
        for name in names:
            self.loaded.emit(name)

    async def _fetch(self, url: str) -> bytes:
        client = self._http()
        async with asyncio.timeout(self.timeout):
            for _hop in range(MAX_REDIRECTS + 1):
                if not self.allows(url):
                    raise ImageRejected("scheme not allowed")
                self.requests_made += 1
                async with client.stream("GET", url) as response:
                    if not response.is_redirect:
                        response.raise_for_status()
                        return await self._read(response)
                    location = response.headers.get("location", "")
                    url = str(response.url.join(location))
        raise ImageRejected("too many redirects")

    async def _read(self, response: httpx.Response) -> bytes:
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            raise ImageRejected("compressed body")
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise ImageRejected("too large")
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_raw():
            size += len(chunk)
            if size > self.max_bytes:
                raise ImageRejected("too large")
            chunks.append(chunk)
        return b"".join(chunks)

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            network = self._network
            try:
                verify = ssl_context(network.ca_bundle)
            except SettingsError:  # reported by the provider settings; images just try
                verify = True
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(self.timeout, connect=CONNECT_TIMEOUT_S),
                follow_redirects=False,  # each hop is checked in `_fetch`
                trust_env=network.proxy_mode is ProxyMode.SYSTEM,
                proxy=network.proxy_url if network.proxy_mode is ProxyMode.CUSTOM else None,
                verify=verify,
                headers={
                    "User-Agent": f"Parley/{__version__}",
                    "Accept": "image/png,image/jpeg,image/gif,image/webp,image/bmp",
                    "Accept-Encoding": "identity",
                },
                cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])),
            )
        return self._client

    # --- the cache ----------------------------------------------------------------

    def _store(self, key: str, image: QImage, names: set[str]) -> None:
        self._images[key] = image
        self._names.setdefault(key, set()).update(names)
        self._cached_bytes += image.sizeInBytes()
        while self._cached_bytes > self.cache_bytes and len(self._images) > 1:
            old_key, old = self._images.popitem(last=False)
            self._cached_bytes -= old.sizeInBytes()
            for name in self._names.pop(old_key, set()):
                self.evicted.emit(name)

    def _report(self, key: str, url: str) -> None:
        if key in self._images:
            self.loaded.emit(url)


def _why(error: BaseException) -> str:
    if isinstance(error, ImageRejected):
        return str(error)
    if isinstance(error, httpx.HTTPStatusError):
        return f"HTTP {error.response.status_code}"
    return type(error).__name__


def _ms_since(start: float) -> float:
    return (time.monotonic() - start) * 1000
