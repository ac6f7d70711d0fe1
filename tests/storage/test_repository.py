"""ChatRepository against a real SQLite file: conversations, trees, crash recovery."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from desktop.core.models import (
    ContextSnapshot,
    ErrorPart,
    Message,
    MessageStatus,
    ModelRef,
    Role,
    TextPart,
    Usage,
    new_id,
)
from desktop.storage.database import Database
from desktop.storage.errors import ConversationNotFound, MessageNotFound
from desktop.storage.repository import ChatRepository
from tests.support.step_clock import StepClock

_BASE = datetime(2024, 5, 1, tzinfo=UTC)
_tick = iter(range(1, 1_000_000))


def _msg(
    conversation_id: str,
    parent: Message | None = None,
    text: str = "",
    role: Role = Role.USER,
    status: MessageStatus = MessageStatus.COMPLETE,
) -> Message:
    return Message(
        id=new_id(),
        conversation_id=conversation_id,
        parent_id=parent.id if parent else None,
        role=role,
        parts=[TextPart(text)] if text else [],
        status=status,
        created_at=_BASE + timedelta(seconds=next(_tick)),
    )


# --- conversations ------------------------------------------------------------------


def test_create_and_get_a_conversation(repo: ChatRepository) -> None:
    created = repo.create_conversation("  Hello  ")
    assert created.title == "Hello"
    assert repo.get_conversation(created.id) == created
    assert repo.get_conversation("missing") is None


def test_list_puts_pinned_first_then_newest_and_hides_archived(
    repo: ChatRepository, db: Database
) -> None:
    old = repo.create_conversation("old")
    pinned = repo.create_conversation("pinned")
    newest = repo.create_conversation("newest")
    archived = repo.create_conversation("archived")
    with db.write() as conn:
        conn.exec_driver_sql("UPDATE conversations SET pinned = 1 WHERE id = ?", (pinned.id,))
        conn.exec_driver_sql("UPDATE conversations SET archived = 1 WHERE id = ?", (archived.id,))
    assert [c.id for c in repo.list_conversations()] == [pinned.id, newest.id, old.id]

    repo.touch(old.id)
    assert [c.id for c in repo.list_conversations()] == [pinned.id, old.id, newest.id]


def test_rename_strips_refuses_blank_and_reports_missing(repo: ChatRepository) -> None:
    conversation = repo.create_conversation("draft")
    renamed = repo.rename_conversation(conversation.id, "  Final  ")
    assert renamed.title == "Final"
    assert renamed.updated_at == conversation.updated_at  # renaming does not reorder
    assert repo.get_conversation(conversation.id) == renamed
    with pytest.raises(ValueError):
        repo.rename_conversation(conversation.id, "   ")
    with pytest.raises(ConversationNotFound):
        repo.rename_conversation("missing", "x")


def test_create_refuses_a_blank_title(repo: ChatRepository) -> None:
    with pytest.raises(ValueError):
        repo.create_conversation(" \n ")


def test_touch_bumps_updated_at(repo: ChatRepository, clock: StepClock) -> None:
    conversation = repo.create_conversation("c")
    repo.touch(conversation.id)
    touched = repo.get_conversation(conversation.id)
    assert touched is not None and touched.updated_at == clock.now
    repo.touch("missing")  # a deleted conversation is not an error


def test_delete_cascades_to_every_message(repo: ChatRepository, db: Database) -> None:
    keep = repo.create_conversation("keep")
    kept = repo.add_message(_msg(keep.id, text="stay"))
    doomed = repo.create_conversation("doomed")
    first = repo.add_message(_msg(doomed.id, text="q"))
    repo.add_message(_msg(doomed.id, first, "a", Role.ASSISTANT))

    repo.delete_conversation(doomed.id)
    repo.delete_conversation(doomed.id)  # idempotent

    assert repo.get_conversation(doomed.id) is None
    assert repo.messages(doomed.id) == []
    assert repo.messages(keep.id) == [kept]
    with db.read() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM messages").scalar_one() == 1


# --- messages and trees -------------------------------------------------------------


def test_add_message_sets_the_active_leaf_and_bumps_updated_at(
    repo: ChatRepository, clock: StepClock
) -> None:
    conversation = repo.create_conversation("c")
    message = _msg(conversation.id, text="hi")
    message.created_at += timedelta(microseconds=456)  # stored to the millisecond
    stored = repo.add_message(message)
    assert stored.created_at == message.created_at - timedelta(microseconds=456)
    assert repo.get_message(message.id) == stored
    after = repo.get_conversation(conversation.id)
    assert after is not None
    assert after.active_leaf_id == message.id and after.updated_at == clock.now


def test_add_message_refuses_missing_or_foreign_parents(repo: ChatRepository) -> None:
    one = repo.create_conversation("one")
    two = repo.create_conversation("two")
    root = repo.add_message(_msg(one.id, text="q"))
    with pytest.raises(ConversationNotFound):
        repo.add_message(_msg("missing", text="q"))
    orphan = _msg(one.id, text="a")
    orphan.parent_id = "no-such-parent"
    with pytest.raises(MessageNotFound):
        repo.add_message(orphan)
    with pytest.raises(ValueError):
        repo.add_message(_msg(two.id, root, "a"))
    assert repo.messages(two.id) == []
    assert repo.active_path(one.id) == [root]  # failed adds changed nothing


def test_add_messages_saves_all_of_them_or_none(repo: ChatRepository) -> None:
    conversation = repo.create_conversation("c")
    question = _msg(conversation.id, text="q")
    answer = _msg(conversation.id, question, "a", Role.ASSISTANT)
    stored = repo.add_messages([question, answer])
    assert [m.id for m in stored] == [question.id, answer.id]
    assert repo.active_path(conversation.id) == stored  # the last is the leaf

    again = _msg(conversation.id, answer, "q2")
    broken = _msg(conversation.id, text="a2")
    broken.parent_id = "no-such-parent"
    with pytest.raises(MessageNotFound):
        repo.add_messages([again, broken])
    assert repo.get_message(again.id) is None  # rolled back with the second
    assert repo.active_path(conversation.id) == stored


def test_save_message_updates_streaming_fields(repo: ChatRepository) -> None:
    conversation = repo.create_conversation("c")
    question = repo.add_message(_msg(conversation.id, text="q"))
    answer = repo.add_message(
        _msg(conversation.id, question, role=Role.ASSISTANT, status=MessageStatus.STREAMING)
    )
    answer.parts = [TextPart("partial answer"), ErrorPart("dropped", 502)]
    answer.status = MessageStatus.ERROR
    answer.model = ModelRef("openai", "gpt-4o")
    answer.usage = Usage(10, 20, 3)
    answer.first_token_ms = 320
    answer.finished_at = answer.created_at + timedelta(seconds=2)
    answer.context = ContextSnapshot(("att",), "f.md", context_captured=True)
    repo.save_message(answer)
    assert repo.get_message(answer.id) == answer


def test_save_message_raises_when_the_conversation_was_deleted(repo: ChatRepository) -> None:
    conversation = repo.create_conversation("c")
    answer = repo.add_message(_msg(conversation.id, status=MessageStatus.STREAMING))
    repo.delete_conversation(conversation.id)
    answer.parts = [TextPart("too late")]
    with pytest.raises(MessageNotFound):
        repo.save_message(answer)


def test_branches_siblings_and_the_active_path(repo: ChatRepository) -> None:
    c = repo.create_conversation("tree").id
    q1 = repo.add_message(_msg(c, text="q1"))
    a1 = repo.add_message(_msg(c, q1, "a1", Role.ASSISTANT))
    a1_regen = repo.add_message(_msg(c, q1, "a1'", Role.ASSISTANT))  # regenerate
    q2 = repo.add_message(_msg(c, a1_regen, "q2"))
    q1_edit = repo.add_message(_msg(c, None, "q1 edited"))  # edit of the first question

    assert [m.id for m in repo.siblings(a1.id)] == [a1.id, a1_regen.id]
    assert [m.id for m in repo.siblings(q1.id)] == [q1.id, q1_edit.id]
    assert repo.siblings("missing") == []
    assert len(repo.messages(c)) == 5

    assert repo.active_path(c) == [q1_edit]  # the last add is the active leaf
    repo.set_active_leaf(c, q2.id)
    assert [m.id for m in repo.active_path(c)] == [q1.id, a1_regen.id, q2.id]
    repo.set_active_leaf(c, a1.id)
    assert [m.text for m in repo.active_path(c)] == ["q1", "a1"]


def test_set_active_leaf_refuses_a_message_of_another_conversation(
    repo: ChatRepository,
) -> None:
    one = repo.create_conversation("one").id
    two = repo.create_conversation("two").id
    foreign = repo.add_message(_msg(two, text="x"))
    with pytest.raises(MessageNotFound):
        repo.set_active_leaf(one, foreign.id)
    with pytest.raises(MessageNotFound):
        repo.set_active_leaf(one, "missing")


def test_deleting_a_node_deletes_its_subtree_and_the_path_falls_back(
    repo: ChatRepository, db: Database
) -> None:
    c = repo.create_conversation("c").id
    q = repo.add_message(_msg(c, text="q"))
    a_old = repo.add_message(_msg(c, q, "old", Role.ASSISTANT))
    a_new = repo.add_message(_msg(c, q, "new", Role.ASSISTANT))
    follow_up = repo.add_message(_msg(c, a_new, "follow-up"))
    assert repo.active_path(c)[-1] == follow_up

    with db.write() as conn:
        conn.exec_driver_sql("DELETE FROM messages WHERE id = ?", (a_new.id,))

    assert {m.id for m in repo.messages(c)} == {q.id, a_old.id}  # follow_up went too
    assert repo.active_path(c) == [q, a_old]  # dangling leaf: newest remaining leaf


def test_without_an_active_leaf_the_newest_leaf_is_shown(
    repo: ChatRepository, db: Database
) -> None:
    c = repo.create_conversation("c").id
    q = repo.add_message(_msg(c, text="q"))
    newer = repo.add_message(_msg(c, q, "newer"))
    repo.add_message(_msg(c, q, "newest"))  # becomes the leaf...
    with db.write() as conn:  # ...until the pointer is lost
        conn.exec_driver_sql("UPDATE conversations SET active_leaf_id = NULL")
    assert repo.active_path(c)[-1].text == "newest"
    repo.set_active_leaf(c, newer.id)
    assert repo.active_path(c) == [q, newer]


def test_active_path_survives_a_parent_cycle(repo: ChatRepository, db: Database) -> None:
    c = repo.create_conversation("c").id
    a = repo.add_message(_msg(c, text="a"))
    b = repo.add_message(_msg(c, a, "b"))
    with db.write() as conn:  # corrupt data: a's parent is b, b's parent is a
        conn.exec_driver_sql("UPDATE messages SET parent_id = ? WHERE id = ?", (b.id, a.id))
    assert [m.id for m in repo.active_path(c)] == [a.id, b.id]


def test_active_path_of_an_empty_or_missing_conversation(repo: ChatRepository) -> None:
    assert repo.active_path(repo.create_conversation("empty").id) == []
    assert repo.active_path("missing") == []


def test_messages_created_in_the_same_millisecond_keep_insertion_order(
    repo: ChatRepository,
) -> None:
    c = repo.create_conversation("c").id
    ids = []
    for text in ("one", "two", "three"):
        m = _msg(c, text=text)
        m.created_at = _BASE
        ids.append(repo.add_message(m).id)
    assert [m.id for m in repo.messages(c)] == ids


def test_interrupt_streaming_marks_only_streaming_rows(
    repo: ChatRepository, clock: StepClock
) -> None:
    c = repo.create_conversation("c").id
    q = repo.add_message(_msg(c, text="q"))
    crashed = repo.add_message(
        _msg(c, q, "half an ans", Role.ASSISTANT, status=MessageStatus.STREAMING)
    )
    waiting = repo.add_message(
        _msg(c, q, role=Role.ASSISTANT, status=MessageStatus.AWAITING_APPROVAL)
    )
    cancelled = repo.add_message(_msg(c, q, role=Role.ASSISTANT, status=MessageStatus.CANCELLED))

    assert repo.interrupt_streaming() == [crashed.id]

    after = repo.get_message(crashed.id)
    assert after is not None
    assert after.status is MessageStatus.INTERRUPTED
    assert after.finished_at == clock.now
    assert after.text == "half an ans"  # what streamed before the crash is kept
    statuses = {m.id: m.status for m in repo.messages(c)}
    assert statuses[q.id] is MessageStatus.COMPLETE
    assert statuses[waiting.id] is MessageStatus.AWAITING_APPROVAL
    assert statuses[cancelled.id] is MessageStatus.CANCELLED
    assert repo.interrupt_streaming() == []


def test_a_conversation_keeps_its_prompt_pins_and_workspace_file(repo: ChatRepository) -> None:
    conversation = repo.create_conversation("Chat")
    repo.set_system_prompt(conversation.id, "Answer in French.")
    repo.set_pinned_messages(conversation.id, ["m2", "m1", "m2"])
    repo.set_workspace_file(conversation.id, "/home/me/notes.md")
    stored = repo.get_conversation(conversation.id)
    assert stored is not None
    assert stored.system_prompt == "Answer in French."
    assert stored.pinned_message_ids == ("m2", "m1")
    assert stored.workspace_file == "/home/me/notes.md"
    repo.set_system_prompt(conversation.id, "")
    repo.set_pinned_messages(conversation.id, [])
    cleared = repo.get_conversation(conversation.id)
    assert cleared is not None
    assert cleared.system_prompt is None and cleared.pinned_message_ids == ()
    with pytest.raises(ConversationNotFound):
        repo.set_system_prompt("missing", "x")


def test_a_conversation_keeps_its_assistant_and_rolling_summary(repo: ChatRepository) -> None:
    from desktop.core.models import RollingSummary

    conversation = repo.create_conversation("Chat")
    repo.set_assistant(conversation.id, "translator")
    repo.set_summary(conversation.id, RollingSummary("They met in May.", ("m1", "m2")))
    stored = repo.get_conversation(conversation.id)
    assert stored is not None and stored.assistant_id == "translator"
    assert stored.summary == RollingSummary("They met in May.", ("m1", "m2"))
    repo.set_summary(conversation.id, None)
    cleared = repo.get_conversation(conversation.id)
    assert cleared is not None and cleared.summary is None


def test_usage_is_summed_per_model_over_every_version(repo: ChatRepository) -> None:
    from desktop.core.models import ModelRef, Usage

    big, mini = ModelRef("p", "big"), ModelRef("p", "mini")
    conversation = repo.create_conversation("Chat")
    question = repo.add_message(Message(new_id(), conversation.id, None, Role.USER))
    for model, usage in ((big, Usage(100, 10, 4)), (big, Usage(200, 20)), (mini, Usage(5, 1))):
        answer = Message(new_id(), conversation.id, question.id, Role.ASSISTANT)
        answer.model, answer.usage = model, usage
        repo.add_message(answer)
    totals = dict(repo.usage_by_model(conversation.id))
    assert totals == {big: Usage(300, 30, 4), mini: Usage(5, 1, 0)}
    assert repo.usage_by_model("missing") == []
