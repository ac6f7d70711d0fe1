"""JSON as people paste it: read defensively, with the error's line and column.

Text from the clipboard can be anything: megabytes, a thousand nested brackets, control
characters, a snippet cut out of a README (`"time": {...},` without its braces), or
VS Code's JSON with comments and trailing commas. `read_json` reads at most
`MAX_PASTE_BYTES`, turns every failure into one sentence (never an exception), and
keeps the positions in the error those of the text the person pasted.

Comments, then trailing commas, are blanked (replaced by spaces, line breaks kept) by
regular expressions whose every alternative, once started, matches to its end or to the
end of the line or text, so they run in time linear in the text, whatever the text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from desktop.core.i18n import tr

MAX_PASTE_BYTES = 256 * 1024  # settings for a few dozen servers fit in a tenth of it

# A string (closed, or running to the end of its line), then a // comment or a
# /* comment */ (or one never closed); once comments are blanked, a comma before a
# closing bracket.
_STRING = r'"(?:[^"\\\n]|\\.)*(?:"|$)'
_COMMENTS = re.compile(_STRING + r"|//[^\n]*|/\*.*?(?:\*/|\Z)", re.DOTALL | re.MULTILINE)
_TRAILING_COMMAS = re.compile(_STRING + r"|,(?=\s*[}\]])", re.DOTALL | re.MULTILINE)
_LINE = re.compile(r"[^\n]+")


class JsonObject(dict[str, Any]):
    """A JSON object that remembers the keys it was given more than once (the last
    value is kept, as `json` does)."""

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.repeated: tuple[str, ...] = ()
        if len(self) != len(pairs):
            seen: set[str] = set()
            repeated: list[str] = []
            for key, _value in pairs:
                if key in seen and key not in repeated:
                    repeated.append(key)
                seen.add(key)
            self.repeated = tuple(repeated)


@dataclass(frozen=True, slots=True)
class JsonRead:
    value: Any = None
    error: str = ""  # why nothing was read ("" when `value` is the document)


def size_problem(text: str) -> str:
    """Why `text` is too large to read ("" if it is not), checked before anything else
    touches it: a length check first, so a 100 MB text is never encoded."""
    if len(text) <= MAX_PASTE_BYTES // 4 or (
        len(text) <= MAX_PASTE_BYTES
        and len(text.encode("utf-8", "surrogatepass")) <= MAX_PASTE_BYTES
    ):
        return ""
    return tr(
        "The pasted text is larger than 256 KiB, more than MCP server settings ever are. "
        "Copy only the part with the servers."
    )


def read_json(text: str) -> JsonRead:
    too_large = size_problem(text)
    if too_large:
        return JsonRead(error=too_large)
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return JsonRead(error=tr("There is nothing to read: paste the servers' JSON."))
    value, error = _loads(text)
    if not error:
        return JsonRead(value)
    blanked = _blank_comments(text)  # JSON with comments or trailing commas, as VS Code's
    if not blanked.strip():
        return JsonRead(error=tr("There is nothing to read: paste the servers' JSON."))
    value, error = _loads(blanked)
    if error and text.lstrip().startswith('"'):
        # A snippet such as `"time": {"command": "uvx"},` read as the object it came from.
        wrapped, wrapped_error = _loads("{" + blanked.rstrip().removesuffix(",") + "}")
        if not wrapped_error:
            return JsonRead(wrapped)
    if error:
        return JsonRead(error=error)
    return JsonRead(value)


def _blank_comments(text: str) -> str:
    def blank(match: re.Match[str]) -> str:
        found = match.group()
        if found.startswith('"'):
            return found
        return _LINE.sub(lambda line: " " * len(line.group()), found)

    return _TRAILING_COMMAS.sub(blank, _COMMENTS.sub(blank, text))


def _loads(text: str) -> tuple[Any, str]:
    try:
        return json.loads(text, object_pairs_hook=JsonObject), ""
    except json.JSONDecodeError as error:
        return None, tr("This is not valid JSON: {reason} (line {line}, column {column}).").format(
            reason=error.msg, line=error.lineno, column=error.colno
        )
    except RecursionError:
        return None, tr("This JSON is nested too deeply to be MCP server settings.")
    except ValueError as error:  # a number with thousands of digits
        return None, tr("This is not valid JSON: {reason}.").format(reason=str(error))
