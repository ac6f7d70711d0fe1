"""Knowledge through the real window: the Knowledge page among the settings, an
assistant given libraries on the Assistants page, and the chat header saying which
libraries the conversation's assistant may cite."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.core.knowledge import IndexProgress, LibraryState
from tests.support.settings_files import saved_settings, write_settings
from tests.support.ui_actions import click
from tests.support.waiting import wait_until

LIBRARIES = [
    {"id": "docs", "name": "Docs", "paths": ["/data/docs"]},
    {"id": "notes", "name": "Notes", "paths": ["/data/notes"]},
]


def test_an_assistant_is_given_libraries_from_a_checklist(driver, tmp_path):
    write_settings(
        tmp_path,
        "http://127.0.0.1:9/v1",
        libraries=LIBRARIES,
        assistants=[{"id": "writer", "name": "Writer"}],
    )
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    assert dialog.title_of(dialog.knowledge) == "Knowledge"
    page = dialog.assistants
    page.select("writer")
    assert not page.libraries_hint.isVisibleTo(page)
    boxes = page.library_boxes
    assert [b.text() for b in boxes.values()] == ["Docs", "Notes"]
    assert not any(b.isChecked() for b in boxes.values())
    click(boxes["notes"])
    assert page.retrieval.isEnabled()
    assert page.retrieval.currentText() == "When the model needs them, if it can call tools"
    page.retrieval.setCurrentIndex(page.retrieval.findText("Before every answer"))
    assert not page.past_chats.isChecked()
    click(page.past_chats)
    assert page.memory.currentText() == "Off" and not page.global_memories.isEnabled()
    page.memory.setCurrentIndex(page.memory.findText("The memories that fit each message"))
    assert page.global_memories.isEnabled()
    click(page.global_memories)
    assert page.status.text() == "Saved."  # each change as it was made: no Save button
    saved = saved_settings(tmp_path)["assistants"][0]
    assert saved["libraries"] == ["notes"] and saved["retrieval"] == "pre_retrieve"
    assert saved["past_chats"] is True
    assert (saved["memory"], saved["global_memories"]) == ("retrieve", True)

    page.select("writer")  # shown again as saved
    assert page.library_boxes["notes"].isChecked()
    click(page.library_boxes["notes"])
    assert "libraries" not in saved_settings(tmp_path)["assistants"][0]


def test_without_libraries_the_checklist_says_where_to_add_them(driver, tmp_path):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    page = parley.window._settings_dialog.assistants
    assert not page.library_boxes and not page.libraries.isVisibleTo(page)
    assert page.libraries_hint.isVisibleTo(page)
    assert page.libraries_hint.text() == "Add libraries in Settings → Knowledge"
    assert not page.retrieval.isEnabled()

    # A library added on the Knowledge page is offered at once.
    knowledge = parley.window._settings_dialog.knowledge
    click(knowledge.add_button)  # made at once, as "New library"
    assert [b.text() for b in page.library_boxes.values()] == ["New library"]
    knowledge.name.setText("Handbook")
    QTest.keyClick(knowledge.name, Qt.Key.Key_Return)
    knowledge.add_paths([str(tmp_path)])
    assert [b.text() for b in page.library_boxes.values()] == ["Handbook"]
    assert not page.libraries_hint.isVisibleTo(page)
    assert page.retrieval.isEnabled()


def test_the_header_names_the_assistant_s_libraries(driver, tmp_path):
    write_settings(
        tmp_path,
        "http://127.0.0.1:9/v1",
        libraries=LIBRARIES,
        assistants=[{"id": "writer", "name": "Writer", "libraries": ["docs", "notes"]}],
        default_assistant="writer",
    )
    parley = driver.start(tmp_path)
    view = parley.window.chat_view
    assert view.knowledge.isVisible()
    assert view.knowledge.text() == "Knowledge: Docs, Notes"
    assert "• Docs\n• Notes" in view.knowledge.toolTip()

    picker = view.assistant.combo
    picker.setFocus()
    QTest.keyClick(picker, Qt.Key.Key_Up)  # the built-in Parley, which uses none
    assert picker.currentText() == "Parley"
    assert not view.knowledge.isVisible()

    QTest.keyClick(picker, Qt.Key.Key_Down)
    assert view.knowledge.text() == "Knowledge: Docs, Notes"
    # A library being indexed says how far it is, from the engine's own reports.
    libraries = ("docs", "notes")
    wait_until(
        lambda: all(parley.knowledge.progress(i).state is LibraryState.IDLE for i in libraries),
        "the passes started with the app to end",
    )
    parley.chat.events.emit(IndexProgress("notes", LibraryState.INDEXING, 40, 100))
    wait_until(
        lambda: view.knowledge.text() == "Knowledge: Docs, Notes (indexing 40%)",
        "the header to say so",
    )
    parley.chat.events.emit(IndexProgress("notes", LibraryState.IDLE, 100, 100))
    wait_until(lambda: view.knowledge.text() == "Knowledge: Docs, Notes", "the header again")
    # Deleting a library in Settings takes it off the assistant and the header.
    parley.settings_vm.knowledge.delete("docs")
    assert view.knowledge.text() == "Knowledge: Notes"
