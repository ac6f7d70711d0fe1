"""Light and dark palettes (Fusion) that follow the system unless the person picks one."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from desktop.ui.resources import read_text

_ROLE = QPalette.ColorRole
_GROUP = QPalette.ColorGroup

LIGHT = {
    _ROLE.Window: "#f5f5f7",
    _ROLE.WindowText: "#1d1d1f",
    _ROLE.Base: "#ffffff",
    _ROLE.AlternateBase: "#f0f0f3",
    _ROLE.Text: "#1d1d1f",
    _ROLE.Button: "#ffffff",
    _ROLE.ButtonText: "#1d1d1f",
    _ROLE.Highlight: "#2f6fde",
    _ROLE.HighlightedText: "#ffffff",
    _ROLE.ToolTipBase: "#ffffff",
    _ROLE.ToolTipText: "#1d1d1f",
    _ROLE.PlaceholderText: "#8a8a90",
    _ROLE.Link: "#2f6fde",
    _ROLE.Mid: "#d2d2d7",
    _ROLE.Midlight: "#e8e8ed",
    _ROLE.Dark: "#a1a1a6",
}
DARK = {
    _ROLE.Window: "#1e1f22",
    _ROLE.WindowText: "#e6e6e9",
    _ROLE.Base: "#26272b",
    _ROLE.AlternateBase: "#2c2d31",
    _ROLE.Text: "#e6e6e9",
    _ROLE.Button: "#2f3035",
    _ROLE.ButtonText: "#e6e6e9",
    _ROLE.Highlight: "#4c8dff",
    _ROLE.HighlightedText: "#ffffff",
    _ROLE.ToolTipBase: "#2f3035",
    _ROLE.ToolTipText: "#e6e6e9",
    _ROLE.PlaceholderText: "#8b8c92",
    _ROLE.Link: "#7aa7ff",
    _ROLE.Mid: "#3a3b40",
    _ROLE.Midlight: "#34353a",
    _ROLE.Dark: "#141517",
}


# Colours the stylesheet template (resources/themes/parley.qss) refers to as @name.
QSS_LIGHT = {
    "window": "#f5f5f7",
    "sidebar": "#ececef",
    "base": "#ffffff",
    "text": "#1d1d1f",
    "muted": "#6e6e73",
    "border": "#d9d9de",
    "accent": "#2f6fde",
    "accent_hover": "#2560c8",
    "hover": "#e0e0e5",
    "selected": "#d6d9e3",
    "bubble": "#e4ebfa",
    "disabled": "#e3e3e8",
    "error_bg": "#fdecec",
    "error_border": "#f3b9b9",
    "error_text": "#9b1c1c",
    "warn_bg": "#fff6dc",
    "warn_border": "#f0d58c",
    "scroll": "#c4c4ca",
}
QSS_DARK = {
    "window": "#1e1f22",
    "sidebar": "#18191b",
    "base": "#26272b",
    "text": "#e6e6e9",
    "muted": "#9a9ba1",
    "border": "#3a3b40",
    "accent": "#4c8dff",
    "accent_hover": "#6a9fff",
    "hover": "#2a2b30",
    "selected": "#33363f",
    "bubble": "#2c3447",
    "disabled": "#2f3035",
    "error_bg": "#3a2224",
    "error_border": "#6b3135",
    "error_text": "#ffb4b4",
    "warn_bg": "#3a3322",
    "warn_border": "#6b5a2b",
    "scroll": "#4a4b52",
}


def build_stylesheet(dark: bool) -> str:
    qss = read_text("themes", "parley.qss")
    colours = QSS_DARK if dark else QSS_LIGHT
    # Longest names first so "@accent_hover" is not eaten by "@accent".
    for name in sorted(colours, key=len, reverse=True):
        qss = qss.replace(f"@{name}", colours[name])
    return qss


def build_palette(dark: bool) -> QPalette:
    palette = QPalette()
    for role, colour in (DARK if dark else LIGHT).items():
        palette.setColor(role, QColor(colour))
    muted = QColor("#6e6e73" if not dark else "#77787e")
    for role in (_ROLE.Text, _ROLE.WindowText, _ROLE.ButtonText):
        palette.setColor(_GROUP.Disabled, role, muted)
    return palette


def system_prefers_dark() -> bool:
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


class ThemeController(QObject):
    """Applies the chosen theme ("system", "light", "dark") and follows system changes."""

    darkChanged = Signal(bool)

    def __init__(self, app: QApplication, choice: str = "system") -> None:
        super().__init__(app)
        self._app = app
        self._choice = choice
        self._dark: bool | None = None
        self._system_font = app.font()
        app.setStyle("Fusion")
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._on_system_changed)
        self.apply(choice)

    @property
    def dark(self) -> bool:
        return bool(self._dark)

    def apply(self, choice: str) -> None:
        self._choice = choice
        dark = system_prefers_dark() if choice == "system" else choice == "dark"
        if dark == self._dark:
            return
        self._dark = dark
        self._app.setPalette(build_palette(dark))
        self._app.setStyleSheet(build_stylesheet(dark))
        self.darkChanged.emit(dark)

    def set_font_size(self, points: int | None) -> None:
        """The person's text size, or the system's when None."""
        font = self._app.font() if points else self._system_font
        if points:
            font.setPointSize(points)
        if font != self._app.font():
            self._app.setFont(font)

    def _on_system_changed(self, _scheme: Qt.ColorScheme) -> None:
        if self._choice == "system":
            self.apply("system")
