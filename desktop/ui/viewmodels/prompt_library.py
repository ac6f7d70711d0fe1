"""The prompt library for Settings → Prompts and the composer's "/" list.

Every edit is written to settings.json at once, through the Settings window's undo
(`SettingsUndo`): a deleted prompt, or an edit, is taken back with its Undo. The
composer reads the same list, filtered as the person types after "/", and asks only for
the variables a person must fill: `{{date}}`, `{{model}}` and the other placeholders the
engine fills when the message is sent stay in the text.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Signal

from desktop.core.models import new_id
from desktop.core.prompts import MAX_TITLE, SavedPrompt, fill, matches, variables
from desktop.core.settings import Settings
from desktop.engine.prompt.placeholders import NAMES as AUTOMATIC
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.settings_undo import SettingsUndo


class PromptLibraryModel(QObject):
    changed = Signal()  # the list or a prompt in it changed (also by an Undo)
    failed = Signal(str)  # a change could not be saved (without the window's undo bar)

    def __init__(
        self,
        service: SettingsService,
        parent: QObject | None = None,
        *,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        # The Settings window's undo also reports a failed write in its bar; one of our
        # own (a composer's library, tests) has no bar, so its failures are ours.
        self.undo = undo if undo is not None else SettingsUndo(service, self)
        if undo is None:
            self.undo.failed.connect(self.failed)
        self._prompts = service.settings.prompts
        service.changed.subscribe(self._on_settings_changed)

    # --- reading ------------------------------------------------------------------

    def prompts(self) -> tuple[SavedPrompt, ...]:
        return self._prompts

    def prompt(self, prompt_id: str) -> SavedPrompt | None:
        return next((p for p in self._prompts if p.id == prompt_id), None)

    def matches(self, query: str) -> list[SavedPrompt]:
        """The prompts for what follows "/" in the composer, best first."""
        return matches(self._prompts, query)

    def asked_variables(self, text: str) -> list[str]:
        """The variables a person fills in before the prompt is inserted."""
        return [name for name in variables(text) if name not in AUTOMATIC]

    def filled(self, prompt: SavedPrompt, values: dict[str, str]) -> str:
        """The prompt's text as it goes into the composer."""
        return fill(prompt.text, values)

    def variables_note(self, text: str) -> str:
        """The line under the editor saying which variables the text has."""
        asked = self.asked_variables(text)
        automatic = [name for name in variables(text) if name in AUTOMATIC]
        parts = []
        if asked:
            parts.append(self.tr("Asked when inserted: %1").replace("%1", ", ".join(asked)))
        if automatic:
            parts.append(self.tr("Filled in when sent: %1").replace("%1", ", ".join(automatic)))
        if not parts:
            return self.tr("No variables. Write {{name}} where the prompt should ask for a word.")
        return " · ".join(parts)

    # --- changes ------------------------------------------------------------------

    def add(self) -> str:
        """A new prompt at the end of the list, named "New prompt"; returns its id."""
        prompt = SavedPrompt(new_id(), self.tr("New prompt"), "")
        listed = (*self._prompts, prompt)
        return prompt.id if self._write(listed, self.tr("Prompt added")) else ""

    def add_examples(self) -> None:
        """Three prompts to start from (not installed unasked: the library is the
        person's own)."""
        examples = (
            SavedPrompt(
                new_id(),
                self.tr("Summarise"),
                self.tr(
                    "Summarise the following in a few bullet points. Keep names, numbers "
                    "and decisions.\n\n"
                ),
            ),
            SavedPrompt(
                new_id(),
                self.tr("Translate"),
                self.tr(
                    "Translate the following into {{language}}. Keep the meaning, tone and "
                    "formatting, and reply with the translation only.\n\n"
                ),
            ),
            SavedPrompt(
                new_id(),
                self.tr("Explain code"),
                self.tr(
                    "Explain what this code does, step by step, and point out anything that "
                    "could go wrong.\n\n"
                ),
            ),
        )
        self._write((*self._prompts, *examples), self.tr("Example prompts added"))

    def duplicate(self, prompt_id: str) -> str:
        """A copy right after the original; returns the copy's id."""
        index = self._index(prompt_id)
        if index is None:
            return ""
        original = self._prompts[index]
        title = self.tr("%1 (copy)").replace("%1", original.title)[:MAX_TITLE]
        copy = replace(original, id=new_id(), title=title)
        listed = (*self._prompts[: index + 1], copy, *self._prompts[index + 1 :])
        label = self.tr("Prompt “%1” duplicated").replace("%1", original.title)
        return copy.id if self._write(listed, label) else ""

    def set_title(self, prompt_id: str, title: str) -> str:
        """Save a new title; returns why it was not saved ("" when it was)."""
        title = " ".join(title.split())
        if not title:
            return self.tr("A prompt needs a title.")
        if len(title) > MAX_TITLE:
            return self.tr("A title can be at most %1 characters.").replace("%1", str(MAX_TITLE))
        self._update(prompt_id, title=title)
        return ""

    def set_text(self, prompt_id: str, text: str) -> None:
        self._update(prompt_id, text=text)

    def delete(self, prompt_id: str) -> None:
        """Delete now; the Settings window's Undo brings it back in its place."""
        index = self._index(prompt_id)
        if index is None:
            return
        label = self.tr("Prompt “%1” deleted").replace("%1", self._prompts[index].title)
        self._write((*self._prompts[:index], *self._prompts[index + 1 :]), label)

    # --- helpers ------------------------------------------------------------------

    def _index(self, prompt_id: str) -> int | None:
        return next((i for i, p in enumerate(self._prompts) if p.id == prompt_id), None)

    def _update(self, prompt_id: str, **changes: str) -> None:
        """An edit typed into the page: quick successive ones make one undo step."""
        index = self._index(prompt_id)
        if index is None:
            return
        edited = replace(self._prompts[index], **changes)
        if edited != self._prompts[index]:
            listed = (*self._prompts[:index], edited, *self._prompts[index + 1 :])
            label = self.tr("Prompt “%1” edited").replace("%1", edited.title)
            self._write(listed, label, coalesce=True)

    def _write(
        self, prompts: tuple[SavedPrompt, ...], label: str, *, coalesce: bool = False
    ) -> bool:
        settings = replace(self._service.settings, prompts=prompts)
        return self.undo.save(settings, label, coalesce=coalesce)

    def _on_settings_changed(self, settings: Settings) -> None:
        if settings.prompts != self._prompts:
            self._prompts = settings.prompts
            self.changed.emit()
