"""Huge and hostile messages: what reaches Qt's layout is bounded, the whole text is kept.

Qt lays out a run of text with no break opportunity in time quadratic in its length, and
formatting hostile markdown costs seconds; these tests assert what is handed to Qt (how
many characters, the longest unbreakable run, how many table rows) and that copy and
save still give every character. The timings are in benchmarks/render_bench.py.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

from PySide6.QtGui import QGuiApplication, QTextCursor, QTextDocument
from PySide6.QtWidgets import QApplication, QFileDialog

from desktop.core.models import (
    CallState,
    MessageStatus,
    ReasoningPart,
    Role,
    TextPart,
    ToolCallPart,
)
from desktop.ui.viewmodels.message_item import Notice
from desktop.ui.views.notice_detail import NoticeDetailDialog
from desktop.ui.views.plain_text_view import PlainTextView
from tests.support.chat_wire import text_answer, write_call
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, Gate, chat_chunk, sse_response
from tests.support.stored_chats import chat_with
from tests.support.ui_actions import dialogs, start_with_workspace, type_and_send

NO_SERVER = "http://127.0.0.1:9/v1"
SHOWN = 100_000  # at most this many characters of a message reach the layout
RUN = 1_000  # nor a run without a break opportunity longer than this
ONE_LINE = "7" * 300_000  # digits: no break opportunity at all
TABLE = "| a | b | c |\n|---|---|---|\n" + "| x | y | z |\n" * 5_000


def longest_run(document: QTextDocument) -> int:
    """The longest stretch of text Qt's line breaking must scan without a break."""
    text = document.toRawText()
    return max((len(run) for run in re.split(r"[\s\u200b\u2029\u2028]+", text)), default=0)


def shown_chars(document: QTextDocument) -> int:
    return len(document.toPlainText().replace("\u200b", "").rstrip())


def test_a_huge_one_line_answer_shows_its_start_and_copies_and_saves_all_of_it(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    chat, (_question, answer) = chat_with(
        parley.repository,
        (Role.USER, [TextPart("Print a lot")]),
        (Role.ASSISTANT, [TextPart(ONE_LINE)]),
    )
    transcript = parley.window.chat_view.transcript
    target = tmp_path / "saved" / "answer.md"
    target.parent.mkdir()

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        widget = transcript.message_widget(answer.id)
        document = widget.body.document()
        assert shown_chars(document) == SHOWN
        assert longest_run(document) <= RUN
        assert widget.cut_bar.isVisible()
        assert "300000" in widget.cut_bar.label.text().replace(",", "")

        widget.cut_bar.copy_button.click()
        assert QGuiApplication.clipboard().text() == ONE_LINE
        widget.body.selectAll()
        widget.body.copy()  # a selection copies the text as it came, without soft breaks
        assert QGuiApplication.clipboard().text().rstrip() == ONE_LINE[:SHOWN]

        widget.cut_bar.save_button.click()
        dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog))
        dialog.selectFile(str(target))
        dialog.accept()
        await driver.until(lambda: target.exists())
        assert target.read_text(encoding="utf-8") == ONE_LINE

    driver.run(body())


def test_a_huge_message_from_the_person_is_bounded_too(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    chat, (question,) = chat_with(parley.repository, (Role.USER, [TextPart(ONE_LINE)]))
    transcript = parley.window.chat_view.transcript

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        widget = transcript.message_widget(question.id)
        assert shown_chars(widget.body.document()) == SHOWN
        assert longest_run(widget.body.document()) <= RUN
        assert widget.cut_bar.isVisible()
        widget.cut_bar.copy_button.click()
        assert QGuiApplication.clipboard().text() == ONE_LINE

    driver.run(body())


def test_huge_reasoning_and_tool_calls_are_bounded(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    call = ToolCallPart(
        "call-1",
        "write_file",
        arguments='{"content": "' + ONE_LINE + '"}',
        result=ONE_LINE[:30_000],
        state=CallState.DONE,
    )
    chat, (_question, answer) = chat_with(
        parley.repository,
        (Role.USER, [TextPart("Think hard")]),
        (Role.ASSISTANT, [ReasoningPart(ONE_LINE, duration_ms=1_000), call, TextPart("Done.")]),
    )
    transcript = parley.window.chat_view.transcript

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        widget = transcript.message_widget(answer.id)
        widget.reasoning_toggle.click()
        reasoning = widget.reasoning_body.document()
        assert SHOWN <= shown_chars(reasoning) < SHOWN + 100  # and a line saying how much more
        assert "200000 more characters" in reasoning.toPlainText().replace(",", "")
        assert longest_run(reasoning) <= RUN
        card = widget.tool_cards.cards[0]
        card.toggle.click()
        for label in (card.arguments, card.result):
            assert len(label.text()) < 8_100
            assert "more characters, not shown" in label.text()

    driver.run(body())


def test_a_hostile_table_keeps_its_first_rows_as_a_table_and_the_rest_as_text(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    chat, (_question, answer) = chat_with(
        parley.repository,
        (Role.USER, [TextPart("A big table")]),
        (Role.ASSISTANT, [TextPart(TABLE)]),
    )
    transcript = parley.window.chat_view.transcript

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        document = transcript.message_widget(answer.id).body.document()
        tables = [
            frame
            for frame in document.rootFrame().childFrames()
            if frame.metaObject().className() == "QTextTable"
        ]
        assert len(tables) == 1
        rows = tables[0].rows()
        assert 100 < rows < 5_000
        text = document.toPlainText()
        assert "The rest is shown as plain text" in text
        assert text.count("| x | y | z |") == 5_000 - (rows - 1)
        assert not transcript.message_widget(answer.id).cut_bar.isVisible()

    driver.run(body())


def test_streaming_a_huge_one_line_answer_stops_rewriting_once_past_what_is_shown(
    driver, sse_server, tmp_path
):
    answer = "8" * 1_000_000
    chunks = [chat_chunk(content=answer[i : i + 20_000]) for i in range(0, len(answer), 20_000)]
    # The server sends more once the view shows all it will, and the rest once the view
    # has been updated with some of that: updates past what is shown, still streaming.
    shown, updated = threading.Event(), threading.Event()
    steps = [*chunks[:6], Gate(shown), *chunks[6:10], Gate(updated), *chunks[10:]]
    sse_server.enqueue(sse_response(*steps, chat_chunk(finish_reason="stop"), DONE))
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    transcript = parley.window.chat_view.transcript
    seen: list[tuple[int, int, int]] = []  # per update: characters, longest run, re-imports

    def on_update(item) -> None:
        widget = transcript.message_widget(item.id)
        if widget is not None and not item.is_user:
            document = widget.body.document()
            units = widget.body.tail.reimported_units
            seen.append((shown_chars(document), longest_run(document), units))
            if seen[-1][0] == SHOWN:
                if shown.is_set() and item.streaming:
                    updated.set()
                shown.set()

    parley.chat_vm.transcript.messageUpdated.connect(on_update)

    async def body() -> None:
        assert parley.chat_vm.submit("Print a million eights")
        await driver.until(lambda: parley.chat_vm.busy)
        await driver.until(lambda: not parley.chat_vm.busy)
        answer_id = transcript.message_ids()[-1]
        widget = transcript.message_widget(answer_id)
        assert parley.chat_vm._chat.messages_by_id([answer_id])[0].status is (
            MessageStatus.COMPLETE
        )
        assert seen and all(chars <= SHOWN and run <= RUN for chars, run, _ in seen)
        assert shown.is_set() and updated.is_set()
        past = [units for chars, _, units in seen if chars == SHOWN]
        # Updates while 880,000 more characters came, then the completed reply: no rewrite.
        assert len(past) >= 3 and past[-1] == past[0] == widget.body.tail.reimported_units
        assert shown_chars(widget.body.document()) == SHOWN
        widget.cut_bar.copy_button.click()
        assert QGuiApplication.clipboard().text() == answer

    driver.run(body(), timeout=120)


def test_saving_a_message_writes_its_whole_text(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    _chat, (answer,) = chat_with(parley.repository, (Role.ASSISTANT, [TextPart(ONE_LINE)]))
    target = Path(tmp_path) / "out.txt"
    saved: list[str] = []
    parley.chat_vm.messageSaved.connect(saved.append)

    async def body() -> None:
        parley.chat_vm.save_message(answer.id, str(target))
        await driver.until(lambda: saved == [str(target)])
        assert target.read_text(encoding="utf-8") == ONE_LINE

    driver.run(body())


def test_huge_arguments_awaiting_approval_show_both_ends_and_copy_and_save_as_written(
    driver, sse_server, tmp_path
):
    """A model can push what matters past any cut: the person sees the start and the
    end, is told how much is between, and can copy or save every character."""
    content = "Begin. " + ONE_LINE + " rm -rf ~ at the very end"
    arguments = json.dumps({"path": "notes.txt", "content": content})
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    sse_server.script(write_call(content=content), text_answer("Not written."))
    target = tmp_path / "arguments.json"

    async def body() -> None:
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: len(dialogs(parley)) == 1)
        panel = dialogs(parley)[0].panels[0]
        # What will happen, first: the new text's start and end, how much is between.
        preview = panel.preview.toPlainText().replace("\u200b", "")
        assert preview.startswith("Begin. ") and preview.endswith("rm -rf ~ at the very end")
        assert "characters not shown" in preview
        panel.arguments_toggle.click()  # the arguments as written
        document = panel.arguments.document()
        text = document.toPlainText().replace("\u200b", "")
        hidden = len(arguments) - SHOWN
        head, marker, tail = text.split("\n")
        assert head == arguments[: SHOWN // 2]
        assert tail == arguments[-SHOWN // 2 :] and tail.endswith('rm -rf ~ at the very end"}')
        assert marker.replace(",", "") == f"… {hidden} characters not shown …"
        assert longest_run(document) <= RUN
        assert panel.cut_bar.isVisible()
        note = panel.cut_bar.label.text().replace(",", "")
        assert "first 50000 and the last 50000" in note and str(len(arguments)) in note

        panel.arguments.selectAll()
        panel.arguments.copy()  # no note, no soft breaks: the characters the model wrote
        assert QGuiApplication.clipboard().text() == arguments
        QGuiApplication.clipboard().clear()
        panel.cut_bar.copy_button.click()
        assert QGuiApplication.clipboard().text() == arguments

        panel.cut_bar.save_button.click()
        dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog))
        dialog.selectFile(str(target))
        dialog.accept()
        await driver.until(lambda: panel.saved.isVisible())
        assert target.read_text(encoding="utf-8") == arguments
        assert str(target) in panel.saved.text()

        panel.deny.click()
        await driver.until(lambda: not parley.chat_vm.busy and not dialogs(parley))
        assert not (workspace / "notes.txt").exists()

    driver.run(body())


def test_a_selection_across_what_is_not_shown_copies_what_it_spans(qtbot):
    text = "".join(f"{i:07d} " for i in range(40_000))  # 320,000 characters, none alike
    view = PlainTextView(text)
    qtbot.addWidget(view)
    cursor = view.textCursor()
    cursor.setPosition(12)
    cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
    cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, 9)
    view.setTextCursor(cursor)
    view.copy()
    assert QGuiApplication.clipboard().text() == text[12:-9]
    cursor.setPosition(100)
    cursor.setPosition(180, QTextCursor.MoveMode.KeepAnchor)  # within the start: as shown
    view.setTextCursor(cursor)
    view.copy()
    assert QGuiApplication.clipboard().text() == text[100:180]


def test_a_huge_notice_detail_is_bounded_and_copied_whole(qtbot):
    dialog = NoticeDetailDialog(Notice("1 image was read with OCR", detail=ONE_LINE))
    qtbot.addWidget(dialog)
    document = dialog.text.document()
    assert shown_chars(document) < SHOWN + 100
    assert longest_run(document) <= RUN
    assert "characters not shown" in document.toPlainText()
    dialog.text.selectAll()
    dialog.text.copy()
    assert QGuiApplication.clipboard().text() == ONE_LINE
