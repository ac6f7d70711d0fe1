"""The composer's token estimate against the request the loopback server then receives:
attached documents and images (seen by a vision model, or read with OCR for one
without), the workspace file, tools, and a chat past its summary threshold."""

from __future__ import annotations

import base64
import json
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtTest import QTest

from desktop.core.models import Message, ModelRef, Role, RollingSummary, TextPart
from desktop.engine.context.tokens import (
    MESSAGE_OVERHEAD,
    TOOL_CALL_OVERHEAD,
    TOOL_SPEC_OVERHEAD,
    estimate_tokens,
    image_tokens,
    message_tokens,
)
from desktop.ui.viewmodels import context_meter
from desktop.ui.viewmodels.usage import compact
from tests.support.sse_server import (
    RecordedRequest,
    completion_body,
    default_stream,
    json_response,
)

OCR_TEXT = "INVOICE 2041\nTotal due: 1,234.50 EUR\nPayable within 30 days to ACME Ltd."
REPORT = "Quarterly numbers: revenue grew in every region, costs fell. " * 40


def write(folder: Path, base_url: str, **extra: Any) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    provider = {
        "id": "local",
        "name": "Local",
        "base_url": base_url,
        "models": ["seeing-model", "text-model", "eyes"],
        "model_overrides": {
            "seeing-model": {"vision": True, "tools": True, "context_length": 128000},
            "text-model": {"vision": False, "context_length": 32000},
            "eyes": {"vision": True},
        },
    }
    data = {
        "version": 1,
        "providers": [provider],
        "auto_titles": False,
        "follow_up_suggestions": False,
        **extra,
    }
    (folder / "settings.json").write_text(json.dumps(data), encoding="utf-8")


def route(server) -> None:
    """Chat answers stream; the OCR model's (non-streamed) answer is the image's text."""

    def respond(request: RecordedRequest) -> Any:
        body = request.json if request.method == "POST" else None
        if not isinstance(body, dict) or "messages" not in body:
            return None
        if body.get("stream"):
            return default_stream("Noted.")
        if body.get("model") == "eyes":
            return json_response(completion_body(OCR_TEXT))
        return json_response(completion_body("Budget is 40k; the team meets on Fridays."))

    server.route(respond)


def chats(server) -> list[dict[str, Any]]:
    return [r.json for r in server.requests if isinstance(r.json, dict) and r.json.get("stream")]


def _png_size(url: str) -> tuple[int, int]:
    data = base64.b64decode(url.split(",", 1)[1])
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def wire_tokens(body: dict[str, Any]) -> int:
    """The tokens of a Chat Completions body as it arrived, by the same estimate."""
    total = 0
    for message in body["messages"]:
        total += MESSAGE_OVERHEAD
        content = message.get("content") or ""
        parts = content if isinstance(content, list) else [{"type": "text", "text": content}]
        for part in parts:
            if part["type"] == "text":
                total += estimate_tokens(part["text"])
            else:
                total += image_tokens(*_png_size(part["image_url"]["url"]))
        for call in message.get("tool_calls", []):
            function = call["function"]
            total += TOOL_CALL_OVERHEAD + estimate_tokens(function["name"])
            total += estimate_tokens(function["arguments"])
    for tool in body.get("tools", []):
        total += TOOL_SPEC_OVERHEAD + estimate_tokens(json.dumps(tool["function"]))
    return total


def make_png(path: Path, width: int, height: int) -> Path:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    assert image.save(str(path), "PNG")
    return path


def select(parley, model: str) -> None:
    labels = parley.chat_vm.models.modelLabels
    parley.chat_vm.models.select_model(
        next(i for i, label in enumerate(labels) if label.startswith(model))
    )


async def settle(driver, parley) -> int:
    """The meter once the request has been built for what the composer holds now."""
    meter = parley.chat_vm.meter
    tray = parley.chat_vm.tray
    await driver.until(lambda: not any(e.loading for e in tray.entries()))
    await driver.until(lambda: meter.idle)
    return meter.tokens


def close_to(estimate: int, sent: int) -> bool:
    """Within a few tokens: the time in the system prompt may have moved on a minute."""
    return abs(estimate - sent) <= max(8, sent // 50)


def send(parley, text: str) -> None:
    edit = parley.window.chat_view.composer.edit
    edit.setFocus()
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def test_documents_images_and_tools_count_as_the_request_carries_them(driver, sse_server, tmp_path):
    write(tmp_path / "data", sse_server.base_url)
    route(sse_server)
    parley = driver.start(tmp_path / "data")
    report = tmp_path / "report.txt"
    report.write_text(REPORT, encoding="utf-8")
    photo = make_png(tmp_path / "photo.png", 1024, 768)
    composer = parley.window.chat_view.composer

    async def body() -> None:
        select(parley, "seeing-model")
        empty = await settle(driver, parley)  # the system prompt and the tools' definitions
        assert empty > 0
        parley.chat_vm.tray.add_paths([report, photo])
        QTest.keyClicks(composer.edit, "What do these say?")
        estimate = await settle(driver, parley)
        # The document's text and the picture are in it: before, this read "0 tokens".
        assert estimate >= empty + estimate_tokens(REPORT) + image_tokens(1024, 768)
        assert composer.meter.text() == f"{compact(estimate)} / 128k"
        QTest.keyClick(composer.edit, Qt.Key.Key_Return)
        await driver.until(lambda: len(chats(sse_server)) == 1 and not parley.chat_vm.busy)
        (sent,) = chats(sse_server)
        question = sent["messages"][-1]["content"]
        assert sent["tools"] and [p["type"] for p in question] == ["text", "image_url"]
        assert close_to(estimate, wire_tokens(sent)), (estimate, wire_tokens(sent))

    driver.run(body())


def test_an_image_read_with_ocr_before_counts_as_its_text_for_a_model_without_vision(
    driver, sse_server, tmp_path
):
    write(tmp_path / "data", sse_server.base_url, ocr_model="local/eyes")
    route(sse_server)
    parley = driver.start(tmp_path / "data")
    report = tmp_path / "report.txt"
    report.write_text(REPORT, encoding="utf-8")
    scan = make_png(tmp_path / "scan.png", 800, 600)

    async def body() -> None:
        select(parley, "text-model")
        parley.chat_vm.tray.add_paths([scan])
        await settle(driver, parley)
        assert sse_server.requests == []  # estimating never runs OCR
        send(parley, "Read this")
        await driver.until(lambda: len(chats(sse_server)) == 1 and not parley.chat_vm.busy)
        # The same picture again, now with a document: OCR read it once already, and
        # what it read goes with both questions.
        parley.chat_vm.tray.add_paths([scan, report])
        QTest.keyClicks(parley.window.chat_view.composer.edit, "And these two?")
        estimate = await settle(driver, parley)
        assert estimate >= 2 * estimate_tokens(OCR_TEXT) + estimate_tokens(REPORT)
        QTest.keyClick(parley.window.chat_view.composer.edit, Qt.Key.Key_Return)
        await driver.until(lambda: len(chats(sse_server)) == 2 and not parley.chat_vm.busy)
        sent = chats(sse_server)[1]
        assert json.dumps(sent).count("Total due") == 2  # both questions' copies of the text
        assert [r.json.get("model") for r in sse_server.requests].count("eyes") == 1
        assert close_to(estimate, wire_tokens(sent)), (estimate, wire_tokens(sent))

    driver.run(body())


def test_the_workspace_file_counts_as_it_is_now(driver, sse_server, tmp_path):
    write(tmp_path / "data", sse_server.base_url)
    route(sse_server)
    parley = driver.start(tmp_path / "data")
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n" + "- keep the build green\n" * 30, encoding="utf-8")
    conversation = parley.chat.create_conversation("Work")

    async def body() -> None:
        select(parley, "text-model")
        parley.chat_vm.open_conversation(conversation.id)
        unbound = await settle(driver, parley)
        parley.chat_vm.workspace.set_file(str(notes))
        bound = await settle(driver, parley)
        assert bound - unbound >= estimate_tokens(notes.read_text(encoding="utf-8"))
        notes.write_text("# Notes\nshort now\n", encoding="utf-8")
        QTest.keyClicks(parley.window.chat_view.composer.edit, "Anything new?")
        estimate = await settle(driver, parley)  # typing builds it again: read afresh
        assert estimate < bound
        QTest.keyClick(parley.window.chat_view.composer.edit, Qt.Key.Key_Return)
        await driver.until(lambda: len(chats(sse_server)) == 1 and not parley.chat_vm.busy)
        (sent,) = chats(sse_server)
        assert "short now" in json.dumps(sent)
        assert close_to(estimate, wire_tokens(sent)), (estimate, wire_tokens(sent))

    driver.run(body())


def seed_long_chat(parley, count: int = 20) -> tuple[str, list[Message]]:
    repo = parley.repository
    conversation = repo.create_conversation("Planning")
    parent: str | None = None
    messages: list[Message] = []
    for index in range(count):
        role = Role.USER if index % 2 == 0 else Role.ASSISTANT
        text = f"Message {index}: " + "we talked about the budget and the schedule. " * 8
        message = Message(
            f"m{index}",
            conversation.id,
            parent,
            role,
            [TextPart(text)],
            model=ModelRef("local", "text-model") if role is Role.ASSISTANT else None,
        )
        parent = repo.add_message(message).id
        messages.append(message)
    return conversation.id, messages


SHORT_MEMORY = {
    "assistants": [{"id": "brief", "name": "Brief", "context_threshold": 1000}],
    "default_assistant": "brief",
}


def test_a_chat_past_its_threshold_counts_the_summary_and_the_recent_messages(
    driver, sse_server, tmp_path
):
    write(tmp_path / "data", sse_server.base_url, **SHORT_MEMORY)
    route(sse_server)
    parley = driver.start(tmp_path / "data")
    conversation_id, messages = seed_long_chat(parley)
    summary = "Budget is 40k; the team meets on Fridays; the launch is in May."
    covered = tuple(m.id for m in messages[:17])
    parley.repository.set_summary(conversation_id, RollingSummary(summary, covered))
    history = sum(message_tokens(m) for m in messages)

    async def body() -> None:
        select(parley, "text-model")
        parley.chat_vm.open_conversation(conversation_id)
        QTest.keyClicks(parley.window.chat_view.composer.edit, "So, what is the plan?")
        estimate = await settle(driver, parley)
        assert estimate < history / 2  # the whole history was counted before
        QTest.keyClick(parley.window.chat_view.composer.edit, Qt.Key.Key_Return)
        await driver.until(lambda: len(chats(sse_server)) == 1 and not parley.chat_vm.busy)
        (sent,) = chats(sse_server)
        assert summary in sent["messages"][0]["content"]
        assert "Message 3:" not in json.dumps(sent) and "Message 19:" in json.dumps(sent)
        assert close_to(estimate, wire_tokens(sent)), (estimate, wire_tokens(sent))

    driver.run(body())


def test_a_summary_still_to_be_written_is_counted_by_its_expected_size(
    driver, sse_server, tmp_path
):
    write(tmp_path / "data", sse_server.base_url, **SHORT_MEMORY)
    route(sse_server)
    parley = driver.start(tmp_path / "data")
    conversation_id, messages = seed_long_chat(parley)
    history = sum(message_tokens(m) for m in messages)

    async def body() -> None:
        select(parley, "text-model")
        parley.chat_vm.open_conversation(conversation_id)
        QTest.keyClicks(parley.window.chat_view.composer.edit, "So, what is the plan?")
        estimate = await settle(driver, parley)
        assert estimate < history
        QTest.keyClick(parley.window.chat_view.composer.edit, Qt.Key.Key_Return)
        await driver.until(lambda: len(chats(sse_server)) == 1 and not parley.chat_vm.busy)
        (sent,) = chats(sse_server)
        assert "Budget is 40k" in sent["messages"][0]["content"]  # the summary just written
        # The written summary is shorter than the estimate allowed for; the rest matches.
        assert wire_tokens(sent) <= estimate < wire_tokens(sent) + history // 4

    driver.run(body())


class CountedEstimates:
    """The real `estimate_tokens`, counting its calls on the GUI thread and off it."""

    def __init__(self, monkeypatch) -> None:
        self._real = context_meter.estimate_tokens
        self.on_gui_thread = 0
        self.in_workers = 0
        monkeypatch.setattr(context_meter, "estimate_tokens", self)

    def __call__(self, text: str) -> int:
        if threading.current_thread() is threading.main_thread():
            self.on_gui_thread += 1
        else:
            self.in_workers += 1
        return self._real(text)


def test_a_keystroke_estimates_the_draft_once(driver, sse_server, tmp_path, monkeypatch):
    write(tmp_path / "data", sse_server.base_url)
    route(sse_server)
    parley = driver.start(tmp_path / "data")
    composer = parley.window.chat_view.composer
    counted = CountedEstimates(monkeypatch)

    async def body() -> None:
        select(parley, "text-model")
        empty = await settle(driver, parley)
        draft = "你好 " * 2_000 + "typed"
        composer.edit.setPlainText(draft[:-5])
        await settle(driver, parley)
        counted.on_gui_thread = 0
        QTest.keyClicks(composer.edit, "typed")  # five keystrokes, the meter shown after each
        assert counted.on_gui_thread == 5
        assert composer.meter.text() == f"{compact(parley.chat_vm.meter.tokens)} / 32k"
        assert await settle(driver, parley) >= empty + estimate_tokens(draft)

    driver.run(body())


def test_a_huge_paste_is_counted_off_the_gui_thread_and_as_sent(
    driver, sse_server, tmp_path, monkeypatch
):
    write(tmp_path / "data", sse_server.base_url)
    route(sse_server)
    parley = driver.start(tmp_path / "data")
    composer = parley.window.chat_view.composer
    counted = CountedEstimates(monkeypatch)
    pasted = "你好世界。" * 80_000  # 400,000 characters, about as many tokens

    async def body() -> None:
        select(parley, "seeing-model")
        empty = await settle(driver, parley)
        counted.on_gui_thread = counted.in_workers = 0
        QGuiApplication.clipboard().setText(pasted)
        composer.edit.setFocus()
        composer.edit.paste()
        assert composer.edit.toPlainText() == pasted
        assert counted.on_gui_thread == 0  # the GUI thread never walks the paste
        estimate = await settle(driver, parley)
        assert counted.in_workers >= 1 and counted.on_gui_thread == 0
        assert estimate >= empty + estimate_tokens(pasted)
        assert composer.meter.text() == f"{compact(estimate)} / 128k"
        QTest.keyClick(composer.edit, Qt.Key.Key_Return)
        await driver.until(lambda: len(chats(sse_server)) == 1 and not parley.chat_vm.busy)
        (sent,) = chats(sse_server)
        assert close_to(estimate, wire_tokens(sent)), (estimate, wire_tokens(sent))

    driver.run(body(), timeout=120)
