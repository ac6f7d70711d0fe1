"""The person's zone: named from the system, offsets written the same way everywhere."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from desktop.engine.prompt.clock import in_zone, local_zone_name, utc_offset


def test_offsets_are_written_with_sign_hours_and_minutes():
    assert utc_offset(datetime(2026, 1, 1, tzinfo=UTC)) == "UTC+00:00"
    assert utc_offset(datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=-3, minutes=-30)))) == (
        "UTC-03:30"
    )
    assert utc_offset(datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=13, minutes=45)))) == (
        "UTC+13:45"
    )


def test_in_zone_follows_daylight_saving():
    winter = in_zone(datetime(2026, 1, 15, 12, 0, tzinfo=UTC), "Europe/Berlin")
    summer = in_zone(datetime(2026, 7, 15, 12, 0, tzinfo=UTC), "Europe/Berlin")
    assert (winter.hour, utc_offset(winter)) == (13, "UTC+01:00")
    assert (summer.hour, utc_offset(summer)) == (14, "UTC+02:00")


def test_the_tz_variable_names_the_zone(monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    assert local_zone_name() == "Asia/Tokyo"
    monkeypatch.setenv("TZ", ":America/Sao_Paulo")
    assert local_zone_name() == "America/Sao_Paulo"
