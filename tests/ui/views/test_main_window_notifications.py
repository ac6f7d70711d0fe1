"""Desktop notifications through a real D-Bus session bus: a private `dbus-daemon` and a
recording `org.freedesktop.Notifications` daemon (tests/support/notification_daemon.py).
The window counts as not in front once another window took the focus and went away,
as when the person switches to another application."""

from __future__ import annotations

import asyncio
import json

from PySide6.QtWidgets import QApplication, QWidget

from desktop.engine.notices import first_words
from tests.support.chat_wire import text_answer, write_call
from tests.support.settings_files import write_settings, write_tool_settings
from tests.support.sse_server import DONE, Sleep, chat_chunk, sse_response
from tests.support.ui_actions import type_and_send

ANSWER = (
    "Otters are semiaquatic mammals that hold hands while they sleep so that they do not "
    "drift apart, and they keep a favourite stone in a pouch under the arm."
)


def slow_answer(text: str = ANSWER) -> list:
    """Time enough to look away before the answer ends."""
    return sse_response(
        chat_chunk(content=text[:20]),
        Sleep(0.4),
        chat_chunk(content=text[20:]),
        chat_chunk(finish_reason="stop"),
        DONE,
    )


async def look_away(driver) -> None:
    """Another application takes the focus: no Parley window is active any more."""
    other = QWidget()
    other.show()
    other.activateWindow()
    await driver.until(other.isActiveWindow)
    other.hide()
    other.deleteLater()
    await driver.until(lambda: QApplication.activeWindow() is None)


async def settle(seconds: float = 0.4) -> None:
    """Long enough for a notification that should not come to have arrived anyway."""
    await asyncio.sleep(seconds)


def test_an_answer_finished_while_away_is_notified_once_and_a_click_opens_it(
    notification_daemon, driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    sse_server.script(slow_answer())

    async def body() -> None:
        type_and_send(parley, "Tell me about otters")
        await driver.until(lambda: parley.chat_vm.busy)
        conversation_id = parley.chat_vm.conversationId
        await look_away(driver)
        await driver.until(lambda: not parley.chat_vm.busy)
        await driver.until(lambda: len(notification_daemon.calls) == 1)
        await settle()
        (call,) = notification_daemon.calls
        assert call.app_name == "Parley"
        assert call.summary == "Tell me about otters"
        assert call.body == first_words(ANSWER)
        assert call.body.startswith("Otters are semiaquatic mammals") and len(call.body) <= 80
        assert call.actions[:1] == ["default"]  # clicking the body is an action

        # Meanwhile the window went to another chat and was closed to the tray.
        parley.chat_vm.new_chat()
        parley.window.hide()
        notification_daemon.click(call.id)
        await driver.until(
            lambda: parley.window.isVisible() and parley.chat_vm.conversationId == conversation_id
        )
        assert parley.window.sidebar_title(conversation_id) == "Tell me about otters"

    driver.run(body())


def test_an_answer_finished_while_the_window_is_in_front_is_not_notified(
    notification_daemon, driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    sse_server.script(slow_answer())

    async def body() -> None:
        parley.window.activateWindow()
        await driver.until(parley.window.isActiveWindow)
        type_and_send(parley, "Tell me about otters")
        await driver.until(lambda: parley.chat_vm.busy)
        await driver.until(lambda: not parley.chat_vm.busy)
        await settle()
        assert notification_daemon.calls == []

    driver.run(body())


def test_with_notifications_off_nothing_is_sent(notification_daemon, driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    path = tmp_path / "settings.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["desktop"] = {"notifications": False}
    path.write_text(json.dumps(data), encoding="utf-8")
    parley = driver.start(tmp_path)
    sse_server.script(slow_answer())

    async def body() -> None:
        type_and_send(parley, "Tell me about otters")
        await driver.until(lambda: parley.chat_vm.busy)
        await look_away(driver)
        await driver.until(lambda: not parley.chat_vm.busy)
        await settle()
        assert notification_daemon.calls == []

    driver.run(body())


def test_a_tool_waiting_for_approval_is_notified_and_the_answer_replaces_it(
    notification_daemon, driver, sse_server, tmp_path
):
    write_tool_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    parley.chat_vm.workspace.set_folder(str(tmp_path))
    sse_server.script(
        [*write_call()[:1], Sleep(0.4), *write_call()[1:]], text_answer("I left it alone.")
    )

    async def body() -> None:
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: parley.chat_vm.busy)
        conversation_id = parley.chat_vm.conversationId
        await look_away(driver)
        await driver.until(lambda: parley.chat.approval(conversation_id) is not None)
        await driver.until(lambda: len(notification_daemon.calls) == 1)
        await settle()
        (asked,) = notification_daemon.calls
        # The chat was made to hold the workspace, before its first message named it.
        assert asked.summary == parley.window.sidebar_title(conversation_id) == "New chat"
        assert asked.body == "needs your approval to run write_file"

        request = parley.chat.approval(conversation_id)
        await look_away(driver)  # the approval dialog took the focus; the person left it
        request.deny(request.calls[0].call_id)
        await driver.until(lambda: not parley.chat_vm.busy)
        await driver.until(lambda: len(notification_daemon.calls) == 2)
        await settle()
        assert notification_daemon.calls[1].body == "I left it alone."
        # One notification per conversation: the question is withdrawn for the answer.
        assert notification_daemon.closed == [asked.id]

    driver.run(body())
