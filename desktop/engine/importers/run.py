"""Running an import of another client's export: read it whole into a preview first, then
write it conversation by conversation.

Two steps because the person decides in between: `read_export` parses the export (in a
worker thread: a large ChatGPT export takes seconds) and says what it holds and what will
be left out; `import_preview` writes what was read. Each conversation is its own
transaction (`storage.transfer.import_conversation`), so a cancel or a conversation that
cannot be stored stops or skips only that one: what was imported stays imported, and
importing the same export again adds nothing (its ids derive from the source's).

The preview holds where each image or file is in the export, not its bytes: the import
opens the export again and stores them one at a time (`attach.ExportAttacher`) before
the conversation's messages are written with them.

Both are plain blocking functions with no Qt and no event bus: the caller picks the
thread and tells the rest of Parley afterwards (`Library.import_export`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from desktop.core.i18n import joined, tr
from desktop.engine.importers import importers
from desktop.engine.importers.attach import ExportAttacher
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import ImportedConversation, Skipped
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.errors import StorageError
from desktop.storage.repository import ChatRepository
from desktop.storage.transfer import import_conversation


class ImportCancelled(Exception):
    """The person cancelled while the export was being read; nothing was written."""


@dataclass(frozen=True, slots=True)
class ExportTotals:
    conversations: int
    messages: int
    branches: int
    images: int  # images and files the source showed
    files: int = 0  # of those, the ones the export holds: they will be attached
    files_left_out: int = 0  # the ones it lacks, or Parley cannot show: a note each


@dataclass(frozen=True)
class ExportPreview:
    """What an export holds, as read: the conversations ready to import and what was left
    out. It keeps the parsed conversations (they are what gets imported), nothing of the
    export's raw files."""

    path: Path
    client: str  # the importer's CLIENT
    label: str  # the client's name as people know it ("ChatGPT")
    conversations: tuple[ImportedConversation, ...]
    skipped: tuple[Skipped, ...]  # whole conversations the importer could not read

    @property
    def totals(self) -> ExportTotals:
        items = self.conversations
        return ExportTotals(
            conversations=len(items),
            messages=sum(len(c.messages) for c in items),
            branches=sum(c.branches for c in items),
            images=sum(c.images for c in items),
            files=sum(len(c.files) for c in items),
            files_left_out=sum(c.files_left_out for c in items),
        )

    @property
    def notes(self) -> tuple[Skipped, ...]:
        """Per-conversation remarks ("images were not carried over"), named by title."""
        return tuple(
            Skipped(_title(item), note) for item in self.conversations for note in item.notes
        )

    @property
    def not_imported(self) -> tuple[Skipped, ...]:
        """Everything the preview lists as left out: skipped conversations, skipped
        messages inside imported ones, and the importers' notes."""
        inside = tuple(s for item in self.conversations for s in item.skipped)
        return self.skipped + inside + self.notes


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    total: int  # conversations the preview offered
    added: int  # conversations new to Parley
    updated: int  # conversations already here that received new messages
    unchanged: int  # conversations already here in full
    messages_added: int
    messages_present: int  # messages that were already here
    failed: tuple[Skipped, ...]  # conversations that could not be stored, and why
    cancelled: bool
    first_conversation_id: str | None  # the export's first conversation now in Parley
    files_added: int = 0  # images and files stored in the attachment store now
    skipped: tuple[Skipped, ...] = ()  # images and files that could not be, and why

    @property
    def done(self) -> int:
        return self.added + self.updated + self.unchanged + len(self.failed)


def _title(item: ImportedConversation) -> str:
    return item.conversation.title or tr("Untitled chat")


def sniff_among(files: ExportFiles, readers: Sequence[ModuleType]) -> ModuleType | None:
    """The first of `readers` that recognises the export (a detector that fails says no)."""
    for module in readers:
        try:
            if module.detect(files):
                return module
        except Exception:
            continue
    return None


def read_export(
    path: Path,
    *,
    readers: Sequence[ModuleType] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> ExportPreview:
    """Read the export at `path` (a zip, a folder or a JSON file) into a preview.

    `readers` are the importer modules asked, in order (Parley's own by default).
    Raises `ExportError` when no importer knows the export or it cannot be read at all,
    and `ImportCancelled` when `cancelled()` turns true between two conversations.
    """
    readers = importers() if readers is None else list(readers)
    with ExportFiles(Path(path)) as files:
        module = sniff_among(files, readers)
        if module is None:
            raise ExportError(
                tr(
                    "Parley does not recognise {name} as an export it can read. It reads "
                    "exports from {clients}."
                ).format(name=Path(path).name, clients=joined(m.LABEL for m in readers))
            )
        conversations: list[ImportedConversation] = []
        skipped: list[Skipped] = []
        for item in module.read(files):
            if cancelled():
                raise ImportCancelled
            if isinstance(item, Skipped):
                skipped.append(item)
            else:
                conversations.append(item)
    return ExportPreview(
        path=Path(path),
        client=str(module.CLIENT),
        label=str(module.LABEL),
        conversations=tuple(conversations),
        skipped=tuple(skipped),
    )


def import_preview(
    database: Database,
    preview: ExportPreview,
    *,
    progress: Callable[[int, int], None],
    cancelled: Callable[[], bool],
    attachments: AttachmentStore | None = None,
) -> ImportOutcome:
    """Store every conversation of `preview`, one transaction each; see the module doc.

    A conversation the database refuses (`ImportConflictError`, any `StorageError`) is
    counted in `failed` with its reason and the rest goes on. Its images and files go
    into `attachments` first; one that cannot is counted in `skipped` with its reason
    (and without a store, none can). `cancelled()` is asked before each conversation;
    `progress(done, total)` is called after each.
    """
    repository = ChatRepository(database)
    total = len(preview.conversations)
    added = updated = unchanged = messages_added = messages_present = files_added = 0
    failed: list[Skipped] = []
    skipped: list[Skipped] = []
    first: str | None = None
    stopped = False
    with ExportAttacher(attachments, preview.path) as attacher:
        for done, item in enumerate(preview.conversations, start=1):
            if cancelled():
                stopped = True
                break
            conversation = item.conversation
            try:
                known = repository.get_conversation(conversation.id) is not None
                messages = list(item.messages)
                if item.files:
                    present = _present(repository, item) if known else set()
                    attached = attacher.attach(messages, item.files, present)
                    messages = attached.messages
                result = import_conversation(database, conversation, messages)
            except StorageError as error:
                failed.append(Skipped(_title(item), str(error)))
            else:
                if item.files:
                    files_added += attached.added
                    skipped += [
                        Skipped(
                            tr("{name} in “{title}”").format(name=name, title=_title(item)),
                            reason,
                        )
                        for name, reason in attached.skipped
                    ]
                messages_added += result.added
                messages_present += result.skipped
                if not known:
                    added += 1
                elif result.added:
                    updated += 1
                else:
                    unchanged += 1
                first = first or conversation.id
            progress(done, total)
    return ImportOutcome(
        total=total,
        added=added,
        updated=updated,
        unchanged=unchanged,
        messages_added=messages_added,
        messages_present=messages_present,
        failed=tuple(failed),
        cancelled=stopped,
        first_conversation_id=first,
        files_added=files_added,
        skipped=tuple(skipped),
    )


def _present(repository: ChatRepository, item: ImportedConversation) -> set[str]:
    """The messages holding files that an earlier import already stored."""
    wanted = {f.message_id for f in item.files}
    return {i for i in wanted if repository.get_message(i) is not None}
