"""The "after the answer" settings: the utility model, the price table and its currency.

`utility_model` is one "provider/model" string (or null: each conversation's own model
writes its titles and suggestions). `prices` maps "provider/model" to what a million
tokens cost, so Parley can show what a message and a conversation cost; models not
listed simply show no cost. Parsing follows `ocr_settings.py`: the first "/" splits the
provider id from the model id, which may contain more slashes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from desktop.core.errors import SettingsError
from desktop.core.i18n import tr
from desktop.core.models import ModelRef

UTILITY_FIELD = "utility_model"
PRICES_FIELD = "prices"
CURRENCY_FIELD = "currency"
DEFAULT_CURRENCY = "USD"

_PROVIDER_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_MAX_PRICE = 1_000_000.0  # per million tokens: anything above is a typo


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """Currency units per million tokens. `reasoning` None: reasoning tokens cost what
    output tokens cost (most providers bill them as output)."""

    input: float
    output: float
    reasoning: float | None = None


def parse_model_ref(value: Any, where: str) -> ModelRef:
    if not isinstance(value, str):
        raise SettingsError(
            where,
            tr('must be a "provider/model" string, not {type}').format(type=type(value).__name__),
        )
    provider_id, slash, model = value.strip().partition("/")
    if not slash or not _PROVIDER_ID.match(provider_id) or not model.strip():
        raise SettingsError(
            where,
            tr('{value!r} is not a "provider/model" reference (e.g. "openai/gpt-4o-mini")').format(
                value=value
            ),
        )
    return ModelRef(provider_id, model.strip())


def dump_model_ref(ref: ModelRef) -> str:
    return f"{ref.provider_id}/{ref.model}"


def parse_utility_model(value: Any) -> ModelRef | None:
    return None if value is None else parse_model_ref(value, UTILITY_FIELD)


def _price(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SettingsError(
            where, tr("must be a number, not {type}").format(type=type(value).__name__)
        )
    number = float(value)
    if not math.isfinite(number) or not 0 <= number <= _MAX_PRICE:
        raise SettingsError(
            where,
            tr("must be between 0 and {max_price:,.0f} per million tokens").format(
                max_price=_MAX_PRICE
            ),
        )
    return number


def parse_price(data: Any, where: str) -> ModelPrice:
    if not isinstance(data, dict):
        raise SettingsError(
            where, tr("must be an object, not {type}").format(type=type(data).__name__)
        )
    unknown = sorted(set(data) - {"input", "output", "reasoning"})
    if unknown:
        raise SettingsError(f"{where}.{unknown[0]}", tr("unknown setting (check the spelling)"))
    for key in ("input", "output"):
        if key not in data:
            raise SettingsError(f"{where}.{key}", tr("is required (currency units per 1M tokens)"))
    reasoning = data.get("reasoning")
    return ModelPrice(
        _price(data["input"], f"{where}.input"),
        _price(data["output"], f"{where}.output"),
        None if reasoning is None else _price(reasoning, f"{where}.reasoning"),
    )


def parse_prices(data: Any) -> dict[ModelRef, ModelPrice]:
    if not isinstance(data, dict):
        raise SettingsError(
            PRICES_FIELD, tr("must be an object, not {type}").format(type=type(data).__name__)
        )
    prices: dict[ModelRef, ModelPrice] = {}
    for key, value in data.items():
        where = f"{PRICES_FIELD}.{key}"
        prices[parse_model_ref(key, where)] = parse_price(value, where)
    return prices


def dump_prices(prices: Mapping[ModelRef, ModelPrice]) -> dict[str, dict[str, float]]:
    return {
        dump_model_ref(ref): {
            "input": price.input,
            "output": price.output,
            **({"reasoning": price.reasoning} if price.reasoning is not None else {}),
        }
        for ref, price in prices.items()
    }


def parse_currency(value: Any) -> str:
    if not isinstance(value, str) or not _CURRENCY.match(value.strip().upper()):
        raise SettingsError(
            CURRENCY_FIELD, tr('must be a three-letter currency code such as "USD"')
        )
    return value.strip().upper()
