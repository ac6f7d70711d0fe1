"""The settings schema: typed, validated with field-precise messages, JSON on disk.

Reading and writing the file is `storage/settings_file.py`; this module only turns plain
JSON data into typed settings and back. API keys are never part of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from desktop.core.errors import SettingsError
from desktop.core.models import ModelRef

SETTINGS_VERSION = 1
_PROVIDER_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


class ProviderKind(StrEnum):
    OPENAI_CHAT = "openai_chat"


class Theme(StrEnum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


@dataclass(frozen=True, slots=True)
class ProviderSettings:
    id: str
    name: str
    kind: ProviderKind = ProviderKind.OPENAI_CHAT
    base_url: str = ""
    models: tuple[str, ...] = ()
    default_model: str | None = None

    def model_refs(self) -> list[ModelRef]:
        return [ModelRef(self.id, m) for m in self.models]


@dataclass(frozen=True, slots=True)
class AppearanceSettings:
    theme: Theme = Theme.SYSTEM
    font_size: int | None = None
    # Fetching an image tells its server the person's address: off until they allow it.
    load_remote_images: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    providers: tuple[ProviderSettings, ...] = ()
    appearance: AppearanceSettings = field(default_factory=AppearanceSettings)
    last_model: ModelRef | None = None

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
        return replace(self, providers=tuple(p for p in self.providers if p.id != provider_id))


# --- validation -----------------------------------------------------------------


def _expect(value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SettingsError(where, f"must be {what}, not {type(value).__name__}")
    return value


def _known_keys(data: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        prefix = f"{where}." if where else ""
        raise SettingsError(f"{prefix}{unknown[0]}", "unknown setting (check the spelling)")


def validate_base_url(url: str, where: str = "base_url") -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise SettingsError(where, "must be an http:// or https:// URL with a host")
    return url.strip().rstrip("/")


def parse_provider(data: Any, where: str) -> ProviderSettings:
    _expect(data, dict, where, "an object")
    _known_keys(data, {"id", "name", "kind", "base_url", "models", "default_model"}, where)
    pid = _expect(data.get("id"), str, f"{where}.id", "a string")
    if not _PROVIDER_ID.match(pid):
        raise SettingsError(
            f"{where}.id", "must be 1-40 lowercase letters, digits, '-' or '_' (e.g. 'local')"
        )
    name = _expect(data.get("name", pid), str, f"{where}.name", "a string").strip() or pid
    kind_value = _expect(data.get("kind", "openai_chat"), str, f"{where}.kind", "a string")
    try:
        kind = ProviderKind(kind_value)
    except ValueError:
        choices = ", ".join(k.value for k in ProviderKind)
        raise SettingsError(
            f"{where}.kind", f"unknown kind {kind_value!r} (one of: {choices})"
        ) from None
    base_url = validate_base_url(
        _expect(data.get("base_url"), str, f"{where}.base_url", "a string"), f"{where}.base_url"
    )
    models_raw = _expect(data.get("models", []), list, f"{where}.models", "a list of model ids")
    models: list[str] = []
    for i, m in enumerate(models_raw):
        m = _expect(m, str, f"{where}.models[{i}]", "a string").strip()
        if not m:
            raise SettingsError(f"{where}.models[{i}]", "must not be empty")
        if m not in models:
            models.append(m)
    default = data.get("default_model")
    if default is not None:
        _expect(default, str, f"{where}.default_model", "a string")
        if default not in models:
            raise SettingsError(f"{where}.default_model", f"{default!r} is not in models")
    return ProviderSettings(pid, name, kind, base_url, tuple(models), default)


def parse_settings(data: Any) -> Settings:
    """Turn decoded JSON into Settings, or raise SettingsError naming the field."""
    _expect(data, dict, "(top level)", "an object")
    _known_keys(data, {"version", "providers", "appearance", "last_model"}, "")
    version = _expect(data.get("version", SETTINGS_VERSION), int, "version", "a number")
    if version > SETTINGS_VERSION:
        raise SettingsError("version", f"{version} is newer than this Parley understands")
    raw_providers = _expect(data.get("providers", []), list, "providers", "a list")
    providers = [parse_provider(p, f"providers[{i}]") for i, p in enumerate(raw_providers)]
    seen: set[str] = set()
    for i, p in enumerate(providers):
        if p.id in seen:
            raise SettingsError(f"providers[{i}].id", f"{p.id!r} is used twice")
        seen.add(p.id)

    raw_app = _expect(data.get("appearance", {}), dict, "appearance", "an object")
    _known_keys(raw_app, {"theme", "font_size", "load_remote_images"}, "appearance")
    theme_value = _expect(raw_app.get("theme", "system"), str, "appearance.theme", "a string")
    try:
        theme = Theme(theme_value)
    except ValueError:
        raise SettingsError("appearance.theme", "must be one of: system, light, dark") from None
    font_size = raw_app.get("font_size")
    if font_size is not None:
        _expect(font_size, int, "appearance.font_size", "a whole number")
        if not 6 <= font_size <= 48:
            raise SettingsError("appearance.font_size", "must be between 6 and 48")
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
    appearance = AppearanceSettings(theme, font_size, load_remote_images)
    return Settings(tuple(providers), appearance, last_model)


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
        },
    }
    if settings.last_model:
        data["last_model"] = {
            "provider": settings.last_model.provider_id,
            "model": settings.last_model.model,
        }
    return data
