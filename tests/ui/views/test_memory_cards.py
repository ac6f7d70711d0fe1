"""The card of a memory an answer saved: it says what was kept, Undo removes the memory
and Edit changes its words, on the app's real memory service."""

from __future__ import annotations

import json

from PySide6.QtTest import QTest

from desktop.core.memory import scope_for
from desktop.core.models import CallState, DecidedBy, Decision, Role, TextPart, ToolCallPart
from tests.support.settings_files import write_settings
from tests.support.stored_chats import chat_with
from tests.support.ui_actions import click

NO_SERVER = "http://127.0.0.1:9/v1"
FACT = "Ana's cat is called <b>Miso</b>"


def _start(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    call = ToolCallPart(
        "call_1",
        "memory_save",
        json.dumps({"text": FACT}),
        result=json.dumps({"handle": "m1", "text": FACT, "saved": True}),
        state=CallState.DONE,
        decision=Decision.AUTO,
        decided_by=DecidedBy.POLICY,
    )
    chat, (_question, answer) = chat_with(
        parley.repository,
        (Role.USER, [TextPart("Remember my cat")]),
        (Role.ASSISTANT, [call, TextPart("Noted.")]),
    )
    return parley, chat, answer


def _row(parley, message_id):
    widget = parley.window.chat_view.transcript.message_widget(message_id)
    (card,) = widget.tool_cards.cards
    return card.memory


def test_undo_on_the_card_removes_the_saved_memory(driver, tmp_path):
    parley, chat, answer = _start(driver, tmp_path)

    async def body() -> None:
        await parley.memory.save(
            scope_for("default"), FACT, source_conversation_id=chat, source_message_id=answer.id
        )
        parley.chat_vm.open_conversation(chat)
        row = _row(parley, answer.id)
        assert row is not None and row.label.text() == f"Saved to memory: {FACT}"  # plain
        click(row.undo_button)
        await driver.until(lambda: row.status.text() == "Removed from memory.")
        assert await parley.memory.list() == []
        assert not row.undo_button.isVisibleTo(row)

    driver.run(body())


def test_edit_on_the_card_changes_the_memory(driver, tmp_path):
    parley, chat, answer = _start(driver, tmp_path)

    async def body() -> None:
        await parley.memory.save(
            scope_for("default"), FACT, source_conversation_id=chat, source_message_id=answer.id
        )
        parley.chat_vm.open_conversation(chat)
        row = _row(parley, answer.id)
        click(row.edit_button)
        assert row.editor.toPlainText() == FACT
        row.editor.selectAll()
        QTest.keyClicks(row.editor, "Ana's cat is called Mochi")
        click(row.save_button)
        await driver.until(lambda: row.status.text().startswith("Changed to:"))
        (memory,) = await parley.memory.list()
        assert memory.text == "Ana's cat is called Mochi"
        assert row.label.text() == "Saved to memory: Ana's cat is called Mochi"
        click(row.edit_button)  # a second edit starts from the words as they are now
        assert row.editor.toPlainText() == "Ana's cat is called Mochi"

    driver.run(body())
