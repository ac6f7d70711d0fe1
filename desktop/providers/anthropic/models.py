"""Claude model families: what each accepts, decided from the model id alone.

What a Claude model accepts (thinking style, sampling parameters, the largest
`max_tokens`) is decided in one place, `claude_family`. Ids from gateways
(`anthropic/claude-3.7-sonnet`, `us.anthropic.claude-sonnet-4-…`, `claude-sonnet-4@2025…`)
are recognised too; anything else is an unknown family and gets no thinking parameters,
so an Anthropic-compatible server is never sent something it may reject.

Reasoning effort: budget families get `thinking: {type: enabled, budget_tokens}`
(`THINKING_BUDGETS`, clamped to leave room for the answer); adaptive families get
`thinking: {type: adaptive, display: summarized}` and `output_config.effort` named after
the effort. `off` (or no effort) sends no thinking at all.

`max_tokens` is required: the request's `max_output_tokens`, else 8192 plus room for the
thinking, never above what the family allows. It includes the thinking tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from desktop.core.capabilities import ReasoningEffort
from desktop.providers.base import ChatRequest

DEFAULT_MAX_TOKENS = 8192  # the answer's share when the person set no limit
MIN_THINKING_BUDGET = 1024  # the API's minimum `budget_tokens`
MIN_ANSWER_TOKENS = 1024  # what a clamped budget leaves for the answer
# Thinking budget per effort (budget families), and the room added to the default
# `max_tokens` for it (adaptive families too).
THINKING_BUDGETS: dict[ReasoningEffort, int] = {
    ReasoningEffort.LOW: 2048,
    ReasoningEffort.MEDIUM: 8192,
    ReasoningEffort.HIGH: 16384,
    ReasoningEffort.MAX: 32000,
}


class Thinking(Enum):
    NONE = "none"  # no extended thinking
    BUDGET = "budget"  # thinking: {type: enabled, budget_tokens}
    ADAPTIVE = "adaptive"  # thinking: {type: adaptive} + output_config.effort


class Sampling(Enum):
    BOTH = "both"  # temperature and top_p
    ONE = "one"  # either, not both: temperature wins
    NONE = "none"  # neither is accepted


@dataclass(frozen=True, slots=True)
class ClaudeFamily:
    thinking: Thinking = Thinking.NONE
    sampling: Sampling = Sampling.BOTH
    max_output: int | None = None  # the largest `max_tokens` accepted; None = unknown


UNKNOWN_FAMILY = ClaudeFamily()


# claude-3-5-sonnet-2024…, claude-3.7-sonnet (a gateway's spelling)
_OLD_STYLE = re.compile(r"claude-(\d)(?:[-.](\d)(?!\d))?-([a-z]+)", re.IGNORECASE)


# claude-sonnet-4-20250514, claude-opus-4-1, claude-haiku-4.5, claude-fable-5
_NEW_STYLE = re.compile(r"claude-([a-z]+)-(\d)(?:[-.](\d)(?!\d))?(?!\d)", re.IGNORECASE)


def claude_family(model: str) -> ClaudeFamily:
    """What `model` accepts, from its version: the one place that knows model families."""
    if match := _OLD_STYLE.search(model):
        major, minor, tier = match.group(1), match.group(2), match.group(3)
    elif match := _NEW_STYLE.search(model):
        tier, major, minor = match.group(1), match.group(2), match.group(3)
    else:
        return UNKNOWN_FAMILY
    version = (int(major), int(minor or 0))
    opus = tier.lower() == "opus"
    if version < (3, 5):
        return ClaudeFamily(max_output=4096)
    if version < (3, 7):
        return ClaudeFamily(max_output=8192)
    if version < (4, 1):  # claude-3-7-sonnet, claude-sonnet-4, claude-opus-4
        return ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 32000 if opus else 64000)
    if version < (4, 6):  # opus-4-1, sonnet-4-5, haiku-4-5, opus-4-5
        big = 32000 if opus and version < (4, 5) else 64000
        return ClaudeFamily(Thinking.BUDGET, Sampling.ONE, big)
    if version < (4, 7):  # opus-4-6, sonnet-4-6: budgets deprecated
        return ClaudeFamily(Thinking.ADAPTIVE, Sampling.ONE, 128000 if opus else 64000)
    # opus-4-7 and later accept neither budgets nor sampling parameters.
    return ClaudeFamily(Thinking.ADAPTIVE, Sampling.NONE, 128000 if opus else 64000)


@dataclass(frozen=True, slots=True)
class TokenPlan:
    """`max_tokens` and the thinking to ask for (`thinking` is None when off)."""

    max_tokens: int
    thinking: dict[str, Any] | None = None
    effort: str | None = None  # output_config.effort, adaptive families only


def plan_tokens(request: ChatRequest, family: ClaudeFamily) -> TokenPlan:
    """`max_tokens` and thinking for this request, within the family's limits."""
    effort = request.reasoning_effort
    room = THINKING_BUDGETS.get(effort) if effort and family.thinking != Thinking.NONE else None
    if request.max_output_tokens is not None:
        max_tokens = request.max_output_tokens
    else:
        max_tokens = DEFAULT_MAX_TOKENS + (room or 0)
    if family.max_output is not None:
        max_tokens = min(max_tokens, family.max_output)
    max_tokens = max(1, max_tokens)
    if room is None or effort is None:
        return TokenPlan(max_tokens)
    if family.thinking == Thinking.ADAPTIVE:
        return TokenPlan(max_tokens, {"type": "adaptive", "display": "summarized"}, effort.value)
    budget = min(room, max_tokens - MIN_ANSWER_TOKENS)
    if budget < MIN_THINKING_BUDGET:
        return TokenPlan(max_tokens)  # the person's limit leaves no room to think
    return TokenPlan(max_tokens, {"type": "enabled", "budget_tokens": budget})
