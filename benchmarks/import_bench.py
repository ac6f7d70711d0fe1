"""Importing another client's export (desktop/engine/importers/): time and memory.

Run from the repository root:  python benchmarks/import_bench.py [--large-mb 100]

Writes ChatGPT-shaped exports (`conversations.json`: a node tree per conversation, as
the ChatGPT importer reads it) into a temporary folder, then, each phase in a process
of its own so its peak memory is its own:
- 10,000 messages (500 conversations of 20 messages of about 400 characters): reading
  the export into its preview (`read_export`) and importing it into a fresh database
  through the real migrations (`import_preview`). Target: <= 10 s in all.
- a ChatGPT export of about `--large-mb` MB: reading it into its preview, its peak
  resident memory, against the floor of `json.loads` of the same file in the same kind
  of process.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.phases import run_phase

WORDS = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "while"]
WORDS += ["东京", "and", "京都", "trains", "run", "late"]


def _text(seed: int, chars: int) -> str:
    words = [WORDS[(seed * 7 + i * 3) % len(WORDS)] for i in range(chars // 5)]
    return " ".join(words)[:chars]


def write_export(path: Path, conversations: int, messages: int, chars: int) -> None:
    """A ChatGPT `conversations.json` of linear conversations, written as it is built."""
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        for c in range(conversations):
            mapping: dict[str, dict] = {"root": {"id": "root", "message": None, "parent": None}}
            parent = "root"
            for m in range(messages):
                node = f"c{c}-m{m}"
                role = "user" if m % 2 == 0 else "assistant"
                mapping[node] = {
                    "id": node,
                    "parent": parent,
                    "children": [],
                    "message": {
                        "id": node,
                        "author": {"role": role},
                        "create_time": 1_700_000_000 + c * 1000 + m,
                        "content": {"content_type": "text", "parts": [_text(c + m, chars)]},
                        "status": "finished_successfully",
                        "metadata": {"model_slug": "gpt-4o"} if role == "assistant" else {},
                        "recipient": "all",
                    },
                }
                mapping[parent]["children"] = [node]
                parent = node
            conversation = {
                "id": f"conv-{c}",
                "conversation_id": f"conv-{c}",
                "title": f"Conversation {c}",
                "create_time": 1_700_000_000 + c * 1000,
                "update_time": 1_700_000_000 + c * 1000 + messages,
                "current_node": parent,
                "mapping": mapping,
            }
            out.write(("," if c else "") + json.dumps(conversation, ensure_ascii=False))
        out.write("]")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def phase_small(folder: Path) -> dict[str, float]:
    from desktop.engine.importers.run import import_preview, read_export
    from desktop.storage.database import Database

    started = time.perf_counter()
    preview = read_export(folder / "small" / "conversations.json")
    read_s = time.perf_counter() - started
    database = Database.open(folder / "parley.db")
    started = time.perf_counter()
    outcome = import_preview(database, preview, progress=lambda *_: None, cancelled=lambda: False)
    import_s = time.perf_counter() - started
    return {
        "messages": preview.totals.messages,
        "added": outcome.messages_added,
        "read_s": read_s,
        "import_s": import_s,
        "peak_mb": _peak_mb(),
    }


def phase_large(folder: Path) -> dict[str, float]:
    from desktop.engine.importers.run import read_export

    before = _peak_mb()
    started = time.perf_counter()
    preview = read_export(folder / "large" / "conversations.json")
    return {
        "messages": preview.totals.messages,
        "read_s": time.perf_counter() - started,
        "peak_mb": _peak_mb(),
        "start_mb": before,
    }


def phase_floor(folder: Path) -> dict[str, float]:
    """`json.loads` of the same file: what reading it whole costs at least."""
    started = time.perf_counter()
    data = json.loads((folder / "large" / "conversations.json").read_text(encoding="utf-8"))
    return {"items": len(data), "read_s": time.perf_counter() - started, "peak_mb": _peak_mb()}


PHASES = {"small": phase_small, "large": phase_large, "floor": phase_floor}


def _run(phase: str, folder: Path) -> dict[str, float]:
    return run_phase(__file__, phase, folder)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase", choices=list(PHASES))
    parser.add_argument("--folder")
    parser.add_argument("--large-mb", type=int, default=100)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(PHASES[args.phase](Path(args.folder))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "small").mkdir()
        (folder / "large").mkdir()
        write_export(folder / "small" / "conversations.json", 500, 20, 400)
        # About 1.1 KB a message with its node: 100 MB is about 90,000 messages.
        conversations = max(1, args.large_mb * 1_000_000 // (1_100 * 20))
        write_export(folder / "large" / "conversations.json", conversations, 20, 800)
        size_mb = (folder / "large" / "conversations.json").stat().st_size / 1e6
        small = _run("small", folder)
        print("import, offscreen, each phase in its own process")
        print(
            f"10,000-message ChatGPT export: {small['messages']:.0f} messages read in "
            f"{small['read_s']:.2f} s, imported in {small['import_s']:.2f} s "
            f"({small['added']:.0f} added; target <= 10 s in all); peak {small['peak_mb']:.0f} MB"
        )
        large, floor = _run("large", folder), _run("floor", folder)
        print(
            f"{size_mb:.0f} MB ChatGPT export: {large['messages']:.0f} messages read in "
            f"{large['read_s']:.1f} s, peak {large['peak_mb']:.0f} MB "
            f"(json.loads of the same file: {floor['read_s']:.1f} s, "
            f"peak {floor['peak_mb']:.0f} MB)"
        )


if __name__ == "__main__":
    main()
