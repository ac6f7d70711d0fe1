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
from desktop.core.settings import REASONING_EFFORTS, ProviderSettings, Settings
from desktop.engine.connection_check import ConnectionCheck, check_connection
from desktop.engine.http_clients import HttpClients
from desktop.engine.request_builder import RequestOptions
from desktop.providers.base import Capabilities, ChatProvider, ReasoningEffort
from desktop.providers.capabilities import UNKNOWN, capabilities_for
from desktop.providers.registry import create_provider, create_retrying_provider
from desktop.providers.retry import RetryPolicy
from desktop.storage.secrets import SecretStore
from desktop.storage.settings_file import load_settings, save_settings

log = logging.getLogger(__name__)


class SettingsService:
    """Owns the current Settings; every change is saved atomically, then announced.

    If the file was invalid at start-up it is left alone (a backup was made) until the
    person saves settings from the app, which writes a fresh, valid file.

    It also owns the httpx client every provider shares, built from the network
    settings and rebuilt when they change (`HttpClients`); pass `client` to use a
    fixed one instead (it is then the caller's to close). Generations get providers
    that retry per `retry_policy`.
    """

    def __init__(
        self,
        path: Path,
        secrets: SecretStore,
        client: httpx.AsyncClient | None = None,
        *,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        self._path = path
        self._secrets = secrets
        loaded = load_settings(path)
        self._settings = loaded.settings
        self.load_error: SettingsError | None = loaded.error
        self.backup_path: Path | None = loaded.backup_path
        self.changed: EventBus[Settings] = EventBus()
        self._fixed_client = client
        self._clients = None if client is not None else HttpClients(self._settings.network)
        self._retry_policy = retry_policy

    @property
    def _client(self) -> httpx.AsyncClient:
        """The client new requests use (the current network settings')."""
        if self._clients is None:
            assert self._fixed_client is not None
            return self._fixed_client
        return self._clients.current

    @property
    def network_error(self) -> SettingsError | None:
        """Why the saved network settings could not be applied at start-up (a CA bundle
        that is missing or not a certificate file); None when they are in effect."""
        return self._clients.error if self._clients is not None else None

    async def aclose(self) -> None:
        """At quit, after generations stopped: close the clients this service made."""
        if self._clients is not None:
            await self._clients.aclose()

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
        """Raises SettingsError, writing nothing, for network settings that cannot work."""
        if self._clients is not None:
            self._clients.reconfigure(settings.network)
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
        """A provider for generating answers: retries failures before the first byte."""
        settings = self._settings.provider(provider_id)
        if settings is None:
            raise SettingsError("providers", f"no provider with id {provider_id!r}")
        key = api_key if api_key is not None else await self.api_key(provider_id)
        client = self._client
        provider = create_retrying_provider(settings, key, client, self._retry_policy)
        return provider if self._clients is None else self._clients.lease(provider, client)

    def capabilities(self, ref: ModelRef) -> Capabilities:
        """What `ref`'s model can do: the known-model table and the person's override."""
        settings = self._settings.provider(ref.provider_id)
        if settings is None:
            return UNKNOWN
        override = settings.model_overrides.get(ref.model)
        return capabilities_for(settings.kind, ref.model, override=override)

    def request_options(self, model: ModelRef) -> RequestOptions:
        """What a request to `model` carries besides the conversation."""
        settings = self._settings.provider(model.provider_id)
        effort = self._settings.reasoning_effort
        return RequestOptions(
            capabilities=self.capabilities(model),
            reasoning_effort=ReasoningEffort(effort) if effort in REASONING_EFFORTS else None,
            extra_headers=dict(settings.headers) if settings else {},
            extra_body=dict(settings.extra_body) if settings else {},
        )

    async def fetch_models(self, provider: ProviderSettings, api_key: str | None) -> list[str]:
        """Ask an endpoint for its models, using the typed key or the stored one."""
        key = api_key if api_key else await self.api_key(provider.id)
        return await self._probe(provider, key).list_models()

    async def check_connection(
        self, provider: ProviderSettings, api_key: str | None, model: str = ""
    ) -> ConnectionCheck:
        """Test connection for a provider as edited (typed key, else the stored one)."""
        key = api_key if api_key else await self.api_key(provider.id)
        adapter = self._probe(provider, key)
        return await check_connection(adapter, provider, model)

    def _probe(self, settings: ProviderSettings, key: str | None) -> ChatProvider:
        """The bare adapter (no retries: a check reports at once), holding its client."""
        client = self._client
        adapter = create_provider(settings, key, client)
        return adapter if self._clients is None else self._clients.lease(adapter, client)
