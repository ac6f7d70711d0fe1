"""The Network page's state: the proxy choice and an extra CA bundle, checked before saving."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.errors import SettingsError
from desktop.core.settings import NetworkSettings, parse_settings
from desktop.engine.settings_service import SettingsService

_LABELS = {"proxy_url": "Proxy URL", "ca_bundle": "CA bundle", "proxy_mode": "Proxy"}


class NetworkSettingsModel(QObject):
    saved = Signal()
    failed = Signal(str)

    def __init__(self, service: SettingsService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._service = service

    @property
    def settings(self) -> NetworkSettings:
        return self._service.settings.network

    @Slot(str, str, str)
    def save(self, proxy_mode: str, proxy_url: str, ca_bundle: str) -> None:
        """Validate as the settings file is validated, then save; the service refuses (and
        writes nothing) when the CA bundle is not a readable certificate file, so a typo
        shows here instead of as every request failing later."""
        data = {"proxy_mode": proxy_mode, "proxy_url": proxy_url, "ca_bundle": ca_bundle}
        try:
            network = parse_settings({"network": data}).network
            settings = self._service.settings
            if network != settings.network:
                self._service.save(replace(settings, network=network))
        except SettingsError as error:
            key = error.field.removeprefix("network.")
            self.failed.emit(
                self.tr("%1: %2.")
                .replace("%1", self.tr(_LABELS.get(key, key)))
                .replace("%2", error.problem)
            )
            return
        except OSError as error:
            self.failed.emit(self.tr("Could not save settings: %1").replace("%1", str(error)))
            return
        self.saved.emit()
