"""Export a conversation to a file, or import one: the file work happens off the GUI thread."""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal, Slot

from desktop.core.errors import ParleyError
from desktop.engine.library import Library
from desktop.ui.viewmodels.tasks import TaskGroup

MAX_IMPORT_BYTES = 200 * 1024 * 1024  # a conversation export is text; refuse absurd files


def write_atomically(path: Path, text: str) -> None:
    """Temp file in the same folder, flushed, then renamed: never a half-written export."""
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def read_limited(path: Path) -> str:
    size = path.stat().st_size
    if size > MAX_IMPORT_BYTES:
        raise ParleyError(
            QCoreApplication.translate(
                "TransferViewModel", "%1 is %2 MiB; imports stop at 200 MiB."
            )
            .replace("%1", path.name)
            .replace("%2", str(size // (1024 * 1024)))
        )
    return path.read_text(encoding="utf-8")


class TransferViewModel(QObject):
    exported = Signal(str)  # the file written
    imported = Signal(str, int, int)  # conversation id, messages added, already present
    failed = Signal(str)

    def __init__(self, library: Library, tasks: TaskGroup, parent: QObject | None = None):
        super().__init__(parent)
        self._library = library
        self._tasks = tasks

    @Slot(str, str, bool, bool)
    def export_conversation(
        self, conversation_id: str, path: str, markdown: bool, branch_only: bool
    ) -> None:
        self._tasks.start(
            self._export(conversation_id, Path(path), markdown, branch_only), "export"
        )

    async def _export(
        self, conversation_id: str, path: Path, markdown: bool, branch_only: bool
    ) -> None:
        try:
            if markdown:
                text = self._library.export_markdown(conversation_id, branch_only=branch_only)
            else:
                text = self._library.export_json(conversation_id, branch_only=branch_only)
            await asyncio.to_thread(write_atomically, path, text)
        except (ParleyError, OSError) as error:
            self.failed.emit(
                self.tr("Could not export to %1: %2")
                .replace("%1", str(path))
                .replace("%2", str(error))
            )
        else:
            self.exported.emit(str(path))

    @Slot(str)
    def import_file(self, path: str) -> None:
        self._tasks.start(self._import(Path(path)), "import")

    async def _import(self, path: Path) -> None:
        try:
            text = await asyncio.to_thread(read_limited, path)
            result = self._library.import_json(text)
        except UnicodeDecodeError:
            self.failed.emit(self.tr("%1 is not a text file.").replace("%1", path.name))
        except (ParleyError, OSError) as error:
            self.failed.emit(
                self.tr("Could not import %1: %2")
                .replace("%1", path.name)
                .replace("%2", str(error))
            )
        else:
            self.imported.emit(result.conversation_id, result.added, result.skipped)
