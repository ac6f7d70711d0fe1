"""settings.json's "sync" section: read strictly, written short, and the vault key
never in it."""

from __future__ import annotations

from typing import Any

import pytest

from desktop.core.errors import SettingsError
from desktop.core.remote_target import WebDavTarget
from desktop.core.settings import Settings, dump_settings, parse_settings
from desktop.core.sync_settings import SyncSettings, dump_sync, parse_sync


def test_defaults_write_nothing_and_read_back() -> None:
    assert dump_sync(SyncSettings()) == {}
    assert "sync" not in dump_settings(Settings())
    assert parse_sync({}) == SyncSettings()


def test_a_target_pause_and_interval_round_trip_through_settings_json() -> None:
    chosen = SyncSettings(WebDavTarget("https://dav.example/parley", "ann"), True, 60)
    data = dump_settings(Settings(sync=chosen))
    assert data["sync"] == {
        "target": {"kind": "webdav", "url": "https://dav.example/parley", "username": "ann"},
        "paused": True,
        "interval_minutes": 60,
    }
    assert parse_settings(data).sync == chosen


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "sync"),
        ({"pasued": True}, "sync.pasued"),
        ({"paused": "yes"}, "sync.paused"),
        ({"interval_minutes": 0}, "sync.interval_minutes"),
        ({"interval_minutes": 24 * 60 + 1}, "sync.interval_minutes"),
        ({"interval_minutes": True}, "sync.interval_minutes"),
        ({"target": {"kind": "ftp"}}, "sync.target"),
    ],
)
def test_a_wrong_value_is_refused_naming_the_setting(data: Any, field: str) -> None:
    with pytest.raises(SettingsError) as caught:
        parse_sync(data)
    assert field in str(caught.value)
