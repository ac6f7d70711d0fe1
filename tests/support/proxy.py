"""A recording HTTP proxy on 127.0.0.1, for the tests that check where requests go."""

from __future__ import annotations

import asyncio
import json

from tests.support.sse_server import models_body


class RecordingProxy:
    """A tiny HTTP proxy on 127.0.0.1: it records each request line and answers
    plain-HTTP requests itself with a model list (it is the only way to the upstream
    host); CONNECT (for https) is refused after being recorded."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def __aenter__(self) -> RecordingProxy:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = (await reader.readline()).decode("latin-1").strip()
            while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                pass
            self.lines.append(line)
            if line.startswith("CONNECT "):
                writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
            else:
                body = json.dumps(models_body(["via-proxy"])).encode()
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Connection: close\r\nContent-Length: %d\r\n\r\n%b" % (len(body), body)
                )
            await writer.drain()
        finally:
            writer.close()
