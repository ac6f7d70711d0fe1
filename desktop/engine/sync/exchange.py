"""One sync: read the other devices' new segments, then send this device's changes.

Reading comes first, so a change made here is compared with everything already
received (and a register received meanwhile is not mistaken for a local change). Each
device's log is checked link by link (`codec.open_segment`); a device whose log fails
a check is reported and skipped from there on, while the others still apply. A network
or storage failure stops the whole sync: nothing half-done is recorded as done, and
the next sync starts again from what was recorded.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from desktop.core.i18n import tr
from desktop.engine.remote.base import RemoteStore
from desktop.engine.remote.errors import RemoteError, RemoteProblem
from desktop.engine.sync import codec
from desktop.engine.sync.codec import ChainError, Head, Vault
from desktop.engine.sync.errors import SyncError, SyncProblem, tampered, unreadable
from desktop.storage import sync_records
from desktop.storage.database import Database
from desktop.storage.sync_apply import Applied, apply_records
from desktop.storage.sync_check import well_formed
from desktop.storage.sync_collect import LocalChanges, collect, mark_sent, stamp_changes
from desktop.storage.sync_state import (
    DeviceRow,
    SyncState,
    get_meta,
    mark_removed,
    save_device,
    set_meta,
)

log = logging.getLogger(__name__)

OWN_COUNT: Final = "segments"
OWN_HASH: Final = "last_hash"
Progress = Callable[[str, int, int], None]
"""(stage: "receiving" or "sending", done, total): segments."""


@dataclass(slots=True)
class PullOutcome:
    applied: int = 0
    waiting: int = 0
    revived: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # sentences, one per refused device
    devices: list[Head] = field(default_factory=list)
    removed_self: bool = False


async def pull(
    store: RemoteStore,
    vault: Vault,
    state: SyncState,
    db: Database,
    me: str,
    now_ms: Callable[[], int],
    progress: Progress,
) -> PullOutcome:
    outcome = PullOutcome()
    folders = [item.name.rstrip("/") for item in await store.list(codec.DEVICES) if item.is_folder]
    known = {row.device: row for row in await asyncio.to_thread(state.devices)}
    # A device read here before whose folder is gone is checked like one whose head is.
    read_before = {device for device, row in known.items() if row.applied}
    device_ids = sorted(
        {name for name in folders if codec.is_device_id(name)} | (read_before - {me})
    )
    heads: list[tuple[DeviceRow, Head]] = []
    for device in device_ids:
        row = known.get(device) or DeviceRow(device, "", 0, "", None, None)
        try:
            data = await store.get_bytes(codec.head_name(device))
        except RemoteError as error:
            if error.problem is not RemoteProblem.NOT_FOUND:
                raise
            if row.applied:  # read here before: a head that goes is taken, not unwritten
                detail = tr("its newest changes are missing from the storage")
                outcome.refused.append(str(tampered(row.name or device, detail)))
            continue  # else a device that has not finished its first write yet
        try:
            head = codec.open_head(vault, data, device)
        except ChainError as error:
            outcome.refused.append(str(tampered(row.name or device, str(error))))
            continue
        outcome.devices.append(head)
        if device != me:
            heads.append((row, head))
    total = sum(max(0, head.n - row.applied) for row, head in heads)
    progress("receiving", 0, total)
    # Every new segment is read and checked before any is applied: a device removed
    # in one log must be cut off in another wherever the two are read in order.
    fetched: list[tuple[DeviceRow, Head, list[_Segment]]] = []
    removals: dict[str, int] = {}
    for row, head in heads:
        segments = await _fetch_device(store, vault, row, head, outcome)
        fetched.append((row, head, segments))
        for segment in segments:
            for record in segment.records:
                if record.get("t") == sync_records.REMOVED and well_formed(record):
                    device, after = record["device"], record["after"]
                    removals[device] = min(after, removals.get(device, after))
    done = 0
    for row, head, segments in fetched:
        limit = removals.get(row.device, row.removed_after)
        if row.removed_after is not None and limit is not None:
            limit = min(limit, row.removed_after)
        applied, previous = row.applied, row.hash
        passed_over = 0
        for segment in segments:
            if limit is not None and segment.n > limit:
                break
            result: Applied = await asyncio.to_thread(
                apply_records, db, state, segment.records, now_ms()
            )
            outcome.applied += result.applied
            outcome.waiting = result.waiting
            outcome.revived.extend(result.revived)
            passed_over += result.passed_over
            applied, previous = segment.n, segment.digest
            updated = DeviceRow(
                row.device, head.name, applied, previous, head.at, row.removed_after
            )
            await asyncio.to_thread(_save_device, state, updated, result.removed_devices)
            done += 1
            progress("receiving", done, total)
        if passed_over:
            outcome.refused.append(str(unreadable(head.name or row.device, passed_over)))
        if applied == row.applied:  # nothing new: still note its name and last activity
            updated = DeviceRow(
                row.device, head.name, applied, previous, head.at, row.removed_after
            )
            await asyncio.to_thread(_save_device, state, updated, {})
    rows = await asyncio.to_thread(state.devices)
    outcome.removed_self = any(row.device == me and row.removed_after is not None for row in rows)
    return outcome


@dataclass(frozen=True, slots=True)
class _Segment:
    n: int
    digest: str
    records: list[dict[str, Any]]


async def _fetch_device(
    store: RemoteStore, vault: Vault, row: DeviceRow, head: Head, outcome: PullOutcome
) -> list[_Segment]:
    """The device's segments after those applied here, each checked against the one
    before it; a failed check ends the list there and is reported."""
    segments: list[_Segment] = []
    try:
        if head.n < row.applied or (
            head.n == row.applied and row.applied and head.hash != row.hash
        ):
            raise ChainError(tr("the storage served an older or altered copy of its changes"))
        last = head.n if row.removed_after is None else min(head.n, row.removed_after)
        previous = row.hash
        for n in range(row.applied + 1, last + 1):
            try:
                data = await store.get_bytes(codec.segment_name(row.device, n))
            except RemoteError as error:
                if error.problem is RemoteProblem.NOT_FOUND:
                    raise ChainError(tr("segment {n} is missing").format(n=n)) from error
                raise
            digest = codec.content_hash(data)
            if n == head.n and digest != head.hash:
                raise ChainError(tr("segment {n} is not the one its head names").format(n=n))
            records = await asyncio.to_thread(
                codec.open_segment, vault, data, row.device, n, previous
            )
            segments.append(_Segment(n, digest, records))
            previous = digest
    except ChainError as error:
        outcome.refused.append(str(tampered(head.name or row.device, str(error))))
    return segments


def _save_device(state: SyncState, row: DeviceRow, removed: dict[str, int]) -> None:
    with state.write() as conn:
        save_device(conn, row)
        for device, after in removed.items():
            mark_removed(conn, device, after)


async def push(
    store: RemoteStore,
    vault: Vault,
    state: SyncState,
    changes: LocalChanges,
    me: str,
    name: str,
    now_ms: Callable[[], int],
    progress: Progress,
    extra: list[dict[str, object]] | None = None,
) -> int:
    """Send `changes` (and `extra` records) as new segments; returns how many records."""
    records = list(changes.records) + list(extra or [])
    if not records:
        await asyncio.to_thread(mark_sent, state, changes.marks)
        return 0
    count, previous = await _own_position(store, vault, state, me)
    batches = [
        records[start : start + codec.RECORDS_PER_SEGMENT]
        for start in range(0, len(records), codec.RECORDS_PER_SEGMENT)
    ]
    progress("sending", 0, len(batches))
    for index, batch in enumerate(batches, start=1):
        n = count + 1
        at = now_ms()
        data = await asyncio.to_thread(codec.seal_segment, vault, me, n, previous, name, at, batch)
        digest = codec.content_hash(data)
        # A segment left by a write that stopped before its head is nobody's yet (no
        # head names it), so it is written over.
        await store.put_bytes(codec.segment_name(me, n), data)
        await store.put_bytes(
            codec.head_name(me), codec.seal_head(vault, Head(me, n, digest, name, at))
        )
        count, previous = n, digest
        await asyncio.to_thread(_save_position, state, count, previous)
        progress("sending", index, len(batches))
    await asyncio.to_thread(mark_sent, state, changes.marks)
    return len(records)


async def _own_position(
    store: RemoteStore, vault: Vault, state: SyncState, me: str
) -> tuple[int, str]:
    """How many segments this device has written, and the last one's hash. The storage
    wins when it is ahead (`sync.db` lost a write to a crash): never rewind a log."""
    count = int(await asyncio.to_thread(state.get, OWN_COUNT, "0"))
    previous = await asyncio.to_thread(state.get, OWN_HASH, "")
    try:
        head = codec.open_head(vault, await store.get_bytes(codec.head_name(me)), me)
    except RemoteError as error:
        if error.problem is RemoteProblem.NOT_FOUND:
            return count, previous
        raise
    except ChainError as error:
        raise SyncError(
            SyncProblem.TAMPERED,
            tr("This computer's own changes at the storage were altered ({detail}).").format(
                detail=error
            ),
        ) from error
    if head.n > count:
        await asyncio.to_thread(_save_position, state, head.n, head.hash)
        return head.n, head.hash
    return count, previous


def _save_position(state: SyncState, count: int, digest: str) -> None:
    with state.write() as conn:
        set_meta(conn, OWN_COUNT, str(count))
        set_meta(conn, OWN_HASH, digest)


def local_changes(db: Database, state: SyncState, me: str, now_ms: int) -> LocalChanges:
    return collect(db, state, me, now_ms)


def stamp_local(db: Database, state: SyncState, me: str, now_ms: int) -> int:
    return stamp_changes(db, state, me, now_ms)


def own_count(state: SyncState) -> int:
    with state.read() as conn:
        return int(get_meta(conn, OWN_COUNT, "0"))
