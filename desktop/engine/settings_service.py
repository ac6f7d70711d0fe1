"""Settings as the app sees them: the file, the keyring, and who to tell of changes.

Also what endpoints say about their models (`model_info.json`), which sits between the
known-model table and the person's overrides when deciding what a model can do.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import httpx

from desktop.core.capabilities import (
    REASONING_EFFORTS,
    Capabilities,
    ReasoningEffort,
    ReportedCapabilities,
)
from desktop.core.dispatch import EventBus
from desktop.core.errors import ProviderError, SettingsError
from desktop.core.i18n import tr
from desktop.core.models import ModelRef
from desktop.core.settings import ProviderKind, ProviderSettings, Settings
from desktop.core.settings_merge import record_removals
from desktop.engine.connection_check import ConnectionCheck, check_connection, model_list
from desktop.engine.http_clients import HttpClients
from desktop.engine.prompt.request_builder import RequestOptions
from desktop.engine.tasks import KeyedTasks
from desktop.providers.base import ChatProvider
from desktop.providers.embedding_models import chat_models
from desktop.providers.model_families import UNKNOWN, capabilities_for
from desktop.providers.registry import create_provider, create_retrying_provider
from desktop.providers.retry import RetryPolicy
from desktop.storage.model_info_cache import (
    FILE_NAME,
    EndpointReport,
    ModelInfoCache,
    endpoint_key,
)
from desktop.storage.secrets import SecretStore
from desktop.storage.settings_file import SettingsLoad, load_settings, save_settings

log = logging.getLogger(__name__)

MODEL_INFO_MAX_AGE_S = 24 * 3600.0  # ask an endpoint about its models at most daily
DESCRIBE_BUDGET_S = 10.0  # a model list waits this long for the models' details


class SettingsService:
    """Owns the current Settings; every change is saved atomically, then announced.

    If the file was invalid at start-up it is left alone (a backup was made) until the
    person saves settings from the app, which writes a fresh, valid file.

    It also owns the httpx client every provider shares, built from the network
    settings and rebuilt when they change (`HttpClients`); pass `client` to use a
    fixed one instead (it is then the caller's to close). Generations get providers
    that retry per `retry_policy`.

    What an endpoint says about its models is asked whenever its model list is
    (fetching models, test connection, a local server added) and kept in
    `model_info.json` beside the settings. With `model_info_max_age` set (the app sets a
    day), an endpoint whose answer is older is asked again in the background the next
    time one of its models' capabilities is looked at; it is never waited for.
    """

    def __init__(
        self,
        path: Path,
        secrets: SecretStore,
        client: httpx.AsyncClient | None = None,
        *,
        retry_policy: RetryPolicy | None = None,
        model_info_max_age: float | None = None,
        clock: Callable[[], float] = time.time,
        loaded: SettingsLoad | None = None,
    ) -> None:
        self._path = path
        self._secrets = secrets
        # The app reads the file before its first window (the language comes from it).
        loaded = loaded if loaded is not None else load_settings(path)
        self._settings = loaded.settings
        self.load_error: SettingsError | None = loaded.error
        self.backup_path: Path | None = loaded.backup_path
        self.changed: EventBus[Settings] = EventBus()
        self._fixed_client = client
        self._clients = None if client is not None else HttpClients(self._settings.network)
        self._retry_policy = retry_policy
        self._model_info = ModelInfoCache(path.with_name(FILE_NAME))
        self._model_info_max_age = model_info_max_age
        self._clock = clock
        self._asked: dict[str, float] = {}  # endpoint -> last time asked in this run
        self._refreshing = KeyedTasks("model-info")  # by endpoint key
        self._closed = False
        # An endpoint's key (`endpoint_key`) once what it says about its models changed.
        self.model_info_changed: EventBus[str] = EventBus()

    @property
    def _client(self) -> httpx.AsyncClient:
        """The client new requests use (the current network settings')."""
        if self._clients is None:
            assert self._fixed_client is not None
            return self._fixed_client
        return self._clients.current

    @property
    def http_client(self) -> httpx.AsyncClient:
        """The client for a short request outside a model's answer (a web search): the
        current network settings' (proxy, trusted certificates)."""
        return self._client

    @property
    def network_error(self) -> SettingsError | None:
        """Why the saved network settings could not be applied at start-up (a CA bundle
        that is missing or not a certificate file); None when they are in effect."""
        return self._clients.error if self._clients is not None else None

    async def aclose(self) -> None:
        """At quit, after generations stopped: stop asking endpoints about their models
        and close the clients this service made."""
        self._closed = True
        await self._refreshing.close()
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

    @property
    def keyring_notice(self) -> str:
        """About a keyring the person chose that is not the system's; "" otherwise."""
        return self._secrets.notice

    def save(self, settings: Settings, *, person_removed: bool = True) -> None:
        """Raises SettingsError, writing nothing, for network settings that cannot work.

        Assistants, prompts, providers and libraries that were here before and are not
        in `settings` are remembered as removed (`Settings.removed`), so restoring an
        older backup does not bring them back; one that returns is forgotten there. Not
        so for a restore that replaces them all (`person_removed=False`): the person
        removed none of them, and their own older backup may bring them back."""
        if person_removed:
            settings = record_removals(self._settings, settings)
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

    async def secret(self, name: str) -> str | None:
        """A keyring entry that is not a provider's key (a web search engine's key or
        password), read off the GUI thread; None when there is none or no keyring."""
        return await asyncio.to_thread(self._secrets.get, name)

    async def set_secret(self, name: str, value: str) -> None:
        """Store `value` under `name`. Raises SecretStoreUnavailable when the keyring
        cannot take it, ValueError when `value` is blank."""
        await asyncio.to_thread(self._secrets.set, name, value)

    async def delete_secret(self, name: str) -> None:
        """Forget the entry `name`; one that is not there is not an error."""
        await asyncio.to_thread(self._secrets.delete, name)

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
            raise SettingsError(
                "providers", tr("no provider with id {id}").format(id=repr(provider_id))
            )
        key = api_key if api_key is not None else await self.api_key(provider_id)
        client = self._client
        provider = create_retrying_provider(settings, key, client, self._retry_policy)
        return provider if self._clients is None else self._clients.lease(provider, client)

    def capabilities(self, ref: ModelRef) -> Capabilities:
        """What `ref`'s model can do: the known-model table, what the endpoint said, and
        the person's override. An endpoint never heard from is asked now, in the
        background; one whose answer is kept is asked again only when a request is made
        (`request_options`), so reading this at start loads nothing for a known one."""
        settings = self._settings.provider(ref.provider_id)
        if settings is None:
            return UNKNOWN
        if self._model_info.get(settings.kind.value, settings.base_url) is None:
            self._refresh_if_stale(settings)
        reported = self.reported(settings.kind, settings.base_url, ref.model)
        override = settings.model_overrides.get(ref.model)
        return capabilities_for(settings.kind, ref.model, reported=reported, override=override)

    def default_capabilities(self, kind: ProviderKind, base_url: str, model: str) -> Capabilities:
        """What a model can do before the person's override: the table and the endpoint."""
        reported = self.reported(kind, base_url, model)
        return capabilities_for(kind, model, reported=reported)

    def reported(
        self, kind: ProviderKind, base_url: str, model: str
    ) -> ReportedCapabilities | None:
        """What the endpoint at `base_url` said about `model`, if it was asked."""
        report = self._model_info.get(kind.value, base_url)
        return report.models.get(model) if report is not None else None

    def request_options(self, model: ModelRef) -> RequestOptions:
        """What a request to `model` carries besides the conversation. Asks the endpoint
        about its models again, in the background, when its answer is too old: on use,
        not at start, so an idle Parley has not loaded the keyring and TLS for it."""
        settings = self._settings.provider(model.provider_id)
        if settings is not None:
            self._refresh_if_stale(settings)
        effort = self._settings.reasoning_effort
        return RequestOptions(
            capabilities=self.capabilities(model),
            reasoning_effort=ReasoningEffort(effort) if effort in REASONING_EFFORTS else None,
            extra_headers=dict(settings.headers) if settings else {},
            extra_body=dict(settings.extra_body) if settings else {},
        )

    async def fetch_models(self, provider: ProviderSettings, api_key: str | None) -> list[str]:
        """Ask an endpoint for its models, using the typed key or the stored one, and
        what it says about them; models that cannot chat (embedding models) are left out.
        Raises `NoModelListError` when the endpoint keeps no list. Where the endpoint says
        nothing, a model named as an embedding model is left out too."""
        key = api_key if api_key else await self.api_key(provider.id)
        adapter = self._probe(provider, key)
        return chat_models(await self._described(provider, adapter, await model_list(adapter)))

    async def check_connection(
        self, provider: ProviderSettings, api_key: str | None, model: str = ""
    ) -> ConnectionCheck:
        """Test connection for a provider as edited (typed key, else the stored one)."""
        key = api_key if api_key else await self.api_key(provider.id)
        adapter = self._probe(provider, key)
        check = await check_connection(adapter, provider, model)
        if check.models is None:
            return check
        described = await self._described(provider, adapter, check.models)
        return replace(check, models=tuple(chat_models(described)))

    async def embedding_models(self, provider_id: str) -> list[str]:
        """The models a configured provider's endpoint offers that make vectors: those
        its list says or names as embedding models, and those it said cannot chat when
        asked about them. Raises `ProviderError` when the endpoint cannot be asked."""
        settings = self._settings.provider(provider_id)
        if settings is None:
            return []
        adapter = self._probe(settings, await self.api_key(provider_id))
        listed = await adapter.list_embedding_models()
        report = self._model_info.get(settings.kind.value, settings.base_url)
        stated = [m for m, r in (report.models if report else {}).items() if r.chat is False]
        return sorted(set(listed) | set(stated))

    async def refresh_model_info(self, provider_id: str) -> None:
        """Ask a configured provider's endpoint about its models now (a local server just
        added); a failure is only logged."""
        settings = self._settings.provider(provider_id)
        if settings is None:
            return
        adapter = self._probe(settings, await self.api_key(provider_id))
        await self._describe(settings, adapter, settings.models)

    # --- what endpoints say about their models --------------------------------------

    async def _described(
        self, provider: ProviderSettings, adapter: ChatProvider, models: Sequence[str]
    ) -> list[str]:
        """`models` less those the endpoint says cannot chat, after keeping its answer."""
        reports = await self._describe(provider, adapter, models)
        if not reports:
            return list(models)
        return [model for model in models if reports.get(model, _NOT_STATED).chat is not False]

    async def _describe(
        self, provider: ProviderSettings, adapter: ChatProvider, models: Sequence[str]
    ) -> dict[str, ReportedCapabilities] | None:
        """Ask, keep and announce the endpoint's answer; None when it could not be had
        (logged: the known-model table still speaks for every model)."""
        key = endpoint_key(provider.kind.value, provider.base_url)
        self._asked[key] = self._clock()
        if not models:
            return None
        try:
            reports = await asyncio.wait_for(adapter.describe_models(models), DESCRIBE_BUDGET_S)
        except (ProviderError, TimeoutError) as error:
            log.info("%s said nothing about its models: %s", provider.base_url, error)
            return None
        report = EndpointReport(self._clock(), reports)
        self._model_info.put(provider.kind.value, provider.base_url, report)
        self.model_info_changed.emit(key)
        return reports

    def _refresh_if_stale(self, settings: ProviderSettings) -> None:
        """Start asking the endpoint again if its answer is older than the maximum age
        (and it was not already asked that recently in this run, even in vain)."""
        if self._model_info_max_age is None or self._closed or not settings.models:
            return
        key = endpoint_key(settings.kind.value, settings.base_url)
        report = self._model_info.get(settings.kind.value, settings.base_url)
        last = max(report.fetched_at if report else -math.inf, self._asked.get(key, -math.inf))
        if self._refreshing.busy(key) or self._clock() - last < self._model_info_max_age:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # not on the event loop: the next look from the app will ask
        self._asked[key] = self._clock()
        self._refreshing.start(key, self._refresh(settings))

    async def _refresh(self, settings: ProviderSettings) -> None:
        try:
            adapter = self._probe(settings, await self.api_key(settings.id))
            await self._describe(settings, adapter, settings.models)
        except asyncio.CancelledError:
            raise
        except Exception:  # a background refresh must never reach the person
            log.exception("Asking %s about its models failed", settings.base_url)

    def _probe(self, settings: ProviderSettings, key: str | None) -> ChatProvider:
        """The bare adapter (no retries: a check reports at once), holding its client."""
        client = self._client
        adapter = create_provider(settings, key, client)
        return adapter if self._clients is None else self._clients.lease(adapter, client)


_NOT_STATED = ReportedCapabilities()
