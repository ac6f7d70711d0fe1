"""The open conversation: its messages, sending and stopping; the parts the window binds
to (model picker, attachments, approvals, context, assistants, usage) are its children."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication

from desktop.core.errors import ParleyError
from desktop.core.events import (
    ActivePathChanged,
    ConversationsChanged,
    EngineEvent,
    GenerationFinished,
    GenerationStarted,
    MessageChanged,
)
from desktop.core.models import Conversation, ModelRef, Role, SourceKind
from desktop.core.settings import Settings
from desktop.engine.memory.service import MemoryService
from desktop.engine.settings_service import SettingsService
from desktop.engine.turn.chat_service import ChatService, title_from
from desktop.render.links import cite_number, copy_index, is_safe_link
from desktop.render.markdown import code_blocks
from desktop.ui.image_loader import ImageLoader
from desktop.ui.viewmodels.approvals import ApprovalsViewModel
from desktop.ui.viewmodels.assistant_picker import AssistantPickerModel
from desktop.ui.viewmodels.attachment_tray import AttachmentTray, SendBatch
from desktop.ui.viewmodels.citation_card import CitationCard
from desktop.ui.viewmodels.context import ContextViewModel
from desktop.ui.viewmodels.context_meter import ContextMeterModel
from desktop.ui.viewmodels.find import FindModel
from desktop.ui.viewmodels.knowledge_progress import KnowledgeProgress
from desktop.ui.viewmodels.knowledge_status import KnowledgeStatusModel
from desktop.ui.viewmodels.memory_cards import MemoryCardsViewModel
from desktop.ui.viewmodels.model_picker import ModelPickerModel
from desktop.ui.viewmodels.properties import read_only
from desktop.ui.viewmodels.sources import SourcesViewModel
from desktop.ui.viewmodels.starters import StartersModel
from desktop.ui.viewmodels.suggestions import SuggestionsModel
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.viewmodels.tool_outputs import ToolOutputs
from desktop.ui.viewmodels.transcript import TranscriptModel
from desktop.ui.viewmodels.transfer import write_atomically
from desktop.ui.viewmodels.usage import UsageModel
from desktop.ui.viewmodels.workspace import WorkspaceModel

if TYPE_CHECKING:
    from desktop.engine.attachments.service import AttachmentService

log = logging.getLogger(__name__)


class ChatViewModel(QObject):
    conversationIdChanged = Signal(str)
    titleChanged = Signal(str)
    busyChanged = Signal(bool)
    errorOccurred = Signal(str)
    # A submitted message is saved (and its answer started), or could not be: the
    # submission's id (as given to `submit`), its text, and why it was not sent ("" when
    # it was). The composer that sent a message that failed takes its text back, so
    # nothing typed is lost, and shows why.
    sendDone = Signal(str, str, str)
    generationFinished = Signal(str, str, str)  # conversation id, message id, status
    messageSaved = Signal(str)  # the file a message's text was saved to

    def __init__(
        self,
        chat: ChatService,
        settings: SettingsService,
        tasks: TaskGroup,
        images: ImageLoader | None = None,
        parent: QObject | None = None,
        *,
        attachments: AttachmentService | None = None,
        knowledge: KnowledgeProgress | None = None,
        memory: MemoryService | None = None,
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._tasks = tasks
        self.tray = AttachmentTray(attachments, tasks, self)  # the composer's files
        self.transcript = TranscriptModel(chat, self.tray.files.note, images, self)
        self.transcript.stale.connect(self._show_again)
        self.find = FindModel(self.transcript, self)  # in-chat find (before the views connect)
        self._conversation_id = ""
        # The new chat a first message is on its way to, until it is saved.
        self._new_chat: Conversation | None = None
        self._title = ""
        self._busy = False
        self.models = ModelPickerModel(settings, self)  # the composer's model and effort
        self.models.errorOccurred.connect(self.errorOccurred)
        self.transcript.messagesRead.connect(self.models.follow_model_of)
        chat.events.subscribe(self._on_engine_event)
        settings.changed.subscribe(self._on_settings_changed)
        self._on_settings_changed(settings.settings)
        self.approvals = ApprovalsViewModel(chat, tasks, self)
        self.workspace = WorkspaceModel(chat, self)
        self.outputs = ToolOutputs()  # app.py gives it the data folder
        self.sources = SourcesViewModel(tasks, self)  # the passage behind a citation
        self.memory_cards = MemoryCardsViewModel(memory, tasks, self)  # Edit / Undo a save
        self.conversationIdChanged.connect(self.workspace.follow)
        self.context = ContextViewModel(chat, tasks, self)  # summary divider, pins
        self.conversationIdChanged.connect(self.context.follow)
        self.conversationIdChanged.connect(self.tray.follow)
        self.assistants = AssistantPickerModel(chat, settings, self)
        self.conversationIdChanged.connect(self.assistants.follow)
        self.assistants.modelWanted.connect(self.models.select_ref)
        self.assistants.conversationCreated.connect(self.open_conversation)
        self.assistants.follow(self._conversation_id)  # the new chat shown at start
        # The header's "Knowledge: Docs (indexing 40%)" for the assistant talked to.
        self.knowledge = KnowledgeStatusModel(settings, knowledge or KnowledgeProgress(tasks), self)
        self.assistants.changed.connect(lambda: self.knowledge.follow(self.assistants.current.id))
        self.knowledge.follow(self.assistants.current.id)
        self.suggestions = SuggestionsModel(chat, self)  # follow-up chips
        self.conversationIdChanged.connect(self.suggestions.follow)
        self.suggestions.chosen.connect(self.submit)
        self.starters = StartersModel(self.assistants, self)  # what an empty chat offers
        self.starters.chosen.connect(self.submit)
        self.usage = UsageModel(chat, settings, self)  # tokens and cost
        self.conversationIdChanged.connect(self.usage.follow)
        self.transcript.set_cost_text(self.usage.cost_text)
        self.meter = ContextMeterModel(chat, settings, tasks, self)  # the composer's meter
        self.conversationIdChanged.connect(self.meter.follow)
        self.models.selectedModelChanged.connect(
            lambda _i: self.meter.set_model(self.models.selected_model())
        )
        self.tray.changed.connect(lambda: self.meter.set_files(self.tray.ids()))
        self.assistants.changed.connect(
            lambda: self.meter.set_assistant(self.assistants.current.id)
        )
        self.meter.set_model(self.models.selected_model())
        self.meter.set_assistant(self.assistants.current.id)
        # Before the chat switches to it: the new conversation gets the picked assistant.
        self.workspace.conversationCreated.connect(self.assistants.adopt)
        self.workspace.conversationCreated.connect(self.open_conversation)

    # --- properties ---------------------------------------------------------------

    def _get_conversation_id(self) -> str:
        return self._conversation_id

    def _set_conversation_id(self, value: str) -> None:
        if value != self._conversation_id:
            self._conversation_id = value
            self.conversationIdChanged.emit(value)

    conversationId = read_only(str, _get_conversation_id, notify=conversationIdChanged)

    def _get_title(self) -> str:
        return self._title

    def _set_title(self, value: str) -> None:
        if value != self._title:
            self._title = value
            self.titleChanged.emit(value)

    title = read_only(str, _get_title, notify=titleChanged)

    def _get_busy(self) -> bool:
        return self._busy

    def _set_busy(self, value: bool) -> None:
        if value != self._busy:
            self._busy = value
            self.busyChanged.emit(value)

    busy = read_only(bool, _get_busy, notify=busyChanged)

    # --- slots --------------------------------------------------------------------

    @Slot(str)
    @Slot(str, str)
    def open_conversation(self, conversation_id: str, focus_message_id: str = "") -> None:
        conversation = self._chat.conversation(conversation_id) if conversation_id else None
        if conversation is None:
            self.new_chat()
            return
        if focus_message_id:
            try:
                self._chat.reveal(focus_message_id)  # a hit on another version: show it
            except ParleyError:
                focus_message_id = ""  # deleted since the search ran
        self._set_conversation_id(conversation.id)
        self._set_title(conversation.title)
        self.models.follow()
        self.transcript.show(conversation.id, focus_message_id)
        self._set_busy(self._chat.is_generating(conversation.id))

    @Slot()
    def new_chat(self) -> None:
        self._new_chat = None
        self._set_conversation_id("")
        self._set_title("")
        self.transcript.clear()
        self._set_busy(False)

    def _show_again(self) -> None:
        if self._conversation_id:
            self.open_conversation(self._conversation_id)

    @Slot(str, result=bool)
    def submit(self, text: str, submission: str = "") -> bool:
        """Start sending `text` and the tray's files; True when accepted (the composer
        may clear itself). The files leave the tray once the message is saved.
        `submission` is the caller's id for this send: `sendDone` carries it back."""
        batch = self.tray.batch()
        if not text.strip() and not batch:
            return False
        model = self._require_model()
        if model is None:
            return False
        target: str | Conversation = self._conversation_id
        if not target:
            # Saved with the message, not before: a message the disk has no room for
            # leaves no empty chat behind. The chat opens once it is saved.
            if self._new_chat is None:
                title = title_from(text or batch.names[0])
                self._new_chat = self._chat.new_chat(title, self.assistants.pending)
            target = self._new_chat
        self._tasks.start(self._send(submission, target, text, model, batch), "send")
        return True

    @Slot()
    def stop(self) -> None:
        if self._conversation_id:
            self._tasks.start(self._chat.stop(self._conversation_id), "stop")

    # --- per-message actions (wired to the engine's version operations) -----------

    @Slot(str, str)
    def edit_message(self, message_id: str, text: str) -> None:
        """Save `text` as a new version of a user message and answer it again."""
        model = self._require_model()
        if model is not None and text.strip():
            self._run(self._chat.edit(message_id, text, model), "edit")

    @Slot(str)
    def regenerate(self, message_id: str) -> None:
        """A new answer beside an assistant message (with the model picked now)."""
        model = self._require_model()
        if model is not None:
            self._run(self._chat.regenerate(message_id, model), "regenerate")

    @Slot(str, int)
    def show_version(self, message_id: str, step: int) -> None:
        """Switch to the previous (-1) or next (+1) sibling version of a message."""
        self._chat.switch_version(message_id, step)

    @Slot(str)
    def delete_message(self, message_id: str) -> None:
        """Remove a message and what followed it on its branch."""
        self._run(self._chat.delete_message(message_id), "delete-message")

    @Slot(str)
    def continue_message(self, message_id: str) -> None:
        """Carry on a stopped or interrupted answer."""
        self._run(self._chat.continue_message(message_id), "continue")

    @Slot(str)
    def retry(self, message_id: str) -> None:
        """Try a failed answer again; the failed one stays as an earlier version."""
        self.regenerate(message_id)

    def _require_model(self) -> ModelRef | None:
        model = self.models.selected_model()
        if model is not None:
            return model
        self.errorOccurred.emit(self.tr("Add a provider and choose a model first."))
        return None

    def _run(self, coro: Coroutine[Any, Any, Any], name: str) -> None:
        """Start an engine operation; its refusals (ParleyError) are shown, not raised.

        The new branch appears through `ActivePathChanged`, like any other switch.
        """

        async def guarded() -> None:
            try:
                await coro
            except ParleyError as error:
                self.errorOccurred.emit(str(error))

        self._tasks.start(guarded(), name)

    def last_message_id(self, role: Role) -> str:
        """The newest message of `role` on screen ("" when there is none)."""
        path = self._chat.active_path(self._conversation_id) if self._conversation_id else []
        return next((m.id for m in reversed(path) if m.role is role), "")

    @Slot()
    def copy_last_answer(self) -> None:
        path = self._chat.active_path(self._conversation_id) if self._conversation_id else []
        answer = next((m for m in reversed(path) if m.role is Role.ASSISTANT and m.text), None)
        if answer is not None:
            QGuiApplication.clipboard().setText(answer.text)

    @Slot(str, str)
    def save_message(self, message_id: str, path: str) -> None:
        """Write a message's whole text to `path` (one too long to show in full, say)."""
        self._tasks.start(self._save_message(message_id, Path(path)), "save-message")

    async def _save_message(self, message_id: str, path: Path) -> None:
        messages = self._chat.messages_by_id([message_id])
        if not messages:
            return  # deleted meanwhile
        try:
            await asyncio.to_thread(write_atomically, path, messages[0].text)
        except OSError as error:
            self.errorOccurred.emit(
                self.tr("Could not save to %1: %2")
                .replace("%1", str(path))
                .replace("%2", str(error))
            )
        else:
            self.messageSaved.emit(str(path))

    def open_citation(self, card: CitationCard) -> None:
        """Open what a citation points at: a passage in the source panel, an earlier
        chat at its message, or a web page in the browser (http and https only: the
        address came from a search engine)."""
        part = card.part
        if part.kind is SourceKind.CHAT:
            if self._chat.conversation(part.conversation_id) is None:
                self.errorOccurred.emit(self.tr("That chat has been deleted."))
            else:
                self.open_conversation(part.conversation_id, part.message_id)
        elif part.kind is SourceKind.WEB:
            if QUrl(part.url).scheme() in ("http", "https"):
                QDesktopServices.openUrl(QUrl(part.url))
            else:
                self.errorOccurred.emit(
                    self.tr("Parley only opens web pages; this address was not opened: %1").replace(
                        "%1", part.url[:200]
                    )
                )
        else:
            self.sources.open(card)

    def activate_link(self, url: str, markdown: str, sources: Sequence[CitationCard] = ()) -> None:
        """A click on a link in a message: open a cited source (one of `sources`, the
        message's), copy a code block, or open a safe URL."""
        if url.startswith("#"):
            return  # a footnote reference inside the message: nothing to open
        number = cite_number(url)
        if number is not None:
            card = next((c for c in sources if c.number == number), None)
            if card is not None:
                self.open_citation(card)
            return
        index = copy_index(url)
        if index is not None:
            blocks = code_blocks(markdown)
            if 0 <= index < len(blocks):
                QGuiApplication.clipboard().setText(blocks[index])
            return
        if is_safe_link(url):
            QDesktopServices.openUrl(QUrl(url))
        else:
            self.errorOccurred.emit(
                self.tr(
                    "Parley only opens web and e-mail links; this one was not opened: %1"
                ).replace("%1", url[:200])
            )

    async def _send(
        self,
        submission: str,
        target: str | Conversation,
        text: str,
        model: ModelRef,
        batch: SendBatch,
    ) -> None:
        try:
            ids = await batch.ready_ids()  # waits for files still being added
            if not (text.strip() or ids):
                return
            result = await self._chat.send(target, text, model, attachment_ids=ids)
        except ParleyError as error:
            # Nothing was saved (`ChatService.send` saves the message, its answer's
            # placeholder and a new chat together): the text goes back, the files stay
            # on the tray, and no empty chat is left in the list.
            self.sendDone.emit(submission, text, self._not_sent(error))
            return
        if isinstance(target, Conversation) and target is self._new_chat:
            self._new_chat = None
            if not self._conversation_id:  # still on the new chat: it is this one now
                with self.tray.carrying():
                    self.open_conversation(result.conversation_id)
        batch.sent()
        self.sendDone.emit(submission, text, "")

    def _not_sent(self, error: ParleyError) -> str:
        return self.tr("Your message was not sent and is still here. %1").replace("%1", str(error))

    # --- engine events ------------------------------------------------------------

    def _on_engine_event(self, event: EngineEvent) -> None:
        match event:
            case MessageChanged(message=message):
                self.transcript.message_changed(message)
            case GenerationStarted(conversation_id=cid) if cid == self._conversation_id:
                self._set_busy(True)
            case GenerationFinished(conversation_id=cid, message_id=mid, status=status):
                if cid == self._conversation_id:
                    # A later send always starts after this one finished (one generation
                    # per conversation), so the conversation is idle now.
                    self._set_busy(False)
                self.generationFinished.emit(cid, mid, status.value)
            case ActivePathChanged(conversation_id=cid) if cid == self._conversation_id:
                self.open_conversation(cid)
            case ConversationsChanged(conversation_id=cid) if cid == self._conversation_id:
                conversation = self._chat.conversation(cid) if cid else None
                if conversation is None:
                    self.new_chat()
                else:
                    self._set_title(conversation.title)

    # --- models -------------------------------------------------------------------

    def _on_settings_changed(self, settings: Settings) -> None:
        self.transcript.allow_remote_images(settings.appearance.load_remote_images)
