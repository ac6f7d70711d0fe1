from pathlib import Path

from desktop.core.paths import ENV_DATA_DIR, DataPaths, resolve_data_dir


def test_command_line_wins_over_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "env"))
    assert resolve_data_dir(str(tmp_path / "cli")) == tmp_path / "cli"
    assert resolve_data_dir(None) == tmp_path / "env"


def test_default_is_per_user(monkeypatch, tmp_path):
    monkeypatch.delenv(ENV_DATA_DIR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert resolve_data_dir(None) == tmp_path / "parley"


def test_data_paths_name_the_files_inside_the_folder(tmp_path):
    paths = DataPaths(tmp_path / "data")
    assert not (tmp_path / "data").exists()  # naming paths creates nothing
    paths.ensure()
    assert paths.database == tmp_path / "data" / "parley.db"
    assert paths.settings.name == "settings.json"
    assert paths.log_file.parent.is_dir()
    assert isinstance(paths.root, Path)
