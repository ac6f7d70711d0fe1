"""Versions as a person uses them: the buttons on a message, checked at the server."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, Sleep, chat_chunk, default_stream, sse_response


def answer_stream(text: str):
    return sse_response(chat_chunk(content=text), chat_chunk(finish_reason="stop"), DONE)


def settled(parley) -> bool:
    path = parley.chat.active_path(parley.chat_vm.conversationId)
    return bool(path) and path[-1].status.is_final


def widget(parley, message_id: str):
    return parley.window.chat_view.transcript.message_widget(message_id)


def sent(request) -> list[dict]:
    """The conversation a request carried, without Parley's system note (this test
    model has no tool support, so the request says tools are unavailable)."""
    return [m for m in request.json["messages"] if m["role"] != "system"]


def test_regenerate_switch_and_edit_keep_every_version_and_send_the_shown_branch(
    driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.script(
        answer_stream("First answer"),
        answer_stream("Second answer"),
        answer_stream("Reply on branch one"),
        answer_stream("Answer to the edit"),
    )
    parley = driver.start(tmp_path)
    vm = parley.chat_vm

    async def body() -> None:
        assert vm.submit("Question")
        await driver.until(lambda: settled(parley) and len(sse_server.requests) == 1)
        conversation_id = vm.conversationId
        user_id, first_id = [m.id for m in parley.chat.active_path(conversation_id)]

        # Regenerate with the button on the answer: a second version beside the first.
        QTest.mouseClick(
            widget(parley, first_id).actions.regenerate_button, Qt.MouseButton.LeftButton
        )
        await driver.until(lambda: len(sse_server.requests) == 2 and settled(parley))
        second_id = parley.chat.active_path(conversation_id)[-1].id
        assert second_id != first_id
        row = widget(parley, second_id).actions
        await driver.until(lambda: row.version_label.text() == "2/2")
        assert sent(sse_server.requests[1]) == [{"role": "user", "content": "Question"}]

        # Back to version 1, then continue the chat there.
        QTest.mouseClick(row.previous_button, Qt.MouseButton.LeftButton)
        await driver.until(lambda: parley.window.chat_view.transcript.message_ids()[-1] == first_id)
        assert widget(parley, first_id).actions.version_label.text() == "1/2"
        assert vm.submit("Follow-up")
        await driver.until(lambda: len(sse_server.requests) == 3 and settled(parley))
        assert [m["content"] for m in sent(sse_server.requests[2])] == [
            "Question",
            "First answer",
            "Follow-up",
        ]

        # Edit the first question: a new version of it, answered on its own branch.
        vm.edit_message(user_id, "Question, edited")
        await driver.until(lambda: len(sse_server.requests) == 4 and settled(parley))
        assert [m["content"] for m in sent(sse_server.requests[3])] == ["Question, edited"]
        texts = [m.text for m in parley.chat.active_path(conversation_id)]
        assert texts == ["Question, edited", "Answer to the edit"]
        # Nothing was overwritten: question, 2 answers, follow-up + reply, edit + answer.
        assert len(parley.repository.messages(conversation_id)) == 7

    driver.run(body())


def test_continue_a_stopped_answer_and_retry_a_failed_one(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.script(
        sse_response(chat_chunk(content="The start"), Sleep(30)),
        answer_stream(" and the end."),
        sse_response(chat_chunk(content="Broken"), Sleep(0.05)),  # no [DONE]: an error
        default_stream(),
    )
    parley = driver.start(tmp_path)
    vm = parley.chat_vm

    async def body() -> None:
        assert vm.submit("Tell me")
        await driver.until(lambda: len(sse_server.requests) == 1 and vm.busy)
        await driver.until(
            lambda: "The start" in (parley.chat.active_path(vm.conversationId)[-1].text)
        )
        vm.stop()
        await driver.until(lambda: settled(parley))
        answer_id = parley.chat.active_path(vm.conversationId)[-1].id
        row = widget(parley, answer_id).actions
        assert row.continue_button.isVisibleTo(row)
        QTest.mouseClick(row.continue_button, Qt.MouseButton.LeftButton)
        await driver.until(lambda: len(sse_server.requests) == 2 and settled(parley))
        assert parley.repository.get_message(answer_id).text == "The start and the end."

        assert vm.submit("Again")
        await driver.until(lambda: len(sse_server.requests) == 3 and settled(parley))
        failed_id = parley.chat.active_path(vm.conversationId)[-1].id
        assert parley.repository.get_message(failed_id).status.value == "error"
        row = widget(parley, failed_id).actions
        assert row.retry_button.isVisibleTo(row)
        QTest.mouseClick(row.retry_button, Qt.MouseButton.LeftButton)
        await driver.until(lambda: len(sse_server.requests) == 4 and settled(parley))
        path = parley.chat.active_path(vm.conversationId)
        assert path[-1].text == "Hello from the test server." and path[-1].id != failed_id
        assert parley.repository.get_message(failed_id) is not None  # kept as version 1

    driver.run(body())
