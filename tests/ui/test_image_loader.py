"""The image loader against a real loopback HTTP server.

Loopback HTTPS needs certificates, so these tests widen the loader's scheme policy to
``http`` (the policy itself is tested too: by default only ``https`` is ever fetched).
"""

from __future__ import annotations

import asyncio
import struct
import zlib

import pytest
from PySide6.QtCore import QBuffer, QIODevice, QUrl
from PySide6.QtGui import QImage

from desktop.ui.image_loader import MAX_SIDE, ImageLoader, ImageRejected, decode_image
from desktop.ui.viewmodels.tasks import TaskGroup
from tests.support.qt_images import png
from tests.support.sse_server import Head, Send, Sleep, raw_response

WEB = frozenset({"http"})


def noisy_png() -> bytes:
    """A real PNG of a few KB (noise does not compress)."""
    image = QImage(40, 40, QImage.Format.Format_RGB32)
    for x in range(40):
        for y in range(40):
            image.setPixel(x, y, (x * 7919 + y * 104729) * 2654435761 % 0xFFFFFF)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data().data())


def png_claiming(width: int, height: int) -> bytes:
    """A small valid PNG whose header claims a `width` x `height` canvas."""
    data = bytearray(png())
    header = b"IHDR" + struct.pack(">II", width, height) + bytes(data[24:29])
    data[12:29] = header
    data[29:33] = struct.pack(">I", zlib.crc32(header))
    return bytes(data)


def image_response(body: bytes, content_type: str = "image/png", **headers: str):
    return raw_response(body, headers={"Content-Type": content_type, **headers})


class Harness:
    """A loader on the test loop, with what it reported."""

    def __init__(self, loop: asyncio.AbstractEventLoop, **options) -> None:
        self.loop = loop
        self.tasks = TaskGroup()
        self.loader = ImageLoader(self.tasks, **options)
        self.loaded: list[str] = []
        self.evicted: list[str] = []
        self.loader.loaded.connect(self.loaded.append)
        self.loader.evicted.connect(self.evicted.append)

    def load(self, url: str) -> bool:
        """Request `url` and wait until the loader has finished with it."""
        accepted = self.loader.request(url)
        self.loop.run_until_complete(self._settle())
        return accepted

    async def _settle(self) -> None:
        await self.tasks.drain()
        await asyncio.sleep(0.01)  # deliver reports queued on the Qt loop

    def close(self) -> None:
        self.loop.run_until_complete(self.loader.aclose())


@pytest.fixture
def harness(loop):
    made: list[Harness] = []

    def make(**options) -> Harness:
        made.append(Harness(loop, **options))
        return made[-1]

    yield make
    for item in made:
        item.close()


def test_by_default_only_https_images_are_fetched(harness, sse_server):
    h = harness()
    for url in (
        f"{sse_server.url}/a.png",
        "file:///etc/passwd",
        "data:image/png;base64,iVBORw0KGgo=",
        "ftp://example.com/a.png",
        "https:///no-host.png",
    ):
        assert not h.load(url), url
    assert h.loader.allows("https://example.com/a.png")
    assert sse_server.requests == []
    assert h.loaded == []


def test_an_allowed_image_is_fetched_once_then_served_from_the_cache(harness, sse_server):
    h = harness(allowed_schemes=WEB)
    url = f"{sse_server.url}/chart.png?a=1&b=2"
    sse_server.enqueue(image_response(png(40, 30), "image/png", **{"Set-Cookie": "id=track"}))
    assert h.load(url)
    assert h.loaded == [url]
    image = h.loader.image(url)
    assert image is not None and (image.width(), image.height()) == (40, 30)
    assert h.loader.image(QUrl(url)) is not None  # as Qt asks for it
    request = sse_server.requests[0]
    assert request.method == "GET" and request.path == "/chart.png?a=1&b=2"
    assert request.headers["accept-encoding"] == "identity"

    assert h.load(url)  # cached: reported again, not fetched again
    assert h.loaded == [url, url]
    assert len(sse_server.requests) == 1 and h.loader.requests_made == 1

    sse_server.enqueue(image_response(png()))
    assert h.load(f"{sse_server.url}/other.png")
    assert "cookie" not in sse_server.requests[1].headers  # the cookie was not kept


FAILURES = {
    "too large (declared)": lambda url: image_response(noisy_png()),
    "too large (chunked, no length)": lambda url: [
        Head(200, (("Content-Type", "image/png"),), framing="chunked"),
        *[Send(noisy_png()[i : i + 256]) for i in range(0, len(noisy_png()), 256)],
    ],
    "not an image": lambda url: image_response(b"<html><body>nope</body></html>", "text/html"),
    "claims a huge canvas": lambda url: image_response(png_claiming(60_000, 60_000)),
    "HTTP 404": lambda url: raw_response(b"missing", status=404),
    "compressed body": lambda url: image_response(png(), **{"Content-Encoding": "gzip"}),
    "too slow": lambda url: [
        Head(200, (("Content-Type", "image/png"),), framing="close"),
        Sleep(3),
        Send(png()),
    ],
    "redirect to a file": lambda url: raw_response(
        b"", status=302, headers={"Location": "file:///etc/passwd"}
    ),
    "redirect to https (not allowed here)": lambda url: raw_response(
        b"", status=302, headers={"Location": url.replace("http:", "https:")}
    ),
}


def test_the_failure_cases_are_images_the_loader_would_otherwise_show(loop):
    assert len(noisy_png()) > 1_000
    assert decode_image(noisy_png()).width() == 40
    with pytest.raises(ImageRejected, match="too many pixels"):  # rejected before decoding
        decode_image(png_claiming(60_000, 60_000))


@pytest.mark.parametrize("response", FAILURES.values(), ids=FAILURES.keys())
def test_a_failed_image_is_not_loaded_nor_retried_at_once(harness, sse_server, response):
    h = harness(allowed_schemes=WEB, max_bytes=1_000, timeout=0.5)
    url = f"{sse_server.url}/x.png"
    sse_server.enqueue(response(url))
    assert h.load(url)  # accepted: the failure shows only once it was tried
    assert h.loaded == []
    assert h.loader.image(url) is None
    assert not h.load(url)
    assert len(sse_server.requests) == 1


def test_a_redirect_within_the_policy_is_followed(harness, sse_server):
    h = harness(allowed_schemes=WEB)
    sse_server.enqueue(raw_response(b"", status=301, headers={"Location": "/moved.png"}))
    sse_server.enqueue(image_response(png()))
    url = f"{sse_server.url}/old.png"
    assert h.load(url)
    assert h.loaded == [url]
    assert [r.path for r in sse_server.requests] == ["/old.png", "/moved.png"]


def test_an_unreachable_server_is_a_quiet_failure(harness):
    h = harness(allowed_schemes=WEB)
    assert h.load("http://127.0.0.1:1/x.png")
    assert h.loaded == [] and h.loader.image("http://127.0.0.1:1/x.png") is None


def test_large_images_are_scaled_down_and_the_cache_drops_the_oldest(harness, sse_server):
    big = png(MAX_SIDE * 2, 100)
    h = harness(allowed_schemes=WEB, cache_bytes=MAX_SIDE * 60 * 4 + 1)
    first, second = f"{sse_server.url}/1.png", f"{sse_server.url}/2.png"
    sse_server.enqueue(image_response(big))
    sse_server.enqueue(image_response(big))
    assert h.load(first)
    image = h.loader.image(first)
    assert image is not None and (image.width(), image.height()) == (MAX_SIDE, 50)
    assert h.load(second)
    assert h.loaded == [first, second]
    assert h.evicted == [first]
    assert h.loader.image(first) is None and h.loader.image(second) is not None


def test_decoding_rejects_what_is_not_a_plain_image():
    assert decode_image(png(5, 2)).width() == 5
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>'
    for data in (b"", b"GIF89a", svg, b"%PDF-1.4"):
        with pytest.raises(ImageRejected):
            decode_image(data)


def test_images_go_through_the_proxy_the_network_settings_name(harness, loop):
    from desktop.core.settings import NetworkSettings, ProxyMode
    from tests.support.proxy import RecordingProxy

    h = harness(allowed_schemes=WEB)

    async def via_proxy() -> list[str]:
        async with RecordingProxy() as proxy:
            h.loader.use_network(NetworkSettings(ProxyMode.CUSTOM, proxy.url))
            h.loader.request("http://images.example/photo.png")
            await h._settle()
            return proxy.lines

    lines = loop.run_until_complete(via_proxy())
    assert lines == ["GET http://images.example/photo.png HTTP/1.1"]
    assert h.loaded == []  # the proxy's answer is no image: the link stays
