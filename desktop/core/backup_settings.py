"""Where and how often this device backs up: `"backup"` in settings.json.

The target belongs to this device (a restore never replaces it: a backup made on the
laptop must not point the desktop at the laptop's folder), and its password or secret
key lives in the keyring under `remote_target.secret_name`, never in this file. The
backup passphrase is kept in the keyring too, which is what lets a daily backup run
without asking.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr
from desktop.core.remote_target import RemoteTarget, dump_target, parse_target

FIELD: Final = "backup"
DEFAULT_KEEP: Final = 7
MAX_KEEP: Final = 365
# The keyring entry holding the archive passphrase (one per device).
PASSPHRASE_SECRET: Final = "backup:passphrase"
_KEYS: Final = {"target", "keep", "daily"}


@dataclass(frozen=True, slots=True)
class BackupSettings:
    target: RemoteTarget | None = None
    # How many of this device's backups stay at the target; older ones are removed
    # after a new one has been written completely.
    keep: int = DEFAULT_KEEP
    # Back up once a day while Parley runs (needs the passphrase in the keyring).
    daily: bool = False


def parse_backup(data: Any) -> BackupSettings:
    if not isinstance(data, dict):
        raise SettingsError(FIELD, tr("must be an object"))
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SettingsError(f"{FIELD}.{unknown[0]}", tr("unknown setting (check the spelling)"))
    target = parse_target(data["target"], f"{FIELD}.target") if "target" in data else None
    keep = data.get("keep", DEFAULT_KEEP)
    if isinstance(keep, bool) or not isinstance(keep, int) or not 1 <= keep <= MAX_KEEP:
        raise SettingsError(
            f"{FIELD}.keep", tr("must be a whole number from 1 to {most}").format(most=MAX_KEEP)
        )
    daily = data.get("daily", False)
    if not isinstance(daily, bool):
        raise SettingsError(f"{FIELD}.daily", tr("must be true or false"))
    return BackupSettings(target, keep, daily)


def dump_backup(settings: BackupSettings) -> dict[str, Any]:
    """Only what differs from the defaults, so settings.json stays short."""
    data: dict[str, Any] = {}
    if settings.target is not None:
        data["target"] = dump_target(settings.target)
    if settings.keep != DEFAULT_KEEP:
        data["keep"] = settings.keep
    if settings.daily:
        data["daily"] = True
    return data
