"""Settings → Assistants: the list (add, duplicate, delete, choose the default) and the
edits to one assistant, each saved to settings.json at once. An edit that changes
nothing writes nothing (the settings window's Undo gets no empty steps); one the file
would refuse is reported with the field it concerns (`invalid`) and not written.

The built-in "Parley" assistant is listed like the others; editing it stores an
assistant with its id, which then replaces it. It cannot be deleted: some assistant
must answer when a conversation's own was removed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal

from desktop.core.assistants import DEFAULT_ID, Assistant, dump_assistant, parse_assistant
from desktop.core.errors import ParleyError, SettingsError
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.models import ModelRef
from desktop.core.settings import Settings
from desktop.engine.settings_service import SettingsService
from desktop.engine.tools.builtin.knowledge import KNOWLEDGE_SEARCH
from desktop.engine.tools.builtin.memory import MEMORY_TOOLS
from desktop.engine.tools.builtin.past_chats import SEARCH_CONVERSATIONS
from desktop.engine.tools.service import ToolService
from desktop.ui.viewmodels.settings_undo import SettingsUndo


@dataclass(frozen=True, slots=True)
class ModelChoice:
    ref: ModelRef | None  # None: whichever model the composer has selected
    label: str


# The form's names for the fields an error can name.
_LABELS = {
    "name": QT_TR_NOOP("Name"),
    "icon": QT_TR_NOOP("Icon"),
    "system_prompt": QT_TR_NOOP("System prompt"),
    "max_output_tokens": QT_TR_NOOP("Max output tokens"),
    "context_threshold": QT_TR_NOOP("Summarise history above"),
}


class AssistantsModel(QObject):
    changed = Signal()  # the list, the default or a configured model changed
    saved = Signal(str)  # the id of the assistant just saved
    failed = Signal(str)  # the settings file could not be written
    invalid = Signal(str, str)  # field, sentence: what settings.json would refuse

    def __init__(
        self,
        service: SettingsService,
        tools: ToolService | None = None,
        parent: QObject | None = None,
        *,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._tools = tools
        self._undo = undo  # the Settings window's: its saves can be undone there
        service.changed.subscribe(self._on_settings_changed)

    @property
    def _settings(self) -> Settings:
        return self._service.settings

    def assistants(self) -> tuple[Assistant, ...]:
        return self._settings.all_assistants()

    def assistant(self, assistant_id: str) -> Assistant:
        return self._settings.assistant(assistant_id)

    def is_default(self, assistant_id: str) -> bool:
        return self._settings.assistant(None).id == assistant_id

    def can_delete(self, assistant_id: str) -> bool:
        return assistant_id != DEFAULT_ID

    def model_choices(self) -> list[ModelChoice]:
        """Every configured model, after "the composer's choice". A saved model that is
        no longer configured stays listed, marked, so the form shows what is saved."""
        settings = self._settings
        choices = [ModelChoice(None, self.tr("None — use the model selected in the chat"))]
        for provider in settings.providers:
            choices += [
                ModelChoice(r, f"{r.model} — {provider.name}") for r in provider.model_refs()
            ]
        known = {c.ref for c in choices}
        for assistant in settings.all_assistants():
            ref = assistant.default_model
            if ref is not None and ref not in known:
                known.add(ref)
                choices.append(
                    ModelChoice(ref, self.tr("%1 (not configured)").replace("%1", str(ref)))
                )
        return choices

    def tool_names(self) -> list[str]:
        """The tools an assistant can be limited to (built-in, workspace and MCP), plus
        names an assistant lists whose tools are not there now (an MCP server stopped)."""
        # The searches of documents and past chats and the memory tools are not among
        # them: the assistant's libraries, past-chats switch and memory choice decide.
        definitions = self._tools.definitions(workspace=True) if self._tools else []
        switched = (KNOWLEDGE_SEARCH, SEARCH_CONVERSATIONS, *MEMORY_TOOLS)
        names = [d.name for d in definitions if d.name not in switched]
        for assistant in self._settings.all_assistants():
            names += [n for n in assistant.allowed_tools or () if n not in names]
        return names

    def library_choices(self) -> list[tuple[str, str]]:
        """(id, name) of every knowledge library (Settings → Knowledge) an assistant may
        be given; deleting a library takes it off the assistants, so none is missing."""
        return [(lib.id, lib.name) for lib in self._settings.libraries]

    # --- changes ------------------------------------------------------------------

    def add(self) -> str:
        """A new assistant named "New assistant"; returns its id."""
        assistant = Assistant(id=self._free_id("assistant"), name=self.tr("New assistant"))
        label = self.tr("Assistant %1 added").replace("%1", assistant.name)
        return assistant.id if self._store(assistant, label) else ""

    def duplicate(self, assistant_id: str) -> str:
        original = self.assistant(assistant_id)
        copy = replace(
            original,
            id=self._free_id(original.id if original.id != DEFAULT_ID else "assistant"),
            name=self.tr("%1 (copy)").replace("%1", original.name),
        )
        label = self.tr("Assistant %1 added").replace("%1", copy.name)
        return copy.id if self._store(copy, label) else ""

    def save(self, assistant: Assistant, *, coalesce: bool = False) -> bool:
        """Store an edited assistant (validated as settings.json would be). `coalesce`:
        a text field's or a spin box's edit, which Undo takes back with the same
        field's edits just before."""
        label = self.tr("Assistant %1 changed").replace("%1", assistant.name or assistant.id)
        return self._store(assistant, label, coalesce=coalesce)

    def delete(self, assistant_id: str) -> None:
        if not self.can_delete(assistant_id):
            return
        settings = self._settings
        default = DEFAULT_ID if settings.default_assistant == assistant_id else None
        label = self.tr("Assistant %1 deleted").replace("%1", self.assistant(assistant_id).name)
        self._write(
            replace(
                settings,
                assistants=tuple(a for a in settings.assistants if a.id != assistant_id),
                default_assistant=default or settings.default_assistant,
            ),
            label,
        )

    def set_default(self, assistant_id: str) -> None:
        if any(a.id == assistant_id for a in self.assistants()):
            self._write(
                replace(self._settings, default_assistant=assistant_id),
                self.tr("Default assistant changed"),
            )

    # --- helpers ------------------------------------------------------------------

    def _free_id(self, stem: str) -> str:
        taken = {a.id for a in self.assistants()}
        stem = stem.rsplit("-", 1)[0] if stem.rsplit("-", 1)[-1].isdigit() else stem
        number = 1
        while f"{stem}-{number}" in taken:
            number += 1
        return f"{stem}-{number}"[:40]

    def _store(self, assistant: Assistant, label: str, *, coalesce: bool = False) -> bool:
        try:
            # The same checks as reading settings.json, so the form cannot save what
            # Parley would refuse to load.
            checked = parse_assistant(dump_assistant(assistant), "assistant")
        except SettingsError as error:
            field = error.field.removeprefix("assistant").lstrip(".").split("[", 1)[0]
            label = tr(_LABELS[field]) if field in _LABELS else field
            sentence = self.tr("%1 %2.").replace("%1", label).replace("%2", error.problem)
            self.invalid.emit(field, sentence if field else error.problem)
            return False
        settings = self._settings
        if checked == settings.assistant(checked.id) and any(
            a.id == checked.id for a in self.assistants()
        ):
            return True  # nothing changed
        listed = list(settings.assistants)
        index = next((i for i, a in enumerate(listed) if a.id == checked.id), None)
        if index is None:
            listed.append(checked)
        else:
            listed[index] = checked
        if not self._write(replace(settings, assistants=tuple(listed)), label, coalesce=coalesce):
            return False
        self.saved.emit(checked.id)
        return True

    def _write(self, settings: Settings, label: str, *, coalesce: bool = False) -> bool:
        try:
            if self._undo is not None:  # (which says itself when the file cannot be written)
                return self._undo.save(settings, label, coalesce=coalesce)
            self._service.save(settings)
        except (OSError, ParleyError) as error:
            self.failed.emit(self.tr("Could not save settings: %1").replace("%1", str(error)))
            return False
        return True

    def _on_settings_changed(self, _settings: Settings) -> None:
        self.changed.emit()
