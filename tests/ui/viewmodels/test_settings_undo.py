"""Undo in the Settings window, against the real settings service and file: what a save
from the window changed is put back on disk, and nothing else is."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from desktop.core.models import ModelRef
from desktop.engine.settings_service import SettingsService
from desktop.storage.secrets import SecretStore
from desktop.storage.settings_file import load_settings
from desktop.ui.viewmodels.settings_undo import COALESCE_S, SettingsUndo
from tests.support.settings_files import write_settings


@pytest.fixture
def service(memory_keyring, tmp_path) -> Iterator[SettingsService]:
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    settings = SettingsService(tmp_path / "settings.json", SecretStore())
    try:
        yield settings
    finally:
        asyncio.run(settings.aclose())


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def on_disk(service: SettingsService):
    return load_settings(service.path).settings


def signals(undo: SettingsUndo) -> list[tuple[str, str]]:
    heard: list[tuple[str, str]] = []
    undo.saved.connect(lambda text: heard.append(("saved", text)))
    undo.undone.connect(lambda text: heard.append(("undone", text)))
    undo.failed.connect(lambda text: heard.append(("failed", text)))
    return heard


def test_undo_puts_back_the_change_on_disk_and_keeps_a_change_made_elsewhere(qapp, service):
    undo = SettingsUndo(service)
    heard = signals(undo)
    assert not undo.canUndo
    assert undo.save(replace(service.settings, currency="EUR"))
    assert on_disk(service).currency == "EUR"
    assert heard == [("saved", "Currency changed")] and undo.canUndo

    # The composer remembers the model: not from the Settings window, not recorded.
    service.remember_model(ModelRef("local", "test-model"))
    assert undo.next_undo == "Currency changed"

    undo.undo()
    saved = on_disk(service)
    assert saved.currency == "USD"
    assert saved.last_model == ModelRef("local", "test-model")  # left alone
    assert heard[-1] == ("undone", "Currency changed")
    assert not undo.canUndo
    undo.undo()  # nothing left: nothing happens
    assert on_disk(service) == saved


def test_changes_made_outside_a_recording_are_not_recorded(qapp, service):
    undo = SettingsUndo(service)
    service.save(replace(service.settings, auto_titles=True))
    assert not undo.canUndo
    with undo.recording():
        service.save(replace(service.settings, currency="JPY"))
    service.save(replace(service.settings, currency="CHF"))  # a later outside change
    undo.undo()
    # The step's field is put back to its value before the step, as it is now on disk.
    assert on_disk(service).currency == "USD"
    assert on_disk(service).auto_titles is True


def test_an_awaiting_recording_takes_only_its_own_fields(qapp, service):
    undo = SettingsUndo(service)
    gone = service.settings.without_provider("local")
    with undo.recording("Provider Local removed", fields=("providers",)):
        service.save(gone)
        service.remember_model(ModelRef("other", "m"))  # someone else, meanwhile
    assert undo.next_undo == "Provider Local removed"
    undo.undo()
    assert [p.id for p in on_disk(service).providers] == ["local"]


def test_quick_edits_of_one_field_make_one_step(qapp, service):
    clock = Clock()
    undo = SettingsUndo(service, clock=clock)
    for currency in ("EUR", "GBP", "CHF"):
        undo.save(replace(service.settings, currency=currency), coalesce=True)
        clock.now += 2
    undo.save(replace(service.settings, auto_titles=True))  # another field: a new step
    undo.undo()
    assert on_disk(service).auto_titles is False and on_disk(service).currency == "CHF"
    undo.undo()
    assert on_disk(service).currency == "USD"  # all three typed values in one step
    assert not undo.canUndo

    undo.save(replace(service.settings, currency="EUR"), coalesce=True)
    clock.now += COALESCE_S + 1  # a while later: its own step
    undo.save(replace(service.settings, currency="GBP"), coalesce=True)
    undo.undo()
    assert on_disk(service).currency == "EUR"
    undo.undo()
    assert not undo.canUndo

    # Typed, then typed back to where it was: nothing is left to undo.
    undo.save(replace(service.settings, currency="EUR"), coalesce=True)
    clock.now += 2
    undo.save(replace(service.settings, currency="USD"), coalesce=True)
    assert on_disk(service).currency == "USD"
    assert not undo.canUndo


def test_a_save_that_cannot_be_written_is_reported_and_not_recorded(qapp, service):
    undo = SettingsUndo(service)
    heard = signals(undo)
    path: Path = service.path
    path.unlink()
    path.mkdir()  # os.replace onto a folder fails as an unwritable file does
    try:
        assert not undo.save(replace(service.settings, currency="EUR"))
    finally:
        shutil.rmtree(path)
    assert heard and heard[0][0] == "failed"
    assert heard[0][1].startswith("Could not save settings: ")
    assert not undo.canUndo and service.settings.currency == "USD"
