"""Settings → MCP servers: adding a program asks for consent with its exact command
line before anything runs; only "Allow and start" starts it."""

from __future__ import annotations

import json
import shlex
import sys

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.settings_files import write_settings

ARGS = "-m mcp_server_time --local-timezone UTC"


def open_page(driver, sse_server, tmp_path):
    write_settings(tmp_path / "data", sse_server.base_url)
    parley = driver.start(tmp_path / "data")
    parley.window.show_settings()
    page = parley.window._settings_dialog.mcp
    assert page is not None
    return parley, page


def add_time_server(page) -> None:
    page.name.setText("Time")
    page.command.setText(sys.executable)
    page.args.setText(ARGS)
    QTest.mouseClick(page.add, Qt.MouseButton.LeftButton)


def test_adding_a_program_shows_consent_and_only_allow_starts_it(driver, sse_server, tmp_path):
    parley, page = open_page(driver, sse_server, tmp_path)
    add_time_server(page)
    dialog = page.consent_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.command.text() == shlex.join([sys.executable, *ARGS.split()])
    assert parley.mcp.connection("time") is None  # nothing runs before consent
    assert "allow" in {b.objectName() for b in page.rows["time"].findChildren(type(page.add))}
    saved = json.loads((tmp_path / "data" / "settings.json").read_text(encoding="utf-8"))
    assert saved["mcp_servers"][0]["args"] == ARGS.split()
    assert "mcp_consent" not in saved

    QTest.mouseClick(dialog.allow, Qt.MouseButton.LeftButton)

    async def started() -> None:
        await driver.until(lambda: parley.settings_vm.mcp.running("time"))

    driver.run(started())
    saved = json.loads((tmp_path / "data" / "settings.json").read_text(encoding="utf-8"))
    assert set(saved["mcp_consent"]) == {"time"}


def test_cancel_starts_nothing_and_remove_forgets_the_server(driver, sse_server, tmp_path):
    parley, page = open_page(driver, sse_server, tmp_path)
    add_time_server(page)
    QTest.mouseClick(page.consent_dialog.cancel, Qt.MouseButton.LeftButton)
    assert not page.consent_dialog.isVisible()
    assert parley.mcp.connection("time") is None
    assert parley.settings.settings.mcp_consent == {}

    remove = next(
        b for b in page.rows["time"].findChildren(type(page.add)) if b.objectName() == "remove"
    )
    QTest.mouseClick(remove, Qt.MouseButton.LeftButton)
    assert parley.settings.settings.mcp_servers == ()
    assert page.rows == {}


def set_rows(editor, rows) -> None:
    editor.set_headers(tuple(rows))


def test_an_http_server_is_added_with_headers_and_they_are_edited_with_validation(
    driver, sse_server, tmp_path
):
    parley, page = open_page(driver, sse_server, tmp_path)
    page.kind.setCurrentIndex(page.kind.findData("http"))
    assert page.headers.isEnabled() and not page.command.isEnabled()
    page.name.setText("Web")
    page.url.setText("https://mcp.example.com/mcp")
    set_rows(page.headers, [("", "orphan value")])
    QTest.mouseClick(page.add, Qt.MouseButton.LeftButton)
    assert "needs a name" in page.error.text()
    assert parley.settings.settings.mcp_servers == ()

    set_rows(page.headers, [("Authorization", "Bearer one"), ("", "")])
    QTest.mouseClick(page.add, Qt.MouseButton.LeftButton)
    saved = json.loads((tmp_path / "data" / "settings.json").read_text(encoding="utf-8"))
    assert saved["mcp_servers"][0]["headers"] == {"Authorization": "Bearer one"}
    assert page.headers.headers() == ()  # the form is cleared for the next one

    button = next(
        b for b in page.rows["web"].findChildren(type(page.add)) if b.objectName() == "headers"
    )
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    dialog = page.headers_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.editor.headers() == (("Authorization", "Bearer one"),)

    set_rows(dialog.editor, [("Bad Name", "x")])
    QTest.mouseClick(dialog.save, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and "not a valid HTTP header name" in dialog.error.text()
    set_rows(dialog.editor, [("X-Team", "a"), ("x-team", "b")])
    QTest.mouseClick(dialog.save, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and "given twice" in dialog.error.text()
    assert parley.settings.settings.mcp_servers[0].headers == {"Authorization": "Bearer one"}

    set_rows(dialog.editor, [("Authorization", "Bearer two"), ("X-Team", "parley")])
    QTest.mouseClick(dialog.save, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
    saved = json.loads((tmp_path / "data" / "settings.json").read_text(encoding="utf-8"))
    assert saved["mcp_servers"][0]["headers"] == {
        "Authorization": "Bearer two",
        "X-Team": "parley",
    }
