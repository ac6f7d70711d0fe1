"""The `tools` section of the settings file: policies and grants, validated."""

import pytest

from desktop.core.errors import SettingsError
from desktop.core.settings import Settings, ToolSettings, dump_settings, parse_settings
from desktop.core.tools import ToolPolicy

HASH = "a" * 64


def test_policies_and_grants_round_trip():
    data = {
        "tools": {
            "policies": {"run_command": "auto", "mcp__git__log": "off"},
            "always_allow": {"write_file": HASH},
        }
    }
    settings = parse_settings(data)
    assert settings.tools == ToolSettings(
        {"run_command": ToolPolicy.AUTO, "mcp__git__log": ToolPolicy.OFF}, {"write_file": HASH}
    )
    assert parse_settings(dump_settings(settings)) == settings
    assert "tools" not in dump_settings(Settings())


@pytest.mark.parametrize(
    ("tools", "field"),
    [
        ({"policies": {"write_file": "sometimes"}}, "tools.policies.write_file"),
        ({"policies": {"bad name!": "ask"}}, "tools.policies.bad name!"),
        ({"always_allow": {"write_file": "not-a-hash"}}, "tools.always_allow.write_file"),
        ({"grants": {}}, "tools.grants"),
        ([], "tools"),
    ],
)
def test_mistakes_name_the_field(tools, field):
    with pytest.raises(SettingsError) as raised:
        parse_settings({"tools": tools})
    assert raised.value.field == field
