"""How Parley behaves as a desktop citizen: the tray, notifications, the global shortcut.

Stored under `"desktop"` in settings.json. The shortcut is kept as Qt's portable text
form ("Ctrl+Alt+Space"), so the file reads the same on every OS and the UI layer turns it
into a key sequence; an empty string means no global shortcut at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr

FIELD = "desktop"
DEFAULT_SHORTCUT = "Ctrl+Alt+Space"
# One chord of Qt's portable form: modifiers and one key joined by "+" ("Ctrl++" is
# Ctrl and the plus key). Multi-chord sequences make no sense for a global shortcut.
_SHORTCUT = re.compile(r"^(?:(?:Ctrl|Alt|Shift|Meta)\+)*(?:[^\s+]+|\+)$")
_KEYS = {"close_to_tray", "notifications", "floating_shortcut"}


@dataclass(frozen=True, slots=True)
class DesktopSettings:
    # Closing the main window only hides it while a tray icon can bring it back.
    close_to_tray: bool = False
    # Tell the person when an answer ends or a tool waits, while Parley is not in front.
    notifications: bool = True
    # Shows or hides the floating chat window from any application ("" = none).
    floating_shortcut: str = DEFAULT_SHORTCUT


def parse_floating_shortcut(value: Any, where: str = f"{FIELD}.floating_shortcut") -> str:
    if not isinstance(value, str):
        raise SettingsError(
            where, tr("must be a string, not {type}").format(type=type(value).__name__)
        )
    shortcut = value.strip()
    if shortcut and not _SHORTCUT.match(shortcut):
        raise SettingsError(
            where,
            tr('{value!r} is not one key combination (e.g. "Ctrl+Alt+Space"), or ""').format(
                value=shortcut
            ),
        )
    return shortcut


def parse_desktop(data: Any) -> DesktopSettings:
    if not isinstance(data, dict):
        raise SettingsError(FIELD, tr("must be an object"))
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SettingsError(f"{FIELD}.{unknown[0]}", tr("unknown setting (check the spelling)"))
    flags: dict[str, bool] = {}
    for name in ("close_to_tray", "notifications"):
        value = data.get(name, getattr(DesktopSettings(), name))
        if not isinstance(value, bool):
            raise SettingsError(f"{FIELD}.{name}", tr("must be true or false"))
        flags[name] = value
    shortcut = parse_floating_shortcut(data.get("floating_shortcut", DEFAULT_SHORTCUT))
    return DesktopSettings(floating_shortcut=shortcut, **flags)


def dump_desktop(settings: DesktopSettings) -> dict[str, Any]:
    """Only what differs from the defaults, so settings.json stays short."""
    defaults = DesktopSettings()
    return {
        name: getattr(settings, name)
        for name in ("close_to_tray", "notifications", "floating_shortcut")
        if getattr(settings, name) != getattr(defaults, name)
    }
