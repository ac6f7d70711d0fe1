"""Random histories on three devices converge: seeded sequences of what people do (new
chats, replies, regenerations, renames, pins, deletions of chats and subtrees,
memories added, edited and deleted) with syncs interleaved at random; after two full
rounds of syncing every device sees exactly the same (and at the end of each world a
further round is quiet).

Each world is three data folders syncing through a folder store (the fastest target:
the merge is what is tested here, the stores have their own tests). The worlds share
one vault, made once (its scrypt costs seconds) and copied; each runs CASES_PER_WORLD
cases one after the other on the same devices, so later cases start from the larger
data the earlier ones left. On failure the message names the seed and every operation
of the world so far, to replay it: `python -m pytest ... -k "seed_<n>"` (device ids
are random, so a tie between two devices' stamps may go the other way in a replay).
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import keyring
import pytest

from desktop.core.models import Role
from desktop.core.remote_target import FolderTarget
from tests.engine.sync.sync_world import Clock, SyncDevice, SyncWorld
from tests.support.memory_keyring import MemoryKeyring

# More worlds for a deeper search: PARLEY_SYNC_WORLDS=40 (about two minutes).
WORLDS: Final = int(os.environ.get("PARLEY_SYNC_WORLDS", "10"))
CASES_PER_WORLD: Final = 20  # 200 cases in all
OPERATIONS_PER_CASE: Final = (2, 6)
SYNC_CHANCE: Final = 0.25  # of each step being a sync of a random device
WORDS: Final = ("tea", "Kyoto", "bread", "cello", "rain", "maps", "京都", "naïve", "🙂", "snow")


class Template:
    def __init__(self, storage: Path, recovery_key: str) -> None:
        self.storage = storage
        self.recovery_key = recovery_key


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Template]:
    """A vault in a folder, made once for the module, copied for each world."""
    root = tmp_path_factory.mktemp("vault-template")
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        world = SyncWorld(root / "world")
        maker = world.add("maker")
        storage = root / "storage"
        storage.mkdir()
        key = world.create(maker, FolderTarget(str(storage)), None)
        world.close()
    finally:
        keyring.set_keyring(previous)
    yield Template(storage, key)


class History:
    """The operations of one world, as lines to print when it fails."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.lines: list[str] = []

    def note(self, line: str) -> None:
        self.lines.append(line)

    def __str__(self) -> str:
        return f"seed {self.seed}:\n" + "\n".join(f"  {line}" for line in self.lines)


class Person:
    """Random but replayable writes: every choice comes from `rng` and lists in a
    stable order (creation time, then text), never from random ids."""

    def __init__(self, rng: random.Random, history: History) -> None:
        self.rng = rng
        self.history = history
        self.counter = 0

    def _text(self) -> str:
        self.counter += 1
        return f"{self.rng.choice(WORDS)} {self.counter}"

    def _conversations(self, device: SyncDevice) -> list[str]:
        found = device.repo.list_conversations()
        return [c.id for c in sorted(found, key=lambda c: (c.created_at, c.title))]

    def _messages(self, device: SyncDevice) -> list[tuple[str, str]]:
        """(conversation id, message id) of every message, in a stable order."""
        return [
            (cid, m.id)
            for cid in self._conversations(device)
            for m in sorted(device.repo.messages(cid), key=lambda m: (m.created_at, m.text))
        ]

    def _title(self, device: SyncDevice, cid: str) -> str:
        conversation = device.repo.get_conversation(cid)
        return conversation.title if conversation is not None else cid

    def act(self, device: SyncDevice) -> None:
        """One random write on `device` (falling back to a new chat when the chosen
        kind has nothing to work on)."""
        kind = self.rng.choice(
            [
                "chat",
                "reply",
                "reply",
                "regenerate",
                "rename",
                "pin",
                "delete-chat",
                "delete-subtree",
                "remember",
                "edit-memory",
                "forget",
            ]
        )
        conversations = self._conversations(device)
        messages = self._messages(device)
        live = sorted(
            (m for m in device.memories.list() if not m.deleted),
            key=lambda m: (m.created_at, m.text),
        )
        where = device.name
        if kind == "reply" and messages:
            cid, parent = self.rng.choice(messages)
            text = self._text()
            device.reply(cid, parent, text)
            self.history.note(f"{where}: reply {text!r} in {self._title(device, cid)!r}")
        elif kind == "regenerate" and messages:
            _cid, original = self.rng.choice(messages)
            text = self._text()
            device.regenerate(original, text)
            self.history.note(f"{where}: regenerate beside {_text_of(device, original)!r}")
        elif kind == "rename" and conversations:
            cid = self.rng.choice(conversations)
            old, title = self._title(device, cid), f"Chat {self._text()}"
            device.rename(cid, title)
            self.history.note(f"{where}: rename {old!r} to {title!r}")
        elif kind == "pin" and conversations:
            cid = self.rng.choice(conversations)
            conversation = device.repo.get_conversation(cid)
            pinned = not (conversation is not None and conversation.pinned)
            device.pin(cid, pinned)
            self.history.note(f"{where}: pin {self._title(device, cid)!r} = {pinned}")
        elif kind == "delete-chat" and conversations:
            cid = self.rng.choice(conversations)
            self.history.note(f"{where}: delete chat {self._title(device, cid)!r}")
            device.delete_chat(cid)
        elif kind == "delete-subtree" and messages:
            cid, mid = self.rng.choice(messages)
            self.history.note(
                f"{where}: delete subtree of {_text_of(device, mid)!r}"
                f" in {self._title(device, cid)!r}"
            )
            device.delete_subtree(mid)
        elif kind == "remember":
            text = self._text()
            device.remember(text)
            self.history.note(f"{where}: remember {text!r}")
        elif kind == "edit-memory" and live:
            memory = self.rng.choice(live)
            text = self._text()
            device.edit_memory(memory.id, text)
            self.history.note(f"{where}: edit memory {memory.text!r} to {text!r}")
        elif kind == "forget" and live:
            memory = self.rng.choice(live)
            device.forget(memory.id)
            self.history.note(f"{where}: forget {memory.text!r}")
        else:
            title = f"Chat {self._text()}"
            first = self._text()
            cid = device.chat(title, first)
            if self.rng.random() < 0.7:
                device.reply(cid, device.last(cid), self._text(), Role.ASSISTANT)
            self.history.note(f"{where}: new chat {title!r}")


def _text_of(device: SyncDevice, message_id: str) -> str:
    message = device.repo.get_message(message_id)
    return message.text if message is not None else message_id


def _world(root: Path, template: Template) -> SyncWorld:
    storage = root / "storage"
    shutil.copytree(template.storage, storage)
    world = SyncWorld(root / "devices", Clock())
    world.target = FolderTarget(str(storage))
    world.recovery_key = template.recovery_key
    for name in ("a", "b", "c"):
        world.join(world.add(name))
    return world


@pytest.mark.parametrize("seed", range(WORLDS), ids=[f"seed_{n}" for n in range(WORLDS)])
def test_random_histories_on_three_devices_converge(
    seed: int, template: Template, tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    rng = random.Random(seed)
    history = History(seed)
    person = Person(rng, history)
    world = _world(tmp_path, template)
    try:
        for case in range(CASES_PER_WORLD):
            history.note(f"-- case {case}")
            for _ in range(rng.randint(*OPERATIONS_PER_CASE)):
                device = rng.choice(world.devices)
                if rng.random() < SYNC_CHANCE:
                    history.note(f"{device.name}: sync")
                    world.sync(device)
                else:
                    person.act(device)
            order = rng.sample(world.devices, 3)
            history.note("settle " + "".join(d.name for d in order))
            world.settle(order=order)
            world.assert_converged(str(history))
        for device, report in zip(world.devices, world.sync_all(), strict=True):
            assert (report.received, report.sent) == (0, 0), (
                f"{device.name} not quiet: {report}\n{history}"
            )
    except Exception as error:
        if str(history) not in str(error):
            raise AssertionError(f"{type(error).__name__}: {error}\n{history}") from error
        raise
    finally:
        world.close()
