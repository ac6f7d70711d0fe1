"""settings.json: defaults when missing, precise errors, backups, atomic saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop.core.models import ModelRef
from desktop.core.settings import AppearanceSettings, ProviderSettings, Settings, Theme
from desktop.storage.settings_file import load_settings, save_settings

SAMPLE = Settings(
    providers=(
        ProviderSettings(
            "local", "Ollama", base_url="http://127.0.0.1:11434/v1", models=("llama3", "qwen")
        ),
        ProviderSettings(
            "openai",
            "OpenAI",
            base_url="https://api.openai.com/v1",
            default_model="gpt-4o",
            models=("gpt-4o",),
        ),
    ),
    appearance=AppearanceSettings(Theme.DARK, 13),
    last_model=ModelRef("local", "qwen"),
)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "settings.json"


def _invalid_copies(path: Path) -> list[Path]:
    return sorted(path.parent.glob("settings.invalid-*.json"))


def test_a_missing_file_gives_defaults_and_no_error(path: Path) -> None:
    loaded = load_settings(path)
    assert loaded.settings == Settings()
    assert loaded.error is None and loaded.backup_path is None
    assert not path.exists()


def test_save_then_load_round_trips(path: Path) -> None:
    save_settings(path, SAMPLE)
    loaded = load_settings(path)
    assert loaded.error is None
    assert loaded.settings == SAMPLE


def test_saved_file_is_indented_json_with_a_trailing_newline(path: Path) -> None:
    save_settings(path, SAMPLE)
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n")
    assert '\n  "providers": [' in text
    assert json.loads(text)["version"] == 1
    assert "key" not in text.lower()  # API keys are never part of settings


def test_save_replaces_atomically_and_leaves_no_temp_files(path: Path) -> None:
    save_settings(path, Settings())
    save_settings(path, SAMPLE)
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]
    assert load_settings(path).settings == SAMPLE


def test_a_failed_save_keeps_the_old_file_and_cleans_up(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_settings(path, SAMPLE)
    before = path.read_bytes()

    def refuse(*_args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("desktop.storage.settings_file.os.replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        save_settings(path, Settings())
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]


def test_invalid_json_reports_line_and_column_and_keeps_a_copy(path: Path) -> None:
    bad = '{\n  "providers": [],\n    oops\n}\n'
    path.write_text(bad, encoding="utf-8")

    loaded = load_settings(path)

    assert loaded.settings == Settings()
    assert loaded.error is not None
    assert loaded.error.field == "line 3, column 5"
    assert "line 3, column 5" in str(loaded.error)
    assert loaded.backup_path is not None
    assert loaded.backup_path.parent == path.parent
    assert loaded.backup_path.read_text(encoding="utf-8") == bad
    assert path.read_text(encoding="utf-8") == bad  # the original is untouched
    assert _invalid_copies(path) == [loaded.backup_path]


def test_a_schema_error_names_the_field(path: Path) -> None:
    data = {"providers": [{"id": "local", "name": "Local", "base_url": "ftp://nope"}]}
    original = json.dumps(data)
    path.write_text(original, encoding="utf-8")

    loaded = load_settings(path)

    assert loaded.error is not None
    assert loaded.error.field == "providers[0].base_url"
    assert str(loaded.error).startswith("providers[0].base_url: ")
    assert loaded.settings == Settings()
    assert loaded.backup_path is not None and loaded.backup_path.read_text() == original
    assert path.read_text(encoding="utf-8") == original


def test_backups_never_overwrite_each_other(path: Path) -> None:
    path.write_text("{", encoding="utf-8")
    first = load_settings(path).backup_path
    path.write_text("[", encoding="utf-8")
    second = load_settings(path).backup_path
    assert first is not None and second is not None and first != second
    assert first.read_text() == "{" and second.read_text() == "["
    assert len(_invalid_copies(path)) == 2


def test_an_empty_file_is_reported_not_fatal(path: Path) -> None:
    path.write_bytes(b"")
    loaded = load_settings(path)
    assert loaded.error is not None and loaded.error.field == "line 1, column 1"
    assert loaded.settings == Settings()


def test_a_utf8_bom_is_accepted(path: Path) -> None:
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"appearance": {"theme": "light"}}).encode())
    loaded = load_settings(path)
    assert loaded.error is None
    assert loaded.settings.appearance.theme is Theme.LIGHT


def test_an_unreadable_path_gives_defaults_and_an_error(tmp_path: Path) -> None:
    folder_in_the_way = tmp_path / "settings.json"
    folder_in_the_way.mkdir()
    loaded = load_settings(folder_in_the_way)
    assert loaded.settings == Settings()
    assert loaded.error is not None and "could not be read" in str(loaded.error)
    assert loaded.backup_path is None
