"""Importers of other clients' exports: ChatGPT, Claude, Chatbox, Cherry Studio, LobeChat
and Jan. Each is a module with

- `CLIENT` (a short name, part of every id it derives) and `LABEL` (the client's name),
- `detect(files: ExportFiles) -> bool`: whether the export is this client's, judged by
  its content (file names inside it and the keys of its JSON), never by the file's name,
- `read(files: ExportFiles) -> Iterator[ImportedConversation | Skipped]`: the export's
  conversations one by one; a malformed one is a `Skipped` with the reason, never an
  exception that ends the rest. `ExportError` is for an export that cannot be read at
  all (its words are shown to the person).

They are plain functions on plain data (no Qt, no database): the import runs them in a
worker thread and hands each conversation to `storage.transfer.import_conversation`.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from desktop.engine.importers.files import ExportFiles

# In the order they are asked: the most specific shapes first.
_MODULES = ("chatgpt", "claude", "cherry", "chatbox", "lobechat", "jan")


def importers() -> list[ModuleType]:
    return [import_module(f"desktop.engine.importers.{name}") for name in _MODULES]


def sniff(files: ExportFiles) -> ModuleType | None:
    """The importer whose client made this export, or None when none recognises it."""
    for module in importers():
        try:
            if module.detect(files):
                return module
        except Exception:  # a detector that trips on odd input says no
            continue
    return None
