"""settings.json in a backup: what goes in, and how it comes back (design E3).

Some settings belong to this device and never leave it nor get replaced on it
(`DEVICE_LOCAL_KEYS`):
- `desktop`: the tray, notifications and the global shortcut of this desktop;
- `network`: this network's proxy, and a certificate file on this disk;
- `mcp_servers`, `mcp_consent`: commands that run on this machine, and the person's
  consent to run exactly those (never restored anywhere else: a backup must not be a
  way to start programs);
- `tools`: which tools run without asking, and the "always allow" grants bound to the
  tool definitions of this device (a restore must not loosen what may run here);
- `backup`: where this device backs up;
- `sync`: where this device syncs (the vault key is in the keyring, not here).

Knowledge libraries are not device-local although they name folders: assistants refer
to them by id, and their name, filters and embedding model are worth restoring. A
library restored onto a device that lacks one of its folders arrives switched off,
and is counted, so the person can point it at the folders of this machine.

API keys live in the keyring and are never in settings.json; a provider's extra
headers that carry credentials (`Authorization`, `x-api-key`...) are left out of the
backup too, and so are a user name and password written into its address
(`https://user:pass@host`) and query parameters named like a credential (`?key=`). A
restored provider therefore needs its key entered again (counted).

Merging only adds: an assistant, prompt, provider or library missing here (and not
removed here, `Settings.removed`) is added; nothing that exists here and no single
setting is changed. `record_removals` keeps `Settings.removed` as the person removes
and restores things.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr
from desktop.core.knowledge import LibrarySettings
from desktop.core.settings import (
    REMOVABLE_KINDS,
    ProviderSettings,
    Settings,
    dump_settings,
    parse_settings,
)

DEVICE_LOCAL_KEYS: Final = frozenset(
    {"desktop", "network", "mcp_servers", "mcp_consent", "tools", "backup", "sync"}
)
# The ids of removed things kept per kind: enough for years of tidying, bounded so the
# file does not grow for ever.
MAX_REMOVED: Final = 1000
# Extra header names that carry a credential (matched case-insensitively, anywhere in
# the name): never written into a backup.
_SECRET_HEADER: Final = re.compile(r"auth|key|token|secret|cookie|password|session", re.I)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SettingsMergeOutcome:
    assistants_added: int = 0
    prompts_added: int = 0
    providers_added: int = 0  # each needs its API key entered again
    libraries_added: int = 0
    libraries_without_folders: int = 0  # of those, switched off: a folder is missing here

    @property
    def anything(self) -> bool:
        return any(
            (self.assistants_added, self.prompts_added, self.providers_added, self.libraries_added)
        )


# --- into a backup ---------------------------------------------------------------


def _without_secret_headers(provider: dict[str, Any]) -> dict[str, Any]:
    headers = provider.get("headers")
    if not headers:
        return provider
    kept = {name: value for name, value in headers.items() if not _SECRET_HEADER.search(name)}
    cleaned = {key: value for key, value in provider.items() if key != "headers"}
    return {**cleaned, "headers": kept} if kept else cleaned


def _address_without_credentials(url: str) -> str:
    """`url` less a user name and password, and less query parameters whose name
    says they carry a credential; anything else stays exactly as written."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        kept = [(name, value) for name, value in pairs if not _SECRET_HEADER.search(name)]
        if len(kept) != len(pairs):
            query = urlencode(kept)
    if (host, query) == (parts.netloc, parts.query):
        return url
    return urlunsplit(parts._replace(netloc=host, query=query))


def _without_credentials(provider: dict[str, Any]) -> dict[str, Any]:
    cleaned = _without_secret_headers(provider)
    url = cleaned.get("base_url")
    if isinstance(url, str) and url:
        cleaned = {**cleaned, "base_url": _address_without_credentials(url)}
    return cleaned


def backup_data(settings: Settings) -> dict[str, Any]:
    """`dump_settings` less what belongs to this device and less credentials."""
    data = {k: v for k, v in dump_settings(settings).items() if k not in DEVICE_LOCAL_KEYS}
    data["providers"] = [_without_credentials(p) for p in data.get("providers", [])]
    return data


def settings_for_backup(settings: Settings) -> bytes:
    """settings.json as a backup holds it (UTF-8 JSON)."""
    text = json.dumps(backup_data(settings), indent=2, ensure_ascii=False) + "\n"
    return text.encode("utf-8")


# --- out of a backup -------------------------------------------------------------


def _read_backed_up(backed_up: bytes) -> Settings:
    """The backup's settings, device-local keys ignored. Raises SettingsError saying
    where the file is wrong."""
    try:
        data = json.loads(backed_up.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise SettingsError(
            tr("the backup's settings, byte {offset}").format(offset=exc.start),
            tr("the file is not valid UTF-8 text, so no setting was restored"),
        ) from exc
    except json.JSONDecodeError as exc:
        raise SettingsError(
            tr("the backup's settings, line {line}, column {column}").format(
                line=exc.lineno, column=exc.colno
            ),
            tr("{problem}, so no setting was restored").format(problem=exc.msg),
        ) from exc
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in DEVICE_LOCAL_KEYS}
    try:
        return parse_settings(data)
    except SettingsError as exc:
        raise SettingsError(
            tr("the backup's settings, {field}").format(field=exc.field) if exc.field else "",
            tr("{problem}, so no setting was restored").format(problem=exc.problem),
        ) from exc


def _missing(
    local: Sequence[T], backed_up: Sequence[T], key: Callable[[T], str], removed: Iterable[str]
) -> list[T]:
    have = {key(item) for item in local} | set(removed)
    return [item for item in backed_up if key(item) not in have]


def _folders_here(library: LibrarySettings, exists: Callable[[Path], bool]) -> bool:
    return bool(library.paths) and all(exists(Path(p)) for p in library.paths)


def merge_settings(
    local: Settings, backed_up: bytes, *, exists: Callable[[Path], bool] = Path.exists
) -> tuple[Settings, SettingsMergeOutcome]:
    """`local` with what the backup has and this device lacks (see the module
    docstring). `exists` says whether a library's folder is on this device. Raises
    SettingsError for a malformed file; nothing is changed then."""
    theirs = _read_backed_up(backed_up)
    gone = local.removed
    assistants = _missing(
        local.assistants, theirs.assistants, lambda a: a.id, gone.get("assistants", ())
    )
    prompts = _missing(local.prompts, theirs.prompts, lambda p: p.id, gone.get("prompts", ()))
    providers: list[ProviderSettings] = _missing(
        local.providers, theirs.providers, lambda p: p.id, gone.get("providers", ())
    )
    libraries = [
        lib if _folders_here(lib, exists) else replace(lib, enabled=False)
        for lib in _missing(
            local.libraries, theirs.libraries, lambda lib: lib.id, gone.get("libraries", ())
        )
    ]
    merged = replace(
        local,
        assistants=(*local.assistants, *assistants),
        prompts=(*local.prompts, *prompts),
        providers=(*local.providers, *providers),
        libraries=(*local.libraries, *libraries),
        removed=_merged_removed(local, theirs),
    )
    outcome = SettingsMergeOutcome(
        assistants_added=len(assistants),
        prompts_added=len(prompts),
        providers_added=len(providers),
        libraries_added=len(libraries),
        libraries_without_folders=sum(1 for lib in libraries if not lib.enabled),
    )
    return merged, outcome


def replace_settings(local: Settings, backed_up: bytes) -> Settings:
    """The backup's settings, with this device's device-local ones. Raises
    SettingsError for a malformed file; nothing is changed then."""
    theirs = _read_backed_up(backed_up)
    return replace(theirs, **{key: getattr(local, key) for key in DEVICE_LOCAL_KEYS})


# --- what was removed ------------------------------------------------------------


def _ids(settings: Settings, kind: str) -> list[str]:
    items: Sequence[Any] = getattr(settings, kind)
    return [str(item.id) for item in items]


def _bounded(ids: Iterable[str]) -> tuple[str, ...]:
    unique = list(dict.fromkeys(reversed(list(ids))))[::-1]  # last mention wins
    return tuple(unique[-MAX_REMOVED:])


def _with_removed(settings: Settings, removed: Mapping[str, tuple[str, ...]]) -> Settings:
    cleaned = {kind: ids for kind, ids in removed.items() if ids}
    return settings if cleaned == dict(settings.removed) else replace(settings, removed=cleaned)


def record_removals(previous: Settings, new: Settings) -> Settings:
    """`new`, its `removed` lists holding the ids `previous` had and `new` has not,
    and no longer any id `new` has (it came back, e.g. by Undo). The newest
    `MAX_REMOVED` per kind are kept."""
    removed: dict[str, tuple[str, ...]] = {}
    for kind in REMOVABLE_KINDS:
        now = set(_ids(new, kind))
        gone = [i for i in _ids(previous, kind) if i not in now]
        earlier = [i for i in new.removed.get(kind, ()) if i not in now]
        removed[kind] = _bounded([*earlier, *gone])
    return _with_removed(new, removed)


def _merged_removed(local: Settings, theirs: Settings) -> dict[str, tuple[str, ...]]:
    """What was removed where the backup was made and is not here stays away from
    later restores too (nothing here is removed because of it)."""
    merged: dict[str, tuple[str, ...]] = {}
    for kind in REMOVABLE_KINDS:
        here = set(_ids(local, kind))
        theirs_gone = [i for i in theirs.removed.get(kind, ()) if i not in here]
        ids = _bounded([*theirs_gone, *local.removed.get(kind, ())])
        if ids:
            merged[kind] = ids
    return merged
