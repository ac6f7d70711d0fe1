"""Driving the real windows as a person does: typing and sending in the main window or
the floating one, reading what the transcript shows, and the approval dialogs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.settings_files import write_tool_settings


def type_and_send(parley, text: str) -> None:
    """Type `text` into the main window's composer and press Enter."""
    edit = parley.window.chat_view.composer.edit
    edit.setFocus()
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def transcript_bodies(transcript) -> list[str]:
    """The plain text of every message `transcript` shows, in order."""
    return [
        transcript.message_widget(mid).body.toPlainText().strip()
        for mid in transcript.message_ids()
    ]


def bodies(parley) -> list[str]:
    """The plain text of every message the main window shows, in order."""
    return transcript_bodies(parley.window.chat_view.transcript)


def answer_widget(parley):
    """The widget of the last message in the main window."""
    transcript = parley.window.chat_view.transcript
    return transcript.message_widget(transcript.message_ids()[-1])


def send_from_floating(parley, text: str) -> None:
    """Type `text` into the floating window's composer and press Enter."""
    edit = parley.floating.composer.edit
    edit.setFocus()
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def show_floating(parley):
    """Open the floating window with its toggle; the window, once it is exposed."""
    parley.toggle_floating()
    floating = parley.floating
    assert floating.isVisible()
    QTest.qWaitForWindowExposed(floating)
    return floating


def dialogs(parley):
    """The approval dialogs open for the current chat."""
    return parley.window.chat_view.approval_dialogs.dialogs


def start_with_workspace(driver, sse_server, tmp_path):
    """A Parley whose test model calls tools, with a workspace folder for its chat."""
    write_tool_settings(tmp_path / "data", sse_server.base_url)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    parley = driver.start(tmp_path / "data")
    parley.chat_vm.workspace.set_folder(str(workspace))
    return parley, workspace


def click(widget) -> None:
    """A left click in the middle of `widget`."""
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
