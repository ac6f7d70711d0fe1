"""Settings as the app sees them: the file, the keyring, and who to tell of changes."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path

import httpx

from desktop.core.dispatch import EventBus
from desktop.core.errors import SettingsError
from desktop.core.models import ModelRef
from desktop.core.settings import ProviderSettings, Settings
from desktop.providers.base import ChatProvider
from desktop.providers.registry import create_provider
from desktop.storage.secrets import SecretStore
from desktop.storage.settings_file import load_settings, save_settings

log = logging.getLogger(__name__)


class SettingsService:
    """Owns the current Settings; every change is saved atomically, then announced.

    If the file was invalid at start-up it is left alone (a backup was made) until the
    person saves settings from the app, which writes a fresh, valid file.
    """

    def __init__(self, path: Path, secrets: SecretStore, client: httpx.AsyncClient) -> None:
        self._path = path
        self._secrets = secrets
        self._client = client
        loaded = load_settings(path)
        self._settings = loaded.settings
        self.load_error: SettingsError | None = loaded.error
        self.backup_path: Path | None = loaded.backup_path
        self.changed: EventBus[Settings] = EventBus()

    @property
    def settings(self) -> Settings:
        return self._settings

    @property
    def path(self) -> Path:
        return self._path

    @property
    def keyring_available(self) -> bool:
        return self._secrets.available

    @property
    def keyring_problem(self) -> str:
        return "" if self._secrets.available else self._secrets.unavailable_reason

    def save(self, settings: Settings) -> None:
        save_settings(self._path, settings)
        self._settings = settings
        self.load_error = None
        self.changed.emit(settings)

    async def save_provider(self, provider: ProviderSettings, api_key: str | None) -> None:
        """Add or update a provider. `api_key`: None keeps the stored key, "" removes it."""
        if api_key is not None:
            if api_key.strip():
                await asyncio.to_thread(self._secrets.set, provider.id, api_key.strip())
            else:
                await asyncio.to_thread(self._secrets.delete, provider.id)
        self.save(self._settings.with_provider(provider))

    async def remove_provider(self, provider_id: str) -> None:
        self.save(self._settings.without_provider(provider_id))
        if self._secrets.available:
            await asyncio.to_thread(self._secrets.delete, provider_id)

    def remember_model(self, ref: ModelRef) -> None:
        if self._settings.last_model != ref and self._settings.provider(ref.provider_id):
            self.save(replace(self._settings, last_model=ref))

    async def api_key(self, provider_id: str) -> str | None:
        """The stored key, read off the GUI thread (a keyring may block to unlock)."""
        return await asyncio.to_thread(self._secrets.get, provider_id)

    async def provider(self, provider_id: str, api_key: str | None = None) -> ChatProvider:
        """An adapter for a configured provider (or for one being edited, with its key)."""
        settings = self._settings.provider(provider_id)
        if settings is None:
            raise SettingsError("providers", f"no provider with id {provider_id!r}")
        key = api_key if api_key is not None else await self.api_key(provider_id)
        return create_provider(settings, key, self._client)

    async def fetch_models(self, provider: ProviderSettings, api_key: str | None) -> list[str]:
        """Ask an endpoint for its models, using the typed key or the stored one."""
        key = api_key if api_key else await self.api_key(provider.id)
        return await create_provider(provider, key, self._client).list_models()
