"""The open chat's messages, driven by scripted engine events (no app, no server)."""

from __future__ import annotations

import pytest

from desktop.core.events import MessageChanged
from desktop.core.models import Message, MessageStatus, Role, TextPart, new_id
from desktop.render import render_markdown
from desktop.ui.viewmodels import transcript as transcript_module
from desktop.ui.viewmodels.transcript import TranscriptModel
from tests.support.scripted_chat import ScriptedChat
from tests.support.waiting import CEILING_S


@pytest.fixture
def scripted(tmp_path, qapp):
    chat = ScriptedChat(tmp_path)
    yield chat
    chat.close()


@pytest.fixture
def model(scripted, qapp):
    """The view-model, hearing the scripted chat's message events as the chat VM does."""
    shown = TranscriptModel(scripted.chat, lambda _message: None)

    def relay(event: object) -> None:
        if isinstance(event, MessageChanged):
            shown.message_changed(event.message)

    scripted.chat.events.subscribe(relay)
    yield shown
    shown.maths.close()
    shown.ahead.close()
    shown.deleteLater()


def chain(scripted: ScriptedChat, conversation_id: str, count: int) -> list[str]:
    """`count` alternating messages on one branch, saved without being announced."""
    ids: list[str] = []
    for number in range(count):
        role = Role.USER if number % 2 == 0 else Role.ASSISTANT
        message = Message(
            new_id(), conversation_id, ids[-1] if ids else None, role, [TextPart(f"m{number}")]
        )
        scripted.repository.add_message(message)
        ids.append(message.id)
    return ids


def test_a_chat_opens_at_its_end_and_its_older_messages_follow_above(
    scripted, model, qtbot, monkeypatch
):
    monkeypatch.setattr(transcript_module, "FIRST_MESSAGES", 5)
    monkeypatch.setattr(transcript_module, "OLDER_STEP", 4)
    conversation = scripted.conversation()
    ids = chain(scripted, conversation.id, 12)
    resets: list[list[str]] = []
    prepended: list[list[str]] = []
    read: list[list[str]] = []
    model.messagesReset.connect(lambda items: resets.append([i.id for i in items]))
    model.messagesPrepended.connect(lambda items: prepended.append([i.id for i in items]))
    model.messagesRead.connect(lambda messages: read.append([m.id for m in messages]))

    model.show(conversation.id)

    assert resets == [ids[-5:]]
    qtbot.waitUntil(lambda: sum(map(len, prepended)) == 7, timeout=CEILING_S * 1000)
    assert prepended == [ids[3:7], ids[:3]]  # one step per idle turn, newest first
    assert read == [ids[-5:], ids[3:7], ids[:3]]


def test_a_search_hit_among_the_older_messages_is_read_before_the_first_paint(
    scripted, model, monkeypatch
):
    monkeypatch.setattr(transcript_module, "FIRST_MESSAGES", 5)
    conversation = scripted.conversation()
    ids = chain(scripted, conversation.id, 12)
    resets: list[list[str]] = []
    focused: list[str] = []
    model.messagesReset.connect(lambda items: resets.append([i.id for i in items]))
    model.focusMessage.connect(focused.append)

    model.show(conversation.id, ids[2])

    assert resets == [ids[2:]] and focused == [ids[2]]


def test_a_streamed_answer_is_added_once_and_shown_complete_when_it_ends(scripted, model):
    conversation = scripted.conversation()
    model.show(conversation.id)
    added: list[str] = []
    updated: list[tuple[str, str]] = []
    model.messageAdded.connect(lambda item: added.append(item.id))
    model.messageUpdated.connect(lambda item: updated.append((item.id, item.markdown)))

    question = scripted.ask(conversation.id, "Count to fifty")
    answer = scripted.answer(question, [f"{n} " for n in range(50)])

    assert added == [question.id, answer.id]
    # The fifty streamed updates came within one turn of the loop: the pacer held them,
    # and the final state replaced whatever was still waiting.
    assert model.update_pacer.submitted == 50
    assert updated[-1] == (answer.id, "".join(f"{n} " for n in range(50)))
    # Nothing waits to be applied after the final state, so nothing stale can follow it.
    assert updated[-1][1] == answer.text and not model.update_pacer.has_pending


def test_updates_are_shown_while_an_answer_streams(scripted, model, qtbot):
    conversation = scripted.conversation()
    model.show(conversation.id)
    question = scripted.ask(conversation.id, "Say something")
    texts: list[str] = []
    model.messageUpdated.connect(lambda item: texts.append(item.markdown))
    streaming = Message(
        new_id(), conversation.id, question.id, Role.ASSISTANT, [], MessageStatus.STREAMING
    )
    scripted.repository.add_message(streaming)
    scripted.chat.events.emit(MessageChanged(streaming))
    for text in ("Hel", "Hello", "Hello there"):
        streaming = Message(
            streaming.id,
            conversation.id,
            question.id,
            Role.ASSISTANT,
            [TextPart(text)],
            MessageStatus.STREAMING,
        )
        scripted.chat.events.emit(MessageChanged(streaming))
    qtbot.waitUntil(lambda: texts[-1:] == ["Hello there"], timeout=CEILING_S * 1000)
    assert "Hel" not in texts  # superseded while it waited: only the latest is applied


def test_messages_of_another_chat_or_another_branch_are_not_shown(scripted, model):
    shown = scripted.conversation("Shown")
    other = scripted.conversation("Other")
    first = scripted.ask(shown.id, "First")
    model.show(shown.id)
    added: list[str] = []
    model.messageAdded.connect(lambda item: added.append(item.id))

    scripted.ask(other.id, "Elsewhere")
    scripted.ask(shown.id, "A second root, not at the tip")  # its parent is not the tip
    reply = scripted.ask(shown.id, "At the tip", parent_id=first.id)

    assert added == [reply.id]


def test_an_answer_streamed_with_its_blocks_rendered_ahead_shows_what_a_full_render_does(
    scripted, model, qtbot
):
    """The finished blocks of each update are rendered in the worker while it waits."""
    conversation = scripted.conversation()
    model.show(conversation.id)
    question = scripted.ask(conversation.id, "Explain")
    shown: list[tuple[str, str]] = []
    model.messageUpdated.connect(lambda item: shown.append((item.markdown, item.html_source)))
    text = "".join(
        f"## Part {n}\n\nSome **bold** text and `code` [{n}].\n\n"
        f"```python\ndef f{n}(x):\n    return x * {n}\n```\n\n"
        f"- one\n- two\n\n| a | b |\n|---|---|\n| {n} | x |\n\n"
        for n in range(6)
    )
    streaming = Message(
        new_id(), conversation.id, question.id, Role.ASSISTANT, [], MessageStatus.STREAMING
    )
    scripted.repository.add_message(streaming)
    scripted.chat.events.emit(MessageChanged(streaming))
    step = 120
    for end in range(step, len(text) + step, step):
        streaming = Message(
            streaming.id,
            conversation.id,
            question.id,
            Role.ASSISTANT,
            [TextPart(text[:end])],
            MessageStatus.STREAMING,
        )
        scripted.chat.events.emit(MessageChanged(streaming))
        applied = model.update_pacer.applied

        def shown_and_settled(before: int = applied) -> bool:
            return model.update_pacer.applied > before and model.ahead.pending == 0

        qtbot.waitUntil(shown_and_settled, timeout=CEILING_S * 1000)
    assert model.ahead.submitted > 0
    assert model.blocks_taken_ahead > len(text) // step  # most blocks came from the worker
    assert len(shown) >= len(text) // step
    for markdown, html in shown:
        assert html == render_markdown(markdown), markdown
