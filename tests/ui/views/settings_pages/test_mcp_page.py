"""Settings → MCP servers: the form shows the fields of the chosen kind; a server is
edited in place and saved without a button; adding a program asks for consent with its
exact command line before anything runs; pasted JSON is previewed and its servers are
added turned off, never started by the paste."""

from __future__ import annotations

import json
import shlex
import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from desktop.core.mcp_json import MAX_PASTE_BYTES
from desktop.ui.viewmodels.mcp_import_preview import MASK
from tests.support.mcp_servers import TIME_SERVER
from tests.support.settings_files import saved_settings, write_settings

ARGS = "-m mcp_server_time --local-timezone UTC"
PASTED = {
    "mcpServers": {
        "clock": {
            "command": "uvx",
            "args": ["mcp-server-time", "--local-timezone=Europe/Lisbon"],
            "env": {"CLOCK_TOKEN": "s3cret-token"},
        },
        "docs": {
            "type": "sse",
            "url": "https://docs.example.com/sse",
            "headers": {"Authorization": "Bearer hidden-value"},
        },
        "broken": {"args": ["--no-command"]},
    }
}


def open_page(driver, sse_server, tmp_path, servers=()):
    write_settings(tmp_path / "data", sse_server.base_url, mcp_servers=list(servers) or None)
    parley = driver.start(tmp_path / "data")
    parley.window.show_settings()
    page = parley.window._settings_dialog.mcp
    assert page is not None
    return parley, page


def type_into(edit, text: str) -> None:
    """As a person does: select all, type over it, press Enter (the line is finished)."""
    edit.selectAll()
    QTest.keyClick(edit, Qt.Key.Key_Backspace)
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def add_time_server(page) -> None:
    QTest.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    page.form.name.setText("Time")
    page.form.command.setText(sys.executable)
    page.form.args.setText(ARGS)
    QTest.mouseClick(page.add_server, Qt.MouseButton.LeftButton)


def focus_list(parley, page) -> None:
    """The MCP page in front, in the active Settings window, its list focused: where
    Ctrl+V pastes servers."""
    dialog = parley.window._settings_dialog
    dialog.show_page(page)
    dialog.activateWindow()
    assert QTest.qWaitForWindowActive(dialog)
    page.list.setFocus()
    assert page.list.hasFocus()


def shown(widget) -> bool:
    return not widget.isHidden()


def test_the_form_shows_only_the_fields_of_the_chosen_kind(driver, sse_server, tmp_path):
    _parley, page = open_page(driver, sse_server, tmp_path)
    form = page.form
    program = (form.command, form.args, form.cwd, form.env)
    remote = (form.url, form.headers)
    assert all(shown(w) for w in program) and not any(shown(w) for w in remote)
    form.kind.setCurrentIndex(form.kind.findData("http"))
    assert all(shown(w) for w in remote) and not any(shown(w) for w in program)
    form.kind.setCurrentIndex(form.kind.findData("stdio"))
    assert all(shown(w) for w in program) and not any(shown(w) for w in remote)


def test_an_empty_list_says_how_to_add_one_and_offers_a_new_server(driver, sse_server, tmp_path):
    _parley, page = open_page(driver, sse_server, tmp_path)
    assert page.list.count() == 0
    assert "No MCP servers yet" in page.list.placeholder()
    assert shown(page.add_server) and not shown(page.remove)


def test_adding_a_program_shows_consent_and_only_allow_starts_it(driver, sse_server, tmp_path):
    parley, page = open_page(driver, sse_server, tmp_path)
    add_time_server(page)
    dialog = page.consent_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.command.text() == shlex.join([sys.executable, *ARGS.split()])
    assert parley.mcp.connection("time") is None  # nothing runs before consent
    assert page.list.current_id() == "time" and shown(page.allow)
    saved = saved_settings(tmp_path / "data")
    assert saved["mcp_servers"][0]["args"] == ARGS.split()
    assert "mcp_consent" not in saved

    QTest.mouseClick(dialog.allow, Qt.MouseButton.LeftButton)

    async def started() -> None:
        await driver.until(lambda: parley.settings_vm.mcp.running("time"))

    driver.run(started())
    assert set(saved_settings(tmp_path / "data")["mcp_consent"]) == {"time"}


def test_cancel_starts_nothing_and_remove_forgets_the_server(driver, sse_server, tmp_path):
    parley, page = open_page(driver, sse_server, tmp_path)
    add_time_server(page)
    assert page.consent_dialog.cancel.isDefault()  # Enter never starts a program
    assert not page.consent_dialog.allow.isDefault()
    QTest.keyClick(page.consent_dialog, Qt.Key.Key_Return)
    assert not page.consent_dialog.isVisible()
    assert parley.mcp.connection("time") is None
    assert parley.settings.settings.mcp_consent == {}

    QTest.mouseClick(page.remove, Qt.MouseButton.LeftButton)
    assert parley.settings.settings.mcp_servers == ()
    assert page.list.count() == 0 and shown(page.add_server)  # back to a new server


def test_editing_a_server_saves_each_field_without_a_button(driver, sse_server, tmp_path):
    parley, page = open_page(driver, sse_server, tmp_path, [TIME_SERVER])
    parley.mcp.give_consent("time")
    form = page.form
    assert page.list.current_id() == "time" and form.name.text() == "Time"
    assert not shown(page.add_server)  # no Save or Add button for a server set up

    type_into(form.name, "World clock")
    assert saved_settings(tmp_path / "data")["mcp_servers"][0]["name"] == "World clock"
    assert page.list.item(0).text() == "World clock"
    assert not parley.settings_vm.mcp.needs_consent("time")  # a new name is the same program

    type_into(form.args, "-m mcp_server_time --local-timezone 'Europe/Lisbon'")
    saved = saved_settings(tmp_path / "data")["mcp_servers"][0]
    assert saved["args"] == ["-m", "mcp_server_time", "--local-timezone", "Europe/Lisbon"]
    # Another command line is another program: it needs consent again.
    assert parley.settings_vm.mcp.needs_consent("time") and shown(page.allow)
    assert page.status.text() == "Waiting for your consent"

    type_into(form.command, "")  # what cannot be saved says why, and is not saved
    assert "program to run" in form.errors["command"].error
    assert saved_settings(tmp_path / "data")["mcp_servers"][0]["command"] == sys.executable
    type_into(form.command, sys.executable)
    assert form.errors["command"].error == ""

    QTest.mouseClick(page.enabled, Qt.MouseButton.LeftButton)  # a toggle saves at once
    assert saved_settings(tmp_path / "data")["mcp_servers"][0]["enabled"] is False
    assert page.status.text() == "Turned off"


def test_an_http_server_is_added_with_headers_and_they_are_edited_in_place(
    driver, sse_server, tmp_path
):
    parley, page = open_page(driver, sse_server, tmp_path)
    form = page.form
    form.kind.setCurrentIndex(form.kind.findData("http"))
    form.name.setText("Web")
    form.url.setText("https://mcp.example.com/mcp")
    form.headers.set_headers((("", "orphan value"),))
    QTest.mouseClick(page.add_server, Qt.MouseButton.LeftButton)
    assert "needs a name" in form.errors["headers"].error
    assert parley.settings.settings.mcp_servers == ()

    form.headers.set_headers((("Authorization", "Bearer one"), ("", "")))
    QTest.mouseClick(page.add_server, Qt.MouseButton.LeftButton)
    saved = saved_settings(tmp_path / "data")["mcp_servers"][0]
    assert saved["headers"] == {"Authorization": "Bearer one"}
    assert page.list.current_id() == "web" and not shown(page.add_server)
    assert not shown(form.command)  # still only a URL's fields

    table = form.headers.table
    table.item(0, 1).setText("Bearer two")  # a cell edited: saved at once
    assert parley.settings.settings.mcp_servers[0].headers == {"Authorization": "Bearer two"}
    table.item(0, 0).setText("Bad Name")
    assert "not a valid HTTP header name" in form.errors["headers"].error
    assert parley.settings.settings.mcp_servers[0].headers == {"Authorization": "Bearer two"}
    table.item(0, 0).setText("Authorization")
    form.headers.add_row()
    table.item(1, 0).setText("authorization")
    table.item(1, 1).setText("x")
    assert "given twice" in form.errors["headers"].error
    table.item(1, 0).setText("X-Team")
    assert saved_settings(tmp_path / "data")["mcp_servers"][0]["headers"] == {
        "Authorization": "Bearer two",
        "X-Team": "x",
    }


def test_pasted_json_is_previewed_and_added_turned_off_and_not_started(
    driver, sse_server, tmp_path
):
    parley, page = open_page(driver, sse_server, tmp_path, [TIME_SERVER])
    QGuiApplication.clipboard().setText(json.dumps(PASTED, indent=2))
    focus_list(parley, page)
    QTest.keyClick(page.list, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    dialog = page.import_dialog
    assert dialog is not None and dialog.isVisible()
    rows = {entry.row.server.name: entry for entry in dialog.entries}
    assert set(rows) == {"clock", "docs"}
    clock = rows["clock"]
    assert clock.row.kind == "Program (stdio)"
    assert clock.target.toPlainText() == "uvx mcp-server-time --local-timezone=Europe/Lisbon"
    assert clock.row.details == (f"Environment: CLOCK_TOKEN={MASK}",)
    assert rows["docs"].row.details == (f"Headers: Authorization: {MASK}",)
    texts = [label.text() for label in dialog.findChildren(type(page.status))]
    assert not any("s3cret" in t or "hidden-value" in t for t in texts)  # values never shown
    assert dialog.problems == ["broken: has neither a “command” to run nor a “url” to connect to"]
    # "Add 2 servers" once the English plural forms have it ("Add %n server(s)").
    assert dialog.add.text().startswith("Add 2 server")

    rows["docs"].check.setChecked(False)
    assert dialog.add.text().startswith("Add 1 server")
    QTest.mouseClick(dialog.add, Qt.MouseButton.LeftButton)

    saved = saved_settings(tmp_path / "data")
    assert [s["id"] for s in saved["mcp_servers"]] == ["time", "clock"]
    assert saved["mcp_servers"][1]["enabled"] is False
    assert saved["mcp_servers"][1]["env"] == {"CLOCK_TOKEN": "s3cret-token"}
    assert "mcp_consent" not in saved and parley.mcp.connection("clock") is None
    assert page.list.current_id() == "clock" and page.status.text() == "Turned off"
    assert page.consent_dialog is None  # nothing asked, nothing started

    # Turning it on goes through the consent for its exact command line.
    QTest.mouseClick(page.enabled, Qt.MouseButton.LeftButton)
    assert page.consent_dialog is not None and page.consent_dialog.isVisible()
    assert page.consent_dialog.command.text() == clock.target.toPlainText()
    assert parley.mcp.connection("clock") is None


def test_ctrl_v_without_servers_json_opens_nothing(driver, sse_server, tmp_path):
    parley, page = open_page(driver, sse_server, tmp_path)
    QGuiApplication.clipboard().setText("just some words")
    focus_list(parley, page)
    QTest.keyClick(page.list, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert page.import_dialog is None
    assert "no MCP servers' JSON" in page.note.text()


def test_paste_json_button_edits_the_text_and_reads_it_again(driver, sse_server, tmp_path, qtbot):
    _parley, page = open_page(driver, sse_server, tmp_path)
    QGuiApplication.clipboard().setText("not json")
    QTest.mouseClick(page.paste_button, Qt.MouseButton.LeftButton)
    dialog = page.import_dialog
    assert dialog.source.toPlainText() == "" and not dialog.add.isEnabled()

    dialog.source.setPlainText('{"mcpServers": {"a": {"command": "x"} "b": {}}}')
    dialog.read()
    assert "line 1, column 39" in dialog.error.text() and dialog.entries == []
    dialog.source.setPlainText('{"mcpServers": {"a": {"command": "x"}}}')
    qtbot.waitUntil(lambda: len(dialog.entries) == 1, timeout=10_000)  # read after a pause
    assert dialog.error.isHidden()


def test_a_huge_paste_is_refused_with_a_clear_error(driver, sse_server, tmp_path):
    parley, page = open_page(driver, sse_server, tmp_path)
    huge = '{"mcpServers": {"a": {"command": "' + "x" * (10 * 1024 * 1024) + '"}}}'
    QGuiApplication.clipboard().setText(huge)
    focus_list(parley, page)
    QTest.keyClick(page.list, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    dialog = page.import_dialog
    assert dialog is not None
    assert "larger than 256 KiB" in dialog.error.text()
    assert dialog.source.toPlainText() == ""  # never laid out
    dialog.source.paste()  # pasting it into the text box is refused the same way
    assert dialog.source.toPlainText() == "" and not dialog.add.isEnabled()
    QGuiApplication.clipboard().setText("{" + " " * MAX_PASTE_BYTES)
    dialog.source.paste()
    assert dialog.source.toPlainText() == ""


def test_edits_and_pasted_servers_are_undone_from_the_settings_window(driver, sse_server, tmp_path):
    parley, page = open_page(driver, sse_server, tmp_path, [TIME_SERVER])
    undo = parley.settings_vm.undo
    type_into(page.form.name, "World clock")
    assert undo.next_undo == "MCP server World clock changed"
    undo.undo()
    assert parley.settings.settings.mcp_servers[0].name == "Time"
    assert page.form.name.text() == "Time" and page.list.item(0).text() == "Time"

    page.open_import(json.dumps(PASTED))
    QTest.mouseClick(page.import_dialog.add, Qt.MouseButton.LeftButton)
    assert [s.id for s in parley.settings.settings.mcp_servers] == ["time", "clock", "docs"]
    undo.undo()  # the paste was one change
    assert [s.id for s in parley.settings.settings.mcp_servers] == ["time"]
    assert page.list.current_id() == "time"


def test_a_server_changes_kind_once_the_new_kinds_address_is_given(driver, sse_server, tmp_path):
    parley, page = open_page(driver, sse_server, tmp_path, [TIME_SERVER])
    form = page.form
    form.kind.setCurrentIndex(form.kind.findData("http"))
    assert shown(form.url) and not shown(form.command)
    assert "server's address" in form.errors["url"].error
    assert parley.settings.settings.mcp_servers[0].command == sys.executable  # unchanged

    type_into(form.url, "https://mcp.example.com/mcp")
    server = parley.settings.settings.mcp_servers[0]
    assert (server.transport.value, server.url, server.command) == (
        "http",
        "https://mcp.example.com/mcp",
        "",
    )
    assert form.errors["url"].error == "" and not shown(page.allow)
