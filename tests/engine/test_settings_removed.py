"""Saving settings remembers what the person removed, in settings.json itself, so that
restoring an older backup does not bring it back."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from desktop.core.assistants import Assistant
from desktop.core.knowledge import LibrarySettings
from desktop.core.prompts import SavedPrompt
from desktop.core.settings import Settings
from desktop.core.settings_merge import merge_settings, replace_settings, settings_for_backup
from desktop.engine.settings_service import SettingsService
from desktop.storage.secrets import SecretStore
from desktop.storage.settings_file import load_settings
from tests.support.memory_keyring import MemoryKeyring
from tests.support.settings_files import write_settings
from tests.support.waiting import run_within


def test_removals_are_written_to_the_file_and_undo_forgets_them(
    tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    path = write_settings(
        tmp_path,
        "http://127.0.0.1:9/v1",
        assistants=[{"id": "coder", "name": "Coder"}, {"id": "writer", "name": "Writer"}],
        prompts=[{"id": "p1", "title": "Summarise", "text": "Summarise it"}],
        libraries=[{"id": "notes", "name": "Notes", "paths": [str(tmp_path)]}],
    )

    async def main() -> None:
        service = SettingsService(path, SecretStore())
        try:
            full = service.settings
            backup = settings_for_backup(full)  # made before anything was removed
            service.save(
                replace(full, assistants=(Assistant("writer", "Writer"),), prompts=(), libraries=())
            )
            await service.remove_provider("local")
            on_disk = json.loads(path.read_text(encoding="utf-8"))
            assert on_disk["removed"] == {
                "assistants": ["coder"],
                "prompts": ["p1"],
                "providers": ["local"],
                "libraries": ["notes"],
            }
            # The older backup brings none of them back.
            merged, outcome = merge_settings(service.settings, backup)
            assert not outcome.anything and merged == service.settings

            # Undo: the assistant comes back and is no longer remembered as removed.
            service.save(replace(service.settings, assistants=full.assistants))
            assert load_settings(path).settings.removed == {
                "prompts": ("p1",),
                "providers": ("local",),
                "libraries": ("notes",),
            }
            service.save(
                replace(
                    service.settings,
                    prompts=(SavedPrompt("p1", "Summarise", "Summarise it"),),
                    providers=full.providers,
                    libraries=(LibrarySettings("notes", "Notes", paths=(str(tmp_path),)),),
                )
            )
            assert "removed" not in json.loads(path.read_text(encoding="utf-8"))
        finally:
            await service.aclose()

    run_within(main())


def test_what_a_replace_dropped_can_come_back_from_this_devices_own_backup(
    tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    path = write_settings(
        tmp_path,
        "http://127.0.0.1:9/v1",
        assistants=[{"id": "mine", "name": "Mine"}],
        prompts=[{"id": "p1", "title": "Summarise", "text": "Summarise it"}],
    )
    other = Settings(assistants=(Assistant("theirs", "Theirs"),))

    async def main() -> None:
        service = SettingsService(path, SecretStore())
        try:
            own_backup = settings_for_backup(service.settings)
            # A restore that replaces everything: the person removed none of it.
            replaced = replace_settings(service.settings, settings_for_backup(other))
            service.save(replaced, person_removed=False)
            on_disk = load_settings(path).settings
            assert not on_disk.removed
            assert [a.id for a in on_disk.assistants] == ["theirs"]
            merged, outcome = merge_settings(on_disk, own_backup)
            assert (outcome.assistants_added, outcome.prompts_added) == (1, 1)
            assert {a.id for a in merged.assistants} == {"mine", "theirs"}
            # Once the person removes them, the same backup does not bring them back.
            service.save(merged)
            service.save(replace(merged, assistants=(), prompts=()))
            _, again = merge_settings(load_settings(path).settings, own_backup)
            assert (again.assistants_added, again.prompts_added) == (0, 0)
        finally:
            await service.aclose()

    run_within(main())
