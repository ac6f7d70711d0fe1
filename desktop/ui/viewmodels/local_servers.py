"""Servers found running on this computer, offered as providers to add in one click."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.errors import ParleyError
from desktop.core.settings import ProviderSettings, Settings
from desktop.engine.local_servers import (
    DEFAULT_LOCAL_SERVERS,
    FoundServer,
    LocalServer,
    detect_local_servers,
)
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.properties import read_only
from desktop.ui.viewmodels.provider_draft import suggest_provider_id
from desktop.ui.viewmodels.tasks import TaskGroup

_LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def _endpoint(url: str) -> tuple[str, int | None, str]:
    """A comparable form of a base URL: localhost and 127.0.0.1 are the same place."""
    parts = urlsplit(url.rstrip("/"))
    host = (parts.hostname or "").lower()
    return ("loopback" if host in _LOOPBACK else host, parts.port, parts.path)


class LocalServersModel(QObject):
    """Runs detection on request and lists what was found and is not configured yet."""

    serversChanged = Signal()
    detectingChanged = Signal(bool)
    added = Signal(str)  # provider id
    addFailed = Signal(str)

    def __init__(
        self,
        service: SettingsService,
        tasks: TaskGroup,
        servers: Sequence[LocalServer] = DEFAULT_LOCAL_SERVERS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._tasks = tasks
        self._servers = tuple(servers)
        self._found: list[FoundServer] = []
        self._detecting = False
        self._runs = 0
        service.changed.subscribe(self._on_settings_changed)

    @property
    def servers(self) -> list[FoundServer]:
        """What was found, less what is already a provider (checked against the live
        settings, so a server added elsewhere disappears from the offer)."""
        taken = {_endpoint(p.base_url) for p in self._service.settings.providers}
        return [s for s in self._found if _endpoint(s.base_url) not in taken]

    def _get_detecting(self) -> bool:
        return self._detecting

    def _set_detecting(self, value: bool) -> None:
        if value != self._detecting:
            self._detecting = value
            self.detectingChanged.emit(value)

    detecting = read_only(bool, _get_detecting, notify=detectingChanged)

    @Slot()
    def detect(self) -> None:
        """Look again (the latest run's answer wins; an earlier one still running is ignored)."""
        if not self._servers:
            return
        self._runs += 1
        self._set_detecting(True)
        self._tasks.start(self._detect(self._runs), "detect-local-servers")

    async def _detect(self, run: int) -> None:
        try:
            found = await detect_local_servers(self._servers)
        finally:
            if run == self._runs:
                self._set_detecting(False)
        if run == self._runs:
            self._found = found
            self.serversChanged.emit()

    def _on_settings_changed(self, _settings: Settings) -> None:
        self.serversChanged.emit()  # a provider added or removed changes what is offered

    @Slot(str)
    def add(self, base_url: str) -> None:
        """Add the server found at `base_url` with its models, first model as default."""
        server = next((s for s in self._found if s.base_url == base_url), None)
        if server is None:
            return
        taken = {p.id for p in self._service.settings.providers}
        provider = ProviderSettings(
            id=suggest_provider_id(server.preset_id or server.name, taken),
            name=server.name,
            kind=server.kind,
            base_url=server.base_url,
            models=server.models,
            default_model=server.models[0] if server.models else None,
        )
        self._tasks.start(self._add(provider), "add-local-server")

    async def _add(self, provider: ProviderSettings) -> None:
        try:
            await self._service.save_provider(provider, None)
        except (ParleyError, OSError) as error:
            self.addFailed.emit(str(error))
        else:
            self.added.emit(provider.id)
            await self._service.refresh_model_info(provider.id)
