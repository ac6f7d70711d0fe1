"""The settings panel's state: providers, keyring status, appearance (and remote images)."""

from __future__ import annotations

import re
from dataclasses import replace

from PySide6.QtCore import Property, QObject, Signal, Slot

from desktop.core.errors import ParleyError, SettingsError
from desktop.core.settings import (
    AppearanceSettings,
    ProviderSettings,
    Settings,
    Theme,
    parse_provider,
)
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.tasks import TaskGroup


def suggest_provider_id(name: str, taken: set[str]) -> str:
    """A readable id from the display name ("My Server" -> "my-server"), unique."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:32] or "provider"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


class SettingsViewModel(QObject):
    providersChanged = Signal()
    themeChanged = Signal(str)
    loadRemoteImagesChanged = Signal(bool)
    providerSaved = Signal(str)  # provider id
    saveFailed = Signal(str)
    modelsFetched = Signal(list)
    fetchFailed = Signal(str)
    fetchingChanged = Signal(bool)

    def __init__(self, service: SettingsService, tasks: TaskGroup, parent: QObject | None = None):
        super().__init__(parent)
        self._service = service
        self._tasks = tasks
        self._fetching = False
        service.changed.subscribe(self._on_settings_changed)

    # --- read-only state ----------------------------------------------------------

    @property
    def providers(self) -> tuple[ProviderSettings, ...]:
        return self._service.settings.providers

    def provider(self, provider_id: str) -> ProviderSettings | None:
        return self._service.settings.provider(provider_id)

    def _get_keyring_available(self) -> bool:
        return self._service.keyring_available

    keyringAvailable = Property(bool, _get_keyring_available, constant=True)

    def _get_keyring_problem(self) -> str:
        return self._service.keyring_problem

    keyringProblem = Property(str, _get_keyring_problem, constant=True)

    @property
    def load_problem(self) -> str:
        """Why the settings file could not be used at start-up, for a banner."""
        error = self._service.load_error
        if error is None:
            return ""
        text = self.tr("The settings file %1 is invalid: %2.").replace(
            "%1", str(self._service.path)
        )
        text = text.replace("%2", str(error))
        if self._service.backup_path is not None:
            text += " " + self.tr("A copy was kept at %1.").replace(
                "%1", str(self._service.backup_path)
            )
        return text + " " + self.tr("Parley started with default settings.")

    def _get_theme(self) -> str:
        return self._service.settings.appearance.theme.value

    theme = Property(str, _get_theme, notify=themeChanged)

    def _get_fetching(self) -> bool:
        return self._fetching

    def _set_fetching(self, value: bool) -> None:
        if value != self._fetching:
            self._fetching = value
            self.fetchingChanged.emit(value)

    fetching = Property(bool, _get_fetching, notify=fetchingChanged)

    # --- actions ------------------------------------------------------------------

    def build_provider(
        self,
        provider_id: str,
        name: str,
        base_url: str,
        models: list[str],
        default_model: str,
    ) -> ProviderSettings:
        """Validate the form exactly as the settings file is validated."""
        if not provider_id:
            provider_id = suggest_provider_id(name, {p.id for p in self.providers})
        data = {
            "id": provider_id,
            "name": name.strip() or provider_id,
            "base_url": base_url,
            "models": [m.strip() for m in models if m.strip()],
        }
        if default_model.strip():
            data["default_model"] = default_model.strip()
        return parse_provider(data, "provider")

    @Slot(str, str, str, list, str, str)
    def save_provider(
        self,
        provider_id: str,
        name: str,
        base_url: str,
        models: list[str],
        default_model: str,
        api_key: str,
    ) -> None:
        """Save a provider; an empty `api_key` keeps the stored one."""
        try:
            provider = self.build_provider(provider_id, name, base_url, models, default_model)
        except SettingsError as error:
            self.saveFailed.emit(
                error.problem if error.field.startswith("provider") else str(error)
            )
            return
        self._tasks.start(self._save(provider, api_key or None), "save-provider")

    async def _save(self, provider: ProviderSettings, api_key: str | None) -> None:
        try:
            await self._service.save_provider(provider, api_key)
        except (ParleyError, OSError) as error:
            self.saveFailed.emit(str(error))
        else:
            self.providerSaved.emit(provider.id)

    @Slot(str)
    def remove_provider(self, provider_id: str) -> None:
        self._tasks.start(self._remove(provider_id), "remove-provider")

    async def _remove(self, provider_id: str) -> None:
        try:
            await self._service.remove_provider(provider_id)
        except (ParleyError, OSError) as error:
            self.saveFailed.emit(str(error))

    @Slot(str, str, str)
    def fetch_models(self, provider_id: str, base_url: str, api_key: str) -> None:
        try:
            provider = parse_provider(
                {"id": provider_id or "new", "name": "", "base_url": base_url}, "provider"
            )
        except SettingsError as error:
            self.fetchFailed.emit(error.problem)
            return
        self._tasks.start(self._fetch(provider, api_key or None), "fetch-models")

    async def _fetch(self, provider: ProviderSettings, api_key: str | None) -> None:
        self._set_fetching(True)
        try:
            models = await self._service.fetch_models(provider, api_key)
        except ParleyError as error:
            self.fetchFailed.emit(str(error))
        else:
            self.modelsFetched.emit(models)
        finally:
            self._set_fetching(False)

    @Slot(str)
    def set_theme(self, theme: str) -> None:
        self._save_appearance(replace(self._service.settings.appearance, theme=Theme(theme)))

    def _get_load_remote_images(self) -> bool:
        return self._service.settings.appearance.load_remote_images

    loadRemoteImages = Property(bool, _get_load_remote_images, notify=loadRemoteImagesChanged)

    @Slot(bool)
    def set_load_remote_images(self, enabled: bool) -> None:
        appearance = self._service.settings.appearance
        self._save_appearance(replace(appearance, load_remote_images=enabled))

    @property
    def font_size(self) -> int:
        """The text size in points; 0 means "as the system sets it"."""
        return self._service.settings.appearance.font_size or 0

    @Slot(int)
    def set_font_size(self, points: int) -> None:
        appearance = self._service.settings.appearance
        self._save_appearance(replace(appearance, font_size=points or None))

    def _save_appearance(self, appearance: AppearanceSettings) -> None:
        settings = self._service.settings
        if appearance != settings.appearance:
            self._save_settings(replace(settings, appearance=appearance))

    def _save_settings(self, settings: Settings) -> None:
        try:
            self._service.save(settings)
        except OSError as error:
            self.saveFailed.emit(self.tr("Could not save settings: %1").replace("%1", str(error)))

    def _on_settings_changed(self, settings: Settings) -> None:
        self.providersChanged.emit()
        self.themeChanged.emit(settings.appearance.theme.value)
        self.loadRemoteImagesChanged.emit(settings.appearance.load_remote_images)
