"""Tool calls as the person meets them: the approval dialog, the cards, the workspace."""

from __future__ import annotations

import json

import pytest
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from desktop.core.models import CallState, Decision, MessageStatus, ToolCallPart
from tests.support.chat_wire import call_answer, text_answer, write_call
from tests.support.mcp_servers import git, git_repository
from tests.support.settings_files import write_tool_settings
from tests.support.ui_actions import (
    answer_widget,
    dialogs,
    send_from_floating,
    show_floating,
    start_with_workspace,
    type_and_send,
)

LONG = "line of text " * 400  # far longer than any dialog is wide or tall


def shown(widget) -> bool:
    return shiboken6.isValid(widget) and widget.isVisible()


def tool_messages(request) -> list[dict]:
    return [m for m in request.json["messages"] if m["role"] == "tool"]


def test_the_workspace_button_binds_the_folder_to_the_conversation(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    button = parley.window.chat_view.workspace
    conversation_id = parley.chat_vm.conversationId
    assert conversation_id  # a new chat got a conversation to hold the folder
    assert parley.chat.conversation(conversation_id).workspace == str(workspace)
    assert button.text() == "Workspace: workspace"
    parley.chat_vm.new_chat()
    assert button.text() == "Workspace: none"
    parley.chat_vm.open_conversation(conversation_id)
    assert button.text() == "Workspace: workspace"
    button.choose()
    assert button.picker is not None and button.picker.isVisible()  # open(), not exec()
    button.picker.reject()


def test_deny_leaves_the_file_untouched_and_the_model_hears_it(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(write_call(content=LONG), text_answer("Understood, I will not write."))

    async def body() -> None:
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        dialog = dialogs(parley)[0]
        assert dialog.isVisible() and not dialog.isModal()
        panel = dialog.panels[0]
        assert panel.target.text() == "notes.txt"  # what will happen comes first
        assert not panel.arguments.isVisible()  # the arguments as written: on request
        panel.arguments_toggle.click()
        shown = panel.arguments.toPlainText()
        assert shown == json.dumps({"path": "notes.txt", "content": LONG}, indent=2)
        assert panel.arguments.isReadOnly()
        assert panel.arguments.verticalScrollBar().maximum() > 0  # it scrolls, uncut
        assert "write_file" in panel.title.text() and "Built-in" in panel.facts.text()
        assert panel.badge.text() == "Changes files"
        # The chat says it waits, with a way back to the dialog.
        answer = answer_widget(parley)
        await driver.until(lambda: answer_widget(parley).approval_button.isVisible())
        assert answer_widget(parley).status.text() == "Waiting for your approval"

        QTest.mouseClick(panel.deny, Qt.MouseButton.LeftButton)
        await driver.until(lambda: not parley.chat_vm.busy and not dialogs(parley))
        assert not (workspace / "notes.txt").exists()
        assert sse_server.wait_for_requests(2)
        (denial,) = tool_messages(sse_server.requests[1])
        assert "denied" in denial["content"]
        answer = answer_widget(parley)
        await driver.until(lambda: "Understood" in answer_widget(parley).body.toPlainText())
        stored = parley.repository.get_message(answer.item.id)
        assert stored.status is MessageStatus.COMPLETE
        assert not answer_widget(parley).approval_button.isVisible()

    driver.run(body())


def test_approve_once_runs_the_write_and_its_card_shows_the_result(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(write_call(), text_answer("Done."))

    async def body() -> None:
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        QTest.mouseClick(dialogs(parley)[0].panels[0].approve, Qt.MouseButton.LeftButton)
        await driver.until(lambda: not parley.chat_vm.busy and not dialogs(parley))
        assert (workspace / "notes.txt").read_text(encoding="utf-8") == "hello"
        await driver.until(lambda: "Done." in answer_widget(parley).body.toPlainText())
        (card,) = answer_widget(parley).tool_cards.cards
        assert card.toggle.text() == "write_file" and card.state.text() == "done"
        assert "approved once by you" in card.summary.text()
        assert not card.details.isVisible()  # compact until opened
        card.toggle.click()
        assert card.details.isVisible()
        assert '"content": "hello"' in card.arguments.text()
        assert "Wrote 5 bytes" in card.result.text()
        (result,) = tool_messages(sse_server.requests[1])
        assert "Wrote 5 bytes" in result["content"]

    driver.run(body())


def test_answer_instead_text_reaches_the_next_request(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(write_call(), text_answer("Thanks."))

    async def body() -> None:
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        panel = dialogs(parley)[0].panels[0]
        QTest.mouseClick(panel.answer_instead, Qt.MouseButton.LeftButton)
        assert panel.answer_row.isVisible()
        QTest.keyClicks(panel.answer_text, "The notes are already written.")
        QTest.mouseClick(panel.send_answer, Qt.MouseButton.LeftButton)
        await driver.until(lambda: not parley.chat_vm.busy)
        assert not (workspace / "notes.txt").exists()
        assert sse_server.wait_for_requests(2)
        (answered,) = tool_messages(sse_server.requests[1])
        assert "The notes are already written." in answered["content"]
        await driver.until(lambda: bool(answer_widget(parley).tool_cards.cards))
        (card,) = answer_widget(parley).tool_cards.cards
        assert card.toggle.text() == "write_file" and card.state.text() == "answered"

    driver.run(body())


def test_stop_closes_the_dialog_and_nothing_runs(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(write_call())

    async def body() -> None:
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        dialog = dialogs(parley)[0]
        composer = parley.window.chat_view.composer
        assert composer.stop_button.isVisible()
        QTest.mouseClick(composer.stop_button, Qt.MouseButton.LeftButton)  # not blocked
        await driver.until(lambda: not dialogs(parley) and not shown(dialog))
        await driver.until(lambda: not parley.chat_vm.busy)
        assert not (workspace / "notes.txt").exists()
        stored = parley.repository.get_message(answer_widget(parley).item.id)
        (call,) = [p for p in stored.parts if isinstance(p, ToolCallPart)]
        assert call.state not in (CallState.DONE, CallState.RUNNING, CallState.PENDING)

    driver.run(body())


def test_decide_later_and_the_chat_button_brings_the_dialog_back(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(write_call(), text_answer("Done."))

    async def body() -> None:
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        QTest.mouseClick(dialogs(parley)[0].later, Qt.MouseButton.LeftButton)
        await driver.until(lambda: not dialogs(parley))
        await driver.until(lambda: answer_widget(parley).approval_button.isVisible())
        QTest.mouseClick(answer_widget(parley).approval_button, Qt.MouseButton.LeftButton)
        assert len(dialogs(parley)) == 1 and dialogs(parley)[0].isVisible()
        QTest.mouseClick(dialogs(parley)[0].panels[0].approve, Qt.MouseButton.LeftButton)
        await driver.until(lambda: (workspace / "notes.txt").exists())

    driver.run(body())


def test_a_pending_approval_is_shown_again_after_a_restart(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(write_call(), text_answer("Done."))

    async def body() -> None:
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)

    driver.run(body())
    driver.close(parley)
    assert not (workspace / "notes.txt").exists()
    again = driver.start(tmp_path / "data")

    async def after() -> None:
        await driver.until(lambda: len(dialogs(again)) == 1)
        QTest.mouseClick(dialogs(again)[0].panels[0].approve, Qt.MouseButton.LeftButton)
        await driver.until(lambda: (workspace / "notes.txt").exists())

    driver.run(after())


def test_the_tools_page_changes_a_policy_and_it_persists(driver, sse_server, tmp_path):
    parley, _workspace = start_with_workspace(driver, sse_server, tmp_path)
    parley.window.show_settings()
    page = parley.window._settings_dialog.tools
    assert page is not None
    names = set(page.selectors)
    assert {"write_file", "run_command"} <= names  # workspace tools are listed too
    assert page.selectors["write_file"].currentData() == "ask"  # writing asks by default
    assert page.selectors["run_command"].currentData() == "ask"
    selector = page.selectors["write_file"]
    selector.setCurrentIndex(selector.findData("off"))
    saved = json.loads((tmp_path / "data" / "settings.json").read_text(encoding="utf-8"))
    assert saved["tools"]["policies"] == {"write_file": "off"}
    driver.close(parley)
    again = driver.start(tmp_path / "data")
    again.window.show_settings()
    assert again.window._settings_dialog.tools.selectors["write_file"].currentData() == "off"


def test_always_allow_is_listed_and_can_be_removed(driver, sse_server, tmp_path):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(write_call(), text_answer("Done."))

    async def body() -> None:
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        QTest.mouseClick(dialogs(parley)[0].panels[0].always, Qt.MouseButton.LeftButton)
        await driver.until(lambda: not parley.chat_vm.busy)
        assert (workspace / "notes.txt").exists()

    driver.run(body())
    parley.window.show_settings()
    page = parley.window._settings_dialog.tools
    assert list(page.grant_rows) == ["write_file"]
    remove = page.grant_rows["write_file"].findChild(QPushButton)
    QTest.mouseClick(remove, Qt.MouseButton.LeftButton)
    assert page.grant_rows == {}
    saved = json.loads((tmp_path / "data" / "settings.json").read_text(encoding="utf-8"))
    assert "always_allow" not in saved.get("tools", {})


def test_an_approval_asked_from_the_floating_chat_opens_over_it(driver, sse_server, tmp_path):
    parley, _workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(write_call(), text_answer("Done."))
    floating = show_floating(parley)
    floating.activateWindow()

    async def body() -> None:
        await driver.until(lambda: not parley.window.isActiveWindow())
        send_from_floating(parley, "Write my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        dialog = dialogs(parley)[0]
        assert dialog.parent() is floating and dialog.isVisible()
        dialog.panels[0].deny.click()
        await driver.until(lambda: not parley.chat_vm.busy)

    driver.run(body())


def start_with_git(driver, sse_server, tmp_path):
    """Parley with mcp-server-git allowed to run on a repository with an untracked file,
    paused on the model's call to `git_add` (a writing tool: it asks)."""
    repo, _server, mcp = git_repository(tmp_path)
    data = tmp_path / "data"
    write_tool_settings(data, sse_server.base_url)
    path = data / "settings.json"
    path.write_text(json.dumps({**json.loads(path.read_text(encoding="utf-8")), **mcp}))
    add = {"repo_path": str(repo), "files": ["notes.txt"]}
    sse_server.script(call_answer("call_a", "mcp__git__git_add", add), text_answer("Staged."))
    parley = driver.start(data)

    async def body() -> None:
        type_and_send(parley, "Stage my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)

    driver.run(body())
    panel = dialogs(parley)[0].panels[0]
    assert "Git" in panel.facts.text()  # known while the server runs
    assert panel.badge.text() == "Changes files"
    driver.close(parley)
    return repo, data


def git_status(repo) -> str:
    return git(repo, "status", "--porcelain")


def tool_calls(parley, message_id: str) -> list[ToolCallPart]:
    stored = parley.repository.get_message(message_id)
    return [p for p in stored.parts if isinstance(p, ToolCallPart)]


def answer_ended(parley, message_id: str) -> bool:
    """The answer left `awaiting_approval` and finished streaming, on disk."""
    stored = parley.repository.get_message(message_id)
    waiting = (MessageStatus.AWAITING_APPROVAL, MessageStatus.STREAMING)
    return stored is not None and stored.status not in waiting


KNOWN = ("From the MCP server “Git”", "Changes files")


def described(panel) -> tuple[str, str]:
    """The panel's source and risk, as its labels show them."""
    return panel.facts.text(), panel.badge.text()


def test_a_restored_mcp_call_is_described_once_its_server_is_up(driver, sse_server, tmp_path):
    repo, data = start_with_git(driver, sse_server, tmp_path)
    again = driver.start(data)

    async def body() -> None:
        await driver.until(lambda: len(dialogs(again)) == 1)
        panel = dialogs(again)[0].panels[0]
        assert panel.badge.text() != "Reads only"  # never the harmless default
        await driver.until(lambda: described(panel) == KNOWN)
        assert panel.description.text().startswith("Adds file contents to the staging area")
        assert panel.always.isEnabled() and panel.approve.isEnabled()  # still undecided
        assert git_status(repo) == "?? notes.txt\n"
        QTest.mouseClick(panel.deny, Qt.MouseButton.LeftButton)
        await driver.until(lambda: not again.chat_vm.busy and not dialogs(again))
        assert git_status(repo) == "?? notes.txt\n"

    driver.run(body())


@pytest.mark.slow
def test_a_restored_call_whose_server_cannot_start_yet_is_worded_cautiously(
    driver, sse_server, tmp_path
):
    repo, data = start_with_git(driver, sse_server, tmp_path)
    path = data / "settings.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    del settings["mcp_consent"]  # the server must be allowed again before it starts
    path.write_text(json.dumps(settings), encoding="utf-8")
    again = driver.start(data)

    async def body() -> None:
        await driver.until(lambda: len(dialogs(again)) == 1)
        panel = dialogs(again)[0].panels[0]
        cautious = ("From the MCP server “Git”", "May change files or run commands")
        assert described(panel) == cautious
        assert dialogs(again)[0].focusWidget() is panel.deny  # unknown: Deny is default
        assert "has not started" in panel.description.text()
        assert not panel.always.isEnabled()  # no grant for a tool nobody has seen
        assert panel.approve.isEnabled() and panel.deny.isEnabled()
        prompt = again.window.mcp_consent  # the server is asked for, to describe the tool
        await driver.until(lambda: "git" in prompt.dialogs)
        assert described(panel) == cautious

        QTest.mouseClick(prompt.dialogs["git"].allow, Qt.MouseButton.LeftButton)
        await driver.until(lambda: described(panel) == KNOWN)
        assert panel.description.text().startswith("Adds file contents to the staging area")
        assert panel.always.isEnabled()
        assert git_status(repo) == "?? notes.txt\n"  # starting the server ran nothing
        message_id = dialogs(again)[0].request.message_id
        QTest.mouseClick(panel.approve, Qt.MouseButton.LeftButton)
        await driver.until(lambda: answer_ended(again, message_id))
        # The call's record says why, should the file not be staged.
        (call,) = tool_calls(again, message_id)
        assert (call.state, call.decision, call.is_error) == (
            CallState.DONE,
            Decision.APPROVED_ONCE,
            False,
        ), call
        assert git_status(repo) == "A  notes.txt\n"
        await driver.until(lambda: not again.chat_vm.busy)

    driver.run(body())
