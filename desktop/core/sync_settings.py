"""Where this device syncs and whether it is paused: `"sync"` in settings.json.

Like the backup target, the sync target belongs to this device (a restored backup
never replaces it) and its password lives in the keyring under
`remote_target.secret_name`. The vault key never appears here either: it is kept in
the keyring (`VAULT_KEY_SECRET`), and a device without it is not in a vault.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr
from desktop.core.remote_target import RemoteTarget, dump_target, parse_target

FIELD: Final = "sync"
DEFAULT_INTERVAL_MINUTES: Final = 15
MIN_INTERVAL_MINUTES: Final = 1
MAX_INTERVAL_MINUTES: Final = 24 * 60
# The keyring entry holding the vault's age identity on this device.
VAULT_KEY_SECRET: Final = "sync:vault-key"
_KEYS: Final = {"target", "paused", "interval_minutes"}


@dataclass(frozen=True, slots=True)
class SyncSettings:
    target: RemoteTarget | None = None
    # Paused: nothing is sent or fetched until resumed; changes wait in the meantime.
    paused: bool = False
    # How often to look for other devices' changes while Parley runs.
    interval_minutes: int = DEFAULT_INTERVAL_MINUTES


def parse_sync(data: Any) -> SyncSettings:
    if not isinstance(data, dict):
        raise SettingsError(FIELD, tr("must be an object"))
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SettingsError(f"{FIELD}.{unknown[0]}", tr("unknown setting (check the spelling)"))
    target = parse_target(data["target"], f"{FIELD}.target") if "target" in data else None
    paused = data.get("paused", False)
    if not isinstance(paused, bool):
        raise SettingsError(f"{FIELD}.paused", tr("must be true or false"))
    interval = data.get("interval_minutes", DEFAULT_INTERVAL_MINUTES)
    if (
        isinstance(interval, bool)
        or not isinstance(interval, int)
        or not MIN_INTERVAL_MINUTES <= interval <= MAX_INTERVAL_MINUTES
    ):
        raise SettingsError(
            f"{FIELD}.interval_minutes",
            tr("must be a whole number from {least} to {most}").format(
                least=MIN_INTERVAL_MINUTES, most=MAX_INTERVAL_MINUTES
            ),
        )
    return SyncSettings(target, paused, interval)


def dump_sync(settings: SyncSettings) -> dict[str, Any]:
    """Only what differs from the defaults, so settings.json stays short."""
    data: dict[str, Any] = {}
    if settings.target is not None:
        data["target"] = dump_target(settings.target)
    if settings.paused:
        data["paused"] = True
    if settings.interval_minutes != DEFAULT_INTERVAL_MINUTES:
        data["interval_minutes"] = settings.interval_minutes
    return data
