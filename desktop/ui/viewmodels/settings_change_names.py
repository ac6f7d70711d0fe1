"""What a settings change is called in the Settings window's bar ("Theme changed").

Named by the field that changed (see `desktop.core.settings_changes`); a field not
listed here is named after itself, so a new setting is never shown without a name.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication

MAX_NAMED = 3  # fields named in one step's description; more are "…"


def _names() -> dict[tuple[str, ...], str]:
    # Each literal is written out in a translate() call so lupdate collects it.
    return {
        ("providers",): QCoreApplication.translate("SettingsChanges", "Providers"),
        ("appearance", "theme"): QCoreApplication.translate("SettingsChanges", "Theme"),
        ("appearance", "font_size"): QCoreApplication.translate("SettingsChanges", "Text size"),
        ("appearance", "load_remote_images"): QCoreApplication.translate(
            "SettingsChanges", "Remote images"
        ),
        ("appearance", "language"): QCoreApplication.translate("SettingsChanges", "Language"),
        ("last_model",): QCoreApplication.translate("SettingsChanges", "Last model"),
        ("network", "proxy_mode"): QCoreApplication.translate("SettingsChanges", "Proxy"),
        ("network", "proxy_url"): QCoreApplication.translate("SettingsChanges", "Proxy URL"),
        ("network", "ca_bundle"): QCoreApplication.translate("SettingsChanges", "CA bundle"),
        ("reasoning_effort",): QCoreApplication.translate("SettingsChanges", "Reasoning effort"),
        ("tools", "policies"): QCoreApplication.translate("SettingsChanges", "Tool permissions"),
        ("tools", "always_allow"): QCoreApplication.translate(
            "SettingsChanges", "Always allowed tools"
        ),
        ("mcp_servers",): QCoreApplication.translate("SettingsChanges", "MCP servers"),
        ("mcp_consent",): QCoreApplication.translate(
            "SettingsChanges", "MCP servers allowed to start"
        ),
        ("ocr_model",): QCoreApplication.translate("SettingsChanges", "OCR model"),
        ("desktop", "close_to_tray"): QCoreApplication.translate("SettingsChanges", "Tray"),
        ("desktop", "notifications"): QCoreApplication.translate(
            "SettingsChanges", "Notifications"
        ),
        ("desktop", "floating_shortcut"): QCoreApplication.translate(
            "SettingsChanges", "Floating chat shortcut"
        ),
        ("utility_model",): QCoreApplication.translate("SettingsChanges", "Utility model"),
        ("prices",): QCoreApplication.translate("SettingsChanges", "Prices"),
        ("currency",): QCoreApplication.translate("SettingsChanges", "Currency"),
        ("auto_titles",): QCoreApplication.translate("SettingsChanges", "Chat titles"),
        ("follow_up_suggestions",): QCoreApplication.translate(
            "SettingsChanges", "Follow-up suggestions"
        ),
        ("assistants",): QCoreApplication.translate("SettingsChanges", "Assistants"),
        ("default_assistant",): QCoreApplication.translate("SettingsChanges", "Default assistant"),
        ("libraries",): QCoreApplication.translate("SettingsChanges", "Knowledge libraries"),
        ("web_search", "engine"): QCoreApplication.translate(
            "SettingsChanges", "Web search engine"
        ),
        ("web_search", "searxng_url"): QCoreApplication.translate(
            "SettingsChanges", "SearXNG address"
        ),
        ("web_search", "searxng_username"): QCoreApplication.translate(
            "SettingsChanges", "SearXNG user name"
        ),
        ("web_search", "max_results"): QCoreApplication.translate(
            "SettingsChanges", "Results per search"
        ),
        ("web_search", "fetch_enabled"): QCoreApplication.translate(
            "SettingsChanges", "Opening web pages"
        ),
        ("memory",): QCoreApplication.translate("SettingsChanges", "Memory"),
        ("prompts",): QCoreApplication.translate("SettingsChanges", "Prompts"),
    }


def change_name(path: tuple[str, ...]) -> str:
    """The name of one changed field, or of its section, or the field's own name."""
    names = _names()
    for key in (path, path[:1]):
        if key in names:
            return names[key]
    return path[-1].replace("_", " ").capitalize()


def describe(paths: Iterable[tuple[str, ...]]) -> str:
    """ "Theme changed", "Theme, Text size changed": what one undo step holds."""
    seen: list[str] = []
    for path in paths:
        name = change_name(path)
        if name not in seen:
            seen.append(name)
    if len(seen) > MAX_NAMED:
        seen = [*seen[:MAX_NAMED], "…"]
    joined = QCoreApplication.translate("SettingsChanges", ", ").join(seen)
    return QCoreApplication.translate("SettingsChanges", "%1 changed").replace("%1", joined)
