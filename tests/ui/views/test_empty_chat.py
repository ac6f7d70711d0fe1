"""A new chat offers something to click: the assistant's starters (or suggestions) and
the assistant picker."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.chat_wire import text_answer
from tests.support.settings_files import write_settings


def _with_assistant(data_dir, starters: list[str]) -> None:
    path = data_dir / "settings.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    settings["assistants"] = [{"id": "tutor", "name": "Tutor", "starters": starters}]
    path.write_text(json.dumps(settings), encoding="utf-8")


def test_an_empty_chat_offers_suggestions_then_the_assistants_own_starters(
    driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)
    _with_assistant(tmp_path, ["Quiz me on French verbs", "Explain <b>photosynthesis</b>"])
    parley = driver.start(tmp_path)
    empty = parley.window.chat_view.empty

    async def body() -> None:
        await driver.until(empty.isVisible)
        # Parley's own assistant has no starters: a few suggestions, to send with a click.
        assert len(empty.buttons) >= 3 and empty.starters_title.text() == "Try one of these"
        assert empty.assistant.currentText() == "Parley"
        # Picking the assistant in the empty chat shows its starters, as written.
        tutor = empty.assistant.findText("Tutor")
        empty.assistant.setCurrentIndex(tutor)
        empty.assistant.activated.emit(tutor)
        await driver.until(
            lambda: [b.text() for b in empty.buttons][:1] == ["Quiz me on French verbs"]
        )
        assert empty.buttons[1].text() == "Explain <b>photosynthesis</b>"  # plain text
        assert parley.window.chat_view.assistant.combo.currentText() == "Tutor"  # one choice
        assert empty.starters_title.text() == "Start with one of these"
        sse_server.script(text_answer("Bonjour!"))
        QTest.mouseClick(empty.buttons[0], Qt.MouseButton.LeftButton)
        await driver.until(lambda: not parley.chat_vm.busy and not empty.isVisible())
        path = parley.repository.active_path(parley.chat_vm.conversationId)
        assert path[0].text == "Quiz me on French verbs"

    driver.run(body())
