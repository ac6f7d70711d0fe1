"""A vault member's log may hold records no sound Parley writes: malformed, with a
file "hash" that is a path, with stamps no clock gives. Each is passed over, said in
words, and sync goes on, here and at the next sync."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pyrage import x25519

from desktop.core.remote_target import FolderTarget
from desktop.engine.sync import codec
from desktop.storage import sync_records as rec
from desktop.storage.sync_check import well_formed
from tests.engine.sync.sync_world import SyncWorld, folder_target


def _rogue_log(world: SyncWorld, target: FolderTarget, records: list[dict[str, Any]]) -> str:
    """A device folder holding one segment of `records` and its head, sealed with the
    vault's key as a member would; returns the device's id."""
    vault = codec.Vault("rogue", x25519.Identity.from_str(world.recovery_key))
    device = codec.new_device_id()
    sealed = codec.seal_segment(vault, device, 1, "", "rogue", 1_796_544_000_000, records)
    head = codec.Head(device, 1, codec.content_hash(sealed), "rogue", 1_796_544_000_000)
    root = Path(target.path)
    (root / codec.segment_name(device, 1)).parent.mkdir(parents=True)
    (root / codec.segment_name(device, 1)).write_bytes(sealed)
    (root / codec.head_name(device)).write_bytes(codec.seal_head(vault, head))
    return device


def _message(cid: str, mid: str, **row: Any) -> dict[str, Any]:
    data: dict[str, Any] = dict.fromkeys(rec.MESSAGE_COLUMNS)
    data.update(role="user", parts=json.dumps([{"type": "text", "text": mid}]))
    data.update(status="complete", created_at=1_796_544_000_000, context="{}", **row)
    return {
        "t": rec.MESSAGE,
        "id": mid,
        "conversation_id": cid,
        "parent_id": None,
        "row": data,
        "stamp": 117_738_307_584_000_000,
        "device": "rogue",
    }


def test_bad_records_are_passed_over_and_sync_goes_on(world: SyncWorld, tmp_path: Path) -> None:
    laptop = world.add("laptop")
    target, secret = folder_target(tmp_path / "remote")
    world.vault(target, secret)
    cid = laptop.chat("Plans", "Sunday?")
    world.sync(laptop)
    outside = tmp_path / "secret.txt"
    outside.write_text("not for the vault")
    good = _message(cid, "good")
    bad = [
        {"t": rec.MESSAGE, "id": "no-row", "conversation_id": cid, "stamp": 1, "device": "r"},
        _message(cid, "bad-role", role="wizard"),
        {**_message(cid, "far-future"), "stamp": 2**63 - 1},
        {"t": rec.CONVERSATION, "id": cid, "created_at": 1, "updated_at": 5, "fields": []},
        {"t": rec.REMOVED, "device": "x", "after": "zz"},
        {"t": rec.DELETE, "kind": "message", "conversation_id": cid, "messages": ["x"]},
        {
            "t": rec.ATTACHMENT,
            "row": {
                "id": "../../../evil",
                "sha256": str(outside),
                "name": "notes",
                "mime": "text/plain",
                "size": 3,
                "kind": "document",
                "created_at": 1,
                "truncated": False,
            },
        },
    ]
    assert [well_formed(record) for record in bad] == [False] * len(bad)
    _rogue_log(world, target, [*bad, good])

    report = world.sync(laptop)
    assert report.received == 1
    assert any(
        line.startswith(str(len(bad))) and "from rogue could not be read" in line
        for line in report.refused
    )
    assert "good" in {m.id for m in laptop.repo.messages(cid)}
    assert laptop.store.get("../../../evil") is None
    assert not (tmp_path / "evil").exists()
    # Nothing is left to trip over: the next syncs run, and this device still sends.
    laptop.reply(cid, "good", "Yes.")
    again = world.sync(laptop)
    assert again.refused == () and again.sent > 0


def test_a_head_with_a_time_no_calendar_holds_is_refused(world: SyncWorld, tmp_path: Path) -> None:
    laptop = world.add("laptop")
    target, secret = folder_target(tmp_path / "remote")
    world.vault(target, secret)
    device = _rogue_log(world, target, [])
    vault = codec.Vault("rogue", x25519.Identity.from_str(world.recovery_key))
    head = codec.Head(device, 1, "0" * 64, "rogue", 10**15)
    (Path(target.path) / codec.head_name(device)).write_bytes(codec.seal_head(vault, head))

    report = world.sync(laptop)
    assert any("head cannot be read" in line for line in report.refused)
    assert laptop.sync.status.last_error == ""


def test_a_device_whose_head_disappears_is_reported(world: SyncWorld, tmp_path: Path) -> None:
    laptop, desktop = world.add("laptop"), world.add("desktop")
    target, secret = folder_target(tmp_path / "remote")
    world.vault(target, secret)
    desktop.chat("From the desktop", "Hello")
    world.settle()
    desktop_id = world.run(desktop.sync.device_id())
    (Path(target.path) / codec.head_name(desktop_id)).unlink()

    report = world.sync(laptop)
    assert any("missing from the storage" in line for line in report.refused)
