"""`manifest.json`: the first member of a backup, saying what it holds.

It comes first so a backup can be described (when, from which device, how many
conversations) after decrypting its first few kilobytes, and so the opener knows the
sizes to expect before it writes anything. Read strictly: a field of the wrong type
means the archive was not written by Parley, whatever its encryption says.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from desktop.core.i18n import tr
from desktop.engine.backup.errors import BackupError, badly_laid_out, format_too_new, schema_too_new
from desktop.storage.migrations import SCHEMA_VERSION

FORMAT: Final = 1
MAX_MANIFEST_BYTES: Final = 64 * 1024


@dataclass(frozen=True, slots=True)
class BackupCounts:
    conversations: int
    messages: int
    memories: int  # those not deleted
    attachments: int  # files under attachments/ (stored files and their extracted texts)
    bytes: int  # the sizes of every member after the manifest, added up


@dataclass(frozen=True, slots=True)
class BackupManifest:
    format: int
    created_at: datetime  # UTC
    device: str
    app_version: str
    schema_version: int  # of the database inside
    counts: BackupCounts


def manifest_bytes(manifest: BackupManifest) -> bytes:
    data = {
        "format": manifest.format,
        "created_at": manifest.created_at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "device": manifest.device,
        "app_version": manifest.app_version,
        "schema_version": manifest.schema_version,
        "counts": {
            "conversations": manifest.counts.conversations,
            "messages": manifest.counts.messages,
            "memories": manifest.counts.memories,
            "attachments": manifest.counts.attachments,
            "bytes": manifest.counts.bytes,
        },
    }
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def parse_manifest(data: bytes, known_schema: int = SCHEMA_VERSION) -> BackupManifest:
    """The manifest in `data`; raises `BackupError` (TOO_NEW for a newer format or
    schema, UNREADABLE for anything that is not a manifest Parley wrote)."""
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise badly_laid_out(tr("its manifest is not JSON")) from exc
    if not isinstance(raw, dict):
        raise badly_laid_out(tr("its manifest is not a JSON object"))
    found = _int(raw, "format")
    if found > FORMAT:
        raise format_too_new(found)
    schema = _int(raw, "schema_version")
    if schema > known_schema:
        raise schema_too_new(schema, known_schema)
    counts = raw.get("counts")
    if not isinstance(counts, dict):
        raise _bad_field("counts")
    return BackupManifest(
        format=found,
        created_at=_time(raw, "created_at"),
        device=_str(raw, "device"),
        app_version=_str(raw, "app_version"),
        schema_version=schema,
        counts=BackupCounts(
            conversations=_int(counts, "conversations"),
            messages=_int(counts, "messages"),
            memories=_int(counts, "memories"),
            attachments=_int(counts, "attachments"),
            bytes=_int(counts, "bytes"),
        ),
    )


def _bad_field(name: str) -> BackupError:
    return badly_laid_out(tr("its manifest has no valid {field}").format(field=name))


def _int(raw: dict[str, Any], name: str) -> int:
    value = raw.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _bad_field(name)
    return value


def _str(raw: dict[str, Any], name: str) -> str:
    value = raw.get(name)
    if not isinstance(value, str):
        raise _bad_field(name)
    return value


def _time(raw: dict[str, Any], name: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(_str(raw, name).replace("Z", "+00:00"))
    except ValueError as exc:
        raise _bad_field(name) from exc
    if parsed.tzinfo is None:
        raise _bad_field(name)
    return parsed.astimezone(UTC)
