"""The web search settings: which engine answers, where it lives, how much a search returns.

Stored under `"web_search"` in settings.json. Keys and passwords are not part of it: the
Brave and Tavily keys and the SearXNG password live in the keyring under the names
below, so the file can be shared or backed up without giving them away.

An engine chosen without its address or key still parses: the person may pick the
engine before typing the rest, and the search itself then says what is missing, which
is more useful than a settings file Parley refuses to load.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr

FIELD = "web_search"
DEFAULT_MAX_RESULTS = 5
# A search result costs the model a few hundred tokens; beyond this they crowd out
# the conversation without adding much.
MAX_RESULTS_LIMIT = 8

# Keyring entries (the store's "provider id" slot), one per secret an engine needs.
BRAVE_KEY_SECRET = "web_search.brave"
TAVILY_KEY_SECRET = "web_search.tavily"
SEARXNG_PASSWORD_SECRET = "web_search.searxng"

_KEYS = {"engine", "searxng_url", "searxng_username", "max_results", "fetch_enabled"}


class WebEngine(StrEnum):
    SEARXNG = "searxng"  # a self-hosted instance: the keyless option that keeps working
    BRAVE = "brave"
    TAVILY = "tavily"
    DUCKDUCKGO = "duckduckgo"  # keyless, but rate-limits scripted searches


@dataclass(frozen=True, slots=True)
class WebSearchSettings:
    engine: WebEngine | None = None  # None: web search is off
    searxng_url: str = ""
    searxng_username: str = ""  # basic auth in front of the instance, when it has one
    max_results: int = DEFAULT_MAX_RESULTS
    # Whether the model may also read a whole page (still asked of the person by default).
    fetch_enabled: bool = False


def _where(name: str) -> str:
    return f"{FIELD}.{name}"


def _type_error(where: str, what: str, value: Any) -> SettingsError:
    return SettingsError(
        where, tr("must be {what}, not {type}").format(what=what, type=type(value).__name__)
    )


def parse_searxng_url(value: Any, where: str = _where("searxng_url")) -> str:
    """The instance's root, without a trailing slash; "" when not set yet."""
    if not isinstance(value, str):
        raise _type_error(where, tr("a string"), value)
    url = value.strip()
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingsError(where, tr("must be an http:// or https:// URL with a host"))
    if parts.query or parts.fragment:
        raise SettingsError(
            where, tr("must be the instance's address, without a ?query or #fragment")
        )
    if parts.username is not None or parts.password is not None:
        # settings.json is plain text: the password belongs in the keyring.
        raise SettingsError(
            where, tr("must not hold a user name or password: use the fields for them")
        )
    return url.rstrip("/")


def _parse_username(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _type_error(where, tr("a string"), value)
    name = value.strip()
    if any(c in name for c in ":\r\n"):
        # Basic auth joins name and password with ":", so a name cannot hold one.
        raise SettingsError(where, tr("must be on one line and must not contain ':'"))
    return name


def parse_max_results(value: Any, where: str = _where("max_results")) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _type_error(where, tr("a whole number"), value)
    if not 1 <= value <= MAX_RESULTS_LIMIT:
        raise SettingsError(
            where,
            tr("must be between 1 and {high}, not {value}").format(
                high=MAX_RESULTS_LIMIT, value=value
            ),
        )
    return value


def parse_web_search(data: Any) -> WebSearchSettings:
    """Decoded JSON to settings, or SettingsError naming the field."""
    if not isinstance(data, dict):
        raise _type_error(FIELD, tr("an object"), data)
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SettingsError(_where(unknown[0]), tr("unknown setting (check the spelling)"))
    engine: WebEngine | None = None
    raw_engine = data.get("engine")
    if raw_engine is not None:
        try:
            engine = WebEngine(raw_engine) if isinstance(raw_engine, str) else None
        except ValueError:
            engine = None
        if engine is None:
            choices = ", ".join(e.value for e in WebEngine)
            raise SettingsError(
                _where("engine"),
                tr("must be null (off) or one of: {choices}").format(choices=choices),
            )
    fetch_enabled = data.get("fetch_enabled", False)
    if not isinstance(fetch_enabled, bool):
        raise _type_error(_where("fetch_enabled"), tr("true or false"), fetch_enabled)
    return WebSearchSettings(
        engine=engine,
        searxng_url=parse_searxng_url(data.get("searxng_url", "")),
        searxng_username=_parse_username(
            data.get("searxng_username", ""), _where("searxng_username")
        ),
        max_results=parse_max_results(data.get("max_results", DEFAULT_MAX_RESULTS)),
        fetch_enabled=fetch_enabled,
    )


def web_search_data(settings: WebSearchSettings) -> dict[str, Any]:
    """Only what differs from the defaults, so settings.json stays short."""
    defaults = WebSearchSettings()
    data: dict[str, Any] = {}
    if settings.engine is not None:
        data["engine"] = settings.engine.value
    for name in ("searxng_url", "searxng_username", "max_results", "fetch_enabled"):
        value = getattr(settings, name)
        if value != getattr(defaults, name):
            data[name] = value
    return data


def secret_name(engine: WebEngine) -> str | None:
    """The keyring entry `engine` needs (SearXNG's is an optional password)."""
    return {
        WebEngine.BRAVE: BRAVE_KEY_SECRET,
        WebEngine.TAVILY: TAVILY_KEY_SECRET,
        WebEngine.SEARXNG: SEARXNG_PASSWORD_SECRET,
    }.get(engine)
