"""The settings schema: typed, validated with field-precise messages, JSON on disk.

Reading and writing the file is `storage/settings_file.py`; this module only turns plain
JSON data into typed settings and back. API keys are never part of it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from desktop.core.assistants import (
    DEFAULT_ID,
    Assistant,
    dump_assistant,
    parse_assistants,
    with_builtin,
)
from desktop.core.backup_settings import BackupSettings, dump_backup, parse_backup
from desktop.core.capabilities import REASONING_EFFORTS
from desktop.core.desktop_settings import DesktopSettings, dump_desktop, parse_desktop
from desktop.core.errors import SettingsError
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.knowledge import LibrarySettings, dump_library, parse_libraries
from desktop.core.limits import STALL_TIMEOUT_MAX_S, STALL_TIMEOUT_MIN_S, STALL_TIMEOUT_S
from desktop.core.mcp_settings import (
    McpServerSettings,
    dump_mcp_server,
    parse_mcp_consent,
    parse_mcp_servers,
)
from desktop.core.memory import MemorySettings, dump_memory_settings, parse_memory_settings
from desktop.core.models import ModelRef
from desktop.core.ocr_settings import dump_ocr_model, parse_ocr_model
from desktop.core.prompts import SavedPrompt, dump_prompts, read_prompts
from desktop.core.sync_settings import SyncSettings, dump_sync, parse_sync
from desktop.core.tools import ToolDefinition, ToolPolicy, default_policy
from desktop.core.usage_settings import (
    DEFAULT_CURRENCY,
    ModelPrice,
    dump_model_ref,
    dump_prices,
    parse_currency,
    parse_prices,
    parse_utility_model,
)
from desktop.core.web_search import WebSearchSettings, parse_web_search, web_search_data

SETTINGS_VERSION = 1
# A model override's context length, in tokens.
MIN_CONTEXT_LENGTH = 256
MAX_CONTEXT_LENGTH = 100_000_000
# appearance.font_size, in points.
MIN_FONT_SIZE = 6
MAX_FONT_SIZE = 48
_PROVIDER_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


class ProviderKind(StrEnum):
    """The wire protocol a provider speaks (not the vendor: many vendors speak OpenAI's)."""

    OPENAI_CHAT = "openai_chat"
    OPENAI_RESPONSES = "openai_responses"
    ANTHROPIC = "anthropic"
    GEMINI = "gemini"
    OLLAMA = "ollama"


class ProxyMode(StrEnum):
    SYSTEM = "system"  # the OS / environment proxy settings (the default)
    NONE = "none"
    CUSTOM = "custom"


class Theme(StrEnum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


class Language(StrEnum):
    """The language of Parley's window; its locale also formats dates and numbers."""

    SYSTEM = "system"  # the system's, when Parley has it; English otherwise
    ENGLISH = "en"
    CHINESE_SIMPLIFIED = "zh_CN"


@dataclass(frozen=True, slots=True)
class ModelOverride:
    """The person's corrections to what Parley believes a model can do; None keeps
    what the known-model table and the endpoint say."""

    vision: bool | None = None
    tools: bool | None = None
    reasoning: bool | None = None
    system_role: bool | None = None
    context_length: int | None = None

    @property
    def is_empty(self) -> bool:
        return self == ModelOverride()


@dataclass(frozen=True, slots=True)
class ProviderSettings:
    id: str
    name: str
    kind: ProviderKind = ProviderKind.OPENAI_CHAT
    base_url: str = ""
    models: tuple[str, ...] = ()
    default_model: str | None = None
    # Sent with every request, after Parley's own headers / body (so they win).
    headers: Mapping[str, str] = field(default_factory=dict)
    extra_body: Mapping[str, Any] = field(default_factory=dict)
    model_overrides: Mapping[str, ModelOverride] = field(default_factory=dict)
    # Seconds the server may stay silent (before its first byte, or between two) before
    # the request counts as stalled.
    stall_timeout: int = STALL_TIMEOUT_S

    def model_refs(self) -> list[ModelRef]:
        return [ModelRef(self.id, m) for m in self.models]


@dataclass(frozen=True, slots=True)
class AppearanceSettings:
    theme: Theme = Theme.SYSTEM
    font_size: int | None = None
    # Fetching an image tells its server the person's address: off until they allow it.
    load_remote_images: bool = False
    language: Language = Language.SYSTEM


@dataclass(frozen=True, slots=True)
class NetworkSettings:
    """How Parley reaches providers: the proxy, and extra trusted certificates."""

    proxy_mode: ProxyMode = ProxyMode.SYSTEM
    proxy_url: str = ""  # used when proxy_mode is CUSTOM
    ca_bundle: str = ""  # a PEM file trusted in addition to the system's certificates


_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_HASH = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True, slots=True)
class ToolSettings:
    """The person's say over tools: a policy per tool name (tools not listed follow
    their risk: reading is auto, writing and shell ask) and "always allow" grants, each
    bound to the hash of the definition the person allowed."""

    policies: Mapping[str, ToolPolicy] = field(default_factory=dict)
    always_allow: Mapping[str, str] = field(default_factory=dict)  # tool name -> hash

    def policy(self, tool: ToolDefinition) -> ToolPolicy:
        """What happens when the model calls `tool`. "Off" wins over a grant; a grant
        counts only for the very definition it was given for."""
        chosen = self.policies.get(tool.name)
        if chosen is ToolPolicy.OFF:
            return ToolPolicy.OFF
        if self.always_allow.get(tool.name) == tool.definition_hash:
            return ToolPolicy.AUTO
        return chosen or tool.policy or default_policy(tool.risk)

    def granted(self, tool: ToolDefinition) -> ToolSettings:
        """With an "always allow" for this exact definition (replacing an older one)."""
        grants = {**self.always_allow, tool.name: tool.definition_hash}
        return replace(self, always_allow=grants)

    def without_stale_grants(self, tools: list[ToolDefinition]) -> ToolSettings:
        """Grants for these tools whose definition changed are dropped."""
        current = {t.name: t.definition_hash for t in tools}
        grants = {
            name: digest
            for name, digest in self.always_allow.items()
            if current.get(name, digest) == digest
        }
        return self if grants == dict(self.always_allow) else replace(self, always_allow=grants)


@dataclass(frozen=True, slots=True)
class Settings:
    providers: tuple[ProviderSettings, ...] = ()
    appearance: AppearanceSettings = field(default_factory=AppearanceSettings)
    last_model: ModelRef | None = None
    network: NetworkSettings = field(default_factory=NetworkSettings)
    reasoning_effort: str = "medium"  # the composer's last choice (a ReasoningEffort)
    tools: ToolSettings = field(default_factory=ToolSettings)
    mcp_servers: tuple[McpServerSettings, ...] = ()
    # server id -> the command line hash the person allowed to start (mcp_settings.py)
    mcp_consent: Mapping[str, str] = field(default_factory=dict)
    # The vision model that reads images for models without vision; None: the local
    # OCR engine (ocr_settings.py).
    ocr_model: ModelRef | None = None
    # Tray, notifications, the floating window's global shortcut (desktop_settings.py).
    desktop: DesktopSettings = field(default_factory=DesktopSettings)
    # Writes titles and suggestions; None: the conversation's own model (usage_settings.py).
    utility_model: ModelRef | None = None
    # "provider/model" -> currency units per million tokens, for the cost shown.
    prices: Mapping[ModelRef, ModelPrice] = field(default_factory=dict)
    currency: str = DEFAULT_CURRENCY
    # Asked of the utility model after an answer: a title for a new chat, and three
    # follow-up questions shown as chips.
    auto_titles: bool = True
    follow_up_suggestions: bool = True
    # The person's assistants (assistants.py; the built-in one need not be listed) and
    # the one new conversations talk to.
    assistants: tuple[Assistant, ...] = ()
    default_assistant: str = DEFAULT_ID
    # Knowledge libraries (knowledge.py): folders and files indexed for citing.
    libraries: tuple[LibrarySettings, ...] = ()
    # The engine web_search asks (web_search.py); None there: no web search.
    web_search: WebSearchSettings = field(default_factory=WebSearchSettings)
    # How memories are embedded for retrieval (memory.py).
    memory: MemorySettings = field(default_factory=MemorySettings)
    # The prompt library (prompts.py): inserted with "/" in the composer.
    prompts: tuple[SavedPrompt, ...] = ()
    # Where this device backs up, how many to keep, daily or not (backup_settings.py).
    backup: BackupSettings = field(default_factory=BackupSettings)
    # Where this device syncs its chats, and whether it is paused (sync_settings.py).
    sync: SyncSettings = field(default_factory=SyncSettings)
    # Ids the person removed, per kind ("assistants", "prompts", "providers",
    # "libraries"): restoring an older backup must not bring them back
    # (settings_merge.py keeps the lists).
    removed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def library(self, library_id: str) -> LibrarySettings | None:
        return next((lib for lib in self.libraries if lib.id == library_id), None)

    def all_assistants(self) -> tuple[Assistant, ...]:
        return with_builtin(self.assistants)

    def assistant(self, assistant_id: str | None) -> Assistant:
        """That assistant, or the default one when it is None or no longer exists."""
        listed = self.all_assistants()
        for wanted in (assistant_id, self.default_assistant, DEFAULT_ID):
            found = next((a for a in listed if a.id == wanted), None)
            if found is not None:
                return found
        return listed[0]

    def mcp_server(self, server_id: str) -> McpServerSettings | None:
        return next((s for s in self.mcp_servers if s.id == server_id), None)

    def provider(self, provider_id: str) -> ProviderSettings | None:
        return next((p for p in self.providers if p.id == provider_id), None)

    def all_models(self) -> list[ModelRef]:
        return [ref for p in self.providers for ref in p.model_refs()]

    def preferred_model(self) -> ModelRef | None:
        """The last model used if it still exists, else the first provider's default."""
        models = self.all_models()
        if self.last_model in models:
            return self.last_model
        for p in self.providers:
            if p.default_model and p.default_model in p.models:
                return ModelRef(p.id, p.default_model)
        return models[0] if models else None

    def with_provider(self, provider: ProviderSettings) -> Settings:
        """Add or replace (by id) a provider."""
        others = [p for p in self.providers if p.id != provider.id]
        index = next((i for i, p in enumerate(self.providers) if p.id == provider.id), None)
        if index is None:
            return replace(self, providers=(*self.providers, provider))
        others.insert(index, provider)
        return replace(self, providers=tuple(others))

    def without_provider(self, provider_id: str) -> Settings:
        """Also forgets the OCR and utility models if they were this provider's."""
        ocr_model = self.ocr_model
        if ocr_model is not None and ocr_model.provider_id == provider_id:
            ocr_model = None
        utility_model = self.utility_model
        if utility_model is not None and utility_model.provider_id == provider_id:
            utility_model = None
        providers = tuple(p for p in self.providers if p.id != provider_id)
        return replace(self, providers=providers, ocr_model=ocr_model, utility_model=utility_model)


# --- validation -----------------------------------------------------------------


# What `_expect` is told a value must be, collected here so each is translated where it
# is shown.
_KINDS = (
    QT_TR_NOOP("a list of model ids"),
    QT_TR_NOOP("a list"),
    QT_TR_NOOP("a number"),
    QT_TR_NOOP("a string"),
    QT_TR_NOOP("a whole number"),
    QT_TR_NOOP("an object of header names to values"),
    QT_TR_NOOP("an object"),
    QT_TR_NOOP("true or false"),
    QT_TR_NOOP("true, false or null"),
)


def _expect(value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SettingsError(
            where,
            tr("must be {what}, not {type}").format(what=tr(what), type=type(value).__name__),
        )
    return value


def _known_keys(data: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        prefix = f"{where}." if where else ""
        raise SettingsError(f"{prefix}{unknown[0]}", tr("unknown setting (check the spelling)"))


def validate_base_url(url: str, where: str = "base_url") -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise SettingsError(where, tr("must be an http:// or https:// URL with a host"))
    return url.strip().rstrip("/")


def parse_provider(data: Any, where: str) -> ProviderSettings:
    _expect(data, dict, where, "an object")
    _known_keys(
        data,
        {
            "id",
            "name",
            "kind",
            "base_url",
            "models",
            "default_model",
            "headers",
            "extra_body",
            "model_overrides",
            "stall_timeout",
        },
        where,
    )
    pid = _expect(data.get("id"), str, f"{where}.id", "a string")
    if not _PROVIDER_ID.match(pid):
        raise SettingsError(
            f"{where}.id",
            tr("must be 1-40 lowercase letters, digits, '-' or '_' (e.g. 'local')"),
        )
    name = _expect(data.get("name", pid), str, f"{where}.name", "a string").strip() or pid
    kind_value = _expect(data.get("kind", "openai_chat"), str, f"{where}.kind", "a string")
    try:
        kind = ProviderKind(kind_value)
    except ValueError:
        choices = ", ".join(k.value for k in ProviderKind)
        raise SettingsError(
            f"{where}.kind",
            tr("unknown kind {kind} (one of: {choices})").format(
                kind=repr(kind_value), choices=choices
            ),
        ) from None
    base_url = validate_base_url(
        _expect(data.get("base_url"), str, f"{where}.base_url", "a string"), f"{where}.base_url"
    )
    models_raw = _expect(data.get("models", []), list, f"{where}.models", "a list of model ids")
    models: list[str] = []
    for i, raw in enumerate(models_raw):
        m = _expect(raw, str, f"{where}.models[{i}]", "a string").strip()
        if not m:
            raise SettingsError(f"{where}.models[{i}]", tr("must not be empty"))
        if m not in models:
            models.append(m)
    default = data.get("default_model")
    if default is not None:
        _expect(default, str, f"{where}.default_model", "a string")
        if default not in models:
            raise SettingsError(
                f"{where}.default_model",
                tr("{model} is not in models").format(model=repr(default)),
            )
    headers = _parse_headers(data.get("headers", {}), f"{where}.headers")
    extra_body = _expect(data.get("extra_body", {}), dict, f"{where}.extra_body", "an object")
    overrides_raw = _expect(
        data.get("model_overrides", {}), dict, f"{where}.model_overrides", "an object"
    )
    overrides = {
        model: _parse_override(raw, f"{where}.model_overrides.{model}")
        for model, raw in overrides_raw.items()
    }
    stall_timeout = parse_stall_timeout(
        data.get("stall_timeout", STALL_TIMEOUT_S), f"{where}.stall_timeout"
    )
    return ProviderSettings(
        pid,
        name,
        kind,
        base_url,
        tuple(models),
        default,
        headers,
        extra_body,
        overrides,
        stall_timeout,
    )


def parse_stall_timeout(value: Any, where: str = "stall_timeout") -> int:
    low, high = STALL_TIMEOUT_MIN_S, STALL_TIMEOUT_MAX_S
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        what = tr("a whole number of seconds ({low}-{high})").format(low=low, high=high)
        raise SettingsError(
            where,
            tr("must be {what}, not {type}").format(what=what, type=type(value).__name__),
        )
    if not low <= value <= high:
        raise SettingsError(
            where,
            tr("must be between {low} and {high} seconds, not {value}").format(
                low=low, high=high, value=value
            ),
        )
    return int(value)


_HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an HTTP token


def _parse_headers(data: Any, where: str) -> dict[str, str]:
    _expect(data, dict, where, "an object of header names to values")
    headers: dict[str, str] = {}
    for name, value in data.items():
        if not _HEADER_NAME.match(name):
            raise SettingsError(f"{where}.{name}", tr("is not a valid HTTP header name"))
        _expect(value, str, f"{where}.{name}", "a string")
        if "\n" in value or "\r" in value:
            raise SettingsError(f"{where}.{name}", tr("must be on one line"))
        headers[name] = value
    return headers


def _parse_override(data: Any, where: str) -> ModelOverride:
    _expect(data, dict, where, "an object")
    flags = ("vision", "tools", "reasoning", "system_role")
    _known_keys(data, {*flags, "context_length"}, where)
    values: dict[str, Any] = {}
    for flag in flags:
        if data.get(flag) is not None:
            values[flag] = _expect(data[flag], bool, f"{where}.{flag}", "true, false or null")
    length = data.get("context_length")
    if length is not None:
        _expect(length, int, f"{where}.context_length", "a whole number")
        if not MIN_CONTEXT_LENGTH <= length <= MAX_CONTEXT_LENGTH:
            raise SettingsError(f"{where}.context_length", tr("must be between 256 and 100000000"))
        values["context_length"] = length
    return ModelOverride(**values)


def _parse_network(data: Any) -> NetworkSettings:
    _expect(data, dict, "network", "an object")
    _known_keys(data, {"proxy_mode", "proxy_url", "ca_bundle"}, "network")
    mode_value = _expect(data.get("proxy_mode", "system"), str, "network.proxy_mode", "a string")
    try:
        mode = ProxyMode(mode_value)
    except ValueError:
        raise SettingsError(
            "network.proxy_mode", tr("must be one of: system, none, custom")
        ) from None
    proxy_url = _expect(data.get("proxy_url", ""), str, "network.proxy_url", "a string").strip()
    if mode is ProxyMode.CUSTOM:
        parts = urlsplit(proxy_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise SettingsError(
                "network.proxy_url", tr("must be a proxy URL such as http://host:3128")
            )
    ca_bundle = _expect(data.get("ca_bundle", ""), str, "network.ca_bundle", "a string").strip()
    return NetworkSettings(mode, proxy_url, ca_bundle)


def _parse_tools(data: Any) -> ToolSettings:
    _expect(data, dict, "tools", "an object")
    _known_keys(data, {"policies", "always_allow"}, "tools")
    raw_policies = _expect(data.get("policies", {}), dict, "tools.policies", "an object")
    policies: dict[str, ToolPolicy] = {}
    for name, value in raw_policies.items():
        where = f"tools.policies.{name}"
        if not _TOOL_NAME.match(name):
            raise SettingsError(where, tr("is not a tool name"))
        _expect(value, str, where, "a string")
        try:
            policies[name] = ToolPolicy(value)
        except ValueError:
            raise SettingsError(where, tr("must be one of: auto, ask, off")) from None
    raw_grants = _expect(data.get("always_allow", {}), dict, "tools.always_allow", "an object")
    grants: dict[str, str] = {}
    for name, digest in raw_grants.items():
        where = f"tools.always_allow.{name}"
        if not _TOOL_NAME.match(name):
            raise SettingsError(where, tr("is not a tool name"))
        if not isinstance(digest, str) or not _HASH.match(digest):
            raise SettingsError(where, tr("must be the tool definition's sha256 hash"))
        grants[name] = digest
    return ToolSettings(policies, grants)


def parse_settings(data: Any) -> Settings:
    """Turn decoded JSON into Settings, or raise SettingsError naming the field."""
    _expect(data, dict, tr("(top level)"), "an object")
    _known_keys(
        data,
        {
            "version",
            "providers",
            "appearance",
            "last_model",
            "network",
            "reasoning_effort",
            "tools",
            "mcp_servers",
            "mcp_consent",
            "ocr_model",
            "desktop",
            "utility_model",
            "prices",
            "currency",
            "auto_titles",
            "follow_up_suggestions",
            "assistants",
            "default_assistant",
            "libraries",
            "web_search",
            "memory",
            "prompts",
            "backup",
            "sync",
            "removed",
        },
        "",
    )
    version = _expect(data.get("version", SETTINGS_VERSION), int, "version", "a number")
    if version > SETTINGS_VERSION:
        raise SettingsError(
            "version", tr("{version} is newer than this Parley understands").format(version=version)
        )
    raw_providers = _expect(data.get("providers", []), list, "providers", "a list")
    providers = [parse_provider(p, f"providers[{i}]") for i, p in enumerate(raw_providers)]
    seen: set[str] = set()
    for i, p in enumerate(providers):
        if p.id in seen:
            raise SettingsError(
                f"providers[{i}].id", tr("{id} is used twice").format(id=repr(p.id))
            )
        seen.add(p.id)

    raw_app = _expect(data.get("appearance", {}), dict, "appearance", "an object")
    _known_keys(raw_app, {"theme", "font_size", "load_remote_images", "language"}, "appearance")
    theme_value = _expect(raw_app.get("theme", "system"), str, "appearance.theme", "a string")
    try:
        theme = Theme(theme_value)
    except ValueError:
        raise SettingsError("appearance.theme", tr("must be one of: system, light, dark")) from None
    font_size = raw_app.get("font_size")
    if font_size is not None:
        _expect(font_size, int, "appearance.font_size", "a whole number")
        if not MIN_FONT_SIZE <= font_size <= MAX_FONT_SIZE:
            raise SettingsError("appearance.font_size", tr("must be between 6 and 48"))
    load_remote_images = _expect(
        raw_app.get("load_remote_images", False),
        bool,
        "appearance.load_remote_images",
        "true or false",
    )

    last = data.get("last_model")
    last_model = None
    if last is not None:
        _expect(last, dict, "last_model", "an object")
        _known_keys(last, {"provider", "model"}, "last_model")
        last_model = ModelRef(
            _expect(last.get("provider"), str, "last_model.provider", "a string"),
            _expect(last.get("model"), str, "last_model.model", "a string"),
        )
    network = _parse_network(data.get("network", {}))
    effort = _expect(data.get("reasoning_effort", "medium"), str, "reasoning_effort", "a string")
    if effort not in REASONING_EFFORTS:
        raise SettingsError(
            "reasoning_effort",
            tr("must be one of: {names}").format(names=", ".join(REASONING_EFFORTS)),
        )
    language_value = _expect(
        raw_app.get("language", "system"), str, "appearance.language", "a string"
    )
    try:
        language = Language(language_value)
    except ValueError:
        allowed = ", ".join(choice.value for choice in Language)
        raise SettingsError(
            "appearance.language", tr("must be one of: {names}").format(names=allowed)
        ) from None
    appearance = AppearanceSettings(theme, font_size, load_remote_images, language)
    tools = _parse_tools(data.get("tools", {}))
    mcp_servers = parse_mcp_servers(data.get("mcp_servers", []))
    mcp_consent = parse_mcp_consent(data.get("mcp_consent", {}))
    ocr_model = parse_ocr_model(data.get("ocr_model"))
    desktop = parse_desktop(data.get("desktop", {}))
    utility_model = parse_utility_model(data.get("utility_model"))
    prices = parse_prices(data.get("prices", {}))
    currency = parse_currency(data.get("currency", DEFAULT_CURRENCY))
    auto_titles = _expect(data.get("auto_titles", True), bool, "auto_titles", "true or false")
    suggestions = _expect(
        data.get("follow_up_suggestions", True), bool, "follow_up_suggestions", "true or false"
    )
    assistants, default_assistant = parse_assistants(
        data.get("assistants", []), data.get("default_assistant", DEFAULT_ID)
    )
    return Settings(
        tuple(providers),
        appearance,
        last_model,
        network,
        effort,
        tools,
        mcp_servers,
        mcp_consent,
        ocr_model,
        desktop=desktop,
        utility_model=utility_model,
        prices=prices,
        currency=currency,
        auto_titles=auto_titles,
        follow_up_suggestions=suggestions,
        assistants=assistants,
        default_assistant=default_assistant,
        libraries=parse_libraries(data.get("libraries", [])),
        web_search=parse_web_search(data.get("web_search", {})),
        memory=parse_memory_settings(data.get("memory", {})),
        # Lenient: a broken entry is left out, not the whole file (settings_file.py).
        prompts=read_prompts(data.get("prompts", [])).prompts,
        backup=parse_backup(data.get("backup", {})),
        sync=parse_sync(data.get("sync", {})),
        removed=_parse_removed(data.get("removed", {})),
    )


REMOVABLE_KINDS = ("assistants", "prompts", "providers", "libraries")


def _parse_removed(data: Any) -> dict[str, tuple[str, ...]]:
    """`{"assistants": [ids], ...}`; a kind this Parley does not know is ignored (a
    newer one may remember more)."""
    _expect(data, dict, "removed", "an object")
    removed: dict[str, tuple[str, ...]] = {}
    for kind in REMOVABLE_KINDS:
        raw = _expect(data.get(kind, []), list, f"removed.{kind}", "a list")
        ids = [_expect(item, str, f"removed.{kind}[{i}]", "a string") for i, item in enumerate(raw)]
        if ids:
            removed[kind] = tuple(dict.fromkeys(ids))
    return removed


def dump_settings(settings: Settings) -> dict[str, Any]:
    """The JSON form written to disk; round-trips through `parse_settings`."""
    data: dict[str, Any] = {
        "version": SETTINGS_VERSION,
        "providers": [
            {
                "id": p.id,
                "name": p.name,
                "kind": p.kind.value,
                "base_url": p.base_url,
                "models": list(p.models),
                **({"default_model": p.default_model} if p.default_model else {}),
                **({"headers": dict(p.headers)} if p.headers else {}),
                **({"extra_body": dict(p.extra_body)} if p.extra_body else {}),
                **(
                    {
                        "model_overrides": {
                            model: _dump_override(o)
                            for model, o in p.model_overrides.items()
                            if not o.is_empty
                        }
                    }
                    if any(not o.is_empty for o in p.model_overrides.values())
                    else {}
                ),
                **(
                    {"stall_timeout": p.stall_timeout} if p.stall_timeout != STALL_TIMEOUT_S else {}
                ),
            }
            for p in settings.providers
        ],
        "appearance": {
            "theme": settings.appearance.theme.value,
            **(
                {"font_size": settings.appearance.font_size}
                if settings.appearance.font_size
                else {}
            ),
            **({"load_remote_images": True} if settings.appearance.load_remote_images else {}),
            **(
                {"language": settings.appearance.language.value}
                if settings.appearance.language != Language.SYSTEM
                else {}
            ),
        },
    }
    if settings.network != NetworkSettings():
        data["network"] = {
            "proxy_mode": settings.network.proxy_mode.value,
            **({"proxy_url": settings.network.proxy_url} if settings.network.proxy_url else {}),
            **({"ca_bundle": settings.network.ca_bundle} if settings.network.ca_bundle else {}),
        }
    if settings.tools != ToolSettings():
        data["tools"] = {
            **(
                {"policies": {n: p.value for n, p in settings.tools.policies.items()}}
                if settings.tools.policies
                else {}
            ),
            **(
                {"always_allow": dict(settings.tools.always_allow)}
                if settings.tools.always_allow
                else {}
            ),
        }
    if settings.mcp_servers:
        data["mcp_servers"] = [dump_mcp_server(s) for s in settings.mcp_servers]
    if settings.mcp_consent:
        data["mcp_consent"] = dict(settings.mcp_consent)
    if settings.ocr_model is not None:
        data["ocr_model"] = dump_ocr_model(settings.ocr_model)
    if settings.desktop != DesktopSettings():
        data["desktop"] = dump_desktop(settings.desktop)
    if settings.utility_model is not None:
        data["utility_model"] = dump_model_ref(settings.utility_model)
    if settings.prices:
        data["prices"] = dump_prices(settings.prices)
    if settings.currency != DEFAULT_CURRENCY:
        data["currency"] = settings.currency
    if not settings.auto_titles:
        data["auto_titles"] = False
    if not settings.follow_up_suggestions:
        data["follow_up_suggestions"] = False
    if settings.assistants:
        data["assistants"] = [dump_assistant(a) for a in settings.assistants]
    if settings.default_assistant != DEFAULT_ID:
        data["default_assistant"] = settings.default_assistant
    if settings.libraries:
        data["libraries"] = [dump_library(lib) for lib in settings.libraries]
    if settings.web_search != WebSearchSettings():
        data["web_search"] = web_search_data(settings.web_search)
    if settings.memory != MemorySettings():
        data["memory"] = dump_memory_settings(settings.memory)
    if settings.prompts:
        data["prompts"] = dump_prompts(settings.prompts)
    if settings.backup != BackupSettings():
        data["backup"] = dump_backup(settings.backup)
    if settings.sync != SyncSettings():
        data["sync"] = dump_sync(settings.sync)
    if any(settings.removed.values()):
        data["removed"] = {kind: list(ids) for kind, ids in settings.removed.items() if ids}
    if settings.reasoning_effort != "medium":
        data["reasoning_effort"] = settings.reasoning_effort
    if settings.last_model:
        data["last_model"] = {
            "provider": settings.last_model.provider_id,
            "model": settings.last_model.model,
        }
    return data


def _dump_override(override: ModelOverride) -> dict[str, Any]:
    fields = ("vision", "tools", "reasoning", "system_role", "context_length")
    return {f: getattr(override, f) for f in fields if getattr(override, f) is not None}
