"""The approval dialog as a person meets it: what will happen first, one default answer
that is safe for a risky tool, a size that fits what it shows, and hostile arguments
shown as capped plain text."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from desktop.core.models import Decision, ToolCallPart
from desktop.ui.viewmodels.approval_preview import MAX_CHARS
from desktop.ui.views.approval_dialog import HEIGHT_SHARE
from tests.support.chat_wire import call_answer, text_answer, tool_messages, write_call
from tests.support.settings_files import write_tool_settings
from tests.support.ui_actions import answer_widget, dialogs, start_with_workspace, type_and_send

ZWSP = "\u200b"  # a label's break opportunities, drawn as nothing


def label_text(label) -> str:
    return label.text().replace(ZWSP, "")


def decisions(parley) -> list[Decision | None]:
    stored = parley.repository.get_message(answer_widget(parley).item.id)
    return [p.decision for p in stored.parts if isinstance(p, ToolCallPart)]


def below(upper, lower) -> bool:
    """`lower` is laid out under `upper` in their panel."""
    return (
        upper.mapTo(upper.window(), upper.rect().bottomLeft()).y()
        <= lower.mapTo(lower.window(), lower.rect().topLeft()).y()
    )


def test_a_command_shows_its_line_and_folder_first_and_enter_denies_it(
    driver, sse_server, tmp_path
):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    command = {"command": "touch ran.txt"}
    sse_server.script(call_answer("call_1", "run_command", command), text_answer("Fine."))

    async def body() -> None:
        type_and_send(parley, "Make a file")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        dialog = dialogs(parley)[0]
        panel = dialog.panels[0]
        assert panel.heading.text() == "Run this command"
        assert panel.preview.toPlainText() == "$ touch ran.txt"
        assert label_text(panel.where) == f"in {workspace}"
        assert panel.badge.text() == "Runs commands" and "Built-in" in panel.facts.text()
        # What will happen comes before the tool's name, source and risk.
        assert below(panel.heading, panel.preview) and below(panel.where, panel.title)
        # One primary answer, the safe one, with the focus: Enter denies.
        default = [b for b in dialog.findChildren(type(panel.deny)) if b.isDefault()]
        assert default == [panel.deny]
        assert dialog.focusWidget() is panel.deny
        QTest.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
        await driver.until(lambda: not parley.chat_vm.busy and not dialogs(parley))
        assert decisions(parley) == [Decision.DENIED]
        assert not (workspace / "ran.txt").exists()
        assert sse_server.wait_for_requests(2)
        assert "denied" in tool_messages(sse_server.requests[1].json)["call_1"]

    driver.run(body())


def test_a_write_shows_the_file_and_its_change(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    (workspace / "notes.txt").write_text("milk\nbread\neggs\n", encoding="utf-8")
    sse_server.script(write_call(content="milk\nbutter\neggs\n"))

    async def body() -> None:
        type_and_send(parley, "Fix my list")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        panel = dialogs(parley)[0].panels[0]
        assert label_text(panel.target) == "notes.txt"
        await driver.until(lambda: panel.heading.text() == "Replace this file")
        lines = panel.preview.toPlainText().split("\n")
        assert lines == ["@@ -1,3 +1,3 @@", " milk", "-bread", "+butter", " eggs"]
        assert panel.note.text() == "+1 −1"
        assert panel.badge.text() == "Changes files"
        assert dialogs(parley)[0].focusWidget() is panel.deny
        parley.chat_vm.stop()
        await driver.until(lambda: not parley.chat_vm.busy)
        assert (workspace / "notes.txt").read_text(encoding="utf-8") == "milk\nbread\neggs\n"

    driver.run(body())


def test_a_reading_tool_that_asks_has_allow_once_as_its_default(driver, sse_server, tmp_path):
    path = write_tool_settings(tmp_path / "data", sse_server.base_url)
    settings = json.loads(path.read_text(encoding="utf-8"))
    settings["tools"] = {"policies": {"read_file": "ask"}}  # reading, asked about
    path.write_text(json.dumps(settings), encoding="utf-8")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "a.txt").write_text("the contents", encoding="utf-8")
    parley = driver.start(tmp_path / "data")
    parley.chat_vm.workspace.set_folder(str(workspace))
    sse_server.script(call_answer("call_1", "read_file", {"path": "a.txt"}), text_answer("Read."))

    async def body() -> None:
        type_and_send(parley, "Read it")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        dialog = dialogs(parley)[0]
        panel = dialog.panels[0]
        assert panel.badge.text() == "Reads only"
        assert panel.approve.isDefault() and dialog.focusWidget() is panel.approve
        QTest.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
        await driver.until(lambda: not parley.chat_vm.busy and not dialogs(parley))
        assert decisions(parley) == [Decision.APPROVED_ONCE]
        assert sse_server.wait_for_requests(2)
        assert "the contents" in tool_messages(sse_server.requests[1].json)["call_1"]

    driver.run(body())


def test_a_megabyte_of_arguments_opens_capped_and_as_plain_text(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    command = "echo <b>bold</b> \u202e#txt.exe " + "x" * 1_000_000 + " ; rm -rf ~"
    sse_server.script(call_answer("call_1", "run_command", {"command": command}))

    async def body() -> None:
        type_and_send(parley, "Go")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        dialog = dialogs(parley)[0]
        panel = dialog.panels[0]
        shown = panel.preview.toPlainText().replace(ZWSP, "")
        assert shown.startswith("$ echo <b>bold</b> ⟨RLO⟩#txt.exe xxx")  # tags as text
        assert shown.endswith("xxx ; rm -rf ~")  # the end cannot hide behind the start
        assert "\u202e" not in shown and len(shown) < MAX_CHARS + 100
        for label in (panel.heading, panel.where, panel.title, panel.facts, panel.badge):
            assert label.textFormat() == Qt.TextFormat.PlainText
        # Fitted to the screen: as wide as the answers need, within 70 % of the height;
        # the preview scrolls inside its box, and nothing needs scrolling sideways.
        dialog.show()
        area = QGuiApplication.primaryScreen().availableGeometry()
        assert dialog.height() <= area.height() * HEIGHT_SHARE + 1
        assert panel.preview.verticalScrollBar().maximum() > 0
        assert not dialog.scroll_area.horizontalScrollBar().isVisible()
        panel.arguments_toggle.click()  # the arguments as written: their ends, laid out
        assert 0 < len(panel.arguments.toPlainText()) < 110_000
        assert "characters. Copy all or save them" in panel.cut_bar.label.text()
        parley.chat_vm.stop()
        await driver.until(lambda: not parley.chat_vm.busy)
        assert not (workspace / "ran.txt").exists()

    driver.run(body())


def test_arguments_nested_too_deep_are_shown_as_written(driver, sse_server, tmp_path):
    parley, _workspace = start_with_workspace(driver, sse_server, tmp_path)
    deep = "[" * 30_000 + "]" * 30_000
    sse_server.script(call_answer("call_1", "write_file", deep))

    async def body() -> None:
        type_and_send(parley, "Go")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        panel = dialogs(parley)[0].panels[0]
        assert panel.heading.text() == "Use the tool with these arguments"
        assert panel.preview.toPlainText().replace(ZWSP, "").startswith("[[[[")
        parley.chat_vm.stop()
        await driver.until(lambda: not parley.chat_vm.busy)

    driver.run(body())


def test_a_short_command_gets_a_small_dialog(driver, sse_server, tmp_path):
    parley, _workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(call_answer("call_1", "run_command", json.dumps({"command": "ls"})))

    async def body() -> None:
        type_and_send(parley, "List")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        dialog = dialogs(parley)[0]
        box = dialog.panels[0].preview
        line = box.fontMetrics().lineSpacing()
        assert box.height() < 4 * line  # one line of command, one line of box
        assert dialog.height() < 20 * line  # no large empty dialog
        assert box.verticalScrollBar().maximum() == 0
        parley.chat_vm.stop()
        await driver.until(lambda: not parley.chat_vm.busy)

    driver.run(body())


def test_enter_in_an_answer_sends_it_and_does_not_deny(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(write_call(), text_answer("Thanks."))

    async def body() -> None:
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        dialog = dialogs(parley)[0]
        panel = dialog.panels[0]
        panel.answer_instead.click()
        assert dialog.focusWidget() is panel.answer_text and panel.send_answer.isDefault()
        QTest.keyClicks(panel.answer_text, "Already written.")
        QTest.keyClick(panel.answer_text, Qt.Key.Key_Return)
        await driver.until(lambda: not parley.chat_vm.busy)
        assert decisions(parley) == [Decision.ANSWERED]
        assert "Already written." in tool_messages(sse_server.requests[1].json)["call_1"]
        assert not (workspace / "notes.txt").exists()

    driver.run(body())
