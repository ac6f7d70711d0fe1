"""The SSE decoder against every framing quirk servers produce, fed whole and in pieces."""

from __future__ import annotations

import json

import pytest

from desktop.providers.sse import ServerSentEvent, SSEDecoder, json_data


def decode(*chunks: bytes, close: bool = True) -> list[ServerSentEvent]:
    decoder = SSEDecoder()
    events = [event for chunk in chunks for event in decoder.feed(chunk)]
    return events + decoder.close() if close else events


def decode_bytewise(stream: bytes) -> list[ServerSentEvent]:
    return decode(*(stream[i : i + 1] for i in range(len(stream))))


def test_simple_events_with_type_id_and_retry() -> None:
    stream = b"event: delta\nid: 7\nretry: 1500\ndata: one\n\ndata: two\n\n"
    assert decode(stream) == [
        ServerSentEvent(data="one", event="delta", id="7", retry=1500),
        ServerSentEvent(data="two", event="message", id="7", retry=None),
    ]


def test_comment_lines_are_ignored() -> None:
    stream = b": keep-alive\ndata: a\n: another comment\n\n:\n\n"
    assert decode(stream) == [ServerSentEvent("a")]


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_every_line_ending(newline: bytes) -> None:
    stream = b"data: a" + newline + b"data: b" + newline + newline + b"data: c" + newline * 2
    assert decode(stream, close=False) == [ServerSentEvent("a\nb"), ServerSentEvent("c")]


def test_mixed_line_endings() -> None:
    assert decode(b"data: a\r\ndata: b\rdata: c\n\r\n") == [ServerSentEvent("a\nb\nc")]


def test_crlf_split_across_chunks_is_one_line_end() -> None:
    # If the LF were taken as a second line end, "b" would become its own event.
    events = decode(b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n", close=False)
    assert events == [ServerSentEvent("a\nb")]


def test_lone_cr_at_chunk_end_completes_the_line_at_once() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\r\r") == [ServerSentEvent("a")]
    assert decoder.feed(b"data: b\r\r") == [ServerSentEvent("b")]


def test_multiline_data_is_joined_with_newlines() -> None:
    assert decode(b'data: {\ndata:  "x": 1\ndata: }\n\n') == [ServerSentEvent('{\n "x": 1\n}')]


def test_only_one_space_after_the_colon_is_removed() -> None:
    assert decode(b"data:no-space\n\ndata:  two\n\n") == [
        ServerSentEvent("no-space"),
        ServerSentEvent(" two"),
    ]


def test_field_without_colon_has_empty_value() -> None:
    # `data` alone adds an empty line; `event` alone resets the type to the default.
    assert decode(b"data\ndata\n\nevent\ndata: x\n\n") == [
        ServerSentEvent("\n"),
        ServerSentEvent("x"),
    ]


def test_empty_data_field_still_dispatches_an_empty_event() -> None:
    assert decode(b"data:\n\n") == [ServerSentEvent("")]


def test_block_without_data_dispatches_nothing() -> None:
    assert decode(b"event: ping\nid: 3\n\nunknown: field\n\n") == []


def test_id_persists_and_id_with_nul_is_ignored() -> None:
    stream = b"id: 1\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\n"
    assert [e.id for e in decode(stream)] == ["1", "1", "1"]


def test_non_numeric_retry_is_ignored() -> None:
    assert decode(b"retry: soon\ndata: a\n\n") == [ServerSentEvent("a")]


def test_bom_at_stream_start_is_stripped_even_when_split() -> None:
    bom = "\ufeff".encode()
    assert decode(bom[:1], bom[1:] + b"data: a\n\n") == [ServerSentEvent("a")]
    # Only at the start: later a BOM is part of the field name, so the line is ignored.
    assert decode(b"data: a\n\n" + bom + b"data: b\n\n") == [ServerSentEvent("a")]


def test_utf8_character_split_across_reads() -> None:
    text = "你好🙂"
    raw = b"data: " + text.encode() + b"\n\n"
    emoji_start = raw.index("🙂".encode())
    events = decode(raw[: emoji_start + 2], raw[emoji_start + 2 :])
    assert events == [ServerSentEvent(text)]


def test_invalid_utf8_is_replaced_not_raised() -> None:
    assert decode(b"data: a\xffb\n\n") == [ServerSentEvent("a\ufffdb")]


def test_unterminated_final_event_is_flushed_only_by_close() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: first\n\ndata: [DONE]\n") == [ServerSentEvent("first")]
    assert decoder.close() == [ServerSentEvent("[DONE]")]
    assert decoder.close() == []  # idempotent


def test_close_flushes_a_last_line_without_newline() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: partial") == []
    assert decoder.close() == [ServerSentEvent("partial")]


def test_feed_after_close_is_an_error() -> None:
    decoder = SSEDecoder()
    decoder.close()
    with pytest.raises(RuntimeError):
        decoder.feed(b"data: x\n\n")


def test_empty_chunks_change_nothing() -> None:
    assert decode(b"", b"data: a\r", b"", b"\n\n", b"") == [ServerSentEvent("a")]


SAMPLE = (
    "\ufeff: hello\r\n"
    'event: delta\r\nid: 42\r\ndata: {"content":"你好🙂"}\r\n\r\n'
    "data: line one\rdata:line two\r\r"
    "data: x\n: comment\nretry: 10\ndata\n\n"
    "data: [DONE]"
).encode()


def test_byte_at_a_time_equals_whole() -> None:
    whole = decode(SAMPLE)
    assert decode_bytewise(SAMPLE) == whole
    assert whole == [
        ServerSentEvent('{"content":"你好🙂"}', event="delta", id="42"),
        ServerSentEvent("line one\nline two", id="42"),
        ServerSentEvent("x\n", id="42", retry=10),
        ServerSentEvent("[DONE]", id="42"),
    ]


@pytest.mark.parametrize("size", [2, 3, 5, 7, 11])
def test_any_chunking_equals_whole(size: int) -> None:
    chunks = [SAMPLE[i : i + size] for i in range(0, len(SAMPLE), size)]
    assert decode(*chunks) == decode(SAMPLE)


def test_json_data_reads_one_json_value_and_refuses_anything_more() -> None:
    assert json_data('{"choices":[{"delta":{"content":"你好"}}]}') == {
        "choices": [{"delta": {"content": "你好"}}]
    }
    assert json_data("[1, 2]") == [1, 2]
    for bad in ('{"a": 1} {"b": 2}', '{"a": 1}x', "{'a': 1}", "\ufeff{}", ""):
        with pytest.raises(json.JSONDecodeError):
            json_data(bad)
