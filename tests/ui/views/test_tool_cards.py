"""Tool cards as plain data, and the large-output link that opens only tool outputs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, Qt
from PySide6.QtGui import QColor, QDesktopServices, QImage
from PySide6.QtTest import QTest

from desktop.core.models import (
    CallState,
    DecidedBy,
    Decision,
    Message,
    MessageStatus,
    Role,
    TextPart,
    ToolCallPart,
)
from desktop.ui.viewmodels.message_renderer import MessageRenderer
from desktop.ui.viewmodels.tool_card import tool_card
from desktop.ui.viewmodels.tool_outputs import ToolOutputs
from tests.support.settings_files import write_settings
from tests.support.transcript import message
from tests.support.url_catcher import UrlCatcher

CALL = ToolCallPart(
    "call_1",
    "run_command",
    '{"command":"ls"}',
    result="a.txt\nb.txt",
    state=CallState.DONE,
    decision=Decision.APPROVED_ONCE,
    decided_by=DecidedBy.PERSON,
    duration_ms=1500,
    result_size=2048,
    output_path="tool_outputs/call_1.txt",
)


def test_a_card_says_state_decision_duration_and_size():
    card = tool_card(CALL)
    assert card.state == "done" and card.state_label == "done"
    assert card.summary == "approved once by you · 1.5 s · 2.0 KiB"
    assert card.arguments == '{\n  "command": "ls"\n}'
    assert card.result == "a.txt\nb.txt" and card.output_path == "tool_outputs/call_1.txt"
    denied = tool_card(
        replace(CALL, state=CallState.DENIED, decision=Decision.DENIED, is_error=True)
    )
    assert denied.state_label == "denied" and denied.is_error
    policy = tool_card(replace(CALL, decision=Decision.AUTO, decided_by=DecidedBy.POLICY))
    assert policy.summary.startswith("allowed by policy")
    broken = tool_card(replace(CALL, arguments='{"command": ', result=None))
    assert broken.arguments == '{"command": '  # shown as the model wrote it


def test_the_message_item_carries_its_cards_and_the_waiting_flag():
    message = Message(
        "a",
        "c",
        None,
        Role.ASSISTANT,
        [TextPart("Let me look."), replace(CALL, state=CallState.PENDING, result=None)],
        status=MessageStatus.AWAITING_APPROVAL,
    )
    item = MessageRenderer().item(message)
    assert [c.name for c in item.tools] == ["run_command"]
    assert item.tools[0].state == "pending" and item.awaiting_approval
    plain = Message("b", "c", None, Role.ASSISTANT, [TextPart("Hi")])
    assert MessageRenderer().item(plain).tools == ()


def test_only_files_inside_tool_outputs_open(tmp_path):
    outputs = ToolOutputs(tmp_path)
    (tmp_path / "tool_outputs").mkdir()
    (tmp_path / "tool_outputs" / "call_1.txt").write_text("x", encoding="utf-8")
    (tmp_path / "settings.json").write_text("{}", encoding="utf-8")
    assert outputs.resolve("tool_outputs/call_1.txt") == tmp_path / "tool_outputs" / "call_1.txt"
    assert outputs.resolve("tool_outputs/../settings.json") is None
    assert outputs.resolve(str(tmp_path / "settings.json")) is None  # absolute elsewhere
    assert outputs.resolve("tool_outputs/missing.txt") is None
    assert ToolOutputs(None).resolve("tool_outputs/call_1.txt") is None
    (tmp_path / "tool_outputs" / "link.txt").symlink_to(tmp_path / "settings.json")
    assert outputs.resolve("tool_outputs/link.txt") is None


def test_images_a_tool_returned_show_on_its_card_and_open(driver, tmp_path):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    app = driver.start(tmp_path)
    image = QImage(40, 30, QImage.Format.Format_RGB32)
    image.fill(QColor("teal"))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    stored = driver.run(app.attachments.add_bytes(bytes(buffer.data().data()), "chart.png"))
    part = replace(CALL, attachment_ids=(stored.id,))
    app.chat_vm.transcript.messagesReset.emit([message("a1", tools=(tool_card(part),))])
    card = app.window.chat_view.transcript.message_widget("a1").tool_cards.cards[0]
    assert card.chips is not None and not card.chips.isVisible()  # folded with the details
    card.toggle.setChecked(True)
    assert card.chips.isVisible()
    chip = card.chips.chips[stored.id]
    assert chip.name == "chart.png"

    async def body() -> None:
        opened = UrlCatcher()
        QDesktopServices.setUrlHandler("file", opened, "catch")
        try:
            QTest.mouseClick(chip, Qt.MouseButton.LeftButton)
            await driver.until(lambda: bool(opened.urls))
        finally:
            QDesktopServices.unsetUrlHandler("file")
        assert Path(opened.urls[0].toLocalFile()).name == "chart.png"

    driver.run(body())
