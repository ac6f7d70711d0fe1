"""Text from a server, a model, a file or a tool is shown as text, never as markup.

Qt renders anything that looks like HTML as rich text wherever it is left to guess (a
label on `AutoText`, a message box, a tool tip): a server's error could then draw a
picture from the disk, a link, or huge letters. These tests drive the real windows
through their states and look at every label in every window, so a label added later
without saying how to read its text fails here.
"""

from __future__ import annotations

import json
import sys

from PySide6 import QtGui
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QColor, QImage, QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QWidget

from desktop.core.models import RollingSummary
from desktop.core.settings import ProviderKind
from desktop.engine.local_servers import LocalServer
from tests.support.chat_wire import call_answer
from tests.support.paths import ROOT
from tests.support.settings_files import write_settings
from tests.support.sse_server import (
    DONE,
    chat_chunk,
    default_stream,
    error_response,
    sse_response,
)
from tests.support.stored_chats import seed_chat
from tests.support.ui_actions import answer_widget, type_and_send

HOSTILE = (
    '<b>BOLD</b> <a href="file:///etc/passwd">a link</a> <img src="{image}"> '
    "<font size=7>HUGE</font>"
)
MCP_SERVER = {
    "id": "test",
    "name": "<b>Test</b> server",
    "command": sys.executable,
    "args": ["-m", "tests.support.mcp_test_server", "stdio"],
    "cwd": str(ROOT),
}


def red_image(path) -> str:
    image = QImage(48, 48, QImage.Format.Format_RGB32)
    image.fill(QColor(255, 0, 0))
    assert image.save(str(path), "PNG")
    return path.as_uri()


def red_pixels(widget: QWidget) -> int:
    """Pure red pixels in the widget as drawn (the test image is pure red; text is not)."""
    image = widget.grab().toImage()
    red = QColor(255, 0, 0).rgb()
    return sum(
        1 for y in range(image.height()) for x in range(image.width()) if image.pixel(x, y) == red
    )


def shown_text(label: QLabel) -> str:
    """What the label shows, as a screen reader reads it (markup already rendered)."""
    interface = QAccessible.queryAccessibleInterface(label)
    assert interface is not None
    return interface.text(QAccessible.Text.Name)


def as_tooltip_shows(text: str) -> str:
    """A tool tip's text as Qt shows it: rendered as HTML when it looks like HTML."""
    if not QtGui.Qt.mightBeRichText(text):
        return text
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def _where(label: QLabel) -> str:
    names = []
    widget: QWidget | None = label
    while widget is not None:
        names.append(widget.objectName() or type(widget).__name__)
        widget = None if widget.isWindow() else widget.parentWidget()
    return " < ".join(names)


def guessing_labels(covered: set[str] | None = None) -> set[str]:
    """Every label in every window that leaves Qt to guess whether its text is markup.
    (A message box's icon is Qt's own label, holding a picture and no text.) The names
    of the windows and shown labels looked at go into `covered`."""
    found = set()
    for window in QApplication.topLevelWidgets():
        if covered is not None and window.isVisible():
            covered.add(type(window).__name__)
        for label in [window, *window.findChildren(QLabel)]:
            if not isinstance(label, QLabel) or label.objectName() == "qt_msgboxex_icon_label":
                continue
            if covered is not None and label.isVisible():
                covered.add(label.objectName())
            if label.textFormat() == Qt.TextFormat.AutoText:
                found.add(f"{_where(label)}: {label.text()[:40]!r}")
        for box in [window, *window.findChildren(QMessageBox)]:
            if isinstance(box, QMessageBox) and box.textFormat() == Qt.TextFormat.AutoText:
                found.add(f"message box {box.windowTitle()!r}: {box.text()[:40]!r}")
    return found


def hostile_error(message: str) -> list:
    """A 500 three times over (Parley retries a server error twice), at once."""
    return [error_response(500, message, headers={"retry-after-ms": "1"})] * 3


def test_a_servers_error_with_markup_is_shown_as_its_literal_text(driver, sse_server, tmp_path):
    message = HOSTILE.format(image=red_image(tmp_path / "red.png"))
    write_settings(tmp_path / "data", sse_server.base_url)
    sse_server.script(*hostile_error(message))
    parley = driver.start(tmp_path / "data")

    async def body() -> None:
        type_and_send(parley, "hello")
        await driver.until(
            lambda: (
                len(parley.window.chat_view.transcript.message_ids()) == 2
                and answer_widget(parley).error_box.text() != ""
                and not parley.chat_vm.busy
            ),
        )
        box = answer_widget(parley).error_box
        assert box.isVisible()
        assert box.textFormat() == Qt.TextFormat.PlainText
        assert message in box.text()
        assert message in shown_text(box)  # the tags as characters, not bold, a link, …
        assert red_pixels(box) == 0  # …or the picture from the disk
        assert len(sse_server.requests) == 3

    driver.run(body())


def test_no_label_in_any_window_leaves_qt_to_guess_at_markup(driver, sse_server, tmp_path):
    data = tmp_path / "data"
    write_settings(data, sse_server.base_url)
    settings_file = data / "settings.json"
    settings = json.loads(settings_file.read_text(encoding="utf-8"))
    settings["providers"][0]["model_overrides"] = {"test-model": {"tools": True}}
    settings["mcp_servers"] = [MCP_SERVER]  # not allowed to run: asks, starts nothing
    settings_file.write_text(json.dumps(settings), encoding="utf-8")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    attached = workspace / "<b>report.txt"  # no "/" in a name
    attached.write_text("The numbers.", encoding="utf-8")
    gone = workspace / "notes.md"
    gone.write_text("moved away soon", encoding="utf-8")
    image = red_image(tmp_path / "red.png")
    sse_server.script(
        sse_response(
            chat_chunk(reasoning="<b>Thinking</b> hard."),
            chat_chunk(content="An answer."),
            chat_chunk(finish_reason="stop"),
            DONE,
        ),
        error_response(429, "Slow down", headers={"retry-after-ms": "20000"}),  # then Stop
        call_answer("c1", "write_file", {"path": "notes.txt", "content": "<b>x</b>"}),
        default_stream("Written."),
        *hostile_error(HOSTILE.format(image=image)),
    )
    parley = driver.start(data)
    window = parley.window
    transcript = window.chat_view.transcript
    seen: set[str] = set()
    covered: set[str] = set()

    def look() -> None:
        seen.update(guessing_labels(covered))

    async def answered(text: str) -> None:
        count = len(transcript.message_ids())
        type_and_send(parley, text)
        await driver.until(lambda: len(transcript.message_ids()) == count + 2)
        await driver.until(lambda: not parley.chat_vm.busy)

    async def body() -> None:
        look()  # an empty chat
        parley.chat_vm.workspace.set_folder(str(workspace))
        parley.chat_vm.workspace.set_file(str(gone))
        parley.chat_vm.tray.add_paths([attached])
        await driver.until(lambda: len(parley.chat_vm.tray) == 1)
        look()  # a chip on the composer's tray
        gone.unlink()  # the workspace file is missing at the send: a notice says so
        await answered("First")
        parley.chat_vm.workspace.set_file("")
        answer_widget(parley).reasoning_toggle.click()
        answer_widget(parley).action_row.pin_button.click()
        look()  # reasoning, a notice, a pinned answer, a sent chip

        type_and_send(parley, "Second")  # rate limited: the status counts down
        await driver.until(
            lambda: (
                len(transcript.message_ids()) == 4
                and "Rate limited" in answer_widget(parley).status.text()
            ),
        )
        look()
        parley.chat_vm.stop()
        await driver.until(lambda: not parley.chat_vm.busy)
        look()  # "Stopped"

        type_and_send(parley, "Write it down")
        dialogs = window.chat_view.approval_dialogs
        await driver.until(lambda: bool(dialogs.dialogs))
        look()  # the approval dialog, and the consent the MCP server asks for
        dialogs.dialogs[0].panels[0].always.click()
        await driver.until(lambda: not parley.chat_vm.busy)
        card = answer_widget(parley).tool_cards.cards[0]
        card.toggle.click()
        look()  # a tool card, opened

        await answered("Fail now")
        assert answer_widget(parley).error_box.isVisible()
        look()  # an error

        window.show_error("A <b>stray</b> error")
        window.sidebar.confirm_delete(parley.chat_vm.conversationId)
        transcript.confirm_delete(transcript.message_ids()[-1])
        window.show_about()
        window.show_shortcuts()
        window.compress_conversation()
        window.chat_view.assistant.edit_prompt()
        look()  # message boxes and small dialogs

        window.show_settings()
        dialog = window._settings_dialog
        for page in dialog.pages():
            dialog.show_page(page)
            look()
        dialog.providers.start_new()
        look()  # the preset picker
        parley.toggle_floating()
        look()

        conversation_id, ids = seed_chat(parley)
        summary = RollingSummary("<b>Budget</b> is 40k.", tuple(ids[:4]))
        parley.repository.set_summary(conversation_id, summary)
        parley.chat_vm.open_conversation(conversation_id)
        await driver.until(lambda: transcript.summary_divider() is not None)
        transcript.summary_divider().toggle.click()
        transcript.summary_divider().open_editor()
        look()

    driver.run(body(), timeout=120)
    assert sorted(seen) == []
    windows = {"MainWindow", "ApprovalDialog", "McpConsentDialog", "SettingsDialog"}
    windows |= {"FloatingWindow", "QMessageBox", "ShortcutsDialog", "SummaryEditor"}
    windows |= {"PromptEditor", "CompressDialog"}
    shown = {"ErrorBox", "StatusLabel", "MetaLabel", "PinMarkerText", "AttachmentName"}
    shown |= {"ToolArguments", "ToolResult", "SummaryText", "ChatTitle", "ContextMeter"}
    assert windows | shown <= covered  # every state above was really reached


def test_the_first_run_page_leaves_no_label_guessing(driver, sse_server, tmp_path):
    found = LocalServer("<b>Local</b>", ProviderKind.OPENAI_CHAT, sse_server.port, "/v1", "/models")
    parley = driver.start(tmp_path, local_servers=[found])
    rows = parley.window.chat_view.onboarding.found

    async def body() -> None:
        await driver.until(lambda: len(rows.rows) == 1)

    driver.run(body())
    assert rows.rows[0].label.text().startswith("Found <b>Local</b>")
    assert sorted(guessing_labels()) == []


def test_tool_tips_show_titles_file_names_and_folders_as_they_are(driver, sse_server, tmp_path):
    write_settings(tmp_path / "data", sse_server.base_url)
    folder = tmp_path / "<i>project"
    folder.mkdir()
    named = folder / "<b>notes & more.txt"
    named.write_text("text", encoding="utf-8")
    parley = driver.start(tmp_path / "data")

    async def body() -> None:
        parley.chat_vm.workspace.set_folder(str(folder))
        parley.chat_vm.tray.add_paths([named])
        await driver.until(lambda: len(parley.chat_vm.tray) == 1)
        chips = parley.window.chat_view.composer.chips.chips
        await driver.until(lambda: next(iter(chips.values())).attachment is not None)

    driver.run(body())
    model = parley.conversations_vm
    conversation_id = parley.chat_vm.conversationId
    assert model.setData(model.index(model.row_of(conversation_id)), "<b>Bold</b> title")
    tip = model.data(model.index(model.row_of(conversation_id)), Qt.ItemDataRole.ToolTipRole)
    assert as_tooltip_shows(tip) == "<b>Bold</b> title"
    chip = next(iter(parley.window.chat_view.composer.chips.chips.values()))
    assert as_tooltip_shows(chip.toolTip()).startswith("<b>notes & more.txt")
    workspace_tip = as_tooltip_shows(parley.window.chat_view.workspace.toolTip())
    assert workspace_tip == str(folder)
