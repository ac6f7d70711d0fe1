"""The utility model, the price table and the currency: parsing, errors, round trips;
and the costs computed from them."""

from __future__ import annotations

import pytest

from desktop.core.costs import cost_of, format_cost, message_cost, usage_totals
from desktop.core.errors import SettingsError
from desktop.core.models import Message, ModelRef, Role, Usage
from desktop.core.settings import dump_settings, parse_settings
from desktop.core.usage_settings import ModelPrice

OPENROUTER = {
    "id": "openrouter",
    "name": "OpenRouter",
    "base_url": "https://openrouter.ai/api/v1",
    "models": ["openai/gpt-4o-mini", "openai/gpt-4o"],
}
MINI = ModelRef("openrouter", "openai/gpt-4o-mini")
BIG = ModelRef("openrouter", "openai/gpt-4o")


def test_the_defaults_are_no_utility_model_no_prices_and_usd_and_are_not_written():
    settings = parse_settings({"providers": [OPENROUTER]})
    assert (settings.utility_model, dict(settings.prices), settings.currency) == (None, {}, "USD")
    data = dump_settings(settings)
    assert not {"utility_model", "prices", "currency"} & set(data)


def test_utility_model_prices_and_currency_round_trip():
    data = {
        "providers": [OPENROUTER],
        "utility_model": "openrouter/openai/gpt-4o-mini",
        "prices": {
            "openrouter/openai/gpt-4o": {"input": 2.5, "output": 10},
            "openrouter/openai/gpt-4o-mini": {"input": 0.15, "output": 0.6, "reasoning": 1.2},
        },
        "currency": "eur",
    }
    settings = parse_settings(data)
    assert settings.utility_model == MINI
    assert settings.prices[BIG] == ModelPrice(2.5, 10.0)
    assert settings.prices[MINI] == ModelPrice(0.15, 0.6, 1.2)
    assert settings.currency == "EUR"
    assert parse_settings(dump_settings(settings)) == settings


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"utility_model": "gpt-4o"}, "utility_model", "provider/model"),
        ({"utility_model": 3}, "utility_model", "string"),
        ({"prices": []}, "prices", "object"),
        ({"prices": {"nomodel": {"input": 1, "output": 1}}}, "prices.nomodel", "provider/model"),
        ({"prices": {"a/b": {"input": 1}}}, "prices.a/b.output", "required"),
        ({"prices": {"a/b": {"input": -1, "output": 1}}}, "prices.a/b.input", "between"),
        ({"prices": {"a/b": {"input": "1", "output": 1}}}, "prices.a/b.input", "number"),
        ({"prices": {"a/b": {"input": True, "output": 1}}}, "prices.a/b.input", "number"),
        (
            {"prices": {"a/b": {"input": 1, "output": 1, "cached": 1}}},
            "prices.a/b.cached",
            "unknown",
        ),
        ({"currency": "dollars"}, "currency", "three-letter"),
    ],
)
def test_invalid_values_name_the_field(data, field, words):
    with pytest.raises(SettingsError) as caught:
        parse_settings(data)
    assert caught.value.field == field
    assert words in caught.value.problem


def test_removing_a_provider_forgets_its_utility_model():
    settings = parse_settings(
        {"providers": [OPENROUTER], "utility_model": "openrouter/openai/gpt-4o-mini"}
    )
    assert settings.without_provider("openrouter").utility_model is None


def test_cost_prices_reasoning_at_the_output_rate_unless_it_has_its_own():
    usage = Usage(input_tokens=1_000_000, output_tokens=500_000, reasoning_tokens=200_000)
    assert cost_of(usage, ModelPrice(2.5, 10.0)) == pytest.approx(2.5 + 5.0)
    # 300k answer tokens at 10, 200k reasoning tokens at 20: never counted twice.
    assert cost_of(usage, ModelPrice(2.5, 10.0, 20.0)) == pytest.approx(2.5 + 3.0 + 4.0)


def answer(model: ModelRef | None, usage: Usage | None) -> Message:
    return Message("m", "c", None, Role.ASSISTANT, model=model, usage=usage)


def test_message_cost_needs_usage_and_a_price():
    prices = {BIG: ModelPrice(2.5, 10.0)}
    assert message_cost(answer(BIG, Usage(1000, 100)), prices) == pytest.approx(0.0035)
    assert message_cost(answer(MINI, Usage(1000, 100)), prices) is None
    assert message_cost(answer(BIG, None), prices) is None


def test_totals_add_every_model_and_count_the_unpriced():
    prices = {BIG: ModelPrice(2.5, 10.0)}
    by_model = [(BIG, Usage(3000, 300, 40)), (MINI, Usage(500, 50)), (None, Usage(10, 1))]
    totals = usage_totals(by_model, prices)
    assert (totals.input_tokens, totals.output_tokens, totals.reasoning_tokens) == (3510, 351, 40)
    assert totals.cost == pytest.approx(0.0035 + 0.007)
    assert (totals.priced, totals.unpriced) == (1, 2)


def test_format_cost_keeps_small_amounts_visible():
    assert format_cost(0.0035, "USD") == "0.0035 USD"
    assert format_cost(12.3456, "EUR") == "12.35 EUR"
    assert format_cost(0.0000123, "USD") == "0.000012 USD"
    assert format_cost(0, "USD") == "0 USD"
