"""The Network page's state: the proxy choice and an extra CA bundle, each saved as the
person changes it, after the same checks as the settings file's."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.errors import SettingsError
from desktop.core.settings import NetworkSettings, Settings, parse_settings
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.settings_undo import SettingsUndo

PROXY_URL = "proxy_url"
CA_BUNDLE = "ca_bundle"
_LABELS = {"proxy_url": "Proxy URL", "ca_bundle": "CA bundle", "proxy_mode": "Proxy"}


class NetworkSettingsModel(QObject):
    changed = Signal()  # the saved network settings changed (also by Undo)
    # A field's problem ("" once it is fine): the page shows it beside that field.
    problemChanged = Signal(str, str)  # field (PROXY_URL or CA_BUNDLE), problem

    def __init__(
        self,
        service: SettingsService,
        parent: QObject | None = None,
        *,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._undo = undo if undo is not None else SettingsUndo(service, self)
        self._shown = service.settings.network
        service.changed.subscribe(self._on_settings_changed)

    @property
    def settings(self) -> NetworkSettings:
        return self._service.settings.network

    @Slot(str, str)
    def set_proxy(self, proxy_mode: str, proxy_url: str) -> bool:
        """The proxy choice and its address, saved together (custom needs a valid
        address); the CA bundle stays as saved."""
        return self._save(proxy_mode, proxy_url, self.settings.ca_bundle, PROXY_URL)

    @Slot(str)
    def set_ca_bundle(self, ca_bundle: str) -> bool:
        """The extra certificates; the proxy stays as saved."""
        saved = self.settings
        return self._save(saved.proxy_mode.value, saved.proxy_url, ca_bundle, CA_BUNDLE)

    def _save(self, proxy_mode: str, proxy_url: str, ca_bundle: str, field: str) -> bool:
        """Validate as the settings file is validated, then save; the service refuses (and
        writes nothing) when the CA bundle is not a readable certificate file, so a typo
        shows here instead of as every request failing later. Nothing typed is lost: the
        page keeps its text and shows the problem beside it."""
        data = {"proxy_mode": proxy_mode, "proxy_url": proxy_url, "ca_bundle": ca_bundle}
        try:
            network = parse_settings({"network": data}).network
            settings = self._service.settings
            saved = self._undo.save(replace(settings, network=network), coalesce=True)
        except SettingsError as error:
            key = error.field.removeprefix("network.")
            problem = (
                self.tr("%1: %2.")
                .replace("%1", self.tr(_LABELS.get(key, key)))
                .replace("%2", error.problem)
            )
            self.problemChanged.emit(CA_BUNDLE if key == CA_BUNDLE else PROXY_URL, problem)
            return False
        if saved:
            self.problemChanged.emit(field, "")
        return saved

    def _on_settings_changed(self, settings: Settings) -> None:
        if settings.network != self._shown:
            self._shown = settings.network
            self.changed.emit()
