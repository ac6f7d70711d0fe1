"""Saved prompts in settings.json: written and read back; a broken entry costs only
itself, never the rest of the settings, and the file as it was is copied first."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from desktop.core.prompts import SavedPrompt
from desktop.core.settings import ProviderSettings, Settings, Theme
from desktop.storage.settings_file import load_settings, save_settings

BASE_URL = "http://127.0.0.1:11434/v1"
PROVIDER = {"id": "local", "name": "Local", "base_url": BASE_URL, "models": ["llama3"]}


def test_prompts_are_saved_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    prompts = (
        SavedPrompt("p1", "Summarise", "Summarise this:\n\n"),
        SavedPrompt("p2", "Translate", "Into {{language}}, please."),
    )
    save_settings(path, Settings(prompts=prompts))
    assert json.loads(path.read_text(encoding="utf-8"))["prompts"] == [
        {"id": "p1", "title": "Summarise", "text": "Summarise this:\n\n"},
        {"id": "p2", "title": "Translate", "text": "Into {{language}}, please."},
    ]
    loaded = load_settings(path)
    assert loaded.settings.prompts == prompts
    assert loaded.error is None and loaded.backup_path is None


def test_a_malformed_prompt_keeps_the_other_settings_and_a_copy(tmp_path: Path, caplog) -> None:
    path = tmp_path / "settings.json"
    original = json.dumps(
        {
            "version": 1,
            "providers": [PROVIDER],
            "appearance": {"theme": "dark"},
            "currency": "EUR",
            "prompts": [
                {"id": "ok", "title": "Kept", "text": "Still here"},
                {"id": "bad", "title": ["not", "a", "string"], "text": "lost?"},
                42,
            ],
        }
    )
    path.write_text(original, encoding="utf-8")

    with caplog.at_level(logging.WARNING, logger="desktop.storage.settings_file"):
        loaded = load_settings(path)

    settings = loaded.settings
    assert loaded.error is None  # Parley did not fall back to default settings
    assert settings.providers == (
        ProviderSettings("local", "Local", base_url=BASE_URL, models=("llama3",)),
    )
    assert settings.appearance.theme is Theme.DARK and settings.currency == "EUR"
    assert settings.prompts == (SavedPrompt("ok", "Kept", "Still here"),)
    # The next save drops the broken entries: the file as it was is kept beside it.
    assert loaded.backup_path is not None
    assert loaded.backup_path.read_text(encoding="utf-8") == original
    assert path.read_text(encoding="utf-8") == original  # the original is left as it is
    assert "prompts[1].title" in caplog.text and "prompts[2]" in caplog.text


def test_a_prompts_value_that_is_not_a_list_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"providers": [PROVIDER], "prompts": "Summarise"}), encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.error is None
    assert [p.id for p in loaded.settings.providers] == ["local"]
    assert loaded.settings.prompts == ()
    assert loaded.backup_path is not None
