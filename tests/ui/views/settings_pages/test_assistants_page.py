"""Settings → Assistants through the real window: the tool list when "All tools" is on,
the list's placeholder, edits saved as they are made (also when another assistant is
chosen before a pause in typing), and the form following the window's Undo."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from tests.support.settings_files import saved_settings, write_settings

CHECKED = Qt.CheckState.Checked


def open_page(driver, tmp_path, **sections):
    write_settings(tmp_path, "http://127.0.0.1:9/v1", **sections)
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    dialog.show_page(dialog.assistants)
    return parley, dialog.assistants


def finish(edit: QLineEdit, text: str) -> None:
    edit.setFocus()
    edit.setText(text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def ticked(page) -> list[str]:
    items = [page.tools.item(row) for row in range(page.tools.count())]
    return [item.text() for item in items if item.checkState() == CHECKED]


def test_with_all_tools_on_every_tool_reads_as_included(driver, tmp_path):
    _parley, page = open_page(driver, tmp_path)
    names = [page.tools.item(row).text() for row in range(page.tools.count())]
    assert {"read_file", "run_command", "current_time"} <= set(names)
    assert page.all_tools.isChecked()
    assert ticked(page) == names  # each one included, not "none"
    assert not page.tools.isEnabled()  # not to be changed one by one
    assert page.all_tools_note.isVisible()
    assert page.all_tools_note.text() == "Every tool, including ones added later."

    # Off: every tool still ticked, to untick the ones it may not use.
    page.all_tools.setChecked(False)
    assert page.tools.isEnabled() and not page.all_tools_note.isVisible()
    assert ticked(page) == names
    assert saved_settings(tmp_path)["assistants"][0]["allowed_tools"] == names
    page.tools.item(names.index("run_command")).setCheckState(Qt.CheckState.Unchecked)
    allowed = [n for n in names if n != "run_command"]
    assert saved_settings(tmp_path)["assistants"][0]["allowed_tools"] == allowed

    # On again: all of them, and those added later too.
    page.all_tools.setChecked(True)
    assert ticked(page) == names and not page.tools.isEnabled()
    assert "allowed_tools" not in saved_settings(tmp_path)["assistants"][0]


def test_the_list_says_what_to_add_beside_the_built_in_assistant(driver, tmp_path):
    _parley, page = open_page(driver, tmp_path)
    assert page.list.count() == 1
    assert page.list.placeholder() == (
        "Add an assistant for each kind of work: its own prompt, model, tools and documents."
    )
    page.add_button.click()
    assert page.list.count() == 2 and page.list.placeholder() == ""


def test_a_prompt_typed_is_kept_when_another_assistant_is_chosen_before_the_pause(driver, tmp_path):
    assistants = [{"id": "writer", "name": "Writer"}, {"id": "coder", "name": "Coder"}]
    _parley, page = open_page(driver, tmp_path, assistants=assistants)
    page.select("writer")
    page.system_prompt.setPlainText("Write plainly.")  # waits for a pause in typing
    page.select("coder")
    assert page.name.text() == "Coder" and page.system_prompt.toPlainText() == ""
    assert saved_settings(tmp_path)["assistants"][0]["system_prompt"] == "Write plainly."
    page.select("writer")
    assert page.system_prompt.toPlainText() == "Write plainly."
    assert page.list.currentItem().text() == "Writer"


def test_the_form_follows_an_undo_in_the_window(driver, tmp_path):
    parley, page = open_page(driver, tmp_path, assistants=[{"id": "writer", "name": "Writer"}])
    page.select("writer")
    finish(page.name, "Editor")
    page.past_chats.click()
    assert saved_settings(tmp_path)["assistants"][0]["name"] == "Editor"
    assert page.list.currentItem().text() == "Editor"

    parley.settings_vm.undo.undo()  # the box ticked
    assert not page.past_chats.isChecked()
    assert page.name.text() == "Editor"
    parley.settings_vm.undo.undo()  # the name
    assert page.name.text() == "Writer"
    assert page.list.currentItem().text() == "Writer"
    assert saved_settings(tmp_path)["assistants"][0]["name"] == "Writer"


def test_opening_the_record_pages_saves_nothing(driver, tmp_path):
    libraries = [{"id": "docs", "name": "Docs", "paths": ["/data/docs"]}]
    parley, page = open_page(
        driver, tmp_path, assistants=[{"id": "writer", "name": "Writer"}], libraries=libraries
    )
    before = (tmp_path / "settings.json").read_bytes()
    dialog = parley.window._settings_dialog
    for shown in (dialog.providers, dialog.assistants, dialog.knowledge, dialog.memory):
        dialog.show_page(shown)
    page.select("writer")
    page.select("default")
    driver.run(driver.until(lambda: True))
    assert not parley.settings_vm.undo.canUndo
    assert (tmp_path / "settings.json").read_bytes() == before


def test_conversation_starters_are_typed_one_per_line_and_offered_by_a_new_chat(driver, tmp_path):
    parley, page = open_page(driver, tmp_path)
    page.add_button.click()
    finish(page.name, "Tutor")
    page.starters.setFocus()
    page.starters.setPlainText("Quiz me on verbs\n\n  Explain a proof  \n")
    page.name.setFocus()  # leaving the field saves it

    async def body() -> None:
        await driver.until(
            lambda: (
                saved_settings(tmp_path)["assistants"][-1].get("starters")
                == ["Quiz me on verbs", "Explain a proof"]
            )
        )
        parley.window._settings_dialog.close()
        empty = parley.window.chat_view.empty
        tutor = empty.assistant.findText("Tutor")
        empty.assistant.activated.emit(tutor)
        await driver.until(
            lambda: [b.text() for b in empty.buttons] == ["Quiz me on verbs", "Explain a proof"]
        )

    driver.run(body())
