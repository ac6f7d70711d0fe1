"""What tokens cost: one message's usage priced by the table in Settings.

Providers count reasoning tokens inside the output tokens (the adapters normalise
Gemini to that too), so reasoning is priced apart only when the table gives it its own
rate, and never twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from desktop.core.models import Message, ModelRef, Usage
from desktop.core.usage_settings import ModelPrice

_PER = 1_000_000
_SMALL_AMOUNT = 0.001  # below this a cost shows six decimals, up to 1 four, from 1 two


def cost_of(usage: Usage, price: ModelPrice) -> float:
    reasoning = min(usage.reasoning_tokens, usage.output_tokens)
    answer = usage.output_tokens - reasoning
    reasoning_rate = price.output if price.reasoning is None else price.reasoning
    return (
        usage.input_tokens * price.input + answer * price.output + reasoning * reasoning_rate
    ) / _PER


def message_cost(message: Message, prices: Mapping[ModelRef, ModelPrice]) -> float | None:
    """None when the message has no usage or its model has no price."""
    if message.usage is None or message.model is None:
        return None
    price = prices.get(message.model)
    return None if price is None else cost_of(message.usage, price)


@dataclass(frozen=True, slots=True)
class UsageTotals:
    """A conversation's tokens and cost. `cost` adds only the priced models' tokens;
    `unpriced` counts the models used that have no price, so a total never passes
    for complete when it is not."""

    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cost: float = 0.0
    priced: int = 0
    unpriced: int = 0


def usage_totals(
    by_model: Iterable[tuple[ModelRef | None, Usage]], prices: Mapping[ModelRef, ModelPrice]
) -> UsageTotals:
    """Totals from tokens summed per model (`ChatRepository.usage_by_model`); `priced`
    and `unpriced` count models."""
    tin = tout = treason = priced = unpriced = 0
    cost = 0.0
    for model, usage in by_model:
        tin += usage.input_tokens
        tout += usage.output_tokens
        treason += usage.reasoning_tokens
        price = prices.get(model) if model is not None else None
        if price is None:
            unpriced += 1
        else:
            cost += cost_of(usage, price)
            priced += 1
    return UsageTotals(tin, tout, treason, cost, priced, unpriced)


def format_cost(amount: float, currency: str) -> str:
    """Small amounts keep enough digits to be seen ("0.0042 USD"), large ones two."""
    if amount == 0:
        return f"0 {currency}"
    digits = 2 if amount >= 1 else 4 if amount >= _SMALL_AMOUNT else 6
    return f"{amount:.{digits}f} {currency}"
