"""The provider form as typed, and its validation into `ProviderSettings`.

The form is checked exactly as the settings file is (`parse_provider`), so what the
window accepts always loads again; the errors are reworded to name the form's fields,
because "provider.headers.X Y" means nothing to a person looking at a table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from desktop.core.errors import ParleyError, SettingsError
from desktop.core.i18n import tr
from desktop.core.limits import STALL_TIMEOUT_S
from desktop.core.settings import ModelOverride, ProviderSettings, parse_provider


class DraftError(ParleyError):
    """The form cannot be saved; `field` names the part to fix (e.g. "extra_body")."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class ProviderDraft:
    provider_id: str = ""  # "" for a provider not saved yet
    name: str = ""
    kind: str = "openai_chat"
    base_url: str = ""
    models: tuple[str, ...] = ()
    default_model: str = ""
    headers: tuple[tuple[str, str], ...] = ()  # table rows, in order, possibly blank
    extra_body: str = ""  # JSON text
    overrides: Mapping[str, ModelOverride] = field(default_factory=dict)
    id_hint: str = ""  # a preset's id, preferred over the name for a new provider's id
    stall_timeout: int = STALL_TIMEOUT_S  # seconds


def suggest_provider_id(name: str, taken: set[str]) -> str:
    """A readable id from the display name ("My Server" -> "my-server"), unique."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:32] or "provider"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def format_extra_body(body: Mapping[str, Any]) -> str:
    return json.dumps(dict(body), indent=2, ensure_ascii=False) if body else ""


def parse_extra_body(text: str) -> dict[str, Any]:
    """The extra body's JSON object; empty text is no extra body."""
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise DraftError(
            "extra_body",
            tr("Extra JSON body is not valid JSON: %1 (line %2, column %3).")
            .replace("%1", error.msg)
            .replace("%2", str(error.lineno))
            .replace("%3", str(error.colno)),
        ) from None
    if not isinstance(value, dict):
        raise DraftError(
            "extra_body",
            tr('Extra JSON body must be a JSON object, such as {"top_k": 40}.'),
        )
    return value


def _headers(rows: tuple[tuple[str, str], ...]) -> dict[str, str]:
    headers: dict[str, str] = {}
    seen: set[str] = set()
    for raw_name, raw_value in rows:
        name, value = raw_name.strip(), raw_value.strip()
        if not name and not value:
            continue  # an empty row left in the table
        if not name:
            raise DraftError("headers", tr("A custom header has a value but no name."))
        if name.lower() in seen:
            raise DraftError(
                "headers", tr("The custom header %1 is listed twice.").replace("%1", name)
            )
        seen.add(name.lower())
        headers[name] = value
    return headers


_LABELS = {
    "id": "Id",
    "name": "Name",
    "kind": "Protocol",
    "base_url": "Base URL",
    "models": "Models",
    "default_model": "Default model",
    "extra_body": "Extra JSON body",
    "model_overrides": "Model capabilities",
    "stall_timeout": "Stall timeout",
}


def _reworded(error: SettingsError) -> DraftError:
    """ "provider.headers.X Y: is not a valid…" -> "Custom header 'X Y' is not a valid…"."""
    path = error.field.removeprefix("provider").lstrip(".")
    key, _, rest = path.partition(".")
    key = key.split("[", 1)[0]
    if key == "headers":
        text = tr("Custom header %1 %2.").replace("%1", repr(rest)).replace("%2", error.problem)
    elif key == "model_overrides":
        text = tr("Capabilities of %1: %2.").replace("%1", rest).replace("%2", error.problem)
    else:
        label = tr(_LABELS.get(key, key))
        text = tr("%1 %2.").replace("%1", label).replace("%2", error.problem)
    return DraftError(key, text)


def require_name(draft: ProviderDraft) -> None:
    """A provider the person saves is named: the list and the model picker show the
    name. (Testing an address needs none, so `build_provider` does not ask for it.)"""
    if not draft.name.strip():
        raise DraftError("name", tr("Give the provider a name."))


def build_provider(draft: ProviderDraft, taken: set[str]) -> ProviderSettings:
    """Validate `draft`; raises DraftError with a sentence that names the field."""
    models = [m.strip() for m in draft.models if m.strip()]
    provider_id = draft.provider_id or suggest_provider_id(draft.id_hint or draft.name, taken)
    name = draft.name.strip() or provider_id
    data: dict[str, Any] = {
        "id": provider_id,
        "name": name,
        "kind": draft.kind,
        "base_url": draft.base_url,
        "models": models,
        "headers": _headers(draft.headers),
        "extra_body": parse_extra_body(draft.extra_body),
        "model_overrides": {
            model: _override_data(override)
            for model, override in draft.overrides.items()
            if model in models and not override.is_empty
        },
        "stall_timeout": draft.stall_timeout,
    }
    if draft.default_model.strip():
        data["default_model"] = draft.default_model.strip()
    try:
        return parse_provider(data, "provider")
    except SettingsError as error:
        raise _reworded(error) from None


def _override_data(override: ModelOverride) -> dict[str, Any]:
    names = ("vision", "tools", "reasoning", "system_role", "context_length")
    return {n: getattr(override, n) for n in names if getattr(override, n) is not None}
