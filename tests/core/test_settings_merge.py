"""settings.json in a backup: device-local settings and credentials stay home; a
restore adds what is missing and changes nothing that is here."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from desktop.core.assistants import Assistant
from desktop.core.backup_settings import BackupSettings
from desktop.core.desktop_settings import DesktopSettings
from desktop.core.errors import SettingsError
from desktop.core.knowledge import LibrarySettings
from desktop.core.mcp_settings import McpServerSettings
from desktop.core.prompts import SavedPrompt
from desktop.core.remote_target import FolderTarget
from desktop.core.settings import (
    NetworkSettings,
    ProviderSettings,
    ProxyMode,
    Settings,
    Theme,
    ToolSettings,
    dump_settings,
    parse_settings,
)
from desktop.core.settings_merge import (
    DEVICE_LOCAL_KEYS,
    MAX_REMOVED,
    SettingsMergeOutcome,
    merge_settings,
    record_removals,
    replace_settings,
    settings_for_backup,
)
from desktop.core.sync_settings import SyncSettings
from desktop.core.tools import ToolPolicy

HASH = "ab" * 32


def _full(tmp_path: Path) -> Settings:
    """Settings with something in every device-local key and every kind of list."""
    folder = tmp_path / "notes"
    folder.mkdir(exist_ok=True)
    return Settings(
        providers=(
            ProviderSettings(
                "work",
                "Work",
                base_url="https://llm.example.com/v1",
                models=("big",),
                headers={"Authorization": "Bearer sk-1", "X-Api-Key": "k", "X-Team": "blue"},
            ),
        ),
        network=NetworkSettings(ProxyMode.CUSTOM, "http://proxy:3128", "/etc/ca.pem"),
        tools=ToolSettings({"shell": ToolPolicy.AUTO}, {"shell": HASH}),
        mcp_servers=(McpServerSettings("files", "Files", command="/usr/bin/mcp-files"),),
        mcp_consent={"files": HASH},
        desktop=DesktopSettings(close_to_tray=True),
        sync=SyncSettings(FolderTarget(str(folder / "sync")), paused=True),
        assistants=(Assistant("coder", "Coder", system_prompt="Write code."),),
        libraries=(LibrarySettings("notes", "Notes", paths=(str(folder),)),),
        prompts=(SavedPrompt("p1", "Summarise", "Summarise {{text}}"),),
        removed={"assistants": ("old",)},
    )


def _backed_up(settings: Settings) -> bytes:
    return settings_for_backup(settings)


# --- into a backup ---------------------------------------------------------------


def test_a_backup_holds_no_device_local_setting_and_no_credential(tmp_path: Path) -> None:
    data = json.loads(settings_for_backup(_full(tmp_path)))
    assert not DEVICE_LOCAL_KEYS & set(data)
    assert {"desktop", "network", "mcp_servers", "mcp_consent", "tools", "backup", "sync"} == set(
        DEVICE_LOCAL_KEYS
    )
    assert data["providers"][0]["headers"] == {"X-Team": "blue"}
    text = settings_for_backup(_full(tmp_path)).decode()
    for secret in ("sk-1", "Bearer", "mcp-files", "/etc/ca.pem", HASH):
        assert secret not in text
    assert parse_settings(data).assistants == _full(tmp_path).assistants  # still valid
    assert data["removed"] == {"assistants": ["old"]}


# --- merging ---------------------------------------------------------------------


def test_merging_adds_only_what_is_missing_and_changes_nothing_here(tmp_path: Path) -> None:
    theirs = _full(tmp_path)
    theirs = replace(
        theirs,
        assistants=(*theirs.assistants, Assistant("mine", "Theirs now")),
        prompts=(*theirs.prompts, SavedPrompt("p2", "Translate", "Translate it")),
        appearance=replace(theirs.appearance, theme=Theme.DARK),
    )
    local = Settings(
        assistants=(Assistant("mine", "Mine"),),
        prompts=(SavedPrompt("p1", "My summary", "Mine"),),
        desktop=DesktopSettings(notifications=False),
        backup=BackupSettings(keep=3),
    )

    merged, outcome = merge_settings(local, _backed_up(theirs))

    assert outcome == SettingsMergeOutcome(
        assistants_added=1, prompts_added=1, providers_added=1, libraries_added=1
    )
    assert [(a.id, a.name) for a in merged.assistants] == [("mine", "Mine"), ("coder", "Coder")]
    assert [(p.id, p.title) for p in merged.prompts] == [
        ("p1", "My summary"),
        ("p2", "Translate"),
    ]
    assert merged.provider("work").headers == {"X-Team": "blue"}  # its key: asked again
    assert merged.library("notes").enabled
    # Scalars and device-local settings are this device's.
    assert merged.appearance == local.appearance
    assert (merged.desktop, merged.backup, merged.tools) == (
        local.desktop,
        local.backup,
        ToolSettings(),
    )
    assert merged.mcp_servers == () and merged.network == NetworkSettings()
    # What was removed there, and is not here, stays away from later restores.
    assert merged.removed == {"assistants": ("old",)}
    assert parse_settings(dump_settings(merged)) == merged

    again, nothing = merge_settings(merged, _backed_up(theirs))
    assert (again, nothing, nothing.anything) == (merged, SettingsMergeOutcome(), False)


def test_what_was_removed_here_is_not_brought_back(tmp_path: Path) -> None:
    local = Settings(
        removed={
            "assistants": ("coder",),
            "prompts": ("p1",),
            "providers": ("work",),
            "libraries": ("notes",),
        }
    )
    merged, outcome = merge_settings(local, _backed_up(_full(tmp_path)))
    assert outcome == SettingsMergeOutcome()
    assert (merged.assistants, merged.prompts, merged.providers, merged.libraries) == (
        (),
        (),
        (),
        (),
    )


def test_a_library_whose_folders_are_not_here_arrives_switched_off(tmp_path: Path) -> None:
    merged, outcome = merge_settings(
        Settings(), _backed_up(_full(tmp_path)), exists=lambda path: False
    )
    assert (outcome.libraries_added, outcome.libraries_without_folders) == (1, 1)
    assert not merged.library("notes").enabled


@pytest.mark.parametrize(
    ("content", "where"),
    [
        (b"\xff\xfe not text", "byte 0"),
        (b'{"providers": [', "line 1, column 16"),
        (b'{"assistants": [{"name": 3}]}', "assistants[0]"),
        (b'{"removed": {"prompts": "p1"}}', "removed.prompts"),
        (b"[]", "(top level)"),
    ],
)
def test_a_malformed_backup_file_is_refused_with_where_and_nothing_changes(
    content: bytes, where: str
) -> None:
    local = Settings(assistants=(Assistant("mine", "Mine"),))
    with pytest.raises(SettingsError) as caught:
        merge_settings(local, content)
    assert where in str(caught.value) and "no setting was restored" in str(caught.value)
    with pytest.raises(SettingsError):
        replace_settings(local, content)
    assert local.assistants == (Assistant("mine", "Mine"),)


def test_device_local_keys_in_a_backup_are_ignored_even_when_broken() -> None:
    content = json.dumps(
        {"network": {"proxy_mode": "nonsense"}, "mcp_servers": "x", "prompts": []}
    ).encode()
    merged, outcome = merge_settings(Settings(), content)
    assert (merged, outcome) == (Settings(), SettingsMergeOutcome())


# --- replacing -------------------------------------------------------------------


def test_replacing_takes_the_backup_but_keeps_this_devices_own_settings(tmp_path: Path) -> None:
    theirs = replace(_full(tmp_path), appearance=replace(Settings().appearance, theme=Theme.DARK))
    local = Settings(
        assistants=(Assistant("mine", "Mine"),),
        desktop=DesktopSettings(notifications=False),
        network=NetworkSettings(ProxyMode.NONE),
        tools=ToolSettings({"shell": ToolPolicy.OFF}),
        mcp_consent={"other": HASH},
        backup=BackupSettings(keep=2),
        sync=SyncSettings(interval_minutes=30),
    )

    replaced = replace_settings(local, _backed_up(theirs))

    assert replaced.appearance.theme is Theme.DARK
    assert [a.id for a in replaced.assistants] == ["coder"]
    assert replaced.provider("work").headers == {"X-Team": "blue"}
    kept: dict[str, Any] = {
        "desktop": local.desktop,
        "network": local.network,
        "tools": local.tools,
        "mcp_servers": (),
        "mcp_consent": local.mcp_consent,
        "backup": local.backup,
        "sync": local.sync,
    }
    assert {key: getattr(replaced, key) for key in kept} == kept


# --- remembering removals --------------------------------------------------------


def test_removals_are_remembered_forgotten_on_return_and_bounded() -> None:
    before = Settings(
        assistants=(Assistant("a", "A"), Assistant("b", "B")),
        prompts=(SavedPrompt("p", "P", "text"),),
    )
    after = replace(before, assistants=(Assistant("b", "B"),), prompts=())
    recorded = record_removals(before, after)
    assert recorded.removed == {"assistants": ("a",), "prompts": ("p",)}
    back = record_removals(recorded, replace(recorded, assistants=before.assistants))
    assert back.removed == {"prompts": ("p",)}
    assert record_removals(back, back) is back  # nothing changed: the same object

    many = Settings(removed={"assistants": tuple(f"x{i}" for i in range(MAX_REMOVED))})
    bounded = record_removals(replace(many, assistants=(Assistant("new", "N"),)), many)
    assert len(bounded.removed["assistants"]) == MAX_REMOVED
    assert bounded.removed["assistants"][-1] == "new" and "x0" not in bounded.removed["assistants"]


def test_removed_round_trips_and_ignores_kinds_it_does_not_know() -> None:
    data = {"removed": {"assistants": ["a", "a", "b"], "widgets": ["w"]}}
    parsed = parse_settings(data)
    assert parsed.removed == {"assistants": ("a", "b")}
    assert dump_settings(parsed)["removed"] == {"assistants": ["a", "b"]}
    assert "removed" not in dump_settings(Settings())
    with pytest.raises(SettingsError, match=r"removed\.libraries\[1\]"):
        parse_settings({"removed": {"libraries": ["ok", 3]}})
    with pytest.raises(SettingsError, match="removed"):
        parse_settings({"removed": ["a"]})


# --- credentials written into an address, and the way back after replacing -------


def test_a_backup_holds_no_credential_written_into_a_providers_address(tmp_path: Path) -> None:
    provider = ProviderSettings(
        "proxy",
        "Behind a proxy",
        base_url="https://alice:s3cret-pass@llm.example.com/v1?api-version=2024-06&key=k-777",
        models=("big",),
    )
    settings = Settings(providers=(provider,))

    text = settings_for_backup(settings).decode()

    for secret in ("alice", "s3cret-pass", "k-777"):
        assert secret not in text
    [kept] = json.loads(text)["providers"]
    assert kept["base_url"] == "https://llm.example.com/v1?api-version=2024-06"
    plain = ProviderSettings("plain", "Plain", base_url="http://127.0.0.1:11434/v1")
    data = json.loads(settings_for_backup(Settings(providers=(plain,))))
    assert data["providers"][0]["base_url"] == "http://127.0.0.1:11434/v1"  # untouched
