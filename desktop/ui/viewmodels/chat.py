"""The open conversation: its messages, the model picker, sending and stopping."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication, QImage, QPalette

from desktop.core.capabilities import REASONING_EFFORTS
from desktop.core.errors import ParleyError
from desktop.core.events import (
    ActivePathChanged,
    ConversationsChanged,
    EngineEvent,
    GenerationFinished,
    GenerationStarted,
    MessageChanged,
)
from desktop.core.models import Conversation, Message, MessageStatus, ModelRef, Role
from desktop.core.settings import Settings
from desktop.engine.settings_service import SettingsService
from desktop.engine.turn import versions
from desktop.engine.turn.chat_service import ChatService, title_from
from desktop.render.links import copy_index, is_safe_link
from desktop.render.markdown import code_blocks
from desktop.render.theme import document_css
from desktop.ui.image_loader import ImageLoader
from desktop.ui.math_images import MATH_SCHEME, MathStyle, MathTypesetter
from desktop.ui.viewmodels.approvals import ApprovalsViewModel
from desktop.ui.viewmodels.assistant_picker import AssistantPickerModel
from desktop.ui.viewmodels.attachment_tray import AttachmentTray, SendBatch
from desktop.ui.viewmodels.collector import collector_paused
from desktop.ui.viewmodels.context import ContextViewModel
from desktop.ui.viewmodels.context_meter import ContextMeterModel
from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.viewmodels.message_renderer import MessageRenderer
from desktop.ui.viewmodels.properties import read_only
from desktop.ui.viewmodels.suggestions import SuggestionsModel
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.viewmodels.tool_outputs import ToolOutputs
from desktop.ui.viewmodels.transfer import write_atomically
from desktop.ui.viewmodels.update_pacer import UpdatePacer
from desktop.ui.viewmodels.usage import UsageModel
from desktop.ui.viewmodels.workspace import WorkspaceModel

if TYPE_CHECKING:
    from desktop.engine.attachments.service import AttachmentService

log = logging.getLogger(__name__)

# A chat opens at its end: this many of its newest messages are read before the first
# paint, the older ones afterwards, this many per idle turn, above those shown.
FIRST_MESSAGES = 100
OLDER_STEP = 500


class ChatViewModel(QObject):
    conversationIdChanged = Signal(str)
    titleChanged = Signal(str)
    busyChanged = Signal(bool)
    needsSetupChanged = Signal(bool)
    modelsChanged = Signal()
    selectedModelChanged = Signal(int)
    reasoningChanged = Signal()  # the selected model's reasoning support, or the effort
    messagesReset = Signal(list)  # list[MessageItem]
    messagesPrepended = Signal(list)  # list[MessageItem]: older ones of the open chat
    messageAdded = Signal(object)  # MessageItem
    messageUpdated = Signal(object)  # MessageItem
    errorOccurred = Signal(str)
    # A submitted message is saved (and its answer started), or could not be: the
    # submission's id (as given to `submit`), its text, and why it was not sent ("" when
    # it was). The composer that sent a message that failed takes its text back, so
    # nothing typed is lost, and shows why.
    sendDone = Signal(str, str, str)
    focusMessage = Signal(str)  # scroll to this message (a search hit)
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
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._settings = settings
        self._tasks = tasks
        self._images = images
        self.maths = MathTypesetter(self)  # formulas, typeset in a worker thread
        self.maths.typeset.connect(self._on_maths_typeset)
        self._maths_restyle = QTimer(self)  # the view's text style changed: show it again
        self._maths_restyle.setSingleShot(True)
        self._maths_restyle.setInterval(0)
        self._maths_restyle.timeout.connect(self._restyle_maths)
        self._renderer = MessageRenderer(
            request_image=images.request if images else None, maths=self.maths
        )
        if images is not None:
            images.loaded.connect(self._on_image_loaded)
            images.evicted.connect(self._renderer.image_evicted)
        self._pacer = UpdatePacer(self._show_streamed, self)
        self._dark = False
        self._conversation_id = ""
        # The new chat a first message is on its way to, until it is saved.
        self._new_chat: Conversation | None = None
        self._title = ""
        self._busy = False
        self._shown: set[str] = set()  # ids of the messages currently on screen
        self._streamed: dict[str, Message] = {}  # the latest update of each streaming one
        self._path: list[str] = []  # the active branch, root first
        # Child ids per parent id, in creation order, where they label something (see
        # versions.version_groups): each message's "‹ 2/3 ›" is read from it.
        self._children: dict[str | None, list[str]] = {}
        self._older: list[str] = []  # ids of the open chat's messages not read yet
        self._oldest_read: str | None = None  # the first message the transcript has
        self._older_timer = QTimer(self)
        self._older_timer.setSingleShot(True)
        self._older_timer.setInterval(0)
        self._older_timer.timeout.connect(self._load_older)
        self._following_model = False  # no answer's configured model found yet
        self._models: list[ModelRef] = []
        self._model_labels: list[str] = []
        self._selected = -1
        chat.events.subscribe(self._on_engine_event)
        settings.changed.subscribe(self._on_settings_changed)
        self._on_settings_changed(settings.settings)
        self.approvals = ApprovalsViewModel(chat, tasks, self)
        self.workspace = WorkspaceModel(chat, self)
        self.outputs = ToolOutputs()  # app.py gives it the data folder
        self.conversationIdChanged.connect(self.workspace.follow)
        self.context = ContextViewModel(chat, tasks, self)  # summary divider, pins
        self.conversationIdChanged.connect(self.context.follow)
        self.tray = AttachmentTray(attachments, tasks, self)  # the composer's files
        self.conversationIdChanged.connect(self.tray.follow)
        self.assistants = AssistantPickerModel(chat, settings, self)
        self.conversationIdChanged.connect(self.assistants.follow)
        self.assistants.modelWanted.connect(self._select_model_ref)
        self.assistants.conversationCreated.connect(self.open_conversation)
        self.assistants.follow(self._conversation_id)  # the new chat shown at start
        self.suggestions = SuggestionsModel(chat, self)  # follow-up chips
        self.conversationIdChanged.connect(self.suggestions.follow)
        self.suggestions.chosen.connect(self.submit)
        self.usage = UsageModel(chat, settings, self)  # tokens and cost
        self.conversationIdChanged.connect(self.usage.follow)
        self._renderer.cost_text = self.usage.cost_text
        self.meter = ContextMeterModel(chat, settings, tasks, self)  # the composer's meter
        self.conversationIdChanged.connect(self.meter.follow)
        self.selectedModelChanged.connect(lambda _i: self.meter.set_model(self.selected_model()))
        self.tray.changed.connect(lambda: self.meter.set_files(self.tray.ids()))
        self.assistants.changed.connect(
            lambda: self.meter.set_assistant(self.assistants.current.id)
        )
        self.meter.set_model(self.selected_model())
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

    def _get_needs_setup(self) -> bool:
        return not self._models

    needsSetup = read_only(bool, _get_needs_setup, notify=needsSetupChanged)

    def _get_model_labels(self) -> list[str]:
        return list(self._model_labels)

    modelLabels = read_only(list, _get_model_labels, notify=modelsChanged)

    def _get_selected_model(self) -> int:
        return self._selected

    selectedModel = read_only(int, _get_selected_model, notify=selectedModelChanged)

    def _set_selected(self, index: int) -> None:
        if index != self._selected:
            self._selected = index
            self.selectedModelChanged.emit(index)
            self.reasoningChanged.emit()

    def _get_reasoning_supported(self) -> bool:
        """Whether the selected model reasons (and so takes an effort)."""
        if not 0 <= self._selected < len(self._models):
            return False
        return self._settings.capabilities(self._models[self._selected]).supports_reasoning

    reasoningSupported = read_only(bool, _get_reasoning_supported, notify=reasoningChanged)

    def _get_reasoning_effort(self) -> str:
        return self._settings.settings.reasoning_effort

    reasoningEffort = read_only(str, _get_reasoning_effort, notify=reasoningChanged)

    @Slot(str)
    def set_reasoning_effort(self, effort: str) -> None:
        """Off, low, medium, high or max: kept for every later message, and saved."""
        settings = self._settings.settings
        if effort not in REASONING_EFFORTS or effort == settings.reasoning_effort:
            return
        try:
            self._settings.save(replace(settings, reasoning_effort=effort))
        except (OSError, ParleyError) as error:
            self.errorOccurred.emit(
                self.tr("Could not save settings: %1").replace("%1", str(error))
            )

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
        again = conversation.id == self._conversation_id
        self._set_conversation_id(conversation.id)
        self._set_title(conversation.title)
        with collector_paused():  # thousands of rows, messages, items: see collector.py
            path, children = self._chat.active_branch_ids(conversation.id)
            self._children = versions.version_groups(children, path[-1] if path else None)
            self._renderer.forget_all()
            self._pacer.discard()
            first = self._first_to_read(path, focus_message_id, again)
            self._path = path
            self._shown = set(path)
            self._older = path[:first]
            self._oldest_read = path[first] if first < len(path) else None
            messages = self._chat.messages_by_id(path[first:])
            items = [self._item(m) for m in messages]
        self.messagesReset.emit(items)
        self._set_busy(self._chat.is_generating(conversation.id))
        self._following_model = True
        self._follow_model_of(messages)
        if self._older:
            self._older_timer.start()
        if focus_message_id in self._shown:
            self.focusMessage.emit(focus_message_id)

    @Slot()
    def new_chat(self) -> None:
        self._new_chat = None
        self._set_conversation_id("")
        self._set_title("")
        self._renderer.forget_all()
        self._pacer.discard()
        self._streamed.clear()
        self._shown = set()
        self._path = []
        self._children = {}
        self._older = []
        self._oldest_read = None
        self._older_timer.stop()
        self.messagesReset.emit([])
        self._set_busy(False)

    @Slot(int)
    def select_model(self, index: int) -> None:
        if 0 <= index < len(self._models):
            self._following_model = False  # the person's choice stands
            self._set_selected(index)
            self._settings.remember_model(self._models[index])

    def _select_model_ref(self, ref: ModelRef) -> None:
        """Select a configured model by reference (an assistant's default model)."""
        if ref in self._models:
            self.select_model(self._models.index(ref))

    @property
    def document_css(self) -> str:
        """The default stylesheet for rendered messages in the current theme."""
        return document_css(self._dark)

    @Slot(bool)
    def set_dark(self, dark: bool) -> None:
        """Code colours follow the theme: re-render what is on screen."""
        self._dark = dark
        self._renderer.set_dark(dark)
        # Formulas in the theme's text colour (the palette is the theme's by now).
        colour = QGuiApplication.palette().color(QPalette.ColorRole.Text).name()
        if self.maths.set_style(replace(self.maths.style, colour=colour)):
            self._renderer.forget_all()
        self._maths_restyle.stop()  # shown again now, in the style already set
        if self._conversation_id:
            self.open_conversation(self._conversation_id)

    def set_math_style(self, style: MathStyle) -> None:
        """Formulas in the text's colour and size, at the screen's pixel ratio (the view
        says which); what is on screen is shown again in it, once, a moment later."""
        shown = self.maths.in_use  # else nothing on screen has a formula: nothing to redo
        if self.maths.set_style(style) and shown:
            self._renderer.forget_all()
            self._maths_restyle.start()

    def _restyle_maths(self) -> None:
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
        if not (0 <= self._selected < len(self._models)):
            self.errorOccurred.emit(self.tr("Add a provider and choose a model first."))
            return False
        model = self._models[self._selected]
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

    def selected_model(self) -> ModelRef | None:
        """The model the next message goes to (None before one is configured)."""
        return self._models[self._selected] if 0 <= self._selected < len(self._models) else None

    def _require_model(self) -> ModelRef | None:
        if 0 <= self._selected < len(self._models):
            return self._models[self._selected]
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

    @Slot(str, str)
    def activate_link(self, url: str, markdown: str) -> None:
        """A click on a link in a message: copy a code block, or open a safe URL."""
        if url.startswith("#"):
            return  # a footnote reference inside the message: nothing to open
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
                if message.conversation_id == self._conversation_id:
                    self._show(message)
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

    def _first_to_read(self, path: list[str], focus_message_id: str, again: bool) -> int:
        """Where reading a branch starts before the first paint: at its newest messages,
        or further back for a search hit; the older ones are read after it, step by step
        (`_load_older`). A chat shown again (a version switched, the theme changed) is
        read as far back as before, so what the person is looking at is still there."""
        first = max(0, len(path) - FIRST_MESSAGES)
        if focus_message_id in path:
            first = min(first, path.index(focus_message_id))
        if again:
            oldest = self._oldest_read
            first = min(first, path.index(oldest) if oldest in path else 0)
        return first

    def _load_older(self) -> None:
        """The next older messages of the open chat, shown above the others; one step
        per idle turn, so the person can read and scroll while a long chat is read."""
        if not self._older:
            return
        step, self._older = self._older[-OLDER_STEP:], self._older[:-OLDER_STEP]
        self._oldest_read = step[0]
        with collector_paused():
            messages = self._chat.messages_by_id(step)
            items = [self._item(m) for m in messages]
        self.messagesPrepended.emit(items)
        self._follow_model_of(messages)
        if self._older:
            self._older_timer.start()

    def _item(self, message: Message) -> MessageItem:
        version = versions.version_of(self._children, message.id, message.parent_id)
        self.tray.files.note(message)
        return self._renderer.item(message, version)

    def _show(self, message: Message) -> None:
        if message.id in self._shown:
            if message.status is MessageStatus.STREAMING:
                self._streamed[message.id] = message
                self._pacer.submit(message)
            else:
                self._streamed.pop(message.id, None)
                self._pacer.discard(message.id)
                self.messageUpdated.emit(self._item(message))
            return
        tip = self._path[-1] if self._path else None
        if message.parent_id != tip:
            return  # another branch of this chat (e.g. a version switched away from)
        # A new node at the tip: the newest child of its parent (edits and new answers
        # switch the path first, so they arrive through a fresh `open_conversation`).
        siblings = self._children.setdefault(message.parent_id, [])
        if message.id not in siblings:
            siblings.append(message.id)
        self._path.append(message.id)
        self._shown.add(message.id)
        self.messageAdded.emit(self._item(message))

    @property
    def update_pacer(self) -> UpdatePacer:
        """Paces streaming updates (benchmarks and tests read its counters)."""
        return self._pacer

    def _show_streamed(self, message: Message) -> None:
        """A paced streaming update (see UpdatePacer), if its message is still on screen."""
        if message.id in self._shown and message.conversation_id == self._conversation_id:
            self.messageUpdated.emit(self._item(message))

    # --- models -------------------------------------------------------------------

    def _on_settings_changed(self, settings: Settings) -> None:
        self._allow_remote_images(settings.appearance.load_remote_images)
        had_models = bool(self._models)
        current = self._models[self._selected] if 0 <= self._selected < len(self._models) else None
        self._models = settings.all_models()
        names = {p.id: p.name for p in settings.providers}
        self._model_labels = [
            f"{m.model} — {names.get(m.provider_id, m.provider_id)}" for m in self._models
        ]
        self.modelsChanged.emit()
        wanted = current if current in self._models else settings.preferred_model()
        self._selected = -1
        self._set_selected(self._models.index(wanted) if wanted in self._models else -1)
        if had_models != bool(self._models):
            self.needsSetupChanged.emit(not self._models)
        self.reasoningChanged.emit()  # an override or the effort may have changed

    # --- remote images --------------------------------------------------------------

    def image(self, url: QUrl) -> QImage | None:
        """A loaded image (or typeset formula) for the message views; None when it is not
        (or no longer) loaded."""
        if url.scheme() == MATH_SCHEME:
            return self.maths.image(url)
        return self._images.image(url) if self._images is not None else None

    def _on_maths_typeset(self, keys: list[str]) -> None:
        """Show the formulas now typeset (or failed) in the messages showing their source;
        a streaming answer through the pacer, like any of its updates."""
        for message in self._renderer.maths_typeset(keys):
            if message.id not in self._shown or message.conversation_id != self._conversation_id:
                continue
            if message.status is not MessageStatus.STREAMING:
                self.messageUpdated.emit(self._item(message))
            elif message.id in self._streamed:  # still streaming: its latest update again
                self._pacer.submit(self._streamed[message.id])

    def _allow_remote_images(self, enabled: bool) -> None:
        """Images become links, or are requested, in what is on screen now."""
        changed = self._renderer.set_remote_images(enabled and self._images is not None)
        if changed and self._conversation_id:
            self.open_conversation(self._conversation_id)

    def _on_image_loaded(self, url: str) -> None:
        """Show the image in the finished answers that link to it; a streaming answer
        picks it up with its next update."""
        for message in self._renderer.image_loaded(url):
            if (
                message.id in self._shown
                and message.conversation_id == self._conversation_id
                and message.status is not MessageStatus.STREAMING
            ):
                self.messageUpdated.emit(self._item(message))

    def _follow_model_of(self, messages: list[Message]) -> None:
        """Opening a chat selects the model its last answer came from, if still configured.

        `messages` are the newest not looked at yet (the chat is read from its end): the
        search goes on in older ones as they are read, until an answer's model is found.
        """
        if not self._following_model:
            return
        for message in reversed(messages):
            if message.role is Role.ASSISTANT and message.model in self._models:
                self._following_model = False
                self._set_selected(self._models.index(message.model))
                return
