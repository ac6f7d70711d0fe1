"""A stand-in for the system's URL handler (the browser, the file manager)."""

from __future__ import annotations

from PySide6.QtCore import QObject, QUrl, Slot


class UrlCatcher(QObject):
    """Receives what Parley asks the system to open (Qt's own URL handler hook)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def catch(self, url: QUrl) -> None:
        self.urls.append(url)
