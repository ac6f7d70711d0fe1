"""What one save changed in the settings, and putting those values back.

Undo in the Settings window (`ui/viewmodels/settings_undo.py`) records, for each change
made there, the fields that differ before and after; undoing puts back only those
fields onto the settings as they are *now*, so a change made meanwhile elsewhere (the
composer remembering the last model) is kept.

A field that holds a section of the settings (appearance, network, tools, web search…:
a dataclass the schema always fills in) is compared one level deeper, so undoing a new
theme leaves a changed text size alone. A list of records with ids (providers,
assistants, libraries, MCP servers, prompts) and a table (prices, tool grants) are put
back record by record: undoing an edit of one provider leaves a provider added
meanwhile, by something other than the Settings window, where it is. Other fields (a
model reference) are put back whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, Field, dataclass, fields, is_dataclass, replace
from typing import Any

from desktop.core.settings import Settings


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One field's value before and after a save. `path` is a top-level field of
    `Settings`, or a section and one of its fields: ("appearance", "theme")."""

    path: tuple[str, ...]
    before: Any
    after: Any


def _is_section(spec: Field[Any]) -> bool:
    """A field whose value is always a settings dataclass (never None)."""
    factory = spec.default_factory
    return factory is not MISSING and isinstance(factory, type) and is_dataclass(factory)


def changed_fields(before: Settings, after: Settings) -> tuple[FieldChange, ...]:
    """Every field that differs between `before` and `after`, in schema order."""
    found: list[FieldChange] = []
    for spec in fields(Settings):
        old, new = getattr(before, spec.name), getattr(after, spec.name)
        if old == new:
            continue
        if _is_section(spec) and type(old) is type(new):
            for inner in fields(old):
                a, b = getattr(old, inner.name), getattr(new, inner.name)
                if a != b:
                    found.append(FieldChange((spec.name, inner.name), a, b))
        else:
            found.append(FieldChange((spec.name,), old, new))
    return tuple(found)


def put_back(settings: Settings, changes: tuple[FieldChange, ...]) -> Settings:
    """`settings` with each changed field set to its value before the change."""
    result = settings
    for change in changes:
        if len(change.path) == 1:
            name = change.path[0]
            value = _undone(getattr(result, name), change)
            result = replace(result, **{name: value})
        else:
            section, name = change.path
            value = _undone(getattr(getattr(result, section), name), change)
            inner = replace(getattr(result, section), **{name: value})
            result = replace(result, **{section: inner})
    return result


def _undone(now: Any, change: FieldChange) -> Any:
    """The field's value `now` with `change` taken back: only what it touched."""
    before, after = change.before, change.after
    if _is_records(before) and _is_records(after) and _is_records(now):
        return _records_undone(now, before, after)
    if isinstance(before, Mapping) and isinstance(after, Mapping) and isinstance(now, Mapping):
        result = dict(now)
        for key in before.keys() | after.keys():
            if before.get(key) != after.get(key):
                if key in before:
                    result[key] = before[key]
                else:
                    result.pop(key, None)
        return result
    return before


def _is_records(value: Any) -> bool:
    return isinstance(value, tuple) and all(hasattr(item, "id") for item in value)


def _records_undone(now: tuple[Any, ...], before: tuple[Any, ...], after: tuple[Any, ...]) -> Any:
    earlier = {r.id: r for r in before}
    later = {r.id: r for r in after}
    touched = {i for i in earlier.keys() | later.keys() if earlier.get(i) != later.get(i)}
    if not touched:  # only the order changed: put the earlier order back
        return before
    # Each record as it is now, but one the change touched as it was (or gone, if the
    # change added it).
    kept = [r for r in now if r.id not in touched or r.id in earlier]
    result = [earlier[r.id] if r.id in touched else r for r in kept]
    present = {r.id for r in result}
    for index, record in enumerate(before):
        if record.id in present:
            continue
        # Back where it was: before the first record that followed it and is still there.
        following = next((r.id for r in before[index + 1 :] if r.id in present), None)
        at = next(i for i, r in enumerate(result) if r.id == following) if following else None
        result.insert(len(result) if at is None else at, record)
        present.add(record.id)
    return tuple(result)


def merged(
    earlier: tuple[FieldChange, ...], later: tuple[FieldChange, ...]
) -> tuple[FieldChange, ...]:
    """Two successive changes as one: each field from its first value to its last,
    leaving out fields that ended where they started."""
    firsts = {c.path: c.before for c in earlier}
    lasts = {c.path: c.after for c in earlier}
    for change in later:
        firsts.setdefault(change.path, change.before)
        lasts[change.path] = change.after
    return tuple(
        FieldChange(path, firsts[path], lasts[path])
        for path in firsts
        if firsts[path] != lasts[path]
    )
