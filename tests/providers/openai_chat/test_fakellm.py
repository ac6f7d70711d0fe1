"""openai_chat_adapter against `fakellm`, a third-party OpenAI-compatible mock server.

Our loopback server is written from our own reading of the protocol; fakellm is someone
else's, so a streamed tool call that works against both is not a shared misreading.
The server runs as a subprocess (`fakellm serve`) on a free port, once per module, with
rules keyed by a request header so tests do not depend on one another.

fakellm streams text and tool calls (id and name first, the JSON arguments in four
pieces, `finish_reason: "tool_calls"`, `[DONE]`) but no usage, and it applies a rule's
error status only to non-streaming requests, so the error case goes through complete().
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from desktop.core.events import Finished, StreamEvent, TextDelta, ToolCallDelta, UsageReport
from desktop.core.models import Role
from desktop.providers.base import (
    ChatRequest,
    ProviderHTTPError,
    RequestMessage,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from tests.support import provider_calls
from tests.support.adapters import openai_chat_adapter

RULES = """\
rules:
  - name: weather_call
    when:
      header.x-parley-test: weather
      turn: 1
      tools_include: get_weather
    respond:
      tool_calls:
        - name: get_weather
          arguments: {city: "Tromsø", unit: "celsius"}
  - name: weather_answer
    when:
      header.x-parley-test: weather
      turn: 2
      previous_message_role: assistant
      tool_result_contains: temp_c
    respond:
      content: "It is 4 °C in Tromsø."
  - name: two_cities
    when:
      header.x-parley-test: parallel
    respond:
      tool_calls:
        - name: get_weather
          arguments: {city: "Oslo"}
        - name: get_time
          arguments: {zone: "Europe/Paris"}
  - name: greeting
    when:
      header.x-parley-test: text
    respond:
      content: "Hello from fakellm."
  - name: rate_limited
    when:
      header.x-parley-test: rate_limit
    respond:
      status: 429
      error: "Rate limit exceeded (mock)"
"""
WEATHER = ToolSpec(
    "get_weather",
    "Current weather for a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
CLOCK = ToolSpec("get_time", "Current time in a zone.", {"type": "object"})
START_TIMEOUT_S = 30.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def fakellm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A running `fakellm serve`; yields its OpenAI base URL."""
    folder: Path = tmp_path_factory.mktemp("fakellm")
    (folder / "rules.yaml").write_text(RULES, encoding="utf-8")
    port = _free_port()
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "fakellm.cli", "serve"),
            *("--host", "127.0.0.1", "--port", str(port), "--config", "rules.yaml"),
        ],
        cwd=folder,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail("fakellm exited: " + (folder / "server.log").read_text("utf-8"))
            try:
                if httpx.get(url + "/_fakellm/stats", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("fakellm did not start in time")
            time.sleep(0.1)
        yield url + "/v1"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def scenario_headers(name: str) -> dict[str, str]:
    """The rule to use, and a conversation of its own (fakellm counts turns per one)."""
    return {"X-Parley-Test": name, "X-Fakellm-Conversation-Id": f"parley-{uuid.uuid4()}"}


def stream(base_url: str, request: ChatRequest) -> list[StreamEvent]:
    return provider_calls.stream(openai_chat_adapter, base_url, request, api_key="not-used")


def assembled_calls(events: list[StreamEvent]) -> dict[int, dict[str, str]]:
    """Tool calls put back together from their deltas, as the engine does."""
    calls: dict[int, dict[str, str]] = {}
    for event in events:
        if isinstance(event, ToolCallDelta):
            call = calls.setdefault(event.index, {"id": "", "name": "", "arguments": ""})
            call["id"] += event.call_id or ""
            call["name"] += event.name or ""
            call["arguments"] += event.arguments
    return calls


def test_streamed_tool_call_round_trip(fakellm: str) -> None:
    headers = scenario_headers("weather")
    question = RequestMessage(Role.USER, "What is the weather in Tromsø?")
    first = ChatRequest(
        model="gpt-4o-mini", messages=(question,), tools=(WEATHER,), extra_headers=headers
    )
    events = stream(fakellm, first)

    deltas = [e for e in events if isinstance(e, ToolCallDelta)]
    assert deltas[0].call_id and deltas[0].call_id.startswith("call_")
    assert deltas[0].name == "get_weather"
    assert all(d.index == 0 for d in deltas)
    assert all(d.call_id is None and d.name is None for d in deltas[1:])
    assert len([d for d in deltas if d.arguments]) >= 2  # the arguments came in pieces
    assert events[-1] == Finished("tool_calls")
    call = assembled_calls(events)[0]
    assert json.loads(call["arguments"]) == {"city": "Tromsø", "unit": "celsius"}

    continuation = ChatRequest(
        model="gpt-4o-mini",
        tools=(WEATHER,),
        extra_headers=headers,
        messages=(
            question,
            RequestMessage(
                Role.ASSISTANT,
                "",
                tool_calls=(ToolCall(call["id"], call["name"], call["arguments"]),),
                tool_results=(ToolResult(call["id"], call["name"], '{"temp_c": 4}'),),
            ),
        ),
    )
    answer = stream(fakellm, continuation)
    assert "".join(e.text for e in answer if isinstance(e, TextDelta)) == "It is 4 °C in Tromsø."
    assert answer[-1] == Finished("stop")

    stats = httpx.get(fakellm.removesuffix("/v1") + "/_fakellm/stats").json()
    mine = [
        r for r in stats["recent"] if r["conversation_id"] == headers["X-Fakellm-Conversation-Id"]
    ]
    assert [r["matched_rule"] for r in reversed(mine)] == ["weather_call", "weather_answer"]


def test_two_streamed_tool_calls_keep_their_indexes(fakellm: str) -> None:
    request = ChatRequest(
        model="gpt-4o-mini",
        messages=(RequestMessage(Role.USER, "Weather in Oslo and the time in Paris?"),),
        tools=(WEATHER, CLOCK),
        extra_headers=scenario_headers("parallel"),
    )
    events = stream(fakellm, request)
    calls = assembled_calls(events)
    assert [calls[i]["name"] for i in sorted(calls)] == ["get_weather", "get_time"]
    assert json.loads(calls[0]["arguments"]) == {"city": "Oslo"}
    assert json.loads(calls[1]["arguments"]) == {"zone": "Europe/Paris"}
    assert calls[0]["id"] != calls[1]["id"]
    assert events[-1] == Finished("tool_calls")


def test_streamed_text(fakellm: str) -> None:
    request = ChatRequest(
        model="gpt-4o-mini",
        messages=(RequestMessage(Role.USER, "Hi"),),
        extra_headers=scenario_headers("text"),
    )
    events = stream(fakellm, request)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Hello from fakellm."
    assert not any(isinstance(e, UsageReport) for e in events)  # fakellm streams no usage
    assert events[-1] == Finished("stop")


def test_rate_limit_reads_as_a_retryable_error(fakellm: str) -> None:
    request = ChatRequest(
        model="gpt-4o-mini",
        messages=(RequestMessage(Role.USER, "Hi"),),
        extra_headers=scenario_headers("rate_limit"),
    )
    with pytest.raises(ProviderHTTPError) as info:
        provider_calls.call(openai_chat_adapter, fakellm, lambda p: p.complete(request))
    assert (
        str(info.value) == "The server is rate limiting requests (429): Rate limit exceeded (mock)"
    )
    assert info.value.retryable
