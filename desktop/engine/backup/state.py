"""What this device remembers about its backups: `backup-state.json` in the data folder.

Kept out of settings.json on purpose: it changes after every backup, and a change of
settings rebuilds clients and refreshes windows; this is only a status line. A missing
or damaged file reads as "never backed up", which at worst makes a daily backup run
early.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from desktop.storage.settings_file import write_text_atomically

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BackupState:
    last_success: datetime | None = None  # when the last backup was completely written
    last_name: str = ""  # its name at the target
    last_attempt: datetime | None = None
    last_error: str = ""  # the last attempt's error in words; "" when it succeeded


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def read_state(path: Path) -> BackupState:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return BackupState()
    except (OSError, ValueError) as exc:
        log.warning("The backup status in %s could not be read (%s); starting afresh", path, exc)
        return BackupState()
    if not isinstance(data, dict):
        return BackupState()
    name, error = data.get("last_name", ""), data.get("last_error", "")
    return BackupState(
        _time(data.get("last_success")),
        name if isinstance(name, str) else "",
        _time(data.get("last_attempt")),
        error if isinstance(error, str) else "",
    )


def write_state(path: Path, state: BackupState) -> None:
    """Atomic, as settings.json; a failure is logged, never raised: the backup itself
    has succeeded or failed already, and says so."""
    data = {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in asdict(state).items()}
    try:
        write_text_atomically(path, json.dumps(data, indent=2) + "\n")
    except OSError as exc:
        log.warning("The backup status could not be saved to %s: %s", path, exc)
