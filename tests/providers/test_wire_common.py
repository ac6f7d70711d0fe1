"""What the wire protocols share once their JSON is decoded (`wire_common`)."""

from __future__ import annotations

import pytest

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import Finished, UsageReport
from desktop.core.models import Usage
from desktop.providers.base import ImageInput, ToolResult
from desktop.providers.wire_common import (
    NO_RESULT,
    call_args,
    closing_events,
    count,
    data_url,
    json_object,
    model_ids,
    new_call_id,
    positive_count,
    reported_error,
    stream_payload,
    tool_result_text,
)

KEY = "sk-test-SECRET"


def redact(text: str) -> str:
    return text.replace(KEY, "[redacted]")


def test_call_arguments_go_back_as_an_object_or_as_what_the_model_wrote() -> None:
    assert call_args('{"city": "Oslo"}') == {"city": "Oslo"}
    assert call_args("  ") == {}
    assert call_args("[1, 2]") == {"_raw": "[1, 2]"}
    assert call_args("{broken") == {"_raw": "{broken"}


def test_tool_results_say_failures_in_words() -> None:
    assert tool_result_text(ToolResult("c", "f", "42")) == "42"
    assert tool_result_text(ToolResult("c", "f", "no such city", is_error=True)) == (
        "Error: no such city"
    )
    assert tool_result_text(None) == f"Error: {NO_RESULT}"


def test_data_url_and_generated_ids() -> None:
    assert data_url(ImageInput("image/png", b"\x89PNG")) == "data:image/png;base64,iVBORw=="
    made = new_call_id("x-call-")
    assert made.startswith("x-call-") and len(made) == len("x-call-") + 24
    assert made != new_call_id("x-call-")


def test_counts_from_untrusted_json() -> None:
    assert [count(v) for v in (3, True, "3", None, 2.0)] == [3, 0, 0, 0, 0]
    assert [positive_count(v) for v in (8192, 0, -1, True, "8192")] == [
        True,
        False,
        False,
        False,
        False,
    ]


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (f'{{"text": "{KEY}', r"not JSON\): \{\"text\": \"\[redacted\]"),
        ("[1]", r"not an object"),
        ('{"a": 1} {"b": 2}', r"not JSON"),
    ],
)
@pytest.mark.parametrize("unit", ["chunk", "event"])
def test_a_stream_payload_that_is_not_one_json_object_breaks_the_stream(
    data: str, words: str, unit: str
) -> None:
    with pytest.raises(StreamBrokenError, match=f"malformed stream {unit} \\({words}"):
        stream_payload(data, redact, unit)  # type: ignore[arg-type]


def test_a_stream_payload_object_is_returned() -> None:
    assert stream_payload('{"a": [1]}', redact, "chunk") == {"a": [1]}


def test_whole_answers_must_be_objects() -> None:
    assert json_object({"a": 1}) == {"a": 1}
    with pytest.raises(ProviderError, match="not a JSON object"):
        json_object([1])


@pytest.mark.parametrize(
    ("code", "status", "retryable"),
    [(429, 429, True), (503, 503, True), (400, 400, False), ("overloaded", None, False)],
)
def test_an_error_reported_inside_an_answer_is_retryable_as_its_status(
    code: object, status: int | None, retryable: bool
) -> None:
    error = reported_error("Upstream busy", code)
    assert str(error) == "The server reported an error: Upstream busy"
    assert (error.status_code, error.retryable) == (status, retryable)


def test_closing_events_report_usage_only_when_known() -> None:
    assert closing_events(None, "stop") == [Finished("stop")]
    assert closing_events(Usage(1, 2), None) == [UsageReport(Usage(1, 2)), Finished(None)]


def test_openai_style_model_lists() -> None:
    assert model_ids({"data": [{"id": "b"}, {"id": "a"}, {"id": "a"}, {"x": 1}]}) == ["a", "b"]
    assert model_ids([{"id": "solo"}]) == ["solo"]
    with pytest.raises(ProviderError, match="model list was not in the expected format"):
        model_ids({"models": []})
