"""The desktop settings: tray, notifications and the global shortcut, checked and
round-tripped through settings.json."""

from dataclasses import replace

import pytest

from desktop.core.desktop_settings import DesktopSettings
from desktop.core.errors import SettingsError
from desktop.core.settings import Settings, dump_settings, parse_settings


def test_defaults_notify_keep_quit_on_close_and_are_not_written():
    settings = parse_settings({})
    assert settings.desktop == DesktopSettings(
        close_to_tray=False, notifications=True, floating_shortcut="Ctrl+Alt+Space"
    )
    assert "desktop" not in dump_settings(Settings())


def test_changed_values_round_trip_and_only_they_are_written():
    settings = replace(
        Settings(), desktop=DesktopSettings(close_to_tray=True, floating_shortcut="")
    )
    data = dump_settings(settings)
    assert data["desktop"] == {"close_to_tray": True, "floating_shortcut": ""}
    assert parse_settings(data) == settings


@pytest.mark.parametrize(
    "shortcut", ["Ctrl+Alt+Space", "Meta+P", "F9", "Ctrl+Shift++", "Ctrl+,", "Alt+Ä"]
)
def test_single_key_combinations_are_accepted(shortcut):
    settings = parse_settings({"desktop": {"floating_shortcut": f" {shortcut} "}})
    assert settings.desktop.floating_shortcut == shortcut


@pytest.mark.parametrize(
    ("data", "where", "problem"),
    [
        ([], "desktop", "must be an object"),
        ({"close_to_tay": True}, "desktop.close_to_tay", "unknown setting"),
        ({"close_to_tray": "yes"}, "desktop.close_to_tray", "must be true or false"),
        ({"notifications": 1}, "desktop.notifications", "must be true or false"),
        ({"floating_shortcut": None}, "desktop.floating_shortcut", "must be a string"),
        ({"floating_shortcut": "Ctrl+A, Ctrl+B"}, "desktop.floating_shortcut", "one key"),
        ({"floating_shortcut": "Ctrl+"}, "desktop.floating_shortcut", "one key"),
        ({"floating_shortcut": "Hyper+X"}, "desktop.floating_shortcut", "one key"),
    ],
)
def test_bad_values_are_named_precisely(data, where, problem):
    with pytest.raises(SettingsError) as raised:
        parse_settings({"desktop": data})
    assert raised.value.field == where
    assert problem in str(raised.value)
