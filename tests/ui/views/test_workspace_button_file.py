"""The workspace file from the chat header: picked without blocking, shown on the
button, and its content at each send reaching the model."""

from __future__ import annotations

import json

from tests.support.settings_files import write_settings
from tests.support.sse_server import default_stream
from tests.support.ui_actions import type_and_send


def test_a_file_picked_in_the_header_goes_fresh_with_each_message(driver, sse_server, tmp_path):
    write_settings(tmp_path / "data", sse_server.base_url)
    project = tmp_path / "project"
    project.mkdir()
    notes = project / "notes.md"
    notes.write_text("first draft", encoding="utf-8")
    sse_server.script(default_stream("One."), default_stream("Two."))
    parley = driver.start(tmp_path / "data")
    button = parley.window.chat_view.workspace

    button.choose_file()
    picker = button.file_picker
    assert picker is not None and picker.isVisible()  # open(), not exec()
    picker.fileSelected.emit(str(notes))
    conversation = parley.chat.conversation(parley.chat_vm.conversationId)
    assert conversation is not None and conversation.workspace_file == str(notes)
    assert conversation.workspace == str(project)  # no folder yet: the file's folder
    assert button.text() == "Workspace: project · notes.md"
    assert button.clear_file_action.isEnabled()

    async def body() -> None:
        type_and_send(parley, "Read my notes")
        await driver.until(lambda: len(sse_server.requests) == 1)
        await driver.until(lambda: not parley.chat_vm.busy)
        notes.write_text("second draft", encoding="utf-8")
        type_and_send(parley, "Again")
        await driver.until(lambda: len(sse_server.requests) == 2)
        await driver.until(lambda: not parley.chat_vm.busy)

    driver.run(body())
    first, second = (json.dumps(r.json) for r in sse_server.requests)
    assert "first draft" in first
    assert "second draft" in second and "first draft" not in second
    button.clear_file_action.trigger()
    assert button.text() == "Workspace: project"
    assert parley.chat.conversation(parley.chat_vm.conversationId).workspace_file is None


def test_the_floating_window_binds_the_same_file(driver, tmp_path):
    write_settings(tmp_path / "data", "http://127.0.0.1:9/v1")
    notes = tmp_path / "todo.txt"
    notes.write_text("buy milk", encoding="utf-8")
    parley = driver.start(tmp_path / "data")
    floating = parley.floating.workspace
    floating.choose_file()
    assert floating.file_picker is not None and floating.file_picker.isVisible()
    floating.file_picker.fileSelected.emit(str(notes))
    conversation = parley.chat.conversation(parley.chat_vm.conversationId)
    assert conversation is not None and conversation.workspace_file == str(notes)
    # One workspace for the conversation, whichever window picked it.
    assert parley.window.chat_view.workspace.text() == floating.text()
    assert floating.text().endswith("· todo.txt")
    floating.file_picker.reject()
