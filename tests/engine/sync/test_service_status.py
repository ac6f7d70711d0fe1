"""What Settings → Sync can show before a sync has run in this session: the devices
known from the last run, and (while paused) how many changes wait."""

from __future__ import annotations

from pathlib import Path

from desktop.core.events import GenerationFinished
from desktop.core.models import MessageStatus
from desktop.engine.sync.service import SyncService
from tests.engine.sync.sync_world import SyncWorld, folder_target
from tests.support.waiting import wait_for


def test_the_devices_of_the_last_run_are_listed_at_start(world: SyncWorld, tmp_path: Path) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    world.vault(*folder_target(tmp_path / "remote"))
    laptop.chat("Trip", "Where to?")
    world.settle()

    again = SyncService(
        desktop.paths,
        desktop.db,
        desktop.store,
        desktop.settings,
        desktop.events,
        device_name="desktop",
        clock=desktop.clock,
    )
    try:
        world.run(again.start())
        status = again.status
        assert status.joined
        assert [(d.name, d.this_device) for d in status.devices] == [
            ("desktop", True),
            ("laptop", False),
        ]
        assert status.devices[1].last_seen is not None
    finally:
        world.run(again.aclose())


def test_while_paused_an_answer_updates_the_count_of_waiting_changes(
    world: SyncWorld, tmp_path: Path
) -> None:
    laptop = world.add("laptop")
    world.vault(*folder_target(tmp_path / "remote"))
    laptop.chat("Trip", "Where to?")
    world.sync(laptop)
    assert laptop.sync.status.pending == 0
    laptop.sync.set_paused(True)
    cid = laptop.conversation_id("Trip")
    answer = laptop.reply(cid, laptop.last(cid), "Kyoto.")

    async def counted() -> int | None:
        await laptop.sync.start()
        laptop.events.emit(GenerationFinished(cid, answer, MessageStatus.COMPLETE))
        await wait_for(lambda: laptop.sync.status.pending != 0)
        return laptop.sync.status.pending

    assert world.run(counted()) == world.pending(laptop) > 0
