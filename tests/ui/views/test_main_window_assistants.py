"""Assistants through the real window: made in Settings, kept in settings.json, picked
in the chat header (switching the model), and the conversation prompt editor."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QPushButton

from tests.support.settings_files import saved_settings, write_settings
from tests.support.sse_server import default_stream
from tests.support.ui_actions import type_and_send


def write_with_assistants(data_dir: Path, base_url: str, assistants: list[dict]) -> None:
    write_settings(data_dir, base_url, models=("test-model", "gpt-4o"))
    data = saved_settings(data_dir)
    data["assistants"] = assistants
    (data_dir / "settings.json").write_text(json.dumps(data), encoding="utf-8")


def until(driver, predicate) -> None:
    driver.run(driver.until(predicate))


def finish(edit: QLineEdit, text: str) -> None:
    """Put `text` in `edit` and press Enter, as a person finishes a field."""
    edit.setFocus()
    edit.setText(text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def picker_items(parley) -> list[str]:
    combo = parley.window.chat_view.assistant.combo
    return [combo.itemText(i) for i in range(combo.count())]


def test_an_assistant_made_in_settings_is_saved_and_kept(driver, tmp_path):
    write_settings(tmp_path, "http://127.0.0.1:9/v1", models=("test-model", "gpt-4o"))
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    page = dialog.assistants
    assert dialog.title_of(page) == "Assistants"
    assert page.list.count() == 1 and page.list.item(0).text() == "Parley  (default)"
    assert not page.delete_button.isEnabled()  # the built-in one always exists

    assert "assistants" not in saved_settings(tmp_path)
    assert page.list.placeholder().startswith("Add an assistant for each kind of work")

    # Add makes it at once, selected, its name ready to be typed over.
    QTest.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    assert page.list.count() == 2 and page.list.currentRow() == 1
    assert saved_settings(tmp_path)["assistants"] == [
        {"id": "assistant-1", "name": "New assistant"}
    ]
    assert page.name.text() == "New assistant" and page.name.selectedText() == "New assistant"
    assert page.list.placeholder() == ""
    # Every change is saved as it is made: no Save button.
    finish(page.name, "Translator")
    finish(page.icon, "🌐")
    page.system_prompt.setPlainText("Translate into French.")  # saved after a pause
    page.default_model.setCurrentIndex(page.default_model.findText("gpt-4o — Local"))
    page.temperature.setValue(0.2)  # saved after a pause
    page.all_tools.setChecked(False)  # every tool stays ticked, to untick some
    tools = {page.tools.item(i).text(): page.tools.item(i) for i in range(page.tools.count())}
    assert {"read_file", "run_command", "current_time"} <= set(tools)  # from the registry
    for name, item in tools.items():
        if name != "read_file":
            item.setCheckState(Qt.CheckState.Unchecked)
    expected = [
        {
            "id": "assistant-1",
            "name": "Translator",
            "icon": "🌐",
            "system_prompt": "Translate into French.",
            "default_model": "local/gpt-4o",
            "temperature": 0.2,
            "allowed_tools": ["read_file"],
        }
    ]
    until(driver, lambda: saved_settings(tmp_path)["assistants"] == expected)
    assert page.status.text() == "Saved."
    assert not [b for b in page.findChildren(QPushButton) if b.text() == "Save"]
    # The header offers it at once.
    assert picker_items(parley) == ["Parley", "🌐 Translator"]

    QTest.mouseClick(page.default_button, Qt.MouseButton.LeftButton)
    assert saved_settings(tmp_path)["default_assistant"] == "assistant-1"
    page.temperature.setValue(3.0)  # clamped by the spin box to its maximum, 2
    page.max_tokens.setValue(0)
    until(driver, lambda: saved_settings(tmp_path)["assistants"][0]["temperature"] == 2.0)

    driver.close(parley)
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    page = parley.window._settings_dialog.assistants
    assert [page.list.item(i).text() for i in range(page.list.count())] == [
        "Parley",
        "🌐 Translator  (default)",
    ]
    page.list.setCurrentRow(1)
    assert page.name.text() == "Translator"
    assert page.default_model.currentText() == "gpt-4o — Local"
    assert not page.all_tools.isChecked() and page.tools.isEnabled()  # limited
    # A new chat talks to the default assistant.
    assert parley.window.chat_view.assistant.combo.currentText() == "🌐 Translator"
    assert parley.window.chat_view.composer.model_picker.currentText() == "gpt-4o — Local"

    QTest.mouseClick(page.duplicate_button, Qt.MouseButton.LeftButton)
    assert [a["name"] for a in saved_settings(tmp_path)["assistants"]] == [
        "Translator",
        "Translator (copy)",
    ]
    page.list.setCurrentRow(1)
    QTest.mouseClick(page.delete_button, Qt.MouseButton.LeftButton)
    assert [a["name"] for a in saved_settings(tmp_path)["assistants"]] == ["Translator (copy)"]
    assert "default_assistant" not in saved_settings(tmp_path)  # back to the built-in one


def test_invalid_form_values_are_refused_with_the_field_named(driver, tmp_path):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    page = parley.window._settings_dialog.assistants
    finish(page.name, "   ")
    assert page.name_error.error == "Name must not be empty."
    assert page.name_error.isVisibleTo(page)
    assert page.name.text() == "   "  # kept as typed, to be mended
    assert "assistants" not in saved_settings(tmp_path)
    finish(page.name, "Parley's twin")
    assert not page.name_error.error
    assert saved_settings(tmp_path)["assistants"][0]["name"] == "Parley's twin"


def test_picking_in_the_header_sets_the_assistant_and_its_model(driver, sse_server, tmp_path):
    write_with_assistants(
        tmp_path,
        sse_server.base_url,
        [
            {"id": "coder", "name": "Coder", "icon": "💻", "default_model": "local/gpt-4o"},
            {"id": "strict", "name": "Strict", "allow_prompt_override": False},
        ],
    )
    sse_server.script(default_stream("Hi."), default_stream("Again."))
    parley = driver.start(tmp_path)
    chat_vm = parley.chat_vm
    picker = parley.window.chat_view.assistant
    composer = parley.window.chat_view.composer
    assert picker_items(parley) == ["Parley", "💻 Coder", "Strict"]
    assert composer.model_picker.currentText().startswith("test-model")

    # A new chat: the pick is remembered, no conversation is made for it...
    picker.combo.setFocus()
    QTest.keyClick(picker.combo, Qt.Key.Key_Down)
    assert picker.combo.currentText() == "💻 Coder"
    assert chat_vm.conversationId == "" and parley.chat.conversations() == []
    assert composer.model_picker.currentText().startswith("gpt-4o")

    async def send(text: str, count: int) -> None:
        type_and_send(parley, text)
        await driver.until(lambda: len(sse_server.requests) == count)
        await driver.until(lambda: not chat_vm.busy)

    # ...and the first message's conversation gets it.
    driver.run(send("Hello", 1))
    conversation = parley.chat.conversation(chat_vm.conversationId)
    assert conversation is not None and conversation.assistant_id == "coder"
    assert sse_server.requests[0].json["model"] == "gpt-4o"
    assert picker.combo.currentText() == "💻 Coder"

    QTest.keyClick(picker.combo, Qt.Key.Key_Down)
    assert parley.chat.conversation(conversation.id).assistant_id == "strict"
    assert not picker.prompt_button.isEnabled()  # Strict keeps its own prompt
    assert composer.model_picker.currentText().startswith("gpt-4o")  # no default model

    # A new chat starts with the default assistant again; the old one keeps its pick.
    parley.window.new_chat()
    assert picker.combo.currentText() == "Parley"
    chat_vm.open_conversation(conversation.id)
    assert picker.combo.currentText() == "Strict"


def test_the_conversation_prompt_editor_saves_without_blocking(driver, tmp_path):
    write_with_assistants(
        tmp_path,
        "http://127.0.0.1:9/v1",
        [
            {"id": "open", "name": "Open", "system_prompt": "Be kind."},
            {"id": "strict", "name": "Strict", "allow_prompt_override": False},
        ],
    )
    parley = driver.start(tmp_path)
    picker = parley.window.chat_view.assistant
    picker.combo.setFocus()
    QTest.keyClick(picker.combo, Qt.Key.Key_Down)  # Open
    assert picker.prompt_button.isEnabled()

    QTest.mouseClick(picker.prompt_button, Qt.MouseButton.LeftButton)
    editor = picker.editor
    assert editor is not None and editor.isVisible() and not editor.isModal()
    assert editor.text.placeholderText() == "Be kind."
    editor.text.setPlainText("Answer in haiku.")
    editor.accept()
    # A new chat had no conversation: saving the prompt made one, with the pick.
    conversation = parley.chat.conversation(parley.chat_vm.conversationId)
    assert conversation is not None
    assert conversation.system_prompt == "Answer in haiku."
    assert conversation.assistant_id == "open"

    QTest.mouseClick(picker.prompt_button, Qt.MouseButton.LeftButton)
    assert editor.text.toPlainText() == "Answer in haiku."
    QTest.mouseClick(editor.reset_button, Qt.MouseButton.LeftButton)
    editor.accept()
    assert parley.chat.conversation(conversation.id).system_prompt is None

    # It edits the conversation it was opened for: another chat closes it.
    QTest.mouseClick(picker.prompt_button, Qt.MouseButton.LeftButton)
    assert editor.isVisible()
    parley.window.new_chat()
    assert not editor.isVisible()
    parley.chat_vm.open_conversation(conversation.id)

    QTest.keyClick(picker.combo, Qt.Key.Key_Down)  # Strict
    assert not picker.prompt_button.isEnabled()
    picker.edit_prompt()
    assert not editor.isVisible()
