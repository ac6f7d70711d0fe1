"""The OCR model setting: which vision model reads images for models that cannot see.

Stored as one "provider_id/model" string (`ocr_model` in settings.json), or null for
the local engine. Provider ids never contain "/", so the first "/" splits the two and
model ids keep theirs ("openrouter/openai/gpt-4o" is model "openai/gpt-4o").
"""

from __future__ import annotations

import re
from typing import Any

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr
from desktop.core.models import ModelRef

_PROVIDER_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
FIELD = "ocr_model"


def parse_ocr_model(value: Any) -> ModelRef | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise SettingsError(
            FIELD,
            tr('must be a "provider/model" string or null, not {type}').format(
                type=type(value).__name__
            ),
        )
    provider_id, slash, model = value.strip().partition("/")
    if not slash or not _PROVIDER_ID.match(provider_id) or not model.strip():
        raise SettingsError(
            FIELD,
            tr('{value!r} is not a "provider/model" reference (e.g. "openai/gpt-4o")').format(
                value=value
            ),
        )
    return ModelRef(provider_id, model.strip())


def dump_ocr_model(ref: ModelRef) -> str:
    return f"{ref.provider_id}/{ref.model}"
