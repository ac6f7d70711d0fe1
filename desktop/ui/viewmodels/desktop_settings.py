"""Settings → Desktop: close to tray, notifications, and the floating window's global
shortcut, saved as the person changes them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QSystemTrayIcon

from desktop.core.desktop_settings import DesktopSettings, parse_floating_shortcut
from desktop.core.errors import SettingsError
from desktop.core.settings import Settings
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.settings_undo import SettingsUndo

# Registers the global shortcut with the desktop (`GlobalShortcut.set_sequence` in
# ui/desktop/global_shortcut.py): returns why it could not, or None.
Register = Callable[[str], str | None]
# Whether this platform lets an application have a global shortcut at all, and why not.
Support = Callable[[], tuple[bool, str]]


class DesktopSettingsModel(QObject):
    changed = Signal()
    # Why the shortcut was not taken ("" once one is): shown beside the field.
    shortcutProblemChanged = Signal(str)

    def __init__(
        self,
        service: SettingsService,
        parent: QObject | None = None,
        *,
        tray_available: Callable[[], bool] = QSystemTrayIcon.isSystemTrayAvailable,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._undo = undo if undo is not None else SettingsUndo(service, self)
        self._shown = service.settings.desktop
        self._tray_available = tray_available
        self._register: Register | None = None
        self._support: Support | None = None
        service.changed.subscribe(self._on_settings_changed)

    def attach_global_shortcut(self, register: Register, support: Support) -> None:
        """The application hands over what registers the floating window's shortcut;
        without it a changed shortcut is only saved."""
        self._register = register
        self._support = support
        self.changed.emit()

    @property
    def settings(self) -> DesktopSettings:
        return self._service.settings.desktop

    # --- what the page shows ----------------------------------------------------------

    @property
    def tray_available(self) -> bool:
        return self._tray_available()

    def close_to_tray_note(self) -> str:
        if self.tray_available:
            return self.tr("Parley keeps running in the tray; quit it from the tray menu.")
        return self.tr(
            "This desktop shows no system tray, so there would be no way back to a hidden "
            "window: closing the window quits Parley."
        )

    def shortcut_support(self) -> tuple[bool, str]:
        """Whether a global shortcut can work here, and a sentence saying so."""
        if self._support is None:
            return True, ""
        return self._support()

    # --- changes ----------------------------------------------------------------------

    @Slot(bool)
    def set_close_to_tray(self, on: bool) -> None:
        self._save(replace(self.settings, close_to_tray=on))

    @Slot(bool)
    def set_notifications(self, on: bool) -> None:
        self._save(replace(self.settings, notifications=on))

    @Slot(str)
    def set_floating_shortcut(self, sequence: str) -> None:
        """Register first and save only what the desktop accepted, so the file never
        names a shortcut that does nothing."""
        try:
            sequence = parse_floating_shortcut(sequence, "floating_shortcut")
        except SettingsError as error:
            self.shortcutProblemChanged.emit(self.tr("Shortcut: %1.").replace("%1", error.problem))
            self.changed.emit()  # puts the saved shortcut back in the field
            return
        if sequence == self.settings.floating_shortcut:
            self.shortcutProblemChanged.emit("")
            return
        if self._register is not None:
            problem = self._register(sequence)
            if problem:
                self._register(self.settings.floating_shortcut)
                self.shortcutProblemChanged.emit(problem)
                self.changed.emit()
                return
        self.shortcutProblemChanged.emit("")
        self._save(replace(self.settings, floating_shortcut=sequence))

    def _save(self, desktop: DesktopSettings) -> None:
        settings = self._service.settings
        if desktop != settings.desktop and not self._undo.save(replace(settings, desktop=desktop)):
            self.changed.emit()  # not written: the page shows what is saved again

    def _on_settings_changed(self, settings: Settings) -> None:
        if settings.desktop != self._shown:  # changed here, by Undo, or from the tray
            self._shown = settings.desktop
            self.changed.emit()
