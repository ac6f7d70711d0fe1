"""What a save changed, and putting it back without touching what changed since."""

from __future__ import annotations

from dataclasses import replace

from desktop.core.models import ModelRef
from desktop.core.settings import AppearanceSettings, ProviderSettings, Settings, Theme
from desktop.core.settings_changes import FieldChange, changed_fields, merged, put_back
from desktop.core.usage_settings import ModelPrice


def test_a_section_is_compared_field_by_field_and_other_fields_whole():
    before = Settings()
    after = replace(
        before,
        appearance=AppearanceSettings(theme=Theme.DARK, font_size=14),
        ocr_model=ModelRef("local", "gpt-4o"),
        currency="EUR",
    )
    assert changed_fields(before, after) == (
        FieldChange(("appearance", "theme"), Theme.SYSTEM, Theme.DARK),
        FieldChange(("appearance", "font_size"), None, 14),
        FieldChange(("ocr_model",), None, ModelRef("local", "gpt-4o")),
        FieldChange(("currency",), "USD", "EUR"),
    )
    assert changed_fields(after, after) == ()


def test_putting_back_leaves_what_changed_since_alone():
    before = Settings()
    dark = replace(before, appearance=replace(before.appearance, theme=Theme.DARK))
    changes = changed_fields(before, dark)
    # Meanwhile: a bigger text size (same section) and the last model (elsewhere).
    later = replace(
        dark,
        appearance=replace(dark.appearance, font_size=16),
        last_model=ModelRef("local", "m"),
    )
    restored = put_back(later, changes)
    assert restored.appearance.theme is Theme.SYSTEM
    assert restored.appearance.font_size == 16
    assert restored.last_model == ModelRef("local", "m")


def test_merged_changes_run_from_the_first_value_to_the_last():
    a, b, c = (replace(Settings(), currency=x) for x in ("USD", "EUR", "GBP"))
    first, second = changed_fields(a, b), changed_fields(b, c)
    assert merged(first, second) == (FieldChange(("currency",), "USD", "GBP"),)
    back = changed_fields(c, a)
    assert merged(merged(first, second), back) == ()  # back where it started


def test_records_and_tables_are_put_back_one_by_one():
    a, b = ProviderSettings("a", "A"), ProviderSettings("b", "B")
    before = Settings(providers=(a, b), prices={})
    renamed = replace(before, providers=(replace(a, name="Renamed"), b))
    rename = changed_fields(before, renamed)
    # Meanwhile, not through the Settings window: a found local server is added, and b
    # is changed.
    ollama = ProviderSettings("ollama", "Ollama")
    now = replace(renamed, providers=(*renamed.providers[:1], replace(b, name="B2"), ollama))
    assert put_back(now, rename).providers == (a, replace(b, name="B2"), ollama)

    # Undoing an add takes away only that one; undoing a removal puts it back in place.
    added = replace(before, providers=(a, b, ollama))
    assert put_back(replace(added, providers=(ollama, a, b)), changed_fields(before, added)) == (
        replace(before, providers=(a, b))
    )
    removed = replace(before, providers=(b,))
    later = replace(removed, providers=(b, ollama))
    assert put_back(later, changed_fields(before, removed)).providers == (a, b, ollama)

    # A table: only the keys the change touched.
    m1, m2 = ModelRef("a", "m1"), ModelRef("a", "m2")
    priced = replace(before, prices={m1: ModelPrice(1, 2)})
    now = replace(priced, prices={m1: ModelPrice(1, 2), m2: ModelPrice(3, 4)})
    assert put_back(now, changed_fields(before, priced)).prices == {m2: ModelPrice(3, 4)}
