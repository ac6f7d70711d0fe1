"""MCP servers while Parley runs: a conversation asks for consent from the window, the
settings pages follow servers starting, stopping and crashing (real server processes)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.mcp_servers import TEST_SERVER, child_pid
from tests.support.settings_files import write_settings
from tests.support.sse_server import default_stream
from tests.support.ui_actions import type_and_send


def start_with_server(driver, sse_server, tmp_path: Path, *, consent: bool):
    folder = tmp_path / "data"
    write_settings(folder, sse_server.base_url, models=("gpt-4o",))
    path = folder / "settings.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["mcp_servers"] = [TEST_SERVER]
    path.write_text(json.dumps(data), encoding="utf-8")
    parley = driver.start(folder)
    if consent:
        parley.mcp.give_consent("test")
    return parley


def status(page, server_id: str) -> str:
    """The status line the MCP page shows for the server (chosen in its list)."""
    if page.list.current_id() != server_id:
        page.show_server(server_id)
    return page.status.text()


def offered(request) -> set[str]:
    return {t["function"]["name"] for t in request.json.get("tools", [])}


def test_a_conversation_asks_once_without_blocking_and_declining_leaves_the_server_out(
    driver, sse_server, tmp_path
):
    sse_server.script(default_stream("First."), default_stream("Second."))
    parley = start_with_server(driver, sse_server, tmp_path, consent=False)
    prompt = parley.window.mcp_consent

    async def body() -> None:
        type_and_send(parley, "hello")
        await driver.until(lambda: "test" in prompt.dialogs)
        dialog = prompt.dialogs["test"]
        assert dialog.isVisible() and not dialog.isModal()
        assert dialog.command.text().endswith("-m tests.support.mcp_test_server stdio")
        await driver.until(lambda: not parley.chat_vm.busy)  # the answer did not wait
        QTest.mouseClick(dialog.cancel, Qt.MouseButton.LeftButton)
        assert prompt.dialogs == {}

        type_and_send(parley, "again")
        await driver.until(lambda: len(sse_server.requests) == 2 and not parley.chat_vm.busy)
        assert prompt.dialogs == {}  # asked once in this run
        assert parley.mcp.connection("test") is None
        assert not any(name.startswith("mcp__") for r in sse_server.requests for name in offered(r))

        parley.window.show_settings()
        page = parley.window._settings_dialog.mcp
        assert status(page, "test") == "Not allowed to run: left out of conversations"

    driver.run(body())


def test_allowing_from_a_conversation_starts_the_server_and_the_tools_page_follows(
    driver, sse_server, tmp_path
):
    sse_server.script(default_stream("First."), default_stream("Second."))
    parley = start_with_server(driver, sse_server, tmp_path, consent=False)
    parley.window.show_settings()
    tools_page = parley.window._settings_dialog.tools
    assert not any(name.startswith("mcp__") for name in tools_page.selectors)

    async def body() -> None:
        type_and_send(parley, "hello")
        await driver.until(lambda: "test" in parley.window.mcp_consent.dialogs)
        QTest.mouseClick(parley.window.mcp_consent.dialogs["test"].allow, Qt.MouseButton.LeftButton)
        await driver.until(lambda: "mcp__test__echo" in tools_page.selectors)
        assert parley.settings_vm.mcp.running("test")

        type_and_send(parley, "again")
        await driver.until(lambda: len(sse_server.requests) == 2 and not parley.chat_vm.busy)
        assert "mcp__test__echo" in offered(sse_server.requests[1])

        mcp_page = parley.window._settings_dialog.mcp
        mcp_page.show_server("test")
        mcp_page.enabled.setChecked(False)
        await driver.until(lambda: "mcp__test__echo" not in tools_page.selectors)
        assert parley.mcp.connection("test") is None

    driver.run(body())


@pytest.mark.slow
def test_a_server_that_crashes_while_idle_shows_it_in_settings(driver, sse_server, tmp_path):
    parley = start_with_server(driver, sse_server, tmp_path, consent=True)
    parley.window.show_settings()
    page = parley.window._settings_dialog.mcp
    assert status(page, "test") == "Starts when a conversation uses tools"

    async def body() -> None:
        await parley.mcp.tools()
        await driver.until(lambda: status(page, "test") == "Running")
        os.kill(child_pid(os.getpid(), "tests.support.mcp_test_server"), signal.SIGKILL)
        await driver.until(
            lambda: (
                status(page, "test") == "Stopped unexpectedly — restarting in 0.5 s when next used"
            )
        )
        await parley.mcp.tools()  # the next use restarts it
        await driver.until(lambda: status(page, "test") == "Running")

    driver.run(body())
