"""An incremental newline-delimited JSON line splitter (Ollama streams), independent of
any HTTP object, like `sse.SSEDecoder`.

Lines are split on bytes and each complete line is decoded on its own, so a multi-byte
UTF-8 character split across network reads is never decoded in halves. Blank lines are
skipped; parsing the JSON is the adapter's job, so it can word a malformed line itself.
"""

from __future__ import annotations

from desktop.core.errors import StreamBrokenError
from desktop.core.i18n import tr

MAX_LINE_BYTES = 16 * 1024 * 1024  # one chunk of a stream is never near this


class NDJSONDecoder:
    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, chunk: bytes) -> list[str]:
        """The lines completed by `chunk`, decoded as UTF-8 (invalid bytes replaced)."""
        self._buffer += chunk
        if b"\n" not in chunk:
            if len(self._buffer) > MAX_LINE_BYTES:
                raise StreamBrokenError(tr("The server sent a stream line longer than 16 MiB"))
            return []
        *complete, rest = self._buffer.split(b"\n")
        self._buffer = bytearray(rest)
        return [line for line in (_decode(bytes(raw)) for raw in complete) if line]

    def close(self) -> list[str]:
        """The last line when the stream did not end with a newline."""
        line = _decode(bytes(self._buffer))
        self._buffer.clear()
        return [line] if line else []


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace").strip()
