"""What a message says while its request is retried, and Continue after a broken stream."""

from __future__ import annotations

import json
from dataclasses import replace

from desktop.core.models import (
    ErrorPart,
    Message,
    MessageStatus,
    ReasoningPart,
    RetryWait,
    Role,
    TextPart,
    ToolCallPart,
)
from desktop.ui.viewmodels.message_renderer import MessageRenderer
from tests.support.settings_files import write_settings
from tests.support.sse_server import (
    Disconnect,
    chat_chunk,
    default_stream,
    error_response,
    sse_response,
)
from tests.support.ui_actions import answer_widget, type_and_send


def answer(parley):
    """The newest message's widget, or None before the answer appears."""
    transcript = parley.window.chat_view.transcript
    return answer_widget(parley) if len(transcript.message_ids()) >= 2 else None


def status_text(parley) -> str:
    widget = answer(parley)
    return widget.status.text() if widget is not None else ""


def error_text(parley) -> str:
    widget = answer(parley)
    return widget.error_box.text() if widget is not None else ""


STREAMING = Message("a", "c", None, Role.ASSISTANT, status=MessageStatus.STREAMING)


def test_the_status_names_the_reason_the_wait_and_the_try():
    renderer = MessageRenderer()
    waiting = replace(STREAMING, retry=RetryWait("Rate limited", 4, attempt=2, max_attempts=3))
    assert renderer.item(waiting).status_label == "Rate limited — retrying in 4 s (try 2 of 3)"
    now = replace(STREAMING, retry=RetryWait("The server had an error", 0, 3, 3))
    assert renderer.item(now).status_label == "The server had an error — trying again (try 3 of 3)"
    assert renderer.item(STREAMING).status_label == ""


def test_a_broken_answer_with_text_offers_continue_and_retry():
    renderer = MessageRenderer()
    broken = replace(
        STREAMING,
        parts=[TextPart("Half an ans"), ErrorPart("The connection closed")],
        status=MessageStatus.ERROR,
    )
    item = renderer.item(broken)
    assert item.can_continue and item.can_retry
    failed = replace(broken, parts=[ErrorPart("The server refused the API key (401)")])
    item = renderer.item(failed)
    assert item.can_retry and not item.can_continue  # nothing to carry on


def test_a_signature_alone_shows_no_reasoning_section():
    renderer = MessageRenderer()
    signed = replace(
        STREAMING,
        parts=[ReasoningPart("", 0, "sig"), ToolCallPart("c1", "f", "{}")],
        status=MessageStatus.COMPLETE,
    )
    item = renderer.item(signed)
    assert item.reasoning_label == "" and item.reasoning_html == ""


def test_the_window_shows_the_wait_while_rate_limited(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.script(
        error_response(429, "Rate limit reached", headers={"retry-after-ms": "1500"}),
        default_stream("Worth the wait."),
    )
    parley = driver.start(tmp_path)

    async def body() -> None:
        type_and_send(parley, "hello")
        await driver.until(lambda: "Rate limited" in status_text(parley))
        status = answer_widget(parley).status
        assert status.isVisible()
        assert status.text() == "Rate limited — retrying in 2 s (try 2 of 3)"
        await driver.until(lambda: "Worth the wait." in answer_widget(parley).body.toPlainText())
        await driver.until(lambda: not parley.chat_vm.busy)
        assert not answer_widget(parley).status.isVisible()

    driver.run(body())


def test_a_broken_stream_keeps_its_text_and_continue_finishes_it(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.script(
        sse_response(chat_chunk(content="The first half"), Disconnect()),
        default_stream("and the rest."),
    )
    parley = driver.start(tmp_path)

    async def body() -> None:
        type_and_send(parley, "hello")
        await driver.until(lambda: "closed before the answer was complete" in error_text(parley))
        await driver.until(lambda: not parley.chat_vm.busy)
        broken = answer_widget(parley)
        assert broken.body.toPlainText().strip() == "The first half"
        actions = broken.action_row
        assert not actions.continue_button.isHidden()
        assert not actions.retry_button.isHidden()
        actions.continue_button.click()
        await driver.until(lambda: "the rest" in answer_widget(parley).body.toPlainText())
        await driver.until(lambda: not parley.chat_vm.busy)
        assert answer_widget(parley).error_box.text() == ""
        assert len(sse_server.requests) == 2

    driver.run(body())


def test_a_broken_ca_bundle_setting_is_a_banner_not_a_failed_start(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    path = tmp_path / "settings.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["network"] = {"ca_bundle": str(tmp_path / "moved-away.pem")}
    path.write_text(json.dumps(data), encoding="utf-8")
    parley = driver.start(tmp_path)
    banner = parley.window.chat_view.banner
    assert banner.isVisible()
    assert "moved-away.pem does not exist" in banner.text()
    assert "Settings → Network" in banner.text()

    async def body() -> None:  # and answers still arrive
        type_and_send(parley, "hello")
        await driver.until(
            lambda: "Hello from" in (answer(parley).body.toPlainText() if answer(parley) else "")
        )

    driver.run(body())
