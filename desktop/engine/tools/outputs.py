"""Large tool outputs go to a file; the message keeps a preview and the path.

A message holding megabytes of command output would slow every screen and every
request that carries it, so text over `SPILL_BYTES` is saved whole to
`tool_outputs/{call_id}.txt` in the data folder and the result keeps the first
`PREVIEW_BYTES`, plus a line telling the model how to read the rest with `read_file`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SPILL_BYTES = 32 * 1024
PREVIEW_BYTES = 4 * 1024
OUTPUTS_FOLDER = "tool_outputs"
OUTPUT_PREFIX = "tool-output:"  # how read_file names a saved output
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True, slots=True)
class Kept:
    text: str  # the whole text, or a preview with a pointer to the file
    size: int  # bytes of the whole text (UTF-8)
    path: str | None  # relative to the data folder, when saved to a file


def output_name(call_id: str) -> str:
    """A file name safe on every OS, whatever the model's call id holds."""
    return (_UNSAFE.sub("_", call_id) or "call")[:120] + ".txt"


def keep(text: str, call_id: str, data_root: Path) -> Kept:
    data = text.encode("utf-8")
    if len(data) <= SPILL_BYTES:
        return Kept(text, len(data), None)
    folder = data_root / OUTPUTS_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    name = output_name(call_id)
    (folder / name).write_bytes(data)
    preview = data[:PREVIEW_BYTES].decode("utf-8", errors="ignore")
    note = (
        f"\n\n[Output truncated: {len(data)} bytes in total, the first {PREVIEW_BYTES} "
        f"shown. The whole text is saved; read it with read_file using path "
        f'"{OUTPUT_PREFIX}{name[:-4]}" and start_line/end_line.]'
    )
    return Kept(preview + note, len(data), f"{OUTPUTS_FOLDER}/{name}")


def saved_output(outputs_dir: Path, reference: str) -> Path:
    """The file behind `tool-output:{id}`; only names `output_name` can produce."""
    stem = reference[len(OUTPUT_PREFIX) :]
    if not stem or _UNSAFE.search(stem):
        raise ValueError(reference)
    return outputs_dir / f"{stem}.txt"
