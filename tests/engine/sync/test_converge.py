"""Two and three data folders syncing through one storage converge: whatever each did
meanwhile and whatever order they sync in, every device ends up seeing the same chats,
messages, memories and files, and nothing a person wrote is lost to a concurrent edit.
Mostly through WsgiDAV (with a password from the keyring); the core case also through
moto's S3 and a plain folder."""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import pytest

from desktop.core.models import Role
from desktop.core.remote_target import RemoteTarget
from desktop.engine.remote.errors import RemoteError, RemoteProblem
from tests.engine.remote.conftest import DavServer
from tests.engine.sync.sync_world import (
    SyncDevice,
    SyncWorld,
    TcpRelay,
    dav_target,
    folder_target,
    s3_target,
)

PHOTO = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 300


@pytest.fixture(params=["webdav", "s3", "folder"])
def any_target(
    request: pytest.FixtureRequest,
    dav_users: DavServer,
    s3_endpoint: str,
    unique: str,
    tmp_path: Path,
) -> tuple[RemoteTarget, str | None]:
    if request.param == "webdav":
        return dav_target(dav_users, unique)
    if request.param == "s3":
        return s3_target(s3_endpoint, unique)
    return folder_target(tmp_path / "storage")


@pytest.fixture
def dav(dav_users: DavServer, unique: str) -> tuple[RemoteTarget, str | None]:
    return dav_target(dav_users, unique)


def parent_of(device: SyncDevice, message_id: str) -> str | None:
    message = device.repo.get_message(message_id)
    assert message is not None, f"{message_id} is missing on {device.name}"
    return message.parent_id


def assert_quiet(world: SyncWorld) -> None:
    """Syncing again receives and sends nothing and changes nothing anywhere."""
    before = world.states()
    for device in world.devices:
        assert world.pending(device) == 0, device.name
    for device, report in zip(world.devices, world.sync_all(), strict=True):
        assert (report.received, report.sent) == (0, 0), (device.name, report)
    assert world.states() == before


# --- messages, regenerations, renames, pins --------------------------------------------


def test_concurrent_replies_regenerations_renames_and_a_pin_converge(
    world: SyncWorld, any_target: tuple[RemoteTarget, str | None]
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    world.vault(*any_target)
    trip = laptop.chat("Trip", "Where to?", "Kyoto.")
    question, answer = (m.id for m in laptop.repo.messages(trip))
    world.settle()
    assert desktop.texts() == {"Trip": ["Kyoto.", "Where to?"]}

    # Meanwhile, on both: a new question under the answer, another answer beside it,
    # a rename, and a pin on the laptop only.
    on_laptop = laptop.reply(trip, answer, "And in spring?")
    laptop_answer = laptop.regenerate(answer, "Kyoto, or Nara.")
    laptop.rename(trip, "Japan trip")
    laptop.pin(trip)
    on_desktop = desktop.reply(trip, answer, "How long?")
    desktop_answer = desktop.regenerate(answer, "Osaka.")
    desktop.rename(trip, "Trip to Japan")
    assert world.pending(laptop) > 0 and world.pending(desktop) > 0

    world.settle(order=[laptop, desktop])
    state = world.assert_converged()
    # Counting the pending changes stamped both renames in the same millisecond: the
    # device id decides, the same way everywhere (assert_converged).
    assert laptop.titles() in (["Japan trip"], ["Trip to Japan"])
    for device in (laptop, desktop):
        conversation = device.repo.get_conversation(trip)
        assert conversation is not None and conversation.pinned, device.name
        assert parent_of(device, on_laptop) == answer
        assert parent_of(device, on_desktop) == answer
        siblings = {m.id for m in device.repo.siblings(answer)}
        assert siblings == {answer, laptop_answer, desktop_answer}, device.name
        assert parent_of(device, laptop_answer) == question
    assert len(state["messages"]) == 6
    assert_quiet(world)


def test_the_later_rename_wins_everywhere_whichever_device_syncs_first(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None]
) -> None:
    a, b, c = world.add("a"), world.add("b"), world.add("c")
    world.vault(*dav)
    cid = a.chat("Notes", "hi", "hello")
    world.settle()
    a.rename(cid, "From A")
    world.sync(a)
    b.rename(cid, "From B")  # made after A's was sent: the later stamp
    world.settle(order=[c, b, a])
    world.assert_converged()
    assert {d.name: d.titles() for d in world.devices} == {
        "a": ["From B"],
        "b": ["From B"],
        "c": ["From B"],
    }
    assert_quiet(world)


ORDERS = [list(p) for p in itertools.permutations(range(3))]
SOME_ORDERS = [[0, 1, 2], [1, 2, 0], [2, 1, 0]]


@pytest.mark.parametrize(
    "order", SOME_ORDERS, ids=["".join("abc"[i] for i in o) for o in SOME_ORDERS]
)
def test_three_devices_converge_in_several_orders(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None], order: list[int]
) -> None:
    devices = [world.add("a"), world.add("b"), world.add("c")]
    a, b, c = devices
    world.vault(*dav)
    cid = a.chat("Shared", "q1", "a1")
    world.settle()
    answer = a.last(cid)
    replies = {
        a.reply(cid, answer, "from a"),
        b.reply(cid, answer, "from b"),
        c.regenerate(answer, "a1 again, from c"),
    }
    b.pin(cid)
    c.rename(cid, "Shared by three")
    a.remember("Likes tea")
    world.sync_all([devices[i] for i in order])
    world.settle(order=[devices[i] for i in order])
    state = world.assert_converged(f"order {order}")
    present = {row[0] for row in state["messages"]}
    assert replies <= present
    assert a.titles() == ["Shared by three"]
    assert a.live_memories() == ["Likes tea"]
    assert_quiet(world)


# --- deletions --------------------------------------------------------------------------


@pytest.mark.parametrize("order", ORDERS, ids=["".join("abc"[i] for i in o) for o in ORDERS])
def test_a_reply_under_a_deleted_subtree_survives_on_the_nearest_ancestor(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None], order: list[int]
) -> None:
    devices = [world.add("a"), world.add("b"), world.add("c")]
    a, b, _c = devices
    world.vault(*dav)
    cid = a.chat("Long", "q1", "a1", "q2", "a2")
    q1, a1, q2, a2 = (m.id for m in a.repo.messages(cid))
    world.settle()

    a.delete_subtree(q2)  # q2 and a2
    reply = b.reply(cid, a2, "q3, under a2")
    answer = b.reply(cid, reply, "a3")

    world.sync_all([devices[i] for i in order])
    world.settle(order=[devices[i] for i in order])
    world.assert_converged(f"order {order}")
    for device in devices:
        ids = {m.id for m in device.repo.messages(cid)}
        assert ids == {q1, a1, reply, answer}, device.name
        assert parent_of(device, reply) == a1, device.name
        assert parent_of(device, answer) == reply, device.name
    assert_quiet(world)


@pytest.mark.parametrize("deleter_first", [True, False], ids=["delete-sent-first", "reply-first"])
def test_a_deleted_conversation_comes_back_with_a_reply_from_elsewhere(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None], deleter_first: bool
) -> None:
    a, b = world.add("a"), world.add("b")
    world.vault(*dav)
    cid = a.chat("Recipes", "Bread?", "Flour, water, salt.")
    world.settle()

    a.delete_chat(cid)
    reply = b.reply(cid, b.last(cid), "And yeast?")
    order = [a, b, a, b] if deleter_first else [b, a, b, a]
    revived = [world.sync(device).revived for device in order]
    world.assert_converged()
    # The deleting device is told, once, which chat came back.
    told = [names for device, names in zip(order, revived, strict=True) if device is a]
    assert sorted(told) == [(), ("Recipes",)]
    for device in (a, b):
        assert device.titles() == ["Recipes"], device.name
        # The deletion named the two messages a had: only the reply is left, as a root.
        assert [m.id for m in device.repo.messages(cid)] == [reply], device.name
        assert parent_of(device, reply) is None
    assert_quiet(world)


def test_the_deleting_device_is_told_which_chat_came_back(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None]
) -> None:
    a, b = world.add("a"), world.add("b")
    world.vault(*dav)
    cid = a.chat("Recipes", "Bread?", "Flour, water, salt.")
    world.settle()
    a.delete_chat(cid)
    world.sync(a)  # the deletion is stored
    reply = b.reply(cid, b.last(cid), "And yeast?")  # b has not received it yet
    world.sync(b)  # receives the deletion, sends its reply
    report = world.sync(a)
    assert report.revived == ("Recipes",)
    assert a.sync.status.revived == ("Recipes",)
    assert a.titles() == ["Recipes"]
    assert [m.id for m in a.repo.messages(cid)] == [reply]
    world.settle()
    world.assert_converged()
    assert_quiet(world)


def test_a_conversation_deleted_everywhere_stays_deleted(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None]
) -> None:
    a, b, c = world.add("a"), world.add("b"), world.add("c")
    world.vault(*dav)
    gone = a.chat("Old", "x", "y")
    kept = b.chat("Kept", "p", "q")
    world.settle()
    c.delete_chat(gone)
    b.delete_subtree(b.last(kept))
    world.settle(order=[c, b, a])
    state = world.assert_converged()
    assert a.titles() == ["Kept"]
    assert len(state["messages"]) == 1
    assert_quiet(world)


# --- memories ---------------------------------------------------------------------------


def test_memories_added_edited_and_deleted_converge(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None]
) -> None:
    a, b, c = world.add("a"), world.add("b"), world.add("c")
    world.vault(*dav)
    tea = a.remember("Likes tea")
    cats = a.remember("Has two cats")
    city = b.remember("Lives in Lyon")
    world.settle()
    assert c.live_memories() == ["Has two cats", "Likes tea", "Lives in Lyon"]

    b.edit_memory(tea, "Likes green tea")
    a.forget(cats)
    c.remember("Plays the cello", scope="assistant:music")
    c.edit_memory(city, "Lives in Lyon, France")
    a.edit_memory(city, "Lives in Paris")  # later than c's edit: it wins
    world.settle(order=[c, b, a])
    world.assert_converged()
    for device in world.devices:
        assert device.live_memories() == [
            "Likes green tea",
            "Lives in Paris",
            "Plays the cello",
        ], device.name
        deleted = device.memories.get(cats)
        assert deleted is not None and deleted.deleted, device.name
    assert_quiet(world)


# --- attachments -------------------------------------------------------------------------


def test_an_attachment_sent_on_one_device_is_fetched_on_another(
    world: SyncWorld, any_target: tuple[RemoteTarget, str | None], tmp_path: Path
) -> None:
    a, b = world.add("a"), world.add("b")
    world.vault(*any_target)
    cid = a.chat("Photos", "Look", "Nice")
    message, photo = a.attach(cid, a.last(cid), PHOTO)
    world.settle()
    state = world.assert_converged()
    assert [row[0] for row in state["attachments"]] == [photo.id]
    received = b.repo.get_message(message)
    assert received is not None and received.context.attachment_ids == (photo.id,)
    row = b.store.get(photo.id)
    assert row is not None and row.sha256 == photo.sha256 == hashlib.sha256(PHOTO).hexdigest()

    destination = tmp_path / "fetched.png"
    assert world.run(b.sync.fetch_attachment(photo.sha256, destination)) is True
    assert destination.read_bytes() == PHOTO
    missing = "0" * 64
    assert world.run(b.sync.fetch_attachment(missing, tmp_path / "none")) is False
    assert_quiet(world)


def test_a_streaming_answer_is_sent_once_it_is_finished(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None]
) -> None:
    from desktop.core.models import MessageStatus

    a, b = world.add("a"), world.add("b")
    world.vault(*dav)
    cid = a.chat("Live", "Tell me a story")
    streaming = a.reply(cid, a.last(cid), "Once", Role.ASSISTANT, status=MessageStatus.STREAMING)
    world.settle()
    assert streaming not in {m.id for m in b.repo.messages(cid)}
    a.finish(streaming, "Once upon a time.")
    world.settle()
    world.assert_converged()
    assert b.texts() == {"Live": ["Once upon a time.", "Tell me a story"]}


# --- offline -----------------------------------------------------------------------------


def test_offline_sync_fails_in_words_and_the_change_goes_next_time(
    world: SyncWorld, dav_users: DavServer, unique: str
) -> None:
    a, b = world.add("a"), world.add("b")
    relay = TcpRelay(world, dav_users.url).start()
    target, secret = dav_target(DavServer(relay.url, dav_users.root), unique)
    world.vault(target, secret)
    cid = a.chat("Plans", "Sunday?", "Hiking.")
    world.settle()

    a.reply(cid, a.last(cid), "Where?")
    a.remember("Owns boots")
    waiting = world.pending(a)
    assert waiting >= 2  # the reply, the memory (and the chat's activity time)
    relay.stop()
    error = world.fails(a.sync.sync_now())
    assert isinstance(error, RemoteError) and error.problem is RemoteProblem.UNREACHABLE
    message = str(error)
    assert message[0].isupper() and "Traceback" not in message and "httpx" not in message
    assert a.sync.status.last_error == message and not a.sync.status.running
    assert world.pending(a) == waiting  # nothing was lost or marked sent

    relay.start()
    report = world.sync(a)
    assert report.sent == waiting
    assert world.pending(a) == 0 and a.sync.status.last_error == ""
    world.settle()
    world.assert_converged()
    assert b.live_memories() == ["Owns boots"]
    assert "Where?" in b.texts()["Plans"]
    assert_quiet(world)


def test_the_later_of_two_offline_renames_wins_even_when_it_is_sent_first(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None]
) -> None:
    """Both rename while apart; the desktop's rename is the later one but reaches the
    storage first. The person expects the later rename everywhere."""
    laptop, desktop = world.add("laptop"), world.add("desktop")
    world.vault(*dav)
    cid = laptop.chat("Trip", "Where to?", "Kyoto.")
    world.settle()
    laptop.rename(cid, "Earlier title")
    laptop.clock.advance(minutes=30)
    desktop.rename(cid, "Later title")
    world.sync(desktop)
    laptop.clock.advance(minutes=30)
    world.sync(laptop)  # an hour after its rename, half an hour after the desktop's
    world.settle()
    world.assert_converged()
    assert laptop.titles() == desktop.titles() == ["Later title"]


def test_the_later_of_two_offline_memory_edits_wins_even_when_it_is_sent_first(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None]
) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    world.vault(*dav)
    memory = laptop.remember("Lives in Lyon")
    world.settle()
    laptop.edit_memory(memory, "Lives in Paris")
    laptop.clock.advance(minutes=30)
    desktop.edit_memory(memory, "Lives in Berlin")
    world.sync(desktop)
    laptop.clock.advance(minutes=30)
    world.sync(laptop)
    world.settle()
    world.assert_converged()
    assert laptop.live_memories() == desktop.live_memories() == ["Lives in Berlin"]


def test_a_chat_brought_back_then_emptied_and_deleted_again_is_deleted_everywhere(
    world: SyncWorld, dav: tuple[RemoteTarget, str | None]
) -> None:
    """Found by the property test (seed 8): the second deletion of a chat that a reply
    brought back, once its messages are gone, must still reach the other devices."""
    a, b, c = world.add("a"), world.add("b"), world.add("c")
    world.vault(*dav)
    cid = c.chat("Plans", "Sunday?")
    world.settle()
    b.delete_chat(cid)
    reply = c.reply(cid, c.last(cid), "Hiking?")
    world.settle(order=[b, c, a])
    assert a.titles() == b.titles() == c.titles() == ["Plans"]  # brought back
    b.delete_subtree(reply)  # the chat is empty now
    world.settle()
    world.assert_converged()
    a.delete_chat(cid)
    world.settle(order=[a, b, c])
    world.assert_converged()
    assert a.titles() == b.titles() == c.titles() == []
