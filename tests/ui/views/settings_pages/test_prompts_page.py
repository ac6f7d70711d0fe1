"""Settings → Prompts on a real Parley: an empty library says so and offers examples;
prompts are added, edited (saved as the person goes, no Save button), duplicated and
deleted, each change in settings.json at once; an empty title is refused next to the
field; the Settings window's Undo brings a deleted prompt back in its place."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.ui.views.settings_pages.prompts_page import PromptsPage
from tests.support.settings_files import saved_settings, write_settings
from tests.support.ui_actions import click

DOWN = "http://127.0.0.1:9/v1"


def open_page(driver, qtbot, tmp_path, prompts=None) -> tuple[object, PromptsPage]:
    write_settings(tmp_path, DOWN, prompts=prompts)
    parley = driver.start(tmp_path)
    page = PromptsPage(parley.settings_vm.prompts)
    qtbot.addWidget(page)
    page.show()
    page.activateWindow()
    assert QTest.qWaitForWindowActive(page)
    return parley, page


def on_disk(tmp_path) -> list[tuple[str, str]]:
    return [(p["title"], p["text"]) for p in saved_settings(tmp_path).get("prompts", [])]


def titles(page: PromptsPage) -> list[str]:
    return [page.list.item(row).text() for row in range(page.list.count())]


def test_an_empty_library_says_so_and_offers_three_examples(driver, qtbot, tmp_path):
    _parley, page = open_page(driver, qtbot, tmp_path)
    assert page.stack.currentWidget() is page.empty
    assert "No saved prompts yet" in page.empty_note.text()
    assert not page.editor.isEnabled() and not page.delete_button.isEnabled()
    assert on_disk(tmp_path) == []  # nothing installed unasked

    click(page.examples_button)
    assert page.stack.currentWidget() is page.list
    assert titles(page) == ["Summarise", "Translate", "Explain code"]
    assert [title for title, _text in on_disk(tmp_path)] == titles(page)
    page.list.setCurrentRow(1)
    assert page.title.text() == "Translate"
    assert page.variables.text() == "Asked when inserted: language"


def test_adding_and_editing_a_prompt_saves_it_as_the_person_goes(driver, qtbot, tmp_path):
    _parley, page = open_page(driver, qtbot, tmp_path)
    click(page.add_button)
    assert titles(page) == ["New prompt"]
    assert on_disk(tmp_path) == [("New prompt", "")]
    assert page.title.hasFocus() and page.title.selectedText() == "New prompt"

    QTest.keyClicks(page.title, "Reply to an email")
    QTest.keyClick(page.title, Qt.Key.Key_Return)  # Enter saves the title
    assert on_disk(tmp_path) == [("Reply to an email", "")]
    assert titles(page) == ["Reply to an email"]

    page.text.setFocus()
    QTest.keyClicks(page.text, "Write a {{tone}} reply to {{ name }} dated {{date}}.")
    assert page.variables.text() == "Asked when inserted: tone, name · Filled in when sent: date"
    # Saved after a pause in typing, without leaving the field.
    qtbot.waitUntil(
        lambda: (
            on_disk(tmp_path)
            == [("Reply to an email", "Write a {{tone}} reply to {{ name }} dated {{date}}.")]
        ),
        timeout=10_000,
    )
    assert page.text.hasFocus()


def test_an_empty_title_is_refused_next_to_the_field(driver, qtbot, tmp_path):
    prompts = [{"id": "p1", "title": "Summarise", "text": "Sum it up."}]
    _parley, page = open_page(driver, qtbot, tmp_path, prompts)
    page.title.setFocus()
    page.title.selectAll()
    QTest.keyClick(page.title, Qt.Key.Key_Delete)
    QTest.keyClick(page.title, Qt.Key.Key_Return)
    assert page.title_error.isVisible()
    assert page.title_error.text() == "A prompt needs a title."
    assert page.title_error.property("tone") == "error"
    assert on_disk(tmp_path) == [("Summarise", "Sum it up.")]  # not saved

    QTest.keyClicks(page.title, "Summary")
    QTest.keyClick(page.title, Qt.Key.Key_Return)
    assert not page.title_error.isVisible()
    assert on_disk(tmp_path) == [("Summary", "Sum it up.")]


def test_typing_then_choosing_another_prompt_saves_what_was_typed(driver, qtbot, tmp_path):
    prompts = [
        {"id": "a", "title": "First", "text": "One"},
        {"id": "b", "title": "Second", "text": "Two"},
    ]
    _parley, page = open_page(driver, qtbot, tmp_path, prompts)
    page.text.setFocus()
    page.text.moveCursor(page.text.textCursor().MoveOperation.End)
    QTest.keyClicks(page.text, " more")
    page.list.setCurrentRow(1)  # before the pause is over
    assert on_disk(tmp_path) == [("First", "One more"), ("Second", "Two")]
    assert page.title.text() == "Second" and page.text.toPlainText() == "Two"


def test_duplicate_and_delete_and_undo_through_the_settings_window(driver, qtbot, tmp_path):
    prompts = [
        {"id": "a", "title": "Summarise", "text": "Sum it up."},
        {"id": "b", "title": "Translate", "text": "Into {{language}}."},
    ]
    parley, page = open_page(driver, qtbot, tmp_path, prompts)
    page.list.setCurrentRow(0)
    click(page.duplicate_button)
    assert titles(page) == ["Summarise", "Summarise (copy)", "Translate"]
    assert page.title.text() == "Summarise (copy)"
    assert on_disk(tmp_path)[1] == ("Summarise (copy)", "Sum it up.")

    page.list.setCurrentRow(0)
    click(page.delete_button)
    assert titles(page) == ["Summarise (copy)", "Translate"]
    assert on_disk(tmp_path) == [
        ("Summarise (copy)", "Sum it up."),
        ("Translate", "Into {{language}}."),
    ]
    undo = parley.settings_vm.undo
    assert undo.next_undo == "Prompt “Summarise” deleted"
    undo.undo()
    assert titles(page) == ["Summarise", "Summarise (copy)", "Translate"]
    assert on_disk(tmp_path)[0] == ("Summarise", "Sum it up.")
    assert saved_settings(tmp_path)["prompts"][0]["id"] == "a"  # the very same prompt

    page.list.setCurrentRow(2)
    page.list.setFocus()
    QTest.keyClick(page.list, Qt.Key.Key_Delete)  # the Delete key, in the list
    assert titles(page) == ["Summarise", "Summarise (copy)"]
    assert page.title.text() == "Summarise (copy)"  # the row that took its place


def test_prompts_are_shown_as_plain_text(driver, qtbot, tmp_path):
    prompts = [{"id": "a", "title": "<b>Bold</b> & co", "text": "<i>x</i>"}]
    _parley, page = open_page(driver, qtbot, tmp_path, prompts)
    assert titles(page) == ["<b>Bold</b> & co"]
    assert page.title.text() == "<b>Bold</b> & co"
    click(page.delete_button)
    assert page.stack.currentWidget() is page.empty
