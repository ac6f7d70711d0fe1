"""The rolling summary and pins as a person meets them in the transcript."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.core.models import Message, ModelRef, Role, RollingSummary, TextPart
from tests.support.settings_files import write_settings
from tests.support.sse_server import completion_body, json_response
from tests.support.stored_chats import seed_chat

MODEL = ModelRef("local", "test-model")


def transcript(parley):
    return parley.window.chat_view.transcript


def test_the_divider_shows_expands_and_its_summary_can_be_edited(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    conversation_id, ids = seed_chat(parley)
    parley.repository.set_summary(conversation_id, RollingSummary("Budget is 40k.", tuple(ids[:4])))

    async def body() -> None:
        parley.chat_vm.open_conversation(conversation_id)
        view = transcript(parley)
        await driver.until(lambda: view.summary_divider() is not None)
        divider = view.summary_divider()
        assert divider is not None
        assert view.message_widget(ids[4]).header is divider  # above the first sent in full
        others = [view.message_widget(i) for i in ids if i != ids[4]]
        assert all(w is None or w.header is None for w in others)
        assert divider.toggle.text() == "Earlier messages summarised"
        assert not divider.details.isVisible()

        QTest.mouseClick(divider.toggle, Qt.MouseButton.LeftButton)
        await driver.until(lambda: divider.details.isVisible())
        assert divider.text.text() == "Budget is 40k."

        editor = divider.open_editor()
        assert not editor.isModal()
        editor.editor.setPlainText("Budget is 45k, due in May.")
        editor.accept()
        stored = driver.reader(tmp_path).get_conversation(conversation_id)
        assert stored is not None
        assert stored.summary == RollingSummary("Budget is 45k, due in May.", tuple(ids[:4]))
        await driver.until(lambda: divider.text.text() == "Budget is 45k, due in May.")

    driver.run(body())


def test_an_edit_of_a_covered_message_removes_the_divider(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    conversation_id, ids = seed_chat(parley)
    parley.repository.set_summary(conversation_id, RollingSummary("s", tuple(ids[:4])))

    async def body() -> None:
        parley.chat_vm.open_conversation(conversation_id)
        view = transcript(parley)
        await driver.until(lambda: view.summary_divider() is not None)
        sibling = Message("m2b", conversation_id, ids[1], Role.USER, [TextPart("edited")])
        parley.repository.add_message(sibling)  # a new version of a covered message
        assert parley.chat.switch_version(ids[2], +1) == "m2b"  # the person switches to it
        await driver.until(lambda: view.summary_divider() is None)
        assert parley.chat_vm.context.divider_before == ""

    driver.run(body())


def test_compress_now_sends_the_instructions_and_moves_the_divider(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.script(json_response(completion_body("Compressed: 40k budget.")))
    parley = driver.start(tmp_path)
    conversation_id, ids = seed_chat(parley)
    parley.repository.set_summary(conversation_id, RollingSummary("Budget is 40k.", tuple(ids[:2])))

    async def body() -> None:
        parley.chat_vm.open_conversation(conversation_id)
        view = transcript(parley)
        await driver.until(lambda: view.summary_divider() is not None)
        dialog = view.summary_divider().open_compress()
        assert not dialog.isModal()
        dialog.instructions.setText("Keep every number.")
        dialog.accept()
        await driver.until(lambda: parley.chat_vm.context.divider_before == ids[6])
        stored = driver.reader(tmp_path).get_conversation(conversation_id)
        assert stored is not None
        assert stored.summary == RollingSummary("Compressed: 40k budget.", tuple(ids[:6]))
        asked = json.dumps(sse_server.requests[0].json)
        assert "Keep every number." in asked and "Budget is 40k." in asked
        assert "Message number 5" in asked and "Message number 6" not in asked
        await driver.until(lambda: view.summary_divider() is not None)
        divider = view.summary_divider()
        assert view.message_widget(ids[6]).header is divider
        assert divider.details.isVisible() and divider.text.text() == "Compressed: 40k budget."

    driver.run(body())


def test_pin_toggles_shows_a_marker_and_persists(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    conversation_id, ids = seed_chat(parley, 4)

    async def body() -> None:
        parley.chat_vm.open_conversation(conversation_id)
        view = transcript(parley)
        await driver.until(lambda: view.message_widget(ids[-1]) is not None)
        widget = view.message_widget(ids[-1])  # the latest shows its actions
        pin = widget.actions.pin_button
        assert pin.isVisible() and not pin.isChecked()
        QTest.mouseClick(pin, Qt.MouseButton.LeftButton)
        await driver.until(lambda: widget.pinned)
        assert pin.isChecked() and "Unpin" in pin.toolTip()
        assert widget._pin_marker is not None and widget._pin_marker.isVisible()
        stored = driver.reader(tmp_path).get_conversation(conversation_id)
        assert stored is not None and stored.pinned_message_ids == (ids[-1],)

        QTest.mouseClick(pin, Qt.MouseButton.LeftButton)
        await driver.until(lambda: not widget.pinned)
        assert not widget._pin_marker.isVisible() and not pin.isChecked()
        stored = driver.reader(tmp_path).get_conversation(conversation_id)
        assert stored is not None and stored.pinned_message_ids == ()

    driver.run(body())


def test_compress_from_the_chat_menu_writes_a_first_summary(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.script(json_response(completion_body("They planned the budget.")))
    parley = driver.start(tmp_path)
    conversation_id, ids = seed_chat(parley)

    async def body() -> None:
        parley.chat_vm.open_conversation(conversation_id)
        view = transcript(parley)
        assert view.summary_divider() is None  # nothing summarised yet
        dialog = parley.window.compress_conversation()
        assert not dialog.isModal()
        dialog.accept()
        await driver.until(lambda: view.summary_divider() is not None)
        stored = driver.reader(tmp_path).get_conversation(conversation_id)
        assert stored is not None and stored.summary is not None
        assert stored.summary.text == "They planned the budget."
        assert stored.summary.covered_ids == tuple(ids[:6])

    driver.run(body())
