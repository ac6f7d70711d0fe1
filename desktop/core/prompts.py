"""The prompt library: saved prompts with a title and optional `{{variables}}`.

Stored as `"prompts"` (a list of `{"id", "title", "text"}`) in settings.json. Reading
the list is lenient on purpose: one hand-edited entry that is broken is left out (and
named, so the file loader can keep a copy) instead of making the whole settings file
invalid, which would start Parley with default settings.

Variables are written `{{ name }}`: letters, digits, `_`, `-` and spaces, starting with
a letter, digit or `_`, trimmed (`{{ target language }}` is the variable "target
language"). Names are case-sensitive.
`fill` leaves a variable that has no value (missing or blank) exactly as written, so a
gap stays visible in the composer and can be filled by hand; it never silently
disappears from the message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr
from desktop.core.models import new_id

# `\w` is Unicode-aware: "{{ langue cible }}" and "{{ 语言 }}" are variables too.
_VARIABLE = re.compile(r"\{\{[ \t]*(\w(?:[\w -]*[\w-])?)[ \t]*\}\}")
_WORD = re.compile(r"\w+")
MAX_TITLE = 200  # characters; a title is one line in a list


@dataclass(frozen=True, slots=True)
class SavedPrompt:
    id: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class PromptsRead:
    """The prompts read from settings.json, and the entries left out (with why)."""

    prompts: tuple[SavedPrompt, ...]
    skipped: tuple[SettingsError, ...] = ()


# --- variables ------------------------------------------------------------------


def variables(text: str) -> list[str]:
    """The distinct variable names in `text`, in the order they first appear."""
    names: list[str] = []
    for match in _VARIABLE.finditer(text):
        name = match.group(1)
        if name not in names:
            names.append(name)
    return names


def fill(text: str, values: Mapping[str, str]) -> str:
    """`text` with every occurrence of each variable replaced by its value, in one pass
    (a value that itself contains `{{x}}` is not expanded again). A variable with no
    value, or a blank one, stays as written."""
    if "{{" not in text:
        return text

    def replace(match: re.Match[str]) -> str:
        value = values.get(match.group(1), "")
        return value if value.strip() else match.group(0)

    return _VARIABLE.sub(replace, text)


# --- finding --------------------------------------------------------------------


def fold(text: str) -> str:
    """Lower case without accents: "Résumé" and "resume" are the same to a search."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _rank(prompt: SavedPrompt, query: str) -> int | None:
    """0 title starts with it, 1 a word of the title does, 2 the title holds it,
    3 the text holds it; None: no match."""
    title = fold(prompt.title)
    if title.startswith(query):
        return 0
    if any(word.group(0).startswith(query) for word in _WORD.finditer(title)):
        return 1
    if query in title:
        return 2
    if query in fold(prompt.text):
        return 3
    return None


def matches(prompts: Iterable[SavedPrompt], query: str) -> list[SavedPrompt]:
    """The prompts that match `query`, best first (title prefix, then a title word's
    prefix, then anywhere in the title, then in the text); within a rank, in the
    library's order. Case and accents do not matter; an empty query lists them all."""
    wanted = " ".join(fold(query).split())
    listed = list(prompts)
    if not wanted:
        return listed
    ranked = [(rank, i, p) for i, p in enumerate(listed) if (rank := _rank(p, wanted)) is not None]
    return [p for _rank_, _i, p in sorted(ranked, key=lambda r: (r[0], r[1]))]


# --- typing "/" in the composer -------------------------------------------------


_SLASH = re.compile(r"^([ \t]*)/([^/\n]*)$")


def slash_query(line_before_cursor: str) -> tuple[int, str] | None:
    """Where a "/prompt" being typed starts in its line and what follows the slash,
    given the line's text up to the cursor; None when the cursor is not in one. The
    slash must open the line (indentation aside), so a path or a fraction later in a
    sentence never counts."""
    found = _SLASH.match(line_before_cursor)
    if found is None:
        return None
    return len(found.group(1)), found.group(2)


# --- settings.json ----------------------------------------------------------------


def read_prompts(data: Any) -> PromptsRead:
    """The prompts of settings.json's `"prompts"`; broken entries are skipped, each
    reported with where it is and what is wrong. An id that is missing or used twice is
    replaced by a new one (ids only tell the settings page's rows apart)."""
    if not isinstance(data, list):
        return PromptsRead((), (SettingsError("prompts", tr("must be a list")),))
    prompts: list[SavedPrompt] = []
    skipped: list[SettingsError] = []
    taken: set[str] = set()
    for i, raw in enumerate(data):
        where = f"prompts[{i}]"
        try:
            prompt = _read_prompt(raw, where)
        except SettingsError as error:
            skipped.append(error)
            continue
        if not prompt.id or prompt.id in taken:
            prompt = SavedPrompt(new_id(), prompt.title, prompt.text)
        taken.add(prompt.id)
        prompts.append(prompt)
    return PromptsRead(tuple(prompts), tuple(skipped))


def _read_prompt(raw: Any, where: str) -> SavedPrompt:
    if not isinstance(raw, dict):
        raise SettingsError(where, tr("must be an object"))
    fields: dict[str, str] = {}
    for key in ("id", "title", "text"):
        value = raw.get(key, "")
        if not isinstance(value, str):
            raise SettingsError(
                f"{where}.{key}",
                tr("must be a string, not {type}").format(type=type(value).__name__),
            )
        fields[key] = value
    title = " ".join(fields["title"].split())
    if not title:
        raise SettingsError(f"{where}.title", tr("must not be empty"))
    return SavedPrompt(fields["id"].strip(), title[:MAX_TITLE], fields["text"])


def dump_prompt(prompt: SavedPrompt) -> dict[str, Any]:
    return {"id": prompt.id, "title": prompt.title, "text": prompt.text}


def dump_prompts(prompts: Sequence[SavedPrompt]) -> list[dict[str, Any]]:
    return [dump_prompt(p) for p in prompts]
