"""Conversation management in the sidebar, and stray errors made visible."""

from __future__ import annotations

import logging
import sys

from PySide6.QtWidgets import QMessageBox

from tests.support.settings_files import write_settings


async def send_and_wait(driver, parley, text: str) -> str:
    assert parley.chat_vm.submit(text)
    # A new chat opens once it is saved with its first message, before the network.
    await driver.until(lambda: bool(parley.chat_vm.conversationId))
    conversation_id = parley.chat_vm.conversationId
    await driver.until(
        lambda: (
            len(parley.chat.active_path(conversation_id)) == 2
            and parley.chat.active_path(conversation_id)[-1].status.is_final
        )
    )
    return conversation_id


def test_new_chat_rename_and_newest_first(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)

    async def body() -> None:
        first = await send_and_wait(driver, parley, "First topic")
        parley.window.new_chat()
        assert parley.chat_vm.conversationId == ""
        assert parley.window.chat_view.transcript.message_ids() == []
        assert parley.window.chat_view.empty.isVisible()
        second = await send_and_wait(driver, parley, "Second topic")

        model = parley.conversations_vm
        assert model.data(model.index(0)) == "Today"
        assert [model.id_at(1), model.id_at(2)] == [second, first]  # newest first
        assert model.setData(model.index(2), "  Renamed topic  ")
        assert model.title_of(first) == "Renamed topic"
        parley.window.open_conversation(first)
        assert parley.window.chat_view.title.text() == "Renamed topic"
        assert parley.chat.active_path(first)[0].text == "First topic"
        assert not model.setData(model.index(1), "   ")  # an empty title is refused
        assert not model.setData(model.index(0), "A header")  # headers are not chats

    driver.run(body())


def test_delete_asks_first_and_removes_the_open_chat(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)

    def click(box: QMessageBox, text: str) -> None:
        next(b for b in box.buttons() if b.text() == text).click()

    async def body() -> None:
        conversation_id = await send_and_wait(driver, parley, "To be deleted")
        box = parley.window.sidebar.confirm_delete(conversation_id)
        assert "To be deleted" in box.text() and box.isVisible()
        click(box, "Cancel")
        await driver.until(lambda: not box.isVisible())
        assert parley.conversations_vm.conversation_count() == 1  # cancelled: nothing happened

        box = parley.window.sidebar.confirm_delete(conversation_id)
        click(box, "Delete")
        await driver.until(lambda: parley.conversations_vm.conversation_count() == 0)
        assert parley.chat.conversation(conversation_id) is None
        assert parley.chat_vm.conversationId == ""  # the open chat was closed
        assert parley.window.chat_view.transcript.message_ids() == []

    driver.run(body())


def test_a_stray_exception_becomes_a_visible_logged_message(driver, tmp_path, caplog, monkeypatch):
    parley = driver.start(tmp_path)
    monkeypatch.setattr(sys, "excepthook", parley.errors.excepthook)

    async def broken() -> None:
        raise RuntimeError("the flux capacitor failed")

    def visible_boxes() -> list[QMessageBox]:
        return [w for w in parley.window.children() if isinstance(w, QMessageBox) and w.isVisible()]

    async def body() -> None:
        parley.tasks.start(broken(), "broken")
        await driver.until(lambda: bool(visible_boxes()))

    with caplog.at_level(logging.ERROR):
        driver.run(body())
    assert "RuntimeError: the flux capacitor failed" in visible_boxes()[0].text()
    assert "flux capacitor" in caplog.text
    assert parley.window.isVisible()  # the app carries on
