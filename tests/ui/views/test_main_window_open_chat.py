"""Opening a chat: read from its end, older messages after the first paint; the version
labels its messages get; when the transcript lays out."""

from __future__ import annotations

from desktop.core.events import MessageChanged
from desktop.core.models import Message, ModelRef, Role, TextPart, new_id
from desktop.storage.repository import ChatRepository
from desktop.ui.viewmodels import transcript as transcript_vm
from desktop.ui.views.virtual_list import MAX_TEXT_WIDTH, PADDING, SIDE_MARGIN
from tests.support.settings_files import write_settings
from tests.support.transcript import conversation, live_ids, screen_top

NO_SERVER = "http://127.0.0.1:9/v1"  # a provider is configured (the chat page shows); unused


def add(
    repo: ChatRepository,
    conversation_id: str,
    parent: Message | None,
    text: str,
    model: ModelRef | None = None,
) -> Message:
    """A node as the engine saves one (it becomes the active leaf)."""
    role = Role.USER if parent is None or parent.role is Role.ASSISTANT else Role.ASSISTANT
    parent_id = parent.id if parent else None
    message = Message(new_id(), conversation_id, parent_id, role, [TextPart(text)], model=model)
    return repo.add_message(message)


def long_chat(repo: ChatRepository, count: int, model: ModelRef | None = None) -> list[Message]:
    """`count` messages, questions and answers; the first question was edited once."""
    chat = repo.create_conversation("A long chat").id
    add(repo, chat, None, "The first question, before an edit")
    path: list[Message] = []
    for number in range(count):
        path.append(add(repo, chat, path[-1] if path else None, f"Message {number}", model))
    return path


def test_a_long_chat_shows_its_end_first_and_the_older_messages_follow_above(
    driver, tmp_path, monkeypatch
):
    monkeypatch.setattr(transcript_vm, "OLDER_STEP", 70)  # several steps for 160 older messages
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    path = long_chat(parley.repository, transcript_vm.FIRST_MESSAGES + 160)
    transcript = parley.window.chat_view.transcript
    steps: list[int] = []
    parley.chat_vm.transcript.messagesPrepended.connect(lambda items: steps.append(len(items)))

    async def body() -> None:
        parley.chat_vm.open_conversation(path[0].conversation_id)
        ids = [m.id for m in path]
        assert transcript.message_ids() == ids[-transcript_vm.FIRST_MESSAGES :]
        bar = transcript.verticalScrollBar()
        assert bar.value() == bar.maximum() > 0

        await driver.until(lambda: len(transcript.message_ids()) == len(ids))
        assert transcript.message_ids() == ids
        assert steps == [70, 70, 20]
        assert bar.value() == bar.maximum()  # still showing the end
        transcript.scroll_to_message(ids[0])  # the edited first question, read last
        actions = transcript.message_widget(ids[0]).actions
        assert actions.version_label.text() == "2/2"

    driver.run(body())


def test_older_messages_arriving_leave_what_is_read_in_place(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    path = long_chat(parley.repository, transcript_vm.FIRST_MESSAGES + 30)
    transcript = parley.window.chat_view.transcript

    async def body() -> None:
        parley.chat_vm.open_conversation(path[0].conversation_id)
        first_shown = transcript.message_ids()[0]
        transcript.verticalScrollBar().setValue(0)  # the person goes to the top at once
        assert screen_top(transcript, first_shown) == PADDING
        await driver.until(lambda: len(transcript.message_ids()) == len(path))
        assert screen_top(transcript, first_shown) == PADDING  # the new rows are above it
        assert transcript.verticalScrollBar().value() > 0 and not transcript.at_bottom

    driver.run(body())


def test_a_search_hit_in_the_older_messages_is_shown_at_once(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    path = long_chat(parley.repository, transcript_vm.FIRST_MESSAGES + 50)
    transcript = parley.window.chat_view.transcript
    hit = path[20]

    async def body() -> None:
        parley.chat_vm.open_conversation(hit.conversation_id, hit.id)
        assert transcript.message_ids() == [m.id for m in path[20:]]
        assert screen_top(transcript, hit.id) == PADDING
        await driver.until(lambda: len(transcript.message_ids()) == len(path))
        assert screen_top(transcript, hit.id) == PADDING

    driver.run(body())


def test_the_model_of_the_last_answer_is_followed_even_when_it_is_old(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER, models=("other-model", "test-model"))
    parley = driver.start(tmp_path)
    vm = parley.chat_vm
    assert vm.models.selectedModel == 0
    repo = parley.repository
    # The old answers came from a configured model, the recent ones from a removed one.
    older = long_chat(repo, 40, ModelRef("local", "test-model"))
    chat = older[0].conversation_id
    parent = older[-1]
    for number in range(transcript_vm.FIRST_MESSAGES + 10):
        parent = add(repo, chat, parent, f"Recent {number}", ModelRef("gone", "old-model"))

    async def body() -> None:
        vm.open_conversation(chat)
        assert vm.models.selectedModel == 0  # no answer's model configured among the newest
        await driver.until(lambda: vm.models.selectedModel == 1)

    driver.run(body())


def test_version_labels_are_right_after_opening_switching_and_adding(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    repo, vm = parley.repository, parley.chat_vm
    chat = repo.create_conversation("Versions").id
    question = add(repo, chat, None, "Question")
    first = add(repo, chat, question, "First answer")
    second = add(repo, chat, question, "Second answer")  # a regenerated answer

    labels: dict[str, tuple[int, int]] = {}  # what the transcript was told, by message id

    def shown(item) -> None:
        labels[item.id] = (item.version_index, item.version_count)

    def reset(items) -> None:
        labels.clear()
        for item in items:
            shown(item)

    vm.transcript.messagesReset.connect(reset)
    vm.transcript.messageAdded.connect(shown)

    vm.open_conversation(chat)
    assert labels == {question.id: (1, 1), second.id: (2, 2)}

    vm.show_version(second.id, -1)  # "‹": the chat is shown again on the first answer
    assert labels == {question.id: (1, 1), first.id: (1, 2)}

    # A follow-up is sent on that branch: it arrives at the end, as sends announce it.
    follow_up = add(repo, chat, first, "Follow-up")
    parley.chat.events.emit(MessageChanged(follow_up))
    assert labels[follow_up.id] == (1, 1)

    # Shown up to the first answer only (its follow-up hidden), a message sent now is
    # the follow-up's sibling: its label counts the hidden one too.
    repo.set_active_leaf(chat, first.id)
    vm.open_conversation(chat)
    assert follow_up.id not in labels
    other = add(repo, chat, first, "Another follow-up")
    parley.chat.events.emit(MessageChanged(other))
    assert labels[other.id] == (2, 2)

    vm.show_version(other.id, -1)
    assert labels[follow_up.id] == (1, 2) and labels[first.id] == (1, 2)


def test_a_hidden_transcript_lays_out_nothing_until_it_is_shown(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    transcript = parley.window.chat_view.transcript
    bar = transcript.verticalScrollBar()
    assert not transcript.isVisible()  # no chat yet: the empty page is shown instead
    items = conversation(40)

    transcript.reset(items)
    # Its width is not known while hidden: no widget is made or measured at a guess.
    assert live_ids(transcript) == []

    transcript.setVisible(True)
    last = transcript.message_widget(items[-1].id)
    assert last is not None and transcript.at_bottom
    column = min(transcript.viewport().width() - 2 * SIDE_MARGIN, MAX_TEXT_WIDTH)
    assert last.width() == column
    laid_out = (bar.maximum(), last.height())

    transcript.reset(items)  # the same list given to the visible transcript: same layout
    assert (bar.maximum(), transcript.message_widget(items[-1].id).height()) == laid_out


def test_a_version_switched_far_up_a_long_chat_leaves_the_view_where_it_was(driver, tmp_path):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    repo, vm = parley.repository, parley.chat_vm
    path = long_chat(repo, 300)
    chat = path[0].conversation_id
    edited = add(repo, chat, path[249], "Message 250, edited")  # a version of path[250]
    repo.set_active_leaf(chat, path[-1].id)
    transcript = parley.window.chat_view.transcript

    async def body() -> None:
        vm.open_conversation(chat)
        await driver.until(lambda: len(transcript.message_ids()) == len(path))
        read = path[120]  # far from the end: among the messages read after the first paint
        transcript.scroll_to_message(read.id)
        assert screen_top(transcript, read.id) == PADDING

        vm.show_version(path[250].id, +1)
        assert transcript.message_ids() == [m.id for m in path[:250]] + [edited.id]
        assert screen_top(transcript, read.id) == PADDING

    driver.run(body())
