"""Where Parley keeps its data: per-OS default, `PARLEY_DATA_DIR`, or `--data-dir`."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

ENV_DATA_DIR = "PARLEY_DATA_DIR"


def default_data_dir() -> Path:
    home = Path.home()
    if sys.platform == "win32":
        base = os.environ.get("APPDATA")
        return (Path(base) if base else home / "AppData" / "Roaming") / "Parley"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Parley"
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else home / ".local" / "share") / "parley"


def resolve_data_dir(cli_value: str | None = None) -> Path:
    """`--data-dir` wins over `PARLEY_DATA_DIR`, which wins over the per-OS default."""
    chosen = cli_value or os.environ.get(ENV_DATA_DIR) or None
    return Path(chosen).expanduser().resolve() if chosen else default_data_dir()


@dataclass(frozen=True, slots=True)
class DataPaths:
    """The files inside one data folder. Creating the folder is the caller's decision."""

    root: Path

    @property
    def database(self) -> Path:
        return self.root / "parley.db"

    @property
    def settings(self) -> Path:
        return self.root / "settings.json"

    @property
    def attachments(self) -> Path:
        """The content-addressed copies of attached files (`storage/attachments.py`)."""
        return self.root / "attachments"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def log_file(self) -> Path:
        return self.logs / "parley.log"

    @property
    def ocr_cache(self) -> Path:
        return self.root / "ocr_cache"

    def ensure(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.logs.mkdir(exist_ok=True)
