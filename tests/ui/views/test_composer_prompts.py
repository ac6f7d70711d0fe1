"""Saved prompts in the composer, as a person uses them: "/" at the start of a line
opens the list, typing filters it, Enter / Tab / a click inserts, a prompt with
{{variables}} asks for them first, Esc leaves the text alone, and with the list closed
Enter still sends."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.settings_files import write_settings
from tests.support.ui_actions import bodies, click

SUMMARISE = {"id": "sum", "title": "Summarise", "text": "Summarise this in three bullets."}
TRANSLATE = {
    "id": "tr",
    "title": "Translate",
    "text": "Translate into {{language}} for a {{ audience }} reader, keeping {{language}}.",
}
EXPLAIN = {"id": "code", "title": "Explain code", "text": "Explain this code for {{model}}."}
PROMPTS = [SUMMARISE, TRANSLATE, EXPLAIN]


def start(driver, tmp_path, prompts=PROMPTS, base_url="http://127.0.0.1:9/v1"):
    write_settings(tmp_path, base_url, prompts=prompts)
    parley = driver.start(tmp_path)
    composer = parley.window.chat_view.composer
    parley.window.activateWindow()
    assert QTest.qWaitForWindowActive(parley.window)  # where the keyboard focus is real
    composer.edit.setFocus()
    return parley, composer


def type_text(composer, text: str) -> None:
    QTest.keyClicks(composer.edit, text)


def press(composer, key: Qt.Key) -> None:
    QTest.keyClick(composer.edit, key)


def listed(composer) -> list[str]:
    popup = composer.prompts.popup
    return popup.ids() if popup.isVisible() and popup.list.isVisible() else []


def test_typing_a_slash_opens_the_list_and_typing_filters_it(driver, tmp_path):
    _parley, composer = start(driver, tmp_path)
    assert not composer.prompts.is_open
    type_text(composer, "/")
    assert composer.prompts.is_open
    assert listed(composer) == ["sum", "tr", "code"]
    popup = composer.prompts.popup
    assert not popup.filter.isVisible()  # the composer keeps the keyboard
    assert composer.edit.hasFocus()
    # Above the composer's text, inside the window.
    top_of_edit = composer.edit.mapTo(popup.parentWidget(), composer.edit.rect().topLeft()).y()
    assert popup.geometry().bottom() <= top_of_edit + composer.edit.height()
    assert popup.geometry().top() >= 0

    type_text(composer, "co")
    assert listed(composer) == ["code"]
    press(composer, Qt.Key.Key_Backspace)
    press(composer, Qt.Key.Key_Backspace)
    assert listed(composer) == ["sum", "tr", "code"]
    type_text(composer, "xyz")
    assert composer.prompts.is_open and listed(composer) == []
    assert popup.note.text() == "No prompt matches “xyz”"
    type_text(composer, " ")  # "/xyz " is the start of a sentence, not a prompt
    assert not composer.prompts.is_open


def test_enter_replaces_the_slash_query_with_the_prompt(driver, tmp_path):
    _parley, composer = start(driver, tmp_path)
    type_text(composer, "Look:")
    QTest.keyClick(composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    type_text(composer, "  /summ")
    assert listed(composer) == ["sum"]
    press(composer, Qt.Key.Key_Return)
    assert not composer.prompts.is_open
    assert composer.edit.toPlainText() == "Look:\n  Summarise this in three bullets."
    assert composer.edit.textCursor().atEnd()


def test_up_down_and_tab_choose_and_a_click_chooses(driver, tmp_path):
    _parley, composer = start(driver, tmp_path)
    type_text(composer, "/")
    press(composer, Qt.Key.Key_Down)
    press(composer, Qt.Key.Key_Down)
    press(composer, Qt.Key.Key_Up)
    assert composer.prompts.popup.current_id() == "tr"
    press(composer, Qt.Key.Key_Up)
    press(composer, Qt.Key.Key_Up)  # wraps to the last
    press(composer, Qt.Key.Key_Tab)
    # {{model}} is filled when the message is sent: nothing to ask, it stays.
    assert composer.edit.toPlainText() == "Explain this code for {{model}}."
    assert composer.edit.hasFocus()  # Tab chose; it did not move the focus on

    composer.edit.clear()
    type_text(composer, "/")
    popup = composer.prompts.popup
    row = popup.list.visualItemRect(popup.list.item(0))
    QTest.mouseClick(popup.list.viewport(), Qt.MouseButton.LeftButton, pos=row.center())
    assert composer.edit.toPlainText() == "Summarise this in three bullets."


def test_a_prompt_with_variables_asks_for_each_then_fills_them(driver, qtbot, tmp_path):
    _parley, composer = start(driver, tmp_path)
    type_text(composer, "/tra")
    press(composer, Qt.Key.Key_Return)
    dialog = composer.prompts.dialog
    assert dialog is not None and dialog.isVisible()
    assert list(dialog.fields) == ["language", "audience"]  # in order, each once
    assert composer.edit.toPlainText() == "/tra"  # nothing inserted yet
    language, audience = dialog.fields.values()
    qtbot.waitUntil(language.hasFocus, timeout=10_000)  # the first field, once it is up
    QTest.keyClicks(language, "French")
    QTest.keyClick(language, Qt.Key.Key_Return)  # moves on
    assert dialog.isVisible() and audience.hasFocus()
    QTest.keyClicks(audience, "young")
    QTest.keyClick(audience, Qt.Key.Key_Return)  # the last field: inserts
    assert composer.prompts.dialog is None
    assert composer.edit.toPlainText() == (
        "Translate into French for a young reader, keeping French."
    )


def test_cancelling_the_variables_inserts_nothing_and_keeps_the_slash_query(driver, tmp_path):
    _parley, composer = start(driver, tmp_path)
    type_text(composer, "/tr")
    press(composer, Qt.Key.Key_Return)
    dialog = composer.prompts.dialog
    QTest.keyClicks(dialog.fields["language"], "German")
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    assert composer.prompts.dialog is None
    assert composer.edit.toPlainText() == "/tr"
    assert composer.edit.textCursor().position() == 3
    assert not composer.prompts.is_open


def test_esc_closes_the_list_and_leaves_the_text_and_enter_then_sends(driver, sse_server, tmp_path):
    parley, composer = start(driver, tmp_path, base_url=sse_server.base_url)
    type_text(composer, "/sum")
    assert composer.prompts.is_open
    press(composer, Qt.Key.Key_Escape)
    assert not composer.prompts.is_open
    assert composer.edit.toPlainText() == "/sum"
    type_text(composer, "mary please")  # it does not open again for this slash
    assert not composer.prompts.is_open
    press(composer, Qt.Key.Key_Return)  # the list is closed: Enter sends

    async def sent() -> None:
        await driver.until(lambda: len(bodies(parley)) == 2 and not parley.chat_vm.busy)

    driver.run(sent())
    assert bodies(parley)[0] == "/summary please"
    assert composer.edit.toPlainText() == ""


def test_a_slash_inside_a_sentence_opens_nothing_and_enter_sends(driver, sse_server, tmp_path):
    parley, composer = start(driver, tmp_path, base_url=sse_server.base_url)
    type_text(composer, "Is 1/2 more than 0.4?")
    assert not composer.prompts.is_open
    press(composer, Qt.Key.Key_Return)

    async def sent() -> None:
        await driver.until(lambda: len(bodies(parley)) == 2 and not parley.chat_vm.busy)

    driver.run(sent())
    assert bodies(parley)[0] == "Is 1/2 more than 0.4?"


def test_with_no_saved_prompts_the_list_says_where_to_add_them(driver, tmp_path):
    parley, composer = start(driver, tmp_path, prompts=None)
    type_text(composer, "/")
    popup = composer.prompts.popup
    assert composer.prompts.is_open and listed(composer) == []
    assert popup.note.text() == "No saved prompts — add them in Settings → Prompts"
    type_text(composer, "etc")  # "/etc…": not a prompt
    assert not composer.prompts.is_open

    composer.edit.clear()
    type_text(composer, "/")
    assert popup.settings_button.isVisible()
    click(popup.settings_button)  # Settings opens on its Prompts page
    dialog = parley.window._settings_dialog
    assert dialog is not None and dialog.current_page() is dialog.prompts
    assert not composer.prompts.is_open
    dialog.close()

    # Prompts added in Settings are offered at once.
    parley.settings_vm.prompts.add_examples()
    composer.edit.clear()
    type_text(composer, "/")
    assert len(listed(composer)) == 3


def test_the_prompts_menu_filters_and_inserts_at_the_cursor(driver, tmp_path):
    _parley, composer = start(driver, tmp_path)
    type_text(composer, "Please: ")
    composer.open_prompt_menu()
    popup = composer.prompts.popup
    assert popup.isVisible() and popup.filter.isVisible() and popup.filter.hasFocus()
    assert listed(composer) == ["sum", "tr", "code"]
    QTest.keyClicks(popup.filter, "expl")
    assert listed(composer) == ["code"]
    QTest.keyClick(popup.filter, Qt.Key.Key_Return)
    assert not popup.isVisible()
    assert composer.edit.toPlainText() == "Please: Explain this code for {{model}}."
    assert composer.edit.hasFocus()

    composer.open_prompt_menu()
    QTest.keyClick(popup.filter, Qt.Key.Key_Escape)
    assert not popup.isVisible() and composer.edit.hasFocus()
    assert popup.filter.text() == ""

    click(composer.prompts_button)  # the composer's Prompts button: the same list
    assert popup.isVisible() and popup.filter.hasFocus()
