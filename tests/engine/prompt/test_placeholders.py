"""Placeholder values in the person's zone, single-pass expansion, unknown ones kept."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from desktop.engine.prompt.placeholders import NAMES, expand, values

BERLIN = datetime(2026, 11, 30, 14, 5, tzinfo=ZoneInfo("Europe/Berlin"))


def _values(**names: str) -> dict[str, str]:
    who = {"model": "gpt-4o", "assistant": "Writer", "user": "Ada", **names}
    return values(BERLIN, "Europe/Berlin", **who)


def test_every_documented_placeholder_has_a_value():
    assert _values() == {
        "date": "2026-11-30",
        "time": "14:05",
        "datetime": "2026-11-30 14:05",
        "weekday": "Monday",
        "timezone": "Europe/Berlin (UTC+01:00)",
        "model": "gpt-4o",
        "assistant": "Writer",
        "user": "Ada",
    }
    assert set(NAMES) == set(_values())


def test_expansion_allows_spaces_inside_the_braces():
    assert expand("Hi {{user}}, it is {{ weekday }}.", _values()) == "Hi Ada, it is Monday."


def test_unknown_placeholders_and_near_misses_are_left_as_written():
    text = "{{lang}} {{Date}} {date} {{ date } {{}}"
    assert expand(text, _values()) == text


def test_a_known_placeholder_without_a_value_is_left_as_written():
    assert expand("Dear {{user}}", _values(user="")) == "Dear {{user}}"


def test_a_value_containing_a_placeholder_is_not_expanded_again():
    assert expand("{{user}} on {{date}}", _values(user="{{date}}")) == "{{date}} on 2026-11-30"
