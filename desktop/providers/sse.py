"""An incremental Server-Sent Events decoder, independent of any HTTP object.

Feed it bytes exactly as the network delivers them; it returns the events completed so
far. Keeping it apart from the response object (as openai-python does) lets every
streaming provider share it and lets the tests drive it byte by byte without a socket.

It follows the WHATWG "event stream interpretation" rules, with one deliberate
difference: at the end of the stream the spec discards an event that was not followed
by a blank line, but some OpenAI-compatible servers end with `data: [DONE]\\n` and
nothing more, so `close()` dispatches that last event instead of dropping it.
`feed()` never returns such an unterminated event: only `close()` flushes it.

Lines are split on bytes (CRLF, LF or a lone CR) and each complete line is decoded on
its own, so a multi-byte UTF-8 character split across network reads is never decoded
in halves. (UTF-8 continuation bytes can never be CR or LF, so splitting on bytes first
is safe.)
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

_LINE_END = re.compile(rb"\r\n|\r|\n")
_BOM = "\ufeff"
_JSON = json.JSONDecoder()


class ServerSentEvent(NamedTuple):
    """One dispatched event.

    `event` is "message" when the stream named no type. `id` is the last event id seen
    so far (it persists across events, as in the spec). `retry` is the reconnection time
    in milliseconds if this event's block carried a valid `retry:` field.

    A named tuple, not a dataclass: a stream makes one per chunk, and a tuple is made
    in half the time of a frozen dataclass.
    """

    data: str
    event: str = "message"
    id: str | None = None
    retry: int | None = None


class SSEDecoder:
    """Turns a byte stream into `ServerSentEvent`s. Pure: no I/O, no clock."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._skip_lf = False  # the previous chunk ended in CR: a leading LF belongs to it
        self._at_start = True  # the BOM is only stripped from the first line
        self._closed = False
        self._data: list[str] = []
        self._event = ""
        self._last_id: str | None = None
        self._retry: int | None = None

    def feed(self, chunk: bytes) -> list[ServerSentEvent]:
        """Add bytes from the network; return the events completed by them."""
        if self._closed:
            raise RuntimeError("SSEDecoder.feed() called after close()")
        if not chunk:
            return []
        if self._skip_lf:
            self._skip_lf = False
            if chunk[:1] == b"\n":
                chunk = chunk[1:]
        if b"\r" in chunk:
            return self._feed_any(chunk)
        # Lines ended by LF alone, as nearly every server sends them. The buffer holds
        # no line end (nor a CR), so it begins the first of the new lines.
        lines = chunk.split(b"\n")
        rest = lines.pop()  # after the last LF: the start of a line still coming
        if lines and self._buffer:
            lines[0] = bytes(self._buffer) + lines[0]
            self._buffer.clear()
        if rest:
            self._buffer += rest
        events: list[ServerSentEvent] = []
        for line in lines:
            # The two lines of nearly every event, read here; the rest line by line.
            if line[:6] == b"data: " and not self._at_start:
                self._data.append(line[6:].decode("utf-8", errors="replace"))
            elif line or self._at_start:
                if (event := self._process_line(line)) is not None:
                    events.append(event)
            elif (event := self._dispatch()) is not None:
                events.append(event)
        return events

    def _feed_any(self, chunk: bytes) -> list[ServerSentEvent]:
        """`feed` for bytes that may end lines by CRLF or a lone CR too."""
        # Only the new bytes can hold a line end: the buffer held none after last feed.
        scan_from = len(self._buffer)
        self._buffer += chunk
        events: list[ServerSentEvent] = []
        start = 0
        for match in _LINE_END.finditer(self._buffer, scan_from):
            # A CR at the very end may be the first half of a CRLF split across chunks.
            if match.group() == b"\r" and match.end() == len(self._buffer):
                self._skip_lf = True
            event = self._process_line(bytes(self._buffer[start : match.start()]))
            if event is not None:
                events.append(event)
            start = match.end()
        del self._buffer[:start]
        return events

    def close(self) -> list[ServerSentEvent]:
        """End of stream: treat any unterminated line and event as complete.

        Returns the final event if the stream stopped without its blank line, else
        nothing. The decoder cannot be fed afterwards.
        """
        if self._closed:
            return []
        self._closed = True
        events: list[ServerSentEvent] = []
        if self._buffer:
            event = self._process_line(bytes(self._buffer))
            self._buffer.clear()
            if event is not None:
                events.append(event)
        event = self._dispatch()
        if event is not None:
            events.append(event)
        return events

    # --- line interpretation -------------------------------------------------------

    def _process_line(self, raw: bytes) -> ServerSentEvent | None:
        if not raw and not self._at_start:
            return self._dispatch()
        line = raw.decode("utf-8", errors="replace")
        if self._at_start:
            self._at_start = False
            line = line.removeprefix(_BOM)
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None  # a comment, often a keep-alive
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._last_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self._retry = int(value)
        # Any other field name is ignored, as the spec requires.
        return None

    def _dispatch(self) -> ServerSentEvent | None:
        """A blank line ends the event; without any `data` field there is no event."""
        data, event, retry = self._data, self._event, self._retry
        self._data, self._event, self._retry = [], "", None
        if not data:
            return None
        return ServerSentEvent("\n".join(data), event or "message", self._last_id, retry)


def json_data(data: str) -> Any:
    """The JSON value of an event's `data`, which the caller stripped of whitespace:
    `json.loads` without the checks it makes on every call (it runs for every chunk of
    a stream). Raises `json.JSONDecodeError` for anything but one JSON value."""
    value, end = _JSON.raw_decode(data)
    if end != len(data):
        raise json.JSONDecodeError("Extra data", data, end)
    return value
