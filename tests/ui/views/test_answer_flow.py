"""An answer that called tools reads in the order it was written: its text, the call,
the text after it; its reasoning is a folded card rendered as markdown."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent

from desktop.core.models import CallState, Message, MessageStatus, ReasoningPart, Role, TextPart
from desktop.core.models import ToolCallPart as Call
from desktop.ui.viewmodels.message_item import TextSegment, ToolSegment
from desktop.ui.viewmodels.message_renderer import MessageRenderer, answer_flow
from desktop.ui.viewmodels.tool_card import headline, pretty_json
from tests.support.chat_wire import delta_chunk, streamed_call, text_answer
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, chat_chunk, sse_response
from tests.support.stored_chats import chat_with
from tests.support.ui_actions import start_with_workspace, type_and_send

DU = Call(
    "c1", "run_command", '{"command": "du -sh ~", "cwd": "/home/ana"}', "4.2G", state=CallState.DONE
)
LS = Call("c2", "list_files", '{"path": "docs", "depth": 2}', "a.md", state=CallState.DONE)


def test_text_and_calls_keep_the_order_they_were_written_in():
    parts = [TextPart("Let me look."), DU, LS, TextPart("It uses "), TextPart("4.2 GB.")]
    assert answer_flow(Message("a", "c", None, Role.ASSISTANT, parts)) == [
        "Let me look.",
        (0, 2),  # two calls in a row: one run
        "It uses 4.2 GB.",
    ]
    # No calls: one piece of text, as every other message.
    assert answer_flow(Message("a", "c", None, Role.ASSISTANT, [TextPart("Hi")])) == []


def test_each_piece_of_text_is_rendered_on_its_own():
    parts = [TextPart("Checking **now**."), DU, TextPart("Done: `4.2G`.")]
    item = MessageRenderer().item(Message("a", "c", None, Role.ASSISTANT, parts))
    first, run, last = item.segments
    assert isinstance(first, TextSegment) and isinstance(last, TextSegment)
    assert run == ToolSegment(0, 1) and item.tools[0].name == "run_command"
    assert "<b>now</b>" in first.html or "<strong>now</strong>" in first.html
    assert "now." not in last.html and "4.2G" in last.html
    # The pieces never run together ("now.Done"): the whole is both pieces.
    assert "Done" not in first.html and "Done" in item.html


def test_a_streaming_answer_grows_only_its_last_piece():
    parts = [TextPart("Before."), DU, TextPart("After, so")]
    renderer = MessageRenderer()
    streaming = Message("a", "c", None, Role.ASSISTANT, parts, status=MessageStatus.STREAMING)
    item = renderer.item(streaming)
    assert "After, so" in item.segments[-1].html
    grown = Message("a", "c", None, Role.ASSISTANT, [*parts[:2], TextPart("After, so far")])
    item = renderer.item(grown)
    assert "After, so far" in item.segments[-1].html and "Before." in item.segments[0].html


def test_the_headline_says_what_the_call_was_asked_on_one_line():
    assert headline('{"command": "du -sh ~", "cwd": "/home/ana"}') == "du -sh ~"
    assert headline('{"path": "docs", "depth": 2}') == "docs"
    assert headline('{"depth": 2, "flat": true}') == "depth: 2, flat: true"
    assert headline('{"command": ["git", "log", "-n", "3"]}') == "git log -n 3"
    assert headline('{"query": "a\\nb\\u0007  c"}') == "a b c"  # one line, no control chars
    assert headline("not json <b>") == "not json <b>"  # shown as written (plain text)
    deep = '{"a": ' + "[" * 5000 + "]" * 5000 + "}"  # deeper than the parser goes
    assert headline(deep).startswith('{"a": [[[') and pretty_json(deep) == deep
    long = headline('{"text": "' + "x" * 5000 + '"}')
    assert len(long) <= 160 and long.endswith("…")


def _tops(widget, views):
    return [v.mapTo(widget, QPoint(0, 0)).y() for v in views]


def test_the_answer_shows_its_call_between_the_text_around_it(driver, tmp_path):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    parley = driver.start(tmp_path)
    reasoning = ReasoningPart("First **check** the folder.\n\n- then sum", duration_ms=4200)
    chat, (_q, answer) = chat_with(
        parley.repository,
        (Role.USER, [TextPart("How big is my home folder?")]),
        (Role.ASSISTANT, [reasoning, TextPart("Let me check."), DU, TextPart("It is 4.2 GB.")]),
    )

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        await driver.until(
            lambda: parley.window.chat_view.transcript.message_widget(answer.id) is not None
        )
        widget = parley.window.chat_view.transcript.message_widget(answer.id)
        await driver.until(lambda: widget.isVisible() and widget.height() > 0)
        before, after = widget.text_views()
        (card,) = widget.tool_cards.cards
        assert "Let me check." in before.toPlainText() and "4.2 GB" in after.toPlainText()
        assert "4.2 GB" not in before.toPlainText()
        top_before, top_card, top_after = _tops(widget, [before, card, after])
        assert top_before < top_card < top_after
        # The card's header: the name, what it was asked, where it stands.
        assert card.toggle.text() == "run_command"
        assert card.headline.text() == "du -sh ~" and card.state.text() == "done"
        assert not card.details.isVisible()
        card.headline.mousePressEvent(_left_click())
        await driver.until(card.details.isVisible)
        # Reasoning: a folded card above the text, "Thought for 4 s", markdown once open.
        toggle = widget.reasoning_toggle
        assert toggle.text() == "Thought for 4 s" and not widget.reasoning_body.isVisible()
        assert _tops(widget, [widget.reasoning_card])[0] < top_before
        toggle.click()
        await driver.until(widget.reasoning_body.isVisible)
        shown = widget.reasoning_body.toPlainText()
        assert "**" not in shown and "check" in shown  # rendered, not raw source
        assert widget.reasoning_body.document().toHtml().count("font-weight") >= 1
        assert widget.reasoning_body in widget.text_views()  # open: in-chat find sees it

    driver.run(body())


def _left_click() -> QMouseEvent:
    return QMouseEvent(
        QMouseEvent.Type.MouseButtonPress,
        QPointF(2, 2),
        QPointF(2, 2),
        Qt.MouseButton.LeftButton,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )


def test_a_streamed_answer_puts_its_call_between_the_text_as_it_happens(
    driver, sse_server, tmp_path
):
    parley, workspace = start_with_workspace(driver, sse_server, tmp_path)
    (workspace / "notes.txt").write_text("hello", encoding="utf-8")
    sse_server.script(
        sse_response(
            chat_chunk(content="Let me look in the folder."),
            *streamed_call(0, "c1", "list_files", '{"path": "."}'),
            delta_chunk({}, "tool_calls"),
            DONE,
        ),
        text_answer("There is one file: notes.txt."),
    )

    async def body() -> None:
        type_and_send(parley, "What is in my folder?")
        await driver.until(lambda: parley.chat_vm.busy)
        await driver.until(lambda: not parley.chat_vm.busy)
        transcript = parley.window.chat_view.transcript
        widget = transcript.message_widget(transcript.message_ids()[-1])
        await driver.until(lambda: len(widget.text_views()) == 2)
        before, after = widget.text_views()
        (card,) = widget.tool_cards.cards
        assert before.toPlainText().strip() == "Let me look in the folder."
        assert after.toPlainText().strip() == "There is one file: notes.txt."
        assert card.toggle.text() == "list_files" and card.state.text() == "done"
        assert _tops(widget, [before])[0] < _tops(widget, [card])[0] < _tops(widget, [after])[0]

    driver.run(body())
