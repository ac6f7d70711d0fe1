"""An "&" in text from outside Parley (a model's suggestion, a tool's name, a folder's
name) shows as itself on a button: Qt would take it for a keyboard mnemonic, drop it,
underline the next letter and let Alt+that letter press the button."""

from __future__ import annotations

import json
import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest

from desktop.core.models import CallState, Role, TextPart, ToolCallPart
from desktop.engine.after_answer import AfterAnswer
from desktop.engine.utility import UtilityModel
from tests.support.chat_wire import kind_of
from tests.support.settings_files import write_after_answer_settings
from tests.support.sse_server import (
    RecordedRequest,
    completion_body,
    default_stream,
    json_response,
)
from tests.support.stored_chats import chat_with
from tests.support.ui_actions import bodies, type_and_send


def no_mnemonic(text: str) -> bool:
    return QKeySequence.mnemonic(text).isEmpty()


def test_a_suggestion_with_an_ampersand_shows_it_and_sends_it(driver, sse_server, tmp_path):
    write_after_answer_settings(tmp_path, sse_server.base_url)

    def respond(request: RecordedRequest) -> Any:
        kind = kind_of(request)
        if kind == "chat":
            return default_stream("Here are some.")
        if kind == "suggestions":
            return json_response(completion_body(json.dumps(["Compare Q&A tools", "R&D?"])))
        if kind == "title":
            return json_response(completion_body("Tools & more"))
        return None

    sse_server.route(respond)
    parley = driver.start(tmp_path)
    after = AfterAnswer(parley.repository, UtilityModel(parley.settings))
    after.start(parley.chat)
    chips = parley.window.chat_view.suggestions

    async def body() -> None:
        type_and_send(parley, "Which tools?")
        await driver.until(lambda: chips.isVisible())
        texts = [b.text() for b in chips.buttons()]
        assert texts == ["Compare Q&&A tools", "R&&D?"]  # drawn as "Compare Q&A tools", "R&D?"
        assert all(no_mnemonic(t) for t in texts)
        QTest.mouseClick(chips.buttons()[0], Qt.MouseButton.LeftButton)
        await driver.until(lambda: len(bodies(parley)) == 4 and not parley.chat_vm.busy)
        assert bodies(parley)[2] == "Compare Q&A tools"
        await after.close()

    driver.run(body())


def test_a_tool_name_and_a_folder_name_with_an_ampersand_show_it(driver, sse_server, tmp_path):
    write_after_answer_settings(tmp_path / "data", sse_server.base_url)
    parley = driver.start(tmp_path / "data")
    call = ToolCallPart("call-1", "find&replace", arguments="{}", result="ok", state=CallState.DONE)
    chat, (_question, answer) = chat_with(
        parley.repository,
        (Role.USER, [TextPart("Fix the typos")]),
        (Role.ASSISTANT, [call, TextPart("Done.")]),
    )
    folder = tmp_path / "R&D notes"
    folder.mkdir()
    button = parley.window.chat_view.workspace

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        widget = parley.window.chat_view.transcript.message_widget(answer.id)
        toggle = widget.tool_cards.cards[0].toggle
        assert toggle.text() == "find&&replace" and no_mnemonic(toggle.text())

        parley.chat_vm.workspace.set_folder(str(folder))
        assert button.text() == "Workspace: R&&D notes" and no_mnemonic(button.text())
        for width in range(button.minimumSizeHint().width(), button.sizeHint().width()):
            button.resize(width, button.height())  # squeezed: elided, never a lone "&"
            assert "&" not in re.sub("&&", "", button.shown_text())
        button.resize(button.sizeHint())
        assert button.shown_text() == button.text()

    driver.run(body())
