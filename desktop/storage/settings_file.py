"""Reading and writing `settings.json`; the schema itself is `desktop.core.settings`.

A broken settings file must never stop Parley from starting, and must never be lost:
on any problem we start with defaults, report the precise problem (a field path such as
`providers[0].base_url`, or "line 3, column 5" for a JSON syntax error) and keep a copy
of the bad file beside it. The original is left as it is, so the person can fix it; a
later save from the app replaces it atomically.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr
from desktop.core.prompts import read_prompts
from desktop.core.settings import Settings, dump_settings, parse_settings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SettingsLoad:
    """The settings to use, plus what went wrong (if anything) for the UI to show."""

    settings: Settings
    error: SettingsError | None = None
    backup_path: Path | None = None


def load_settings(path: Path) -> SettingsLoad:
    """Never raises for a bad file: defaults + error + backup path instead."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return SettingsLoad(Settings())
    except OSError as exc:
        problem = tr("{name} could not be read ({reason})").format(
            name=path.name, reason=exc.strerror or type(exc).__name__
        )
        return SettingsLoad(Settings(), SettingsError("", problem))
    try:
        data = json.loads(raw.decode("utf-8-sig"))  # Notepad may add a BOM
        settings = parse_settings(data)
    except UnicodeDecodeError as exc:
        error = SettingsError(
            tr("byte {offset}").format(offset=exc.start), tr("the file is not valid UTF-8 text")
        )
    except json.JSONDecodeError as exc:
        error = SettingsError(
            tr("line {line}, column {column}").format(line=exc.lineno, column=exc.colno), exc.msg
        )
    except SettingsError as exc:
        error = exc
    else:
        return SettingsLoad(settings, backup_path=_keep_skipped_prompts(path, raw, data))
    return SettingsLoad(Settings(), error, _keep_copy(path, raw))


def _keep_skipped_prompts(path: Path, raw: bytes, data: dict[str, object]) -> Path | None:
    """Saved prompts are read leniently: a broken entry is left out and the rest of
    the settings are used. The next save would drop it for good, so the file as it was
    is copied beside it first (and the problem logged)."""
    skipped = read_prompts(data.get("prompts", [])).skipped
    if not skipped:
        return None
    copy = _keep_copy(path, raw)
    for problem in skipped:
        log.warning("Left out a saved prompt of %s: %s (a copy: %s)", path.name, problem, copy)
    return copy


def _keep_copy(path: Path, raw: bytes) -> Path | None:
    """Write `raw` to `settings.invalid-YYYYMMDD-HHMMSS[-N].json`, never overwriting."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")  # local time: for people to read
    suffix = path.suffix or ".json"
    for n in range(1, 1000):
        extra = "" if n == 1 else f"-{n}"
        candidate = path.with_name(f"{path.stem}.invalid-{stamp}{extra}{suffix}")
        try:
            with candidate.open("xb") as copy:  # "x": fails if it exists, even in a race
                copy.write(raw)
        except FileExistsError:
            continue
        except OSError:
            return None  # read-only folder and the like: the original is still there
        return candidate
    return None


def save_settings(path: Path, settings: Settings) -> None:
    """Atomically replace `path`: temp file in the same folder, fsync, os.replace.

    A crash at any point leaves either the old file or the new one, never half of one.
    API keys are not part of `Settings`, so they cannot end up here.
    """
    text = json.dumps(dump_settings(settings), indent=2, ensure_ascii=False) + "\n"
    write_text_atomically(path, text)


def write_text_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` so that a crash leaves the old file or the new one."""
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_folder(path.parent)


def fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); not possible, nor needed, on Windows."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
