"""View → Zoom In / Zoom Out / Actual Size: steps of the appearance text size.

Zoom is the same setting as Settings → Appearance → Text size, so the two never
disagree and the size is kept across restarts. "Actual size" is the system's size
(the setting's 0). Steps follow a ladder like a browser's zoom levels: one point at a
time where a point matters, bigger steps where it does not.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot

from desktop.ui.viewmodels.settings import SettingsViewModel

ZOOM_SIZES = (8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 22, 24, 28, 32)  # points
FALLBACK_SIZE = 10  # the system's size when its font is set in pixels


def zoomed_in(points: int) -> int:
    """The next size up the ladder; at its top (or above it) the size stays."""
    return next((size for size in ZOOM_SIZES if size > points), max(points, ZOOM_SIZES[-1]))


def zoomed_out(points: int) -> int:
    """The next size down the ladder; at its foot (or below it) the size stays."""
    return next(
        (size for size in reversed(ZOOM_SIZES) if size < points), min(points, ZOOM_SIZES[0])
    )


class TextZoom(QObject):
    """`system_size` reads the system's text size in points (the application font
    while the setting is 0): only the view knows it."""

    changed = Signal()

    def __init__(
        self,
        settings: SettingsViewModel,
        system_size: Callable[[], int],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = settings
        self._system_size = system_size

    @property
    def size(self) -> int:
        """The text size in points now, whoever set it."""
        return self._settings.font_size or self._system_size() or FALLBACK_SIZE

    @property
    def is_actual_size(self) -> bool:
        return self._settings.font_size == 0

    @property
    def can_zoom_in(self) -> bool:
        return self.size < ZOOM_SIZES[-1]

    @property
    def can_zoom_out(self) -> bool:
        return self.size > ZOOM_SIZES[0]

    @Slot()
    def zoom_in(self) -> None:
        self._set(zoomed_in(self.size))

    @Slot()
    def zoom_out(self) -> None:
        self._set(zoomed_out(self.size))

    @Slot()
    def reset(self) -> None:
        if not self.is_actual_size:
            self._settings.set_font_size(0)
            self.changed.emit()

    def _set(self, points: int) -> None:
        if points != self._settings.font_size:
            self._settings.set_font_size(points)
            self.changed.emit()
