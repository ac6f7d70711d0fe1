"""The settings window's state: providers (from presets, tested, with headers, extra body
and capability overrides), keyring status, appearance, network, local servers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtCore import QLocale, QObject, Signal, Slot

from desktop.core.capabilities import Capabilities
from desktop.core.errors import ParleyError
from desktop.core.i18n import sentences
from desktop.core.settings import (
    AppearanceSettings,
    Language,
    ProviderKind,
    ProviderSettings,
    Settings,
    Theme,
)
from desktop.engine.connection_check import NoModelListError
from desktop.engine.local_servers import DEFAULT_LOCAL_SERVERS, LocalServer
from desktop.engine.memory.service import MemoryService
from desktop.engine.settings_service import SettingsService
from desktop.engine.tools.mcp.manager import McpManager
from desktop.engine.tools.service import ToolService
from desktop.providers.presets import CUSTOM_ID, PRESETS, Preset, preset
from desktop.ui.language import language_of, window_locale
from desktop.ui.viewmodels.assistants import AssistantsModel
from desktop.ui.viewmodels.desktop_settings import DesktopSettingsModel
from desktop.ui.viewmodels.knowledge_progress import KnowledgeProgress
from desktop.ui.viewmodels.knowledge_settings import KnowledgeSettingsModel
from desktop.ui.viewmodels.local_servers import LocalServersModel
from desktop.ui.viewmodels.mcp_servers import McpServersModel
from desktop.ui.viewmodels.memory_settings import MemorySettingsModel
from desktop.ui.viewmodels.network_settings import NetworkSettingsModel
from desktop.ui.viewmodels.ocr_settings import OcrSettingsModel
from desktop.ui.viewmodels.prompt_library import PromptLibraryModel
from desktop.ui.viewmodels.properties import read_only
from desktop.ui.viewmodels.provider_draft import (
    DraftError,
    ProviderDraft,
    build_provider,
    format_extra_body,
)
from desktop.ui.viewmodels.settings_undo import SettingsUndo
from desktop.ui.viewmodels.sync import SyncViewModel
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.viewmodels.tool_settings import ToolSettingsModel
from desktop.ui.viewmodels.usage_settings import UsageSettingsModel
from desktop.ui.viewmodels.web_search_settings import WebSearchSettingsModel


class SettingsViewModel(QObject):
    providersChanged = Signal()
    themeChanged = Signal(str)
    appearanceChanged = Signal()  # any of the Appearance page's settings
    loadRemoteImagesChanged = Signal(bool)
    providerSaved = Signal(str)  # provider id
    saveFailed = Signal(str)
    modelsFetched = Signal(list)
    fetchFailed = Signal(str)
    fetchingChanged = Signal(bool)
    connectionChecked = Signal(str, list)  # what worked (a sentence), the models listed
    connectionFailed = Signal(str)
    testingChanged = Signal(bool)
    # The server keeps no model list: the person types model ids instead.
    modelIdsNeeded = Signal()

    def __init__(
        self,
        service: SettingsService,
        tasks: TaskGroup,
        parent: QObject | None = None,
        *,
        local_servers: Sequence[LocalServer] = DEFAULT_LOCAL_SERVERS,
        tools: ToolService | None = None,
        mcp: McpManager | None = None,
        knowledge: KnowledgeProgress | None = None,
        memory: MemoryService | None = None,
        sync: SyncViewModel | None = None,
    ):
        super().__init__(parent)
        self._service = service
        self._tasks = tasks
        self._fetching = False
        self._testing = False
        self._appearance = service.settings.appearance
        # Every change made in the Settings window is saved at once and recorded here.
        self.undo = SettingsUndo(service, self)
        self.local_servers = LocalServersModel(service, tasks, local_servers, self)
        self.network = NetworkSettingsModel(service, self, undo=self.undo)
        self.ocr = OcrSettingsModel(service, parent=self, undo=self.undo)
        self.desktop = DesktopSettingsModel(service, self, undo=self.undo)
        self.usage = UsageSettingsModel(service, self, undo=self.undo)
        self.assistants = AssistantsModel(service, tools, self, undo=self.undo)
        self.tools = (
            ToolSettingsModel(service, tools, self, mcp=mcp, undo=self.undo)
            if tools is not None
            else None
        )
        self.mcp = (
            McpServersModel(service, mcp, tasks, self, undo=self.undo) if mcp is not None else None
        )
        self.knowledge = KnowledgeSettingsModel(
            service, knowledge or KnowledgeProgress(tasks), self, tasks=tasks, undo=self.undo
        )
        self.memory = (
            MemorySettingsModel(service, memory, tasks, self.knowledge, self, undo=self.undo)
            if memory is not None
            else None
        )
        self.web_search = WebSearchSettingsModel(service, tasks, self, undo=self.undo)
        self.prompts = PromptLibraryModel(service, self, undo=self.undo)  # and the "/" list
        self.sync = sync  # Settings → Sync, when the app syncs
        service.changed.subscribe(self._on_settings_changed)

    # --- read-only state ----------------------------------------------------------

    @property
    def providers(self) -> tuple[ProviderSettings, ...]:
        return self._service.settings.providers

    def provider(self, provider_id: str) -> ProviderSettings | None:
        return self._service.settings.provider(provider_id)

    @property
    def presets(self) -> tuple[Preset, ...]:
        return PRESETS

    def draft_for(self, provider: ProviderSettings) -> ProviderDraft:
        """The form's contents for a saved provider."""
        return ProviderDraft(
            provider_id=provider.id,
            name=provider.name,
            kind=provider.kind.value,
            base_url=provider.base_url,
            models=provider.models,
            default_model=provider.default_model or "",
            headers=tuple(provider.headers.items()),
            extra_body=format_extra_body(provider.extra_body),
            overrides=dict(provider.model_overrides),
            stall_timeout=provider.stall_timeout,
        )

    def draft_for_preset(self, preset_id: str) -> ProviderDraft:
        """A new provider's form, pre-filled from a preset."""
        chosen = preset(preset_id)
        custom = chosen.id == CUSTOM_ID
        return ProviderDraft(
            name="" if custom else chosen.name,
            kind=chosen.kind.value,
            base_url=chosen.base_url,
            id_hint="" if custom else chosen.id,
        )

    def default_capabilities(self, kind: str, model: str, base_url: str = "") -> Capabilities:
        """What Parley assumes of `model` without an override (shown as "Default (…)"):
        the known-model table and what the endpoint at `base_url` said, if asked."""
        return self._service.default_capabilities(ProviderKind(kind), base_url, model)

    def _get_keyring_available(self) -> bool:
        return self._service.keyring_available

    keyringAvailable = read_only(bool, _get_keyring_available, constant=True)

    def _get_keyring_problem(self) -> str:
        return self._service.keyring_problem

    keyringProblem = read_only(str, _get_keyring_problem, constant=True)

    def _get_keyring_notice(self) -> str:
        return self._service.keyring_notice

    keyringNotice = read_only(str, _get_keyring_notice, constant=True)

    @property
    def load_problem(self) -> str:
        """Why the settings file could not be used at start-up, for a banner."""
        error = self._service.load_error
        if error is None:
            return self._network_problem()
        text = self.tr("The settings file %1 is invalid: %2.").replace(
            "%1", str(self._service.path)
        )
        parts = [text.replace("%2", str(error))]
        if self._service.backup_path is not None:
            parts.append(
                self.tr("A copy was kept at %1.").replace("%1", str(self._service.backup_path))
            )
        parts.append(self.tr("Parley started with default settings."))
        return sentences(parts)

    def _network_problem(self) -> str:
        """A saved CA bundle that no longer works: Parley runs on the system's
        certificates alone until it is fixed in Settings → Network."""
        error = self._service.network_error
        if error is None:
            return ""
        return self.tr(
            "The network settings could not be applied: %1. Parley uses the system's "
            "certificates only until this is fixed in Settings → Network."
        ).replace("%1", error.problem)

    def _get_theme(self) -> str:
        return self._service.settings.appearance.theme.value

    theme = read_only(str, _get_theme, notify=themeChanged)

    def _get_fetching(self) -> bool:
        return self._fetching

    def _set_fetching(self, value: bool) -> None:
        if value != self._fetching:
            self._fetching = value
            self.fetchingChanged.emit(value)

    fetching = read_only(bool, _get_fetching, notify=fetchingChanged)

    def _get_testing(self) -> bool:
        return self._testing

    def _set_testing(self, value: bool) -> None:
        if value != self._testing:
            self._testing = value
            self.testingChanged.emit(value)

    testing = read_only(bool, _get_testing, notify=testingChanged)

    # --- providers ----------------------------------------------------------------

    def build_provider(self, draft: ProviderDraft) -> ProviderSettings:
        """Validate the form exactly as the settings file is validated."""
        return build_provider(draft, {p.id for p in self.providers})

    def save_provider(self, draft: ProviderDraft, api_key: str, *, coalesce: bool = False) -> None:
        """Save a provider; an empty `api_key` keeps the stored one. Nothing is saved
        while any field is invalid. `coalesce`: a text field's edit, which merges with
        the same field's edit just before into one undo step."""
        try:
            provider = self.build_provider(draft)
        except DraftError as error:
            self.saveFailed.emit(str(error))
            return
        self._tasks.start(self._save(provider, api_key or None, coalesce), "save-provider")

    async def _save(
        self, provider: ProviderSettings, api_key: str | None, coalesce: bool = False
    ) -> None:
        label = self.tr("Provider %1 saved").replace("%1", provider.name)
        try:
            # Only the provider list is this save's: the key is the keyring's (no undo).
            with self.undo.recording(label, coalesce=coalesce, fields=("providers",)):
                await self._service.save_provider(provider, api_key)
        except (ParleyError, OSError) as error:
            self.saveFailed.emit(str(error))
        else:
            self.providerSaved.emit(provider.id)

    @Slot(str)
    def remove_provider(self, provider_id: str) -> None:
        self._tasks.start(self._remove(provider_id), "remove-provider")

    async def _remove(self, provider_id: str) -> None:
        gone = self.provider(provider_id)
        # Undo brings the provider back but not its key (the keyring keeps no history):
        # the step says so, and Settings asked before removing it.
        label = self.tr("Provider %1 removed, with its API key").replace(
            "%1", gone.name if gone else provider_id
        )
        try:
            with self.undo.recording(label, fields=("providers",)):
                await self._service.remove_provider(provider_id)
        except (ParleyError, OSError) as error:
            self.saveFailed.emit(str(error))

    def _connection_only(self, draft: ProviderDraft) -> ProviderSettings:
        """The draft's address, protocol, headers and body, whatever its model list says."""
        return self.build_provider(replace(draft, models=(), default_model="", overrides={}))

    def fetch_models(self, draft: ProviderDraft, api_key: str) -> None:
        try:
            provider = self._connection_only(draft)
        except DraftError as error:
            self.fetchFailed.emit(str(error))
            return
        self._tasks.start(self._fetch(provider, api_key or None), "fetch-models")

    async def _fetch(self, provider: ProviderSettings, api_key: str | None) -> None:
        self._set_fetching(True)
        try:
            models = await self._service.fetch_models(provider, api_key)
        except NoModelListError as error:
            self.fetchFailed.emit(str(error))
            self.modelIdsNeeded.emit()
        except ParleyError as error:
            self.fetchFailed.emit(str(error))
        else:
            self.modelsFetched.emit(models)
        finally:
            self._set_fetching(False)

    def test_connection(self, draft: ProviderDraft, api_key: str) -> None:
        """List the models, or (without a model list) ask the chosen model for one token;
        the window stays usable meanwhile."""
        try:
            provider = self._connection_only(draft)
        except DraftError as error:
            self.connectionFailed.emit(str(error))
            return
        model = draft.default_model.strip() or next(
            (m.strip() for m in draft.models if m.strip()), ""
        )
        self._tasks.start(self._test(provider, api_key or None, model), "test-connection")

    async def _test(self, provider: ProviderSettings, api_key: str | None, model: str) -> None:
        self._set_testing(True)
        try:
            check = await self._service.check_connection(provider, api_key, model)
        except NoModelListError as error:
            self.connectionFailed.emit(str(error))
            self.modelIdsNeeded.emit()
        except ParleyError as error:
            self.connectionFailed.emit(str(error))
        else:
            if check.models is None:
                text = self.tr("Connected: %1 answered.").replace("%1", check.model)
            elif check.models:
                text = self.tr("Connected: %n model(s) available.", "", len(check.models))
            else:
                text = self.tr("Connected, but the server offers no models.")
            self.connectionChecked.emit(text, list(check.models or ()))
        finally:
            self._set_testing(False)

    # --- appearance ---------------------------------------------------------------
    # `undoable`: the change comes from the Settings window, whose Undo can take it back;
    # a change from elsewhere (View → Zoom) is saved without being recorded.

    @Slot(str)
    def set_theme(self, theme: str, *, undoable: bool = False) -> None:
        appearance = replace(self._service.settings.appearance, theme=Theme(theme))
        self._save_appearance(appearance, undoable=undoable)

    def _get_load_remote_images(self) -> bool:
        return self._service.settings.appearance.load_remote_images

    loadRemoteImages = read_only(bool, _get_load_remote_images, notify=loadRemoteImagesChanged)

    @Slot(bool)
    def set_load_remote_images(self, enabled: bool, *, undoable: bool = False) -> None:
        appearance = self._service.settings.appearance
        self._save_appearance(replace(appearance, load_remote_images=enabled), undoable=undoable)

    @property
    def language(self) -> str:
        return self._service.settings.appearance.language.value

    @property
    def chosen_language(self) -> Language:
        """The language the setting names, "Follow the system" resolved."""
        choice = self._service.settings.appearance.language
        return language_of(window_locale(choice, QLocale.system()))

    @property
    def language_waits_for_restart(self) -> bool:
        """The chosen language is not the one this window was made in: it is read at
        start-up, so it takes effect when Parley next starts."""
        return self.chosen_language != language_of(QLocale())

    @Slot(str)
    def set_language(self, language: str, *, undoable: bool = False) -> None:
        appearance = self._service.settings.appearance
        self._save_appearance(replace(appearance, language=Language(language)), undoable=undoable)

    @property
    def font_size(self) -> int:
        """The text size in points; 0 means "as the system sets it"."""
        return self._service.settings.appearance.font_size or 0

    @Slot(int)
    def set_font_size(self, points: int, *, undoable: bool = False) -> None:
        appearance = replace(self._service.settings.appearance, font_size=points or None)
        # A spin box saves on each step: quick steps make one undo step.
        self._save_appearance(appearance, undoable=undoable, coalesce=True)

    def _save_appearance(
        self, appearance: AppearanceSettings, *, undoable: bool, coalesce: bool = False
    ) -> None:
        settings = replace(self._service.settings, appearance=appearance)
        if appearance == self._service.settings.appearance:
            return
        if undoable:
            self.undo.save(settings, coalesce=coalesce)
            return
        try:
            self._service.save(settings)
        except OSError as error:
            self.saveFailed.emit(self.tr("Could not save settings: %1").replace("%1", str(error)))

    # --- changes from elsewhere ----------------------------------------------------

    def _on_settings_changed(self, settings: Settings) -> None:
        if settings.appearance != self._appearance:  # changed, or put back by Undo
            self._appearance = settings.appearance
            self.appearanceChanged.emit()
        self.providersChanged.emit()
        self.themeChanged.emit(settings.appearance.theme.value)
        self.loadRemoteImagesChanged.emit(settings.appearance.load_remote_images)
