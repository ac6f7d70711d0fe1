"""Placeholders a person or an assistant prompt may write, filled in on the way out.

| Placeholder      | Becomes                                   | Example             |
|------------------|-------------------------------------------|---------------------|
| `{{date}}`       | today's date in the person's zone         | 2026-11-30          |
| `{{time}}`       | the time there, to the minute             | 14:05               |
| `{{datetime}}`   | both                                      | 2026-11-30 14:05    |
| `{{weekday}}`    | the day of the week, in English           | Monday              |
| `{{timezone}}`   | the zone's name and UTC offset            | Europe/Berlin (UTC+01:00) |
| `{{model}}`      | the model answering                       | gpt-4o              |
| `{{assistant}}`  | the assistant's name                      | Writer              |
| `{{user}}`       | the person's name                         | Ada                 |

Spaces inside the braces are allowed (`{{ date }}`). Anything else in double braces,
and a known placeholder whose value is unknown (no name for the person), is left exactly
as written: a prompt about templating must survive. Expansion is a single pass, so a
value that itself contains `{{date}}` is not expanded again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime

from desktop.engine.prompt.clock import utc_offset

NAMES = ("date", "time", "datetime", "weekday", "timezone", "model", "assistant", "user")

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_]+)\s*\}\}")


def values(
    local: datetime, timezone_name: str, *, model: str, assistant: str, user: str
) -> dict[str, str]:
    """Every placeholder's value; `local` is the current time in the person's zone."""
    return {
        "date": local.strftime("%Y-%m-%d"),
        "time": local.strftime("%H:%M"),
        "datetime": local.strftime("%Y-%m-%d %H:%M"),
        "weekday": _WEEKDAYS[local.weekday()],
        "timezone": f"{timezone_name} ({utc_offset(local)})",
        "model": model,
        "assistant": assistant,
        "user": user,
    }


# Not strftime("%A"): that follows the process locale, and the prompt must not change
# language with it.
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def expand(text: str, known: Mapping[str, str]) -> str:
    """`text` with each known placeholder replaced by its value, in one pass."""
    if "{{" not in text:
        return text

    def fill(match: re.Match[str]) -> str:
        value = known.get(match.group(1))
        return value if value else match.group(0)

    return _PLACEHOLDER.sub(fill, text)
