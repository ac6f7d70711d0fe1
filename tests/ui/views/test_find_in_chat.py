"""In-chat find (Ctrl+F) in a long chat: counting, moving through the matches (into
messages not laid out and not even read yet), highlights, closing."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtTest import QTest

from desktop.core.models import Message, MessageStatus, ModelRef, Role, TextPart, new_id
from desktop.storage.repository import ChatRepository
from desktop.ui.viewmodels import find as find_vm
from tests.support.settings_files import write_settings

NO_SERVER = "http://127.0.0.1:9/v1"  # a provider is configured (the chat page shows); unused
MODEL = ModelRef("local", "test-model")
COUNT = 320
WORD = "zephyr"


def long_chat(repo: ChatRepository, count: int = COUNT) -> list[Message]:
    """Questions and answers; the first question holds WORD once, the last answer twice
    (once in bold, as Markdown), and nothing between holds it."""
    chat = repo.create_conversation("A long chat").id
    path: list[Message] = []
    for number in range(count):
        role = Role.USER if number % 2 == 0 else Role.ASSISTANT
        if number == 0:
            text = f"Tell me about the {WORD} wind."
        elif number == count - 1:
            text = f"The **{WORD.capitalize()}** is a west wind.\n\nA {WORD} is mild."
        else:
            text = f"Message {number} about the weather."
        parent = path[-1].id if path else None
        model = MODEL if role is Role.ASSISTANT else None
        message = Message(new_id(), chat, parent, role, [TextPart(text)], model=model)
        path.append(repo.add_message(message))
    return path


def highlights(widget) -> list[tuple[str, bool]]:
    """The highlighted words in a message's text views: (text, is it the current one)."""
    found = []
    for view in widget.text_views():
        for selection in view.extraSelections():
            colour = selection.format.background().color()
            found.append((selection.cursor.selectedText(), colour.alpha() == 255))
    return found


def shown_on_screen(transcript, widget) -> bool:
    """The message's strong highlight lies inside the transcript's viewport."""
    for view in widget.text_views():
        for selection in view.extraSelections():
            if selection.format.background().color().alpha() == 255:
                rect = view.cursorRect(selection.cursor)
                top = view.viewport().mapTo(transcript.viewport(), rect.topLeft()).y()
                return top >= 0 and top + rect.height() <= transcript.viewport().height()
    return False


def test_find_counts_and_moves_through_matches_in_messages_not_read_yet(
    driver, tmp_path, monkeypatch
):
    # The whole search in one step: the test moves before the chat's older messages
    # are read (the next event-loop turn would read them).
    monkeypatch.setattr(find_vm, "STEP_BUDGET_S", 600.0)
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    path = long_chat(parley.repository)
    first, last = path[0], path[-1]
    view = parley.window.chat_view
    transcript, bar, find = view.transcript, view.find_bar, parley.chat_vm.find

    async def body() -> None:
        parley.chat_vm.open_conversation(first.conversation_id)
        assert first.id not in transcript.message_ids()  # not read yet
        view.show_find()
        assert bar.isVisible() and bar.field.hasFocus()
        QTest.keyClicks(bar.field, WORD.upper())  # case does not matter
        QTest.keyClick(bar.field, Qt.Key.Key_Return)  # before the pause: searches now
        # The first match at or below what is on screen: the last answer's first.
        assert bar.count.text() == "2 of 3"
        widget = transcript.message_widget(last.id)
        assert highlights(widget) == [("Zephyr", True), ("zephyr", False)]

        QTest.keyClick(bar.field, Qt.Key.Key_Return)
        assert bar.count.text() == "3 of 3"
        assert highlights(widget) == [("Zephyr", False), ("zephyr", True)]
        assert shown_on_screen(transcript, widget)

        assert first.id not in transcript.message_ids()  # still not read
        QTest.keyClick(bar.field, Qt.Key.Key_Return)  # wraps around to the first message
        assert bar.count.text() == "1 of 3"
        widget = transcript.message_widget(first.id)
        assert widget is not None
        assert highlights(widget) == [("zephyr", True)]
        assert shown_on_screen(transcript, widget)

        QTest.keyClick(bar.field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        assert bar.count.text() == "3 of 3"  # wraps back to the last match
        widget = transcript.message_widget(last.id)
        assert highlights(widget) == [("Zephyr", False), ("zephyr", True)]
        assert shown_on_screen(transcript, widget)
        QTest.keyClick(bar.field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        assert bar.count.text() == "2 of 3"
        assert highlights(widget) == [("Zephyr", True), ("zephyr", False)]

        # The strong highlight is the palette's highlight colour.
        selection = widget.text_views()[0].extraSelections()[0]
        highlight = widget.palette().color(QPalette.ColorRole.Highlight)
        assert selection.format.background().color() == highlight

        QTest.keyClick(bar.field, Qt.Key.Key_Escape)
        assert bar.isHidden()
        assert view.composer.edit.hasFocus()
        assert all(not highlights(w) for w in transcript.message_widgets())
        assert not find.active

    driver.run(body())


def test_typing_searches_the_whole_chat_and_says_when_nothing_matches(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    path = long_chat(parley.repository)
    first, last = path[0], path[-1]
    view = parley.window.chat_view
    transcript, bar = view.transcript, view.find_bar

    async def body() -> None:
        parley.chat_vm.open_conversation(first.conversation_id)
        parley.window.activateWindow()
        assert QTest.qWaitForWindowActive(parley.window)
        QTest.keyClick(view.composer.edit, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        assert bar.isVisible() and bar.field.hasFocus()
        assert bar.field.accessibleName() == "Find in chat"

        QTest.keyClicks(bar.field, WORD)
        await driver.until(lambda: bar.count.text() == "2 of 3")
        assert transcript.message_widget(first.id) is None  # not laid out
        assert highlights(transcript.message_widget(last.id))[0] == ("Zephyr", True)

        QTest.keyClick(bar.field, Qt.Key.Key_F3)  # F3 works like Enter
        await driver.until(lambda: bar.count.text() == "3 of 3")
        bar.next_button.click()
        await driver.until(lambda: bar.count.text() == "1 of 3")
        widget = transcript.message_widget(first.id)
        assert highlights(widget) == [("zephyr", True)]
        assert shown_on_screen(transcript, widget)

        bar.field.clear()
        QTest.keyClicks(bar.field, "no such words here")
        await driver.until(lambda: bar.count.text() == "No matches")
        assert not bar.next_button.isEnabled()
        assert all(not highlights(w) for w in transcript.message_widgets())

        # Matching case: the capitalised one only.
        bar.field.setText(WORD.capitalize())
        bar.case_button.click()
        await driver.until(lambda: bar.count.text() == "1 of 1")

        bar.close_button.click()
        assert bar.isHidden()
        assert all(not highlights(w) for w in transcript.message_widgets())

    driver.run(body())


def test_find_opens_with_the_selected_text_and_follows_another_chat(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    path = long_chat(parley.repository, 40)
    other = long_chat(parley.repository, 6)
    view = parley.window.chat_view
    transcript, bar = view.transcript, view.find_bar

    async def body() -> None:
        parley.chat_vm.open_conversation(path[0].conversation_id)
        body_view = transcript.message_widget(path[-1].id).text_views()[0]
        cursor = body_view.document().find(f"A {WORD}")
        body_view.setTextCursor(cursor)
        body_view.setFocus()
        view.show_find()
        assert bar.field.text() == f"A {WORD}"
        await driver.until(lambda: bar.count.text() == "1 of 1")

        bar.field.setText(WORD)
        await driver.until(lambda: bar.count.text() == "2 of 3")
        parley.chat_vm.open_conversation(other[0].conversation_id)  # the search follows
        await driver.until(lambda: bar.count.text() == "2 of 3")
        widget = transcript.message_widget(other[-1].id)
        await driver.until(lambda: highlights(widget) == [("Zephyr", True), ("zephyr", False)])

    driver.run(body())


def test_an_answer_streaming_in_is_searched_on_the_next_enter(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    path = long_chat(parley.repository, 10)
    view, messages = parley.window.chat_view, parley.chat_vm.transcript
    transcript, bar = view.transcript, view.find_bar
    chat = path[0].conversation_id

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        view.show_find()
        QTest.keyClicks(bar.field, WORD)
        await driver.until(lambda: bar.count.text() == "2 of 3")

        # A question and its answer arrive as the engine reports them; the answer streams.
        question = Message(new_id(), chat, path[-1].id, Role.USER, [TextPart(f"More {WORD}?")])
        messages.message_changed(parley.repository.add_message(question))
        answer = Message(
            new_id(),
            chat,
            question.id,
            Role.ASSISTANT,
            [TextPart("Wait")],
            status=MessageStatus.STREAMING,
            model=MODEL,
        )
        messages.message_changed(parley.repository.add_message(answer))
        streamed = replace(answer, parts=[TextPart(f"Wait for the {WORD}, it")])
        messages.message_changed(streamed)
        await driver.until(lambda: WORD in transcript.message_widget(answer.id).item.markdown)
        # The new question is laid out and counted; the streaming answer is not
        # followed live.
        assert bar.count.text() == "2 of 4"

        QTest.keyClick(bar.field, Qt.Key.Key_Return)
        assert bar.count.text() == "3 of 5"
        QTest.keyClick(bar.field, Qt.Key.Key_Return)
        assert bar.count.text() == "4 of 5"
        await driver.until(lambda: highlights(transcript.message_widget(question.id)) != [])
        assert highlights(transcript.message_widget(question.id)) == [(WORD, True)]
        QTest.keyClick(bar.field, Qt.Key.Key_Return)
        assert bar.count.text() == "5 of 5"  # the streaming answer's
        QTest.keyClick(bar.field, Qt.Key.Key_Return)
        assert bar.count.text() == "1 of 5"

    driver.run(body())
